/* Resume points as JSON: the "positions" section of a state file, and the
 * object a remote plogtop's cursor line carries (doc/json-schema.md, "The --follow stream").
 *
 *   {"version": 1, "files": [{"path": "...", "ino": "N", "dev": "N",
 *     "offset": N, "line": N, "head": "16 hex", "headlen": N,
 *     "before": "16 hex", "beforelen": N, "seen": UNIX,
 *     "given": [LINE, ...], "facts_to": LINE}, ...]}
 *
 * given (when not empty): the first lines of incidents given out after
 * offset, not to be given out again (struct resume_at); facts_to (when
 * after line): the last line whose facts (fact.h) were given out: the
 * facts of the lines read again up to it are not given again.
 *
 * Every value is checked as it is read: it comes from a file or a stream
 * another process wrote, hostile input like any log. */
#ifndef PLOGTOP_STATE_POSITIONS_H
#define PLOGTOP_STATE_POSITIONS_H

#include <stddef.h>

#include "fileid.h"
#include "follow.h"
#include "jsonparse.h"
#include "strbuf.h"

#define POSITIONS_VERSION 1
/* Files a state remembers; the least recently seen go first. */
#define POSITIONS_MAX 500000
/* A file not seen for this long is forgotten (a root unmounted for a
 * while keeps its positions until then). */
#define POSITIONS_FORGET_SEC (30.0 * 24 * 3600)

struct posentry {
	char *path;
	struct fileid id;
	unsigned long *given;	/* see struct resume_at */
	size_t ngiven;
	unsigned long facts_to;	/* see struct resume_at */
	double seen;		/* Unix time it was last seen */
	int claimed;		/* a file found now was matched to it */
};

struct posset {
	struct posentry *v;
	size_t n;
	struct posentry **by_path, **by_ino;	/* sorted, for look-ups */
};

void posset_free(struct posset *ps);
/* Reads a positions object.  Returns 0, or -1 with why in err (ps is
 * then empty). */
int posset_parse(struct posset *ps, const struct jval *v, struct strbuf *err);
/* The follower's resume_for: the resume point of the file at path, if one
 * of the set is that file (fileid.h's rule).  Each is given once. */
int posset_resume_for(void *ctx, const char *path, struct resume_at *at);

/* Writes a positions object: the files read now, newest first, then the
 * set's entries no file was matched to (not forgotten yet).  max_bytes
 * (0: no limit) bounds what is written: the oldest are left out.
 * Returns how many were left out. */
size_t positions_json(struct strbuf *out, const struct position *cur,
		    size_t ncur, const struct posset *old, double now,
		    size_t max_bytes);

#endif
