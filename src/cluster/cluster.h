/* A cluster read from a Prometheus server's HTTP API (--from-prometheus):
 * a few instant queries per refresh, never one per node (cluster_query.c
 * says which), each answer parsed with the strict JSON parser into
 * samples (cluster_parse.c), and the samples made into the one model
 * (cluster_model.c): a host per node (its `node` label, else its
 * `instance`), its processes by name and device, counts per class; the
 * nodes whose plogtop is stale or whose target is down are hosts that are
 * down, with why.  The dashboard fetches in a worker thread
 * (cluster_worker.c) and takes each result in its own loop. */
#ifndef PLOGTOP_CLUSTER_H
#define PLOGTOP_CLUSTER_H

#include <stddef.h>

#include "httpc.h"
#include "model.h"
#include "strbuf.h"

/* A node whose plogtop has not updated its heartbeat for this long is
 * stale (it rewrites it at least every 30 s). */
#define CLUSTER_STALE_S 120
/* Samples taken from one answer at most; more are said, not kept. */
#define CLUSTER_MAX_SAMPLES 400000
/* Bytes of one label value at most: a longer one's series is skipped. */
#define CLUSTER_MAX_LABEL 256

/* The queries of one refresh. */
enum cquery {
	CQ_TOTAL,	/* the counters' values */
	CQ_1M, CQ_5M, CQ_1H,	/* what they grew in the windows */
	CQ_INFO,	/* live processes: pid, rank */
	CQ_AGE,		/* seconds since each node's heartbeat */
	CQ_DOWN,	/* targets of plogtop's job that are down */
	CQ_FILES,	/* files watched per node */
	CQ_COUNT
};

struct csample {
	enum cquery q;
	char *host;		/* node, else instance, else "" */
	char *process, *device, *code, *resource, *cause;	/* or NULL */
	char *pid, *rank;	/* CQ_INFO */
	double v;
};

struct cluster_data {
	struct csample *v;
	size_t n, cap;
	unsigned queries;	/* asked in this refresh */
	size_t skipped;		/* series refused (labels, values, caps) */
	double seconds;		/* the refresh's wall time */
	int failed;		/* err says why */
	struct strbuf err;
	/* Set by the caller: the time the queries are evaluated at (Unix
	 * seconds, PLOGTOP_PROM_TIME), NULL for the server's now. */
	const char *at;
};

void cluster_data_init(struct cluster_data *d);
void cluster_data_free(struct cluster_data *d);

/* The PromQL of a query (cluster_query.c); window_s: CQ_TOTAL counts
 * what grew in that many seconds instead of the counters' values. */
const char *cluster_query_text(enum cquery q, unsigned window_s,
			       struct strbuf *sb);
/* The answers of one refresh into d: every query (live: the windows
 * too; else the totals only, or with window_s what grew in it).
 * Returns 0, or -1 with d->failed and "URL: why" in d->err (the first
 * failure; the rest are not asked). */
int cluster_fetch(struct httpc *c, const char *base_url, int windows,
		  unsigned window_s, _Atomic int *cancel,
		  struct cluster_data *d);

/* The dashboard's fetcher (cluster_worker.c): one thread that refreshes
 * every interval_ms and hands each result over whole.  The hand-off: the
 * result under a mutex, and a byte on a pipe whose read end the app's
 * poll loop watches; the app takes it with cluster_worker_take and
 * makes the model of it in its own thread (the model is the drawing
 * thread's alone).  A result not taken before the next is replaced. */
struct cluster_worker;
struct cluster_worker *cluster_worker_start(const char *url,
					    unsigned interval_ms,
					    struct strbuf *err);
int cluster_worker_fd(const struct cluster_worker *w);
/* The latest result (free it with cluster_data_free and free()), or
 * NULL; drains the pipe. */
struct cluster_data *cluster_worker_take(struct cluster_worker *w);
/* Stops a transfer under way and joins the thread. */
void cluster_worker_stop(struct cluster_worker *w);

/* One answer of /api/v1/query (cluster_parse.c): its vector's samples
 * appended to d.  Returns 0, or -1 with why in err (not JSON, not a
 * success, not a vector, the wrong types). */
int cluster_parse(const char *text, size_t len, enum cquery q,
		  struct cluster_data *d, struct strbuf *err);

/* The model of d (cluster_model.c), in m after model_reset_counts:
 * live modes count each window's growth at a time inside it (so the
 * dashboard's windows show them); --once counts the counters' values.
 * done_state is the state of a host that is fine (HOST_UP live,
 * HOST_DONE --once). */
void cluster_to_model(const struct cluster_data *d, struct model *m,
		      enum host_state done_state);

#endif
