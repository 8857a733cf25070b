/* The model every view renders: counts of incidents per process and
 * class, the processes they came from, and what the scan read.  It knows
 * nothing of how it is shown, and keeps nothing for one view alone: a
 * view that needs more (the text report's sections, the prom file's
 * counts by host and name) watches the model (model_watch) and keeps it
 * itself.  Every incident comes in by model_add.
 *
 * Memory grows with what is tracked, never with incidents seen: an
 * incident is counted, then kept only while a view may show it.
 * --once keeps every process (its report is exact).  The mode is the
 * model's live flag, set once (model_set_live): the live modes also
 * keep, per process, the
 * latest incident and the last `keep` ones (MODEL_KEPT_MAX in all), with
 * the raw lines of every one of them within MODEL_RAW_BYTES,
 * per-minute counts for the last hour, and fold processes that are gone
 * and quiet (or beyond max_procs) into the totals. */
#ifndef PLOGTOP_MODEL_H
#define PLOGTOP_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "htab.h"
#include "ident.h"
#include "incident.h"
#include "liveness.h"
#include "logtime.h"
#include "recpool.h"
#include "rules.h"

struct pathhost;

/* Hosts in all beyond which a path names no new one (its files stay
 * local): hosts are few, and every view lists them all. */
#define MODEL_PATH_HOSTS_MAX 1024

#define MODEL_KEEP_DEFAULT 100		/* --keep */
#define MODEL_KEPT_MAX 10000		/* recent incidents kept in all */
#define MODEL_MAX_PROCS 10000		/* processes tracked live */
/* The raw lines (the detail's, l) of every kept incident, a process's
 * latest and its last `keep`, are kept within this many bytes in all
 * (the text, its line structure): beyond it the incidents kept longest
 * ago let theirs go first, and the detail says so.  Raw lines are most
 * of an incident's size (up to MAX_RAW lines of MAX_RAW_BYTES, 80 KiB;
 * a usual chain's are 1 KiB), and the budget, not the bytes read or the
 * incidents seen, bounds them: 4 MiB holds some 4,000 usual chains.
 * Documented in README.md, plogtop(1) and --help, at --keep. */
#define MODEL_RAW_BYTES (4u << 20)
#define MODEL_FOLD_QUIET_MS (3600ULL * 1000)
#define MODEL_WINDOW_MINUTES 60		/* per-minute counts kept */
/* A log time further ahead of the reading host's clock than this is not
 * when the incident happened (a clock set wrong, a 2099 stamp): it is
 * shown as the log wrote it, but the live windows, the trend, the "last"
 * sort and the choice of a process's latest incident count it as of when
 * it was read.  Hosts of one job may skew by minutes; up to this much
 * ahead is believed.  A time in the past is believed however old (history
 * is in the past): it counts in the windows it falls in, or in none. */
#define MODEL_SKEW_USEC (10LL * 60 * 1000000)

/* (seq beside k, in the 4 bytes after its three enums: a record of 24
 * bytes, not 32, and every process keeps one inside it.  Pairs are
 * counted as processes' ids are: four billion would be years of a live
 * run, and a record each in --once.) */
struct class_count {
	struct class_key k;
	uint32_t seq;	/* when the pair (process, class) was first seen */
	size_t n;
};

/* Incidents of one minute of log time, by resource. */
struct minute {
	long long min;		/* log time / 60 s */
	unsigned n[RES_COUNT];
};

/* A host of a fleet (plogtop HOST:PATH, -H, --hosts): as the user named
 * it, its connection's state, and counts of its incidents that are never
 * folded.  Local input has no host: a process or an incident with host
 * NULL.  Hosts are few (HOSTS_MAX) and live as long as the model. */
enum host_state {
	HOST_CONNECTING,	/* started, nothing heard yet */
	HOST_UP,		/* its stream is flowing */
	HOST_DOWN,		/* reason says why; retried in live modes */
	HOST_DONE,		/* --once: its report was read */
	HOST_STATE_COUNT
};

