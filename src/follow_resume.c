/* Resume points of the followed files (CONTRACT.md section 1): where a
 * restart, or a reconnecting fleet, may read each file again from, with
 * nothing given out twice and nothing lost.  A file's point is the start
 * of the first thing it still holds back: the first line of an open
 * chain that has lines in it, the record being assembled, the unfinished
 * last line; else all it has read.  Chains of other threads that closed
 * after that point were given out already: their first lines go with the
 * point, and a reader that starts there drops them. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "follow_int.h"
#include "xalloc.h"

struct held {
	unsigned long long off;
	unsigned long line;
};

struct scan {
	struct follower *fw;
	struct held *v;		/* by tail slot */
	const struct tail *only;	/* NULL: every tail */
};

static void open_chain(void *ctx, const char *file, unsigned long long off,
		       unsigned long line)
{
	struct scan *sc = ctx;
	struct tail *t = follow_find_tail(sc->fw, file);

	if (!t || t->path != file || (sc->only && t != sc->only))
		return;	/* standard input, or a file gone */
	struct held *h = &sc->v[sc->only ? 0 : t->slot];
	if (off < h->off) {
		h->off = off;
		h->line = line ? line - 1 : 0;
	}
}

/* Forgets the given lines at or before the point (line: lines before it). */
static void prune_given(struct tail *t, unsigned long line)
{
	size_t k = 0;

	for (size_t i = 0; i < t->ngiven; i++)
		if (t->given[i] > line)
			t->given[k++] = t->given[i];
	t->ngiven = k;
}

/* Its identity at the point: taken again only when the point moved. */
static int identity(struct tail *t, const struct held *h)
{
	if (t->fid && t->fid->offset == h->off && t->fid->line == h->line)
		return 0;
	int fd = open(t->path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return -1;
	struct fileid id;
	int rc = fileid_take(fd, h->off, h->line, &id);
	close(fd);
	/* Replaced since it was read: the tail finds out at its next read. */
	if (rc < 0 || (t->ino && id.ino != (unsigned long long)t->ino))
		return -1;
	if (!t->fid)
		t->fid = xmalloc(sizeof *t->fid);
	*t->fid = id;
	return 0;
}

size_t follower_positions(struct follower *fw, struct position **out)
{
	struct scan sc = { fw, xcalloc(fw->ntails + 1, sizeof *sc.v), NULL };
	struct position *v = xcalloc(fw->ntails + 1, sizeof *v);
	size_t n = 0;

	for (size_t i = 0; i < fw->ntails; i++)
		tail_held_from(fw->tails[i], &sc.v[i].off, &sc.v[i].line);
	classifier_each_open(fw->cl, open_chain, &sc);
	for (size_t i = 0; i < fw->ntails; i++) {
		struct tail *t = fw->tails[i];
		prune_given(t, sc.v[i].line);
		/* A point at 0 matters only with incidents given after it. */
		if (t->skip_why || (!sc.v[i].off && !t->ngiven) ||
		    identity(t, &sc.v[i]) < 0)
			continue;
		v[n++] = (struct position){ t->path, *t->fid, t->last_ms,
					    t->given, t->ngiven };
	}
	free(sc.v);
	*out = v;
	return n;
}

int follow_resume_tail(struct follower *fw, struct tail *t)
{
	struct resume_at at;

	if (!fw->o.resume_for || t->skip_why ||
	    !fw->o.resume_for(fw->o.resume_ctx, t->path, &at))
		return 0;
	if (tail_start_at(t, at.id.offset, at.id.line) < 0)
		return 0;
	if (!t->fid)
		t->fid = xmalloc(sizeof *t->fid);
	*t->fid = at.id;
	free(t->skip);
	t->skip = NULL;
	t->nskip = 0;
	if (at.ngiven) {
		t->skip = xmalloc(at.ngiven * sizeof *t->skip);
		memcpy(t->skip, at.given, at.ngiven * sizeof *t->skip);
		t->nskip = at.ngiven;
		/* They are still given out after the point, for the next. */
		free(t->given);
		t->given = xmalloc(at.ngiven * sizeof *t->given);
		memcpy(t->given, at.given, at.ngiven * sizeof *t->given);
		t->ngiven = t->capgiven = at.ngiven;
	}
	return 1;
}

static void note_given(struct follower *fw, struct tail *t,
		       unsigned long line)
{
	if (t->ngiven == RESUME_GIVEN_MAX) {
		/* Forget what lies before the point now; at worst the
		 * oldest (counted again after a restart). */
		struct held h;
		struct scan sc = { fw, &h, t };
		tail_held_from(t, &h.off, &h.line);
		classifier_each_open(fw->cl, open_chain, &sc);
		prune_given(t, h.line);
		if (t->ngiven == RESUME_GIVEN_MAX)
			memmove(t->given, t->given + 1,
				--t->ngiven * sizeof *t->given);
	}
	if (t->ngiven == t->capgiven) {
		t->capgiven = t->capgiven ? 2 * t->capgiven : 8;
		t->given = xrealloc(t->given, t->capgiven * sizeof *t->given);
	}
	t->given[t->ngiven++] = line;
}

int follow_given_before(struct follower *fw, const struct incident *inc)
{
	if (!inc->file)
		return 0;
	struct tail *t = follow_find_tail(fw, inc->file);
	if (!t || t->path != inc->file)
		return 0;
	for (size_t i = 0; i < t->nskip; i++) {
		if (t->skip[i] == inc->line) {
			t->skip[i] = t->skip[--t->nskip];
			return 1;
		}
	}
	/* Only a file whose point can be behind an incident needs them: one
	 * with another chain open, which the point then waits for. */
	if (classifier_open_chains(fw->cl) || t->ngiven)
		note_given(fw, t, inc->line);
	return 0;
}
