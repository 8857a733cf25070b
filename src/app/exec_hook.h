/* --exec=COMMAND: a view of the model (model_watch) that runs COMMAND
 * for each incident counted after the start (with --exec-history, also
 * for those of what the files held), through the bounded runner
 * (runq.h), and reports what it held back and what failed. */
#ifndef PLOGTOP_EXEC_HOOK_H
#define PLOGTOP_EXEC_HOOK_H

#include "catalog.h"
#include "incident.h"
#include "msglog.h"
#include "options.h"

struct exec_hook;

/* NULL without --exec, or when its command holds no word (said). */
struct exec_hook *exec_hook_new(const struct options *o,
				const struct catalog *cat, const char *host,
				struct msglog *log);
/* The model_watch view (ctx the hook). */
void exec_hook_on_incident(void *hook, const struct incident *inc);
/* The history is read: from now on each incident runs the command but
 * those of_history(ctx, inc) says are the history's (a chain it left
 * open); before, none does (unless --exec-history). */
void exec_hook_live(struct exec_hook *h,
		    int (*of_history)(void *ctx, const struct incident *inc),
		    void *ctx);
void exec_hook_step(struct exec_hook *h, unsigned long long now);
int exec_hook_timeout(const struct exec_hook *h, unsigned long long now);
/* At the end: what waits is run, what runs waited for, at most 10 s;
 * then the counts are said. */
void exec_hook_finish(struct exec_hook *h);
void exec_hook_free(struct exec_hook *h);

#endif