struct model_host {
	struct hnode node;		/* by name */
	char *name;			/* as the user named it */
	size_t index;			/* in model.hosts */
	enum host_state state;
	char *reason;	/* why down, as it came (sanitise to show), or NULL */
	unsigned long long state_ms;	/* when the state last changed */
	unsigned long long retry_ms;	/* down: the next attempt */
	unsigned attempts;		/* connections tried */
	size_t n;			/* incidents counted */
	size_t by_code[CODE_COUNT];
	size_t by_resource[RES_COUNT];
	size_t nprocs;			/* processes tracked now */
	logtime_t last;			/* its latest incident's log time */
	logtime_t last_at;		/* the same as counted (sorts) */
	unsigned long long seen_ms;	/* arrival of its last incident */
	size_t dropped;			/* lines refused (too long, bad) */
	/* --once: what it read, from its report. */
	size_t files, lines;
	unsigned long long bytes;
	size_t empty_roots;		/* its roots that gave no file */
	size_t bad_claims;		/* counts of its report refused */
	int trouble;			/* done, but exit 2 (fleet_once.c) */
	/* Named by the path of a local file on shared storage, not on the
	 * command line (model_pathhost.c): never connected to, its logs
	 * were read here.  origin: the path up to the host's directory, as
	 * first seen; rule: which rule named it (a static string). */
	char *origin;
	const char *rule;
};

/* What a process keeps only in the live modes (struct process's lv). */
struct process_live {
	struct process *proc;		/* whose */
	struct incident *latest;	/* the latest as counted */
	struct dlink lru;		/* in model.lru */
	unsigned long long seen_ms;	/* arrival of its last incident */
	struct dlist recent;		/* its kept incidents, oldest first */
	struct minute *minutes;		/* oldest first, the last hour */
	size_t nminutes;
	/* When its process's alive was found out: trusted LIVENESS_MS.
	 * Here, not in the record: --once asks each process once. */
	unsigned long long alive_ms;
};

struct process {
	struct hnode node;	/* in model.proc_index: by host and pid */
	struct model_host *host;	/* NULL: local input */
	long pid;
	const char *name;	/* kept once (the identities' names) */
	/* Its classes: most processes have one, kept in one_class (no
	 * allocation of its own); more are an array of their own.  Its
	 * incidents are their sum (process_total), not a count beside
	 * them: processes are many. */
	struct class_count *classes;
	logtime_t first, last;		/* as the log wrote them */
	logtime_t last_at;		/* last as counted: the "last" sort's */
	/* The live modes' part, made when it is first tracked live; NULL
	 * in --once, whose processes are many and keep none of it. */
	struct process_live *lv;
	/* Narrow, side by side (--once keeps 300,000 of these records,
	 * 120 bytes each, from a recpool): ids are the order
	 * processes were seen (0, 1, 2...: four billion would be years of
	 * a live run, and a record each in --once), classes a few dozen at
	 * most, and a process's index a place in memory. */
	uint32_t id;
	unsigned index;			/* in model.procs (the model's own) */
	/* A cluster's pid-less process: its device (else -1); ids are of 9
	 * digits at most (ident_learn.c's parse_id). */
	int key_dev;
	uint16_t nclasses;
	signed char alive;
	unsigned char alive_asked;	/* alive was found out at least once */
	struct class_count one_class;
};

/* A process's incidents: the sum of its classes' counts. */
size_t process_total(const struct process *p);

/* A process's incidents of resource r: the sum of its classes' (kept
 * once, not in a count per resource as well: processes are many). */
size_t process_by_resource(const struct process *p, enum resource r);

struct problem {
	char *path;
	char *error;
};

/* A file found but not read, and why: binary, compressed, not a regular
 * file, too deep.  Only the first MODEL_LISTED are kept by name. */
