/* The Prometheus text-format file for node_exporter's textfile collector
 * (and what --listen serves): incidents by class, process name, logged
 * device, NPU and host, the gauges per device, the live processes
 * (plogtop_process_info), and what plogtop reads.  The labels are the
 * vocabulary of classify/taxonomy.h; never one from gethostname (the
 * node is the scrape's).  prom_render reads the model as it is: a caller
 * that wants process_info to drop processes that ended asks liveness
 * first (model_ask_alive), as --follow does before each file. */
#ifndef PLOGTOP_PROM_H
#define PLOGTOP_PROM_H

#include <stddef.h>

#include "htab.h"
#include "model.h"
#include "strbuf.h"

/* --follow and the dashboard rewrite the file at least this often, even
 * when nothing was read: plogtop_last_update_timestamp_seconds is their
 * heartbeat (--interval, when longer, is used instead). */
#define PROM_HEARTBEAT_MS 30000
/* Their first file waits, after the history, until the chains it left
 * open are closed, this long at most: the first file holds the history,
 * which the alert rules never page for. */
#define PROM_SETTLE_MS 30000

#define PROM_MAX_NAMES 10000	/* (host, name, device, id) counted apart */
#define PROM_OTHER_NAME "(other)"
/* plogtop_process_info: series written at most (the rest are counted in
 * plogtop_process_info_omitted). */
#define PROM_MAX_PROCESS_INFO 2000

/* The counts of plogtop_incidents_total: by host, process name, device,
 * NPU and class, never folded (a process that goes keeps its counts).
 * Processes of one name add up on a host (pids change with every job,
 * and a pid label would make a new series each time); two hosts'
 * processes of one name do not.  device is the incident's logged
 * (logical) device, npu the physical NPU of it when evidence gave one
 * at the time the incident was counted (npu-smi's table of its host
 * pid, its visible-device map): a label is fixed when a count is, so an
 * NPU learnt later starts a series of its own and never moves counts
 * (counters never go down).  A view of the model (model_watch), given
 * back by a state file (prom_counts_add). */
struct prom_count {
	struct hnode node;
	char *host;		/* NULL: local */
	char *name;
	long device, npu;	/* -1: not known */
	struct class_count *classes;
	size_t nclasses;
};

struct prom_counts {
	struct model *m;	/* watched */
	struct prom_count **v;	/* in the order first counted */
	size_t n;
	struct htab index;
};

/* Counts every incident m counts from now on (m NULL: only what
 * prom_counts_add adds). */
void prom_counts_init(struct prom_counts *pc, struct model *m);
/* The labels of a count: host (NULL local), process name, device and
 * npu (-1: none). */
struct prom_key {
	const char *host, *name;
	long device, npu;
};
/* Adds n incidents of a class to the counts of key alone, as a state
 * file remembers them.  Keys beyond PROM_MAX_NAMES add up under (host,
 * PROM_OTHER_NAME) without device or npu. */
void prom_counts_add(struct prom_counts *pc, const struct prom_key *key,
		     const struct class_key *k, size_t n);
/* Stops watching and frees the counts. */
void prom_counts_free(struct prom_counts *pc);

/* Renders the metrics: what m read, the incidents pc counted. */
void prom_render(struct strbuf *out, const struct model *m,
		 const struct prom_counts *pc, size_t files_watched,
		 double now_seconds);

/* The gauges per device (prom_device.c): resources held by live
 * processes as their ledgers know them, processes failing on it. */
void prom_render_devices(struct strbuf *out, const struct model *m);
/* The physical NPU of logical device dev of id on evidence (npu-smi's
 * or its map's), or -1 (prom_process.c). */
struct ident;
long prom_npu_of(const struct ident *id, long dev);
/* Not known gone: it runs (asked), or it has a row that liveness has
 * not said is gone (a host's rows are never asked). */
int prom_live(const struct ident *id);
/* plogtop_process_info and plogtop_process_info_omitted
 * (prom_process.c). */
void prom_render_processes(struct strbuf *out, const struct model *m);
/* A label value, sanitised and escaped; a metric's HELP and TYPE. */
void prom_label(struct strbuf *out, const char *value);
void prom_metric_head(struct strbuf *out, const char *name,
		      const char *type, const char *help);

/* Writes them to path atomically: a temporary file created exclusively
 * (no symlink followed) in the same directory with mode 0644, then
 * renamed over path.  Returns 0, or -1 with "PATH: why" in err. */
int prom_write(const char *path, const struct model *m,
	       const struct prom_counts *pc, size_t files_watched,
	       struct strbuf *err);

#endif
