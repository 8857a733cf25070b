#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "exec_hook.h"
#include "exec_view.h"
#include "i18n.h"
#include "monoclock.h"
#include "runq.h"
#include "xalloc.h"

extern char **environ;

/* How long the end waits for the commands still due. */
#define FINISH_MS 10000

struct exec_hook {
	struct runq *q;
	const struct catalog *cat;
	const char *host;
	struct msglog *log;
	int no_fix, history;
	int (*of_history)(void *ctx, const struct incident *inc);
	void *ctx;
};

struct exec_hook *exec_hook_new(const struct options *o,
				const struct catalog *cat, const char *host,
				struct msglog *log)
{
	if (!o->exec_cmd)
		return NULL;
	struct runq *q = runq_new(o->exec_cmd, "--exec", log);
	if (!q) {
		msglog_add(log, _("--exec: the command holds no word; "
				  "nothing is run"));
		return NULL;
	}
	struct exec_hook *h = xcalloc(1, sizeof *h);
	h->q = q;
	h->cat = cat;
	h->host = host;
	h->log = log;
	h->no_fix = o->no_fix;
	h->history = o->exec_history;
	return h;
}

void exec_hook_on_incident(void *hook, const struct incident *inc)
{
	struct exec_hook *h = hook;

	/* Not counted (--since): no command either. */
	if (!inc->proc)
		return;
	/* A chain the history left open completes after its end. */
	if (!h->history && (!h->of_history || h->of_history(h->ctx, inc)))
		return;
	/* Held back: its JSON and environment are not made for nothing. */
	if (runq_hold_if_full(h->q, monotonic_ms()))
		return;
	struct strbuf in = STRBUF_INIT;
	exec_view_input(&in, inc, h->cat, h->no_fix);
	size_t len = in.len;
	runq_add(h->q, sb_detach(&in), len,
		 exec_view_env(inc, h->cat, h->host, environ),
		 exec_view_what(inc), monotonic_ms());
}

void exec_hook_live(struct exec_hook *h,
		    int (*of_history)(void *ctx, const struct incident *inc),
		    void *ctx)
{
	if (h) {
		h->of_history = of_history;
		h->ctx = ctx;
	}
}

void exec_hook_step(struct exec_hook *h, unsigned long long now)
{
	if (h)
		runq_step(h->q, now);
}

int exec_hook_timeout(const struct exec_hook *h, unsigned long long now)
{
	return h ? runq_timeout(h->q, now) : -1;
}

void exec_hook_finish(struct exec_hook *h)
{
	if (!h)
		return;
	runq_finish(h->q, monotonic_ms() + FINISH_MS);
	struct runq_counts c = runq_counts(h->q);
	struct strbuf msg = STRBUF_INIT;
	if (c.failed || c.held_back) {
		sb_addf(&msg, _("--exec: ran %llu, %llu of them failed, %llu "
				"held back (not run)"), c.started, c.failed,
			c.held_back);
		msglog_add(h->log, msg.buf);
	}
	sb_free(&msg);
}

void exec_hook_free(struct exec_hook *h)
{
	if (!h)
		return;
	runq_free(h->q);
	free(h);
}
