/* Identities and ledgers: who each process was (its devices, its rank,
 * its job, the NPU behind its logical device) and what it created and
 * destroyed, learnt from facts (src/classify/fact.h), from its
 * incidents' fields, from its environment while it runs (procenv.h) and
 * from npu-smi (src/classify/npusmi.h).  Kept per (host, pid, name), for
 * processes with or without incidents, made when there is something to
 * learn (a fact; an incident whose lines name a device, a rank or dp/tp/
 * ep, or whose host's report said them; a live local process, whose
 * environment may say them): a process that only failed has none
 * (model_ident gives NULL), so a flood of one-off pids costs no identity
 * each.  Kept when the model folds the process away if it knows a
 * device, a rank, a ledger or a leak (a leak finding outlives its row);
 * one that knew nothing more goes with its row.  Bounded: counters,
 * never lines; at most IDENT_MAX identities (the oldest quiet one
 * without a finding goes first).
 *
 * Rules (plogtop(1), "IDENTITY AND LEDGER"):
 *  - identity: (host, pid, name).  A block with a pid and no name
 *    (captured output: "[rank3]: EE1023: [PID: 200104]") is of the one
 *    identity or process of that pid on that host (in what the model
 *    holds: a process folded away with nothing learnt is forgotten);
 *    when several programs had the
 *    pid, of the one whose last line is nearest in time to the block's
 *    (without a time, the one seen last); with none, its own ("").
 *    Read before its process (the captured output before the plog
 *    files), it stays a row of its own, and what it taught (rank,
 *    device) goes to the first named identity of that pid, when that
 *    is the only named one.
 *  - device: a process keeps the device it set until it sets another;
 *    an incident whose own lines name none (field device_id) takes its
 *    process's (device_from "process"); unknown stays unknown.  The
 *    incident's fields device_id, rank, dp, tp, ep teach the process.
 *  - rank: the logs' (facts, the incident's field rank), else the
 *    environment's RANK (also LOCAL_RANK, WORLD_SIZE) of a live one.
 *  - job: --job for local processes (and those of hosts named by a
 *    local file's path); else MINDX_TASK_ID from the environment of a
 *    live one; else the task directory of its file's path on shared
 *    storage (classify/pathhost.h); else the root (the top directory named
 *    on the command line; a host's as HOST:PATH, known once its report
 *    came) that the first file of it the model saw lies under.
 *  - whose pid: plog's pid is the process's own namespace's.  Its
 *    environment is read (once, after liveness_same_program) from
 *    /proc/PID only when that entry's NSpid ends in PID; its host pid is
 *    NSpid's first.  Without NSpid no log pid is matched to a host pid
 *    (npu-smi's table is matched by host pid only).
 *  - physical NPU: only on evidence (the process's visible-device map:
 *    phys = map[device], "environ"; npu-smi's process table row of its
 *    host pid: "npu-smi", which wins); co-tenancy is claimed on physical
 *    evidence, or "same logical id, no device map" when no process
 *    involved has a map (device_row.no_map).
 *  - ledger (ident_ledger.c): streams and events count their "start to
 *    execute" lines (ACL logs no success line for them) less the
 *    failed-create incidents that follow (EE1023 whose api field is the
 *    ACL or RUNTIME create; once per attempt: the captured output's copy
 *    of a failure is not a second one); notifies count their success
 *    lines.  A
 *    destroy with nothing held is counted (destroyed, unmatched) but
 *    held stays at zero.  The finalize statistics, when a process logged
 *    them, are the ledger ("from": statistics, complete): created =
 *    applySucc, destroyed = releaseSucc; later calls do not change it.
 *  - complete (calls): ACL creates nothing before a device is set, so
 *    a ledger is complete when its first create or destroy came after a
 *    device fact of the process (its aclrtSetDevice line) was read, and
 *    stays so until a destroy comes with nothing held (a create that was
 *    never read).  A ledger whose first lines were rotated away or read
 *    from a resume point has no set-device line before its creates, and
 *    says "complete": false.  (A process that sets its device again
 *    later in a file that survived rotation looks complete: the rule
 *    errs that way only then.)
 *  - trend: held at the end of each IDENT_SPAN_MS span of log time, the
 *    last IDENT_TREND spans (spans without a fact keep the held they
 *    began with; a fact whose time is before the current span counts
 *    in the current span).
 *  - leak: LEAK_ENDED: statistics that end with applySucc > releaseSucc
 *    (streams, events).  LEAK_RISING (calls): held rose in each of the
 *    last IDENT_LEAK_SPANS spans (the current one counts once it rose),
 *    all after the span in which created reached IDENT_WARMUP; a
 *    process that only created during its warm-up is no suspect.  A span
 *    that ends without a rise ends the suspicion.  A leak is a finding:
 *    the identity outlives its folded row, and the table's bound lets it
 *    go last.
 *  - bound: at IDENT_MAX the oldest identity without a row, not known
 *    to run, and without a finding goes (then the oldest without a row);
 *    idents.dropped counts them.  --once keeps a row per process, so
 *    there the table may grow as the model does. */
