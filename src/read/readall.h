/* Reading everything there is now, once (--once): through the same
 * follower as --follow and the dashboard, split between threads when
 * there is much to read. */
#ifndef PLOGTOP_READALL_H
#define PLOGTOP_READALL_H

#include "follow.h"
#include "model.h"
#include "options.h"
#include "rules.h"
#include "rules_for.h"

/* --state, --resume: where to start each file (resume_for, as in struct
 * follow_opts), and where each was read to at the end (pos, npos: the
 * caller frees pos).  Read on one thread. */
struct read_resume {
	int (*resume_for)(void *ctx, const char *path, struct resume_at *at);
	void *ctx;
	struct position *pos;
	size_t npos;
};

/* A view that wants each counted incident as text (the JSON snapshot):
 * render may run in the reading threads, in parallel, and touches
 * nothing shared; add is then given, in the model's order, what render
 * made of each incident the model counted.  Reading knows nothing of
 * what the text is. */
struct read_view {
	void (*render)(void *ctx, struct strbuf *out,
		       const struct incident *inc);
	void (*add)(void *ctx, const char *text, size_t len);
	void *ctx;
};

/* Reads every path to its end into m; each counted incident also goes
 * to the view when given.  Returns 0, or -1 with a message in err. */
int read_all(const struct options *o, struct ruleset *rs, struct model *m,
	     const struct read_view *view, struct read_resume *rr,
	     struct strbuf *err);

#endif
