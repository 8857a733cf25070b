/* Reading everything there is now, once (--once): through the same
 * follower as --follow and the dashboard, split between threads when
 * there is much to read. */
#ifndef PLOGTOP_READALL_H
#define PLOGTOP_READALL_H

#include "follow.h"
#include "model.h"
#include "options.h"
#include "report.h"
#include "rules.h"

/* The rules plogtop runs with: the built-in file, then each --rules. */
struct ruleset *rules_for(const struct options *o, struct strbuf *err);

/* --state, --resume: where to start each file (resume_for, as in struct
 * follow_opts), and where each was read to at the end (pos, npos: the
 * caller frees pos).  Read on one thread. */
struct read_resume {
	int (*resume_for)(void *ctx, const char *path, struct resume_at *at);
	void *ctx;
	struct position *pos;
	size_t npos;
};

/* Reads every path to its end into m; each counted incident also goes
 * to the snapshot when given.  Returns 0, or -1 with a message in err. */
int read_all(const struct options *o, struct ruleset *rs, struct model *m,
	     struct snapshot *snap, struct read_resume *rr,
	     struct strbuf *err);

#endif