struct skipped {
	char *path;
	const char *why;	/* a static string */
};

#define MODEL_LISTED 100

/* A copy of an incident already counted, not counted again
 * (model_dedupe.c): the same chain (host, pid, thread, name, the log
 * time and text of its first line) read from another file of the same
 * name (a top-level copy, a backup, a bundle beside its source).  The
 * first MODEL_LISTED are kept by name: the copy's file and line, and
 * the counted one's. */
struct duplicate {
	char *file;
	unsigned long line;
	char *kept_file;
	unsigned long kept_line;
};

/* The fingerprints a copy is known by (a few dozen bytes each, never the
 * lines).  --once keeps those of files whose name is found in more than
 * one place of the plan (model_dedupe_expect), or of every file when
 * the plan holds an archive, all of them (its report is exact); a tree
 * without copies keeps none.  The live
 * modes keep those of the history until it is read, then of the last
 * DEDUPE_WINDOW_USEC of log time behind the newest seen, and at most
 * DEDUPE_MAX: a copy of an older chain, written while watched, is
 * counted again. */
#define DEDUPE_WINDOW_USEC (3600LL * 1000000)
#define DEDUPE_MAX 200000

struct scan_stats {
	size_t files, lines;
	unsigned long long bytes;
	size_t truncated_lines;
	/* Live reading: lines whose writer stopped mid-line for longer than
	 * plogtop waits (PARTIAL_LIMIT_MS), taken as they stood. */
	size_t unfinished_lines;
	unsigned long match_limit_hits;	/* rule matches PCRE2 gave up on */
	double seconds;
};

/* A view of the model (the JSON report's incidents, --follow's lines,
 * the prom counts, the text report's sections): told of each incident
 * as it is counted, while model_add runs.  One that keeps it takes a
 * reference (model_keep). */
typedef void model_view_fn(void *ctx, const struct incident *inc);
struct model_view {
	model_view_fn *on_incident;
	void *ctx;
};
#define MODEL_VIEWS 4

