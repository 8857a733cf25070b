/* What the model's files share, and nothing outside them uses. */
#ifndef PLOGTOP_MODEL_INT_H
#define PLOGTOP_MODEL_INT_H

#include "model.h"

/* The hash of model.proc_index and of the identities' index: by host
 * and pid, so that every name of one pid is in one bucket. */
static inline size_t model_pid_hash(const struct model_host *host, long pid)
{
	return (size_t)pid * 0x9e3779b97f4a7c15ULL +
	       (host ? host->index + 1 : 0) * 0x85ebca6bU;
}

/* The model's files call downward only: model.c, then model_live.c,
 * model_host.c and model_sort.c, then model_refs.c. */

/* model_refs.c: owners of incidents and paths. */
/* Drops one owner of an incident; the last one frees it. */
void model_unref(struct model *m, struct incident *inc);
/* Raw lines are kept while a view may show them. */
void model_release_raw(struct model *m, struct incident *inc);
/* The model holds the paths of a counted incident (its file, its raw
 * lines'), and lets those of its raw lines go with them. */
void model_hold_paths(struct model *m, struct incident *inc);
void model_drop_raw(struct model *m, struct incident *inc);
/* Frees the paths whose last reference went PATH_GRACE_MS ago. */
void model_reap_paths(struct model *m, unsigned long long now);
void model_free_paths(struct model *m);
/* What model_pathhost.c found of an interned path, kept with it so that
 * a path is matched once; NULL for a path the model did not intern. */
struct path_host_cache {
	unsigned char done;		/* matched */
	struct model_host *host;	/* NULL: it names none */
	const char *job;		/* model_pathhost.c's, or NULL */
};
struct path_host_cache *model_path_host_cache(struct model *m,
					      const char *s);

/* model_live.c: the live modes' side. */
/* One counted incident: its process's latest and recent ones, and the
 * per-minute counts. */
void model_track(struct model *m, struct process *p, struct incident *inc,
		 logtime_t now);
/* p had an incident now: the most recently active. */
void model_touch(struct model *m, struct process *p);
/* The process of a link in model.lru (NULL for NULL). */
struct process *model_lru_proc(const struct dlink *l);
/* Makes room for one more process: folds one when at max_procs. */
void model_make_room(struct model *m);
/* p goes; its counts stay in the totals. */
void model_fold(struct model *m, struct process *p);
void model_free_process(struct model *m, struct process *p);

/* model_host.c: counts inc on its host (added if new), makes inc->host
 * the host's own name, and returns the host.  last_at: inc->last as
 * counted (model_counted_time). */
struct model_host *model_host_count(struct model *m, struct incident *inc,
				    logtime_t last_at);
void model_hosts_free(struct model *m);

#endif