#ifndef PLOGTOP_IDENT_H
#define PLOGTOP_IDENT_H

#include <stddef.h>
#include <stdint.h>

#include "fact.h"
#include "htab.h"
#include "logtime.h"
#include "recpool.h"

struct model;
struct model_host;
struct ident;
struct process;
struct incident;
struct npu_table;
struct npu_proc;
struct procenv;

#define IDENT_MAX 20000		/* identities kept */
#define IDENT_DEVICES 8		/* devices remembered per process */
/* A leak suspect: held rose in each of IDENT_LEAK_SPANS minutes in a
 * row, after the minute in which its IDENT_WARMUP-th create came.  A
 * job's set-up (its streams and events made once, at start) is over by
 * then; three minutes of rise name a leak of one stream a step (which
 * reaches the 1,984 of an A2 in an hour or so) long before it fails.
 * (plogtop(1) says these numbers: change them together.) */
#define IDENT_WARMUP 16		/* creates before a rise may be a leak */
#define IDENT_SPAN_MS (60ULL * 1000)	/* log time per trend span */
#define IDENT_LEAK_SPANS 3	/* spans of rise that make a suspect */
/* A gone process is an orphan of a device that fails up to this long
 * after its last line: the run that left it, or the next one.  Logs of
 * runs days apart (collected over weeks, one logical id 0 on every
 * machine) are no evidence that one still holds what the other lacks. */
#define IDENT_ORPHAN_USEC (24LL * 3600 * 1000000)
#define IDENT_TREND 8		/* held at the end of the last spans */

/* The resources a ledger keeps, in this order. */
enum ledger_res { LEDGER_STREAM, LEDGER_EVENT, LEDGER_NOTIFY, LEDGER_COUNT };
enum resource ledger_resource(enum ledger_res r);
/* LEDGER_COUNT for a resource no ledger keeps. */
enum ledger_res ledger_of_resource(enum resource r);

enum ledger_from { LEDGER_NONE, LEDGER_CALLS, LEDGER_STATISTICS };
const char *ledger_from_name(enum ledger_from f);	/* "calls", ... */

enum leak_kind {
	LEAK_NO,
	LEAK_ENDED,	/* ended holding what it created (statistics) */
	LEAK_RISING,	/* held only grew, span after span (calls) */
};

struct ledger {
	enum ledger_from from;
	unsigned long long created, destroyed;	/* held: created-destroyed */
	unsigned long long attempts, failed;	/* calls: creates tried */
	int complete;
	enum leak_kind leak;
	unsigned long long trend[IDENT_TREND];	/* held, oldest first */
	long long span;				/* log time / IDENT_SPAN_MS */
	/* Added by the model's part: */
	unsigned nspans;	/* trend entries that hold a span (<= TREND) */
	long long warm_span;	/* span in which created reached WARMUP; -1 */
	/* Destroys that came with nothing held (their creates were never
	 * read): counted in destroyed, not taken off held. */
	unsigned long long unmatched;
	/* attempts when the last failure was taken back: one attempt fails
	 * once, however many blocks tell it (its plog chain, the captured
	 * output's copy). */
	unsigned long long failed_at;
};
unsigned long long ledger_held(const struct ledger *l);
/* Ledger r of id: a ledger with nothing counted when it has none.  A
 * ledger that only counted failed creates (no call line) is not made
 * (ident.failed_only): this gives one with nothing counted for it, and
 * ident_ledger_get the whole of it. */