struct model {
	size_t n;			/* incidents counted */
	size_t by_code[CODE_COUNT];	/* by enum code */
	struct process **procs;		/* tracked; sorted by model_sort */
	size_t nprocs, capprocs;
	/* By host, pid, name and key_dev, hashed by host and pid alone
	 * (model_pid_hash): one table for both the lookup of a process and
	 * the pid-only joins (every name of a pid in one bucket). */
	struct htab proc_index;
	struct dlist lru;	/* processes by last incident, latest first */
	/* Process records, from blocks of many (recpool.h): no malloc
	 * header each; a folded one is kept for the next. */
	struct recpool proc_pool;
	size_t next_id, pairs;
	struct problem *problems;	/* the first MODEL_LISTED */
	size_t nproblems;		/* listed */
	size_t problems_total;		/* all of them, listed or not */
	struct htab path_index;		/* interned paths */
	struct path *reap;		/* released paths, to free */
	char **roots;
	size_t *root_files;	/* files read from each root */
	size_t nroots;
	struct skipped *skipped;
	size_t nskipped_listed;
	size_t nskipped;	/* all of them, listed or not */
	struct scan_stats stats;
	struct duplicate *duplicates;	/* the first MODEL_LISTED */
	size_t nduplicates;		/* listed */
	size_t duplicates_total;	/* all of them, listed or not */
	struct dedupe *dedupe;		/* model_dedupe.c's, or NULL */
	logtime_t since;	/* LOGTIME_UNKNOWN: no filter */
	size_t filtered;	/* incidents left out by since */
	/* When these counters started from nothing, Unix seconds: set by
	 * model_init (a first start); a state file, when there is one,
	 * gives it back.  The prom file's
	 * plogtop_counted_since_timestamp_seconds, which the alert rules
	 * use to tell the history a new counting starts with from a new
	 * burst (contrib/plogtop.rules.yml). */
	double counted_since;
	/* Live modes. */
	int live;
	size_t keep;		/* recent incidents kept per process */
	size_t max_procs;
	unsigned long long fold_quiet_ms;
	struct dlist kept;	/* recent incidents kept in all, oldest first */
	struct dlist raw;	/* kept incidents that keep their raw lines,
				 * oldest first (MODEL_RAW_BYTES) */
	size_t raw_bytes;	/* what their raw lines take */
	struct minute *minutes;	/* all processes, the last hour */
	size_t nminutes;
	size_t folded_procs, folded_incidents;
	unsigned long long fold_gen;	/* changes when a process goes */
	unsigned long long maintained_ms;
	struct liveness live_pids;
	/* The incident model_add was last given: lent back to its caller,
	 * who may still read it, until the next model_add (model.h). */
	struct incident *lent;
	/* Told of every incident counted (model_watch). */
	struct model_view views[MODEL_VIEWS];
	size_t nviews;
	unsigned long long generation;	/* changes with each one added */
	/* Who each process was and what it holds (ident.h). */
	struct idents idents;
	/* Hosts of a fleet, in the order they were named. */
	struct model_host **hosts;
	size_t nhosts;
	struct htab host_index;
	/* The rules that name hosts and jobs by the paths of local files
	 * (model_pathhost.c); NULL: none. */
	const struct pathhost *path_rules;
	/* The clock of arrivals, milliseconds; tests set their own. */
	unsigned long long (*clock_ms)(void);
	/* What the incident being counted stands for: 1, or a cluster's
	 * count of a class (model_add_counted, which sets weighted). */
	size_t weight;
	int weighted;
	/* Counting across restarts (--state, src/views/state.c): what earlier
	 * runs read, added to stats in the prom file's counters (see
	 * counted_since above). */
	struct {
		unsigned long long bytes, lines, match_limit_hits;
		unsigned long long unfinished_lines;
	} base;
};

/* What a reader read, handed back to be merged into the model: a reading
 * thread's (model_scan_part of its follower's model) or a host's (from
 * its report).  Pointers into what the reader holds. */
struct scan_part {
	struct scan_stats stats;	/* seconds is not merged */
	size_t filtered;
	const char *const *roots;	/* a host's; a thread reads m's own */
	const size_t *root_files;
	size_t nroots;
	const struct problem *problems;
	size_t nproblems, problems_total;
	const struct skipped *skipped;
	size_t nskipped_listed, nskipped;
	const struct duplicate *duplicates;
	size_t nduplicates, duplicates_total;
};

void model_init(struct model *m);
/* Live modes: keep the latest `keep` incidents of each process, per-minute
 * counts, and fold gone and quiet processes. */
void model_set_live(struct model *m, size_t keep);
void model_free(struct model *m);

/* A path for incidents to point at.  Each call takes a reference; the
 * caller gives it back with model_release_path when it no longer reads
 * the file.  A path is freed a while after its last reference went
 * (chains still being assembled may point at it without one). */
const char *model_intern(struct model *m, const char *path);
void model_release_path(struct model *m, const char *path);
/* --once, when a stream's chains are all closed: the paths no one holds
 * any more go now, not after the grace (nothing can point at them). */
void model_reap_released_paths(struct model *m);
size_t model_paths(const struct model *m);

