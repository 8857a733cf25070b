/* What the model's files share, and nothing outside them uses. */
#ifndef PLOGTOP_MODEL_INT_H
#define PLOGTOP_MODEL_INT_H

#include "model.h"

/* Drops one owner of an incident; the last one frees it. */
void model_unref(struct model *m, struct incident *inc);
/* Raw lines are kept while a view may show them. */
void model_release_raw(struct model *m, struct incident *inc);
void model_free_process(struct model *m, struct process *p);

/* model_live.c */
void live_count(struct model *m, struct process *p, struct incident *inc,
		logtime_t now);
void live_touch(struct model *m, struct process *p);
void live_forget(struct model *m, struct process *p);
/* Makes room for one more process: folds one when at max_procs. */
void live_make_room(struct model *m);
void live_fold(struct model *m, struct process *p);

/* model_host.c: counts inc on its host (added if new), makes inc->host
 * the host's own name, and returns the host.  last_at: inc->last as
 * counted (model_counted_time). */
struct model_host *model_host_count(struct model *m, struct incident *inc,
				    logtime_t last_at);
void model_hosts_free(struct model *m);

#endif