const struct ledger *ident_ledger(const struct ident *id, enum ledger_res r);
/* Ledger r of id as counted, failed creates without a ledger included. */
void ident_ledger_get(const struct ident *id, enum ledger_res r,
		      struct ledger *out);
/* The same to count in: made when it has none. */
struct ledger *ident_ledger_mut(struct ident *id, enum ledger_res r);

/* Where a physical NPU id came from. */
enum phys_from { PHYS_NONE, PHYS_ENVIRON, PHYS_NPU_SMI };
const char *phys_from_name(enum phys_from f);	/* "environ", "npu-smi" */

#define IDENT_UNKNOWN (-1L)
/* Which rule named a process's job (ident.job_rule; JSON identity's
 * job_rule, the text report's devices section). */
#define IDENT_JOB_OPTION "--job"
#define IDENT_JOB_ENV "MINDX_TASK_ID"
#define IDENT_JOB_PATH "path"
#define IDENT_JOB_ROOT "top directory"
#define IDENT_MAP 16		/* visible-device map entries kept */

/* One of the devices a process used, and its incidents there
 * (ident.dev[i]).  48 bytes: identities are many (one per process with a
 * device in --once), a device id is of 9 digits at most (ident_learn.c's
 * parse_id), and a count stops at UINT32_MAX (ident_dev_add): four
 * billion incidents of one process on one device is years of a live
 * run. */
struct ident_dev {
	int32_t device;			/* logged, logical */
	uint32_t n;
	uint32_t by_resource[RES_COUNT];
	logtime_t last;			/* its latest incident's last line */
};
/* c + w, at most UINT32_MAX. */
static inline uint32_t ident_dev_add(uint32_t c, size_t w)
{
	return w >= (size_t)(UINT32_MAX - c) ? UINT32_MAX : c + (uint32_t)w;
}
/* Room in id->dev for n devices, the first of those it holds kept: the
 * first lives in the record itself (most processes use one device, and
 * an array of one was 88 bytes of the heap), more in an array. */
void ident_devs_room(struct ident *id, size_t n);
/* Lets go of id->dev (NULL after). */
void ident_devs_free(struct ident *id);

struct ident {
	struct hnode node;		/* by host, pid and name */
	struct model_host *host;	/* NULL: local */
	long pid;
	char *name;	/* in the model, kept once (shared: never written) */
	/* The device it set last (logged, logical); every one it used is
	 * in dev[] (at most IDENT_DEVICES: most processes use one, and a
	 * list inside the record was 64 of its bytes). */
	long device;
	long phys;			/* physical NPU of device */
	char *job;	/* --job, top directory, MINDX_TASK_ID (the model's:
			 * kept once, as name) */
	const char *job_rule;	/* which rule named it: IDENT_JOB_*, or NULL
				 * (restored from a state file) */
	logtime_t first, last;		/* its facts' and incidents' times */
	/* Its ledgers, its environment, a job's file: NULL while it has
	 * none (most identities, which are of logs alone). */
	struct ident_more *more;
	struct process *proc;	/* its row while the model tracks one */
	/* ndevices of them, or NULL for none: &dev1 while it has room for
 * one (ident_devs_room; the record never moves, a recpool's). */
	struct ident_dev *dev;
	struct ident_dev dev1;	/* dev[0] while it has room for one */
	/* (The narrow members side by side after the 8-byte ones: no
	 * padding between them; a record of 216 bytes, from a recpool.)
	 * Ranks and parallel degrees, -1 unknown: 9 digits at most where
	 * most are read (parse_id, PROCENV_NUMBER_MAX, a state file's
	 * VIEW_RANK_MAX), and a fact's longer one kept as ident_num says. */
	int32_t rank, local_rank, world_size, dp, tp, ep;
	/* A cluster's pid-less process: its device, else -1 (ids are of 9
	 * digits at most: ident_learn.c's parse_id, as struct process's). */
	int32_t key_dev;
	uint32_t ndevices;	/* in dev[], at most IDENT_DEVICES */
	/* Failed creates of a resource it has no ledger of (no call line
	 * came): most identities count one failure and no call, and a
	 * ledger is 152 bytes.  0 once ledger[r] is made (it took them). */
	uint32_t failed_only[LEDGER_COUNT];
	/* In the order first seen (four billion would be years of a live
	 * run, and a record each in --once: as a process's id). */
	uint32_t seq;
	unsigned char phys_from;	/* of phys: an enum phys_from */
	/* Flags, 0 or 1. */
	unsigned char alive;	/* runs now (last asked); local only */
	/* Added by the model's part: */
	unsigned char alive_known;	/* alive was asked at least once */
	unsigned char dev_seen;	/* a device fact came (completeness) */
	unsigned char env_read;	/* procenv was read (once) */
};