void model_add_root(struct model *m, const char *root);
void model_problem(struct model *m, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

void model_skip(struct model *m, const char *path, const char *why);
/* What m read, as a part to merge elsewhere. */
void model_scan_part(const struct model *m, struct scan_part *out);
/* The one merge of what a reading thread (host NULL: its roots are m's
 * own, in order) or a host (its roots, problems and skipped files
 * become HOST:PATH) read; sums saturate. */
void model_merge_scan(struct model *m, const struct scan_part *s,
		      const char *host);
/* Roots that nothing was read from. */
size_t model_roots_unread(const struct model *m);

/* The order of incidents: by log time (none last), then file and line.
 * A class's example, the one whose raw lines a report shows, is the
 * first in this order. */
int model_incident_cmp(const struct incident *a, const struct incident *b);

/* Whether --since (LOGTIME_UNKNOWN: none) lets the incident be counted:
 * one with no log time is left out by any. */
int model_since_keeps(logtime_t since, const struct incident *inc);

/* When a log time t counts, read at now (both local-epoch): t itself,
 * unless it is more than MODEL_SKEW_USEC ahead of now; then now. */
logtime_t model_counted_time(logtime_t t, logtime_t now);

/* How an incident was read: from what was there before (the history,
 * a --once read, a host's report), or live, as it was written (then one
 * with no log time of its own, captured output, happened about now). */
enum read_when { READ_BEFORE, READ_AS_WRITTEN };

/* The one way in, for the local reader, the reading threads and the
 * hosts alike: stamps an incident read as written with no time of its
 * own (live modes), counts it, bumps the generation and tells the views.
 * Returns 1, or 0 when --since left it out (then inc->proc is NULL and
 * no view is told).  Takes ownership of the incident, and lends it back:
 * the caller may read it until the next model_add. */
int model_add(struct model *m, struct incident *inc, enum read_when when);

/* ---- copies (model_dedupe.c) ---- */

/* --once: files of this name are found in more than one place (path:
 * one of them), so their incidents' fingerprints are kept; path NULL:
 * every file's (an archive's members are not known before it is
 * read). */
void model_dedupe_expect(struct model *m, const char *path);
/* Whether inc is a copy of an incident counted from another file (then
 * it is listed in duplicates, and not counted); else, when it is to be
 * counted, its fingerprint is kept.  model_add's. */
int model_dedupe(struct model *m, struct incident *inc,
		 enum read_when when);
/* Keeps what the fingerprint needs of inc's raw lines, before a reader
 * lets them go (readall.c's threads). */
void model_dedupe_head(struct incident *inc);
/* Lists a copy (a host's, merged). */
void model_duplicate(struct model *m, const char *file, unsigned long line,
		     const char *kept_file, unsigned long kept_line);
void model_dedupe_free(struct model *m);
/* Fingerprints kept now (tests). */
size_t model_dedupe_size(const struct model *m);

/* A cluster's counts (src/cluster/): inc is a class of one process with
 * no lines of its own (no file, no raw lines), counted n times at once
 * by the one way in (model_add, READ_BEFORE).  A process with pid 0 and
 * a device is one process per device.  Returns model_add's. */
int model_add_counted(struct model *m, struct incident *inc, size_t n);
/* Forgets every process, count, identity and incident, but keeps the
 * hosts (with their counts zeroed and their states) and the settings:
 * a cluster's model is made again at each refresh, and views hold its
 * hosts.  Bumps the generation and fold_gen.  The views stay watching;
 * one that keeps incidents (model_keep) must have let them go. */
void model_reset_counts(struct model *m);

/* Views: told, in the order they were added, of each incident counted
 * from now on; at most MODEL_VIEWS.  Unwatched by ctx. */
void model_watch(struct model *m, model_view_fn *on_incident, void *ctx);
void model_unwatch(struct model *m, void *ctx);
/* A view that keeps an incident (with its raw lines, when raw) holds a
 * reference, given back with model_let_go. */
struct incident *model_keep(struct model *m, const struct incident *inc,
			    int raw);
void model_let_go(struct model *m, struct incident *inc, int raw);

/* Folds gone and quiet processes; model_add does it at most once a
 * second, a live loop may call it when idle. */
void model_maintain(struct model *m);

/* Live modes: the incidents of p in the window of log time
 * (now - span_usec, now], span_usec 0 meaning all time, by resource;
 * returns their total.  Counted by whole minutes: a window may hold up to
 * a minute more than its span, and a time up to MODEL_SKEW_USEC ahead of
 * the clock counts in every window; one further ahead, by when it was
 * read (model_counted_time). */
size_t model_window(const struct model *m, const struct process *p,
		    long long span_usec, logtime_t now,
		    size_t by_resource[RES_COUNT]);
/* Incidents per minute over the last n minutes, oldest first; minutes
 * ahead of now (up to MODEL_SKEW_USEC) count in the last. */
void model_trend(const struct process *p, logtime_t now, unsigned *trend,
		 int n);
/* All processes' incidents in the window (span_usec 0: all time). */
size_t model_count_window(const struct model *m, long long span_usec,
			  logtime_t now);
/* The pid runs the same program now (checked at most once a second). */
int model_alive(struct model *m, struct process *p);
/* Recent incidents of p, oldest first: for (i = model_first_recent(p);
 * i; i = model_next_recent(i)); or newest first with last and prev. */
const struct incident *model_first_recent(const struct process *p);
const struct incident *model_next_recent(const struct incident *inc);
const struct incident *model_last_recent(const struct process *p);
const struct incident *model_prev_recent(const struct incident *inc);

/* Puts processes in their stable report order: by incidents, most
 * first, each with its classes by count; problems and skipped files by
 * path. */
void model_sort(struct model *m);

size_t model_count(const struct model *m, enum code code);

/* ---- hosts (model_host.c) ---- */

/* The host of that name, added (connecting) if new. */
struct model_host *model_host_add(struct model *m, const char *name);
/* The host of that name, or NULL. */
struct model_host *model_host_find(const struct model *m, const char *name);
/* Sets the state and, for HOST_DOWN, the reason (kept as it is: views
 * sanitise it). */
void model_host_set(struct model *m, struct model_host *h,
		    enum host_state state, const char *reason);
/* Hosts in a state. */
size_t model_hosts_in(const struct model *m, enum host_state state);
/* "connecting", "up", "down", "done". */
const char *host_state_name(enum host_state s);
/* Whether any input is remote (views then show a HOST column). */
int model_has_hosts(const struct model *m);

/* ---- hosts from paths (model_pathhost.c) ---- */

/* The rules that name a local file's host and job by its path (the
 * caller's, which outlive m; NULL: none, the default). */
void model_set_path_hosts(struct model *m, const struct pathhost *rules);
/* A local incident (host NULL, with a file): its host from its path, if
 * the rules name one (then inc->host is that host's name).  Called first
 * thing in model_add; a path is matched once. */
void model_path_host(struct model *m, struct incident *inc);
/* The same for a fact: f, or *copy with its host set. */
struct fact;
const struct fact *model_path_fact(struct model *m, const struct fact *f,
				   struct fact *copy);
/* A state file said host name was a path's, at origin by rule: a host
 * of that name that nothing else named or tried is shown so (a rule
 * plogtop does not know: not). */
void model_path_host_restored(struct model *m, const char *name,
			      const char *origin, const char *rule);
/* The machine that read an incident of host name: NULL (this one) for
 * a host named by a local file's path, else name.  For keys that must
 * not tell a pod's tree from a copy of it collected where no path names
 * a pod (err_log_info/): model_dedupe's fingerprint. */
const char *model_reading_host(const struct model *m, const char *name);
/* Whether path names a host by the rules (the copies' order prefers a
 * pod's own tree to a copy collected where no path names the pod). */
int model_path_names_host(const struct model *m, const char *path);
/* A file found (path interned): the host its path names is listed from
 * now on, with no incident yet. */
void model_path_seen(struct model *m, const char *path);
/* The same file, seen (model_path_seen) by a path not interned then
 * (--once's listing), now interned: matched, not counted again. */
void model_path_seen_again(struct model *m, const char *path);
/* The job a local file's path names, or NULL. */
const char *model_path_job(struct model *m, const char *file);

#endif