/* A rank or a degree as an identity keeps it: a log's fact may say up
 * to 18 digits, and one beyond 32 bits is kept as INT32_MAX, as much
 * beyond VIEW_RANK_MAX as it was (shown as unknown alike). */
static inline int32_t ident_num(long v)
{
	return v > INT32_MAX ? INT32_MAX : (int32_t)v;
}

/* What only the host says of a live local process (its environment,
 * procenv.h; npu-smi): made when first said (ident_host.c), since most
 * identities are of logs alone and it is 88 bytes. */
struct ident_env {
	int has_map;			/* its visible-device map was read */
	int host_ns;			/* NSpid: pid is the host's own */
	long host_pid;			/* its pid on the host (NSpid) */
	long smi_npu;			/* npu-smi's NPU of host_pid; UNKNOWN */
	short map[IDENT_MAP];	/* visible devices: logical i -> map[i] */
	unsigned char nmap;
	/* Its Kubernetes pod, only on evidence (its cgroup and environment
	 * while it runs: procenv_pod.c); NULL when not known. */
	char *pod_name, *pod_namespace, *container_name;
};
/* What few identities have, made when first needed (ident_more_mut),
 * so that the record of one of logs alone does not carry it. */
struct ident_more {
	/* Its ledgers, each made when first counted in (NULL: none yet;
	 * read them with ident_ledger). */
	struct ledger *ledger[LEDGER_COUNT];
	/* What its environment and npu-smi said (NULL: nothing yet):
	 * ident_env. */
	struct ident_env *env;
	char *job_file;	/* while it has no job: its first file, for roots
			 * that come later (a host's report) */
};
/* Lets go of id->more and all it holds (NULL after). */
void ident_more_free(struct ident *id);
/* id's ledger r as made, or NULL while none was counted in. */
struct ledger *ident_ledger_made(const struct ident *id, enum ledger_res r);

/* id's, or one that says nothing (no map, pids UNKNOWN, no pod). */
const struct ident_env *ident_env(const struct ident *id);

/* The model's identities (struct model has one). */
struct idents {
	struct htab index;
	struct recpool pool;	/* the records (recpool.h) */
	struct ident **v;	/* in the order first seen */
	size_t n, cap;
	size_t dropped;		/* let go for IDENT_MAX */
	struct npu_table *npu;	/* npu-smi's last table (local), or NULL */
	unsigned long long npu_ms;	/* when it was read */
	const char *job;	/* --job, or NULL */
	/* Added by the model's part: how a live process's environment is
	 * read (procenv_read; tests give their own) and under which root. */
	int (*read_env)(const char *root, long pid, struct procenv *out);
	const char *proc_root;		/* "/proc" */
	size_t full_n;	/* at IDENT_MAX, none could go at this many */
	/* The names of processes and identities, and the jobs, each kept
	 * once (ident_names.c). */
	struct htab names;
};

void idents_init(struct idents *ids);
void idents_free(struct idents *ids);

/* The one way in for a fact, as model_add for an incident: host (NULL
 * local) is the reader's. */
void model_fact(struct model *m, const struct fact *f);
/* Called by model_add before the views are told: sets inc's device,
 * device_from, rank, rank_from from its fields or its process's
 * identity (creating it), learns from its fields, counts a failed create
 * in the ledger, and gives a pid-only incident (name "") the name of
 * the one process of that pid on that host (nearest in time when
 * several). */
void model_ident_incident(struct model *m, struct incident *inc);

/* A local process known not to run: asked (model_alive), or, never
 * asked (--once), its pid does not run the program that logged now.
 * A host's processes are never known gone here. */
int ident_gone(const struct ident *id);
/* An identity's resources with a leak finding (0: none). */
int ident_leaks(const struct ident *id);

/* The identity of a process (NULL when none is known). */
const struct ident *model_ident(const struct model *m,
				const struct process *p);
/* The identity of (host as named, NULL local; pid; name), or NULL: for
 * an incident a view kept after its row folded (inc->proc NULL). */
const struct ident *model_ident_find(const struct model *m,
				     const char *host, long pid,
				     const char *name);
/* Every identity, in the order first seen. */
size_t model_idents(const struct model *m, const struct ident *const **out);

/* A device of a host: its processes and incidents.  Rows are by host
 * and logged id, or by physical NPU on a host where every process's
 * every device has one on evidence (by_phys).  orphan: a local process
 * on it is gone (asked, by model_alive or model_ask_alive; never asked,
 * its pid does not run the program that logged now) while the device's
 * latest
 * incident is later than that process's last line, or while a live
 * process of another job is on it (ident_devices.c). */
struct device_row {
	struct model_host *host;	/* NULL: local */
	long device;			/* logged id */
	long phys;			/* IDENT_UNKNOWN unless all agree */
	enum phys_from phys_from;
	const struct ident **procs;	/* its processes, first seen first */
	size_t nprocs;
	size_t incidents;
	size_t by_resource[RES_COUNT];
	size_t failing;			/* processes with incidents on it */
	size_t jobs;			/* distinct jobs among procs */
	/* An orphan: a process whose log ended before the device's latest
	 * failure (within IDENT_ORPHAN_USEC), or that still runs and holds
	 * some of what it created there (ident_devices.c says which of
	 * several); orphan_gone: it is known not to run. */
	int orphan;
	const struct ident *orphan_id;
	int orphan_gone;
	int no_map;	/* shared on the same logical id, no device map */
	/* Added by the model's part: */
	int by_phys;	/* grouped by physical NPU (phys is its id) */
	logtime_t last;	/* its latest incident's last line */
	/* npu-smi's rows for its NPU (phys known, local): its live tenants,
	 * logged or not; and the chip's name ("" when not known). */
	const struct npu_proc *tenants;
	size_t ntenants;
	const char *chip;	/* its NPU's, or the host's one chip model */
	/* What the processes on it now hold (the prom gauge): those whose
	 * current device it is, not known gone, ledger from calls (one that
	 * wrote its finalize statistics has ended and holds nothing). */
	unsigned long long held[LEDGER_COUNT];
	int held_known[LEDGER_COUNT];
};
/* Devices by host then id; the caller frees with model_devices_free. */
size_t model_devices(const struct model *m, struct device_row **out);
void model_devices_free(struct device_row *v, size_t n);

/* --job: the label for local processes (NULL: the top directory). */
void model_set_job(struct model *m, const char *job);
/* Roots were added (a host's report): identities without a job look
 * again (model_merge_scan calls it). */
void model_idents_roots(struct model *m);
/* Asks whether each local process (with a row or not) still runs the
 * program that logged, and reads the environment of those that do:
 * a report calls it before model_devices, so that "gone" is known
 * (model_alive does the same for one row). */
void model_ask_alive(struct model *m);
/* An identity given whole (ident_restore.c: a state file's
 * "identities", a host's identity line): the identity of (host as
 * named, NULL local; snap->pid; snap->name), made when new, takes the
 * snapshot's devices and their counts, rank, dp/tp/ep, job, ledgers
 * (with their trend, warm-up and leak) as absolute values: given again,
 * it changes nothing.  first/last only widen.  phys is taken only with
 * keep_phys (a host's live evidence; a state's is stale: asked again). */
struct ident *model_ident_restore(struct model *m, const char *host,
				  const struct ident *snap, int keep_phys);
/* One ledger of (host, pid, name) as a host's report gives it (a leak of
 * calls: created, destroyed, complete, the leak), made when new; device
 * (-1: not said) is taken when it knows none.  Given again, it changes
 * nothing. */
void model_ident_ledger(struct model *m, const char *host, long pid,
			const char *name, enum ledger_res r,
			const struct ledger *l, long device);
/* npu-smi's table for this host (local only); the model keeps a copy. */
void model_set_npu(struct model *m, const struct npu_table *t,
		   unsigned long long now_ms);

#endif
