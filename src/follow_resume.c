/* Resume points of the followed files (CONTRACT.md section 1): where a
 * restart, or a reconnecting fleet, may read each file again from, with
 * nothing given out twice and nothing lost.  A file's point is the start
 * of the first thing it still holds back: the first line of an open
 * chain that has lines in it, the record being assembled, the unfinished
 * last line; else all it has read. */
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
};

static void open_chain(void *ctx, const char *file, unsigned long long off,
		       unsigned long line)
{
	struct scan *sc = ctx;
	struct tail *t = follow_find_tail(sc->fw, file);

	if (!t || t->path != file)
		return;	/* standard input, or a file gone */
	struct held *h = &sc->v[t->slot];
	if (off < h->off) {
		h->off = off;
		h->line = line ? line - 1 : 0;
	}
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
	struct scan sc = { fw, xcalloc(fw->ntails + 1, sizeof *sc.v) };
	struct position *v = xcalloc(fw->ntails + 1, sizeof *v);
	size_t n = 0;

	for (size_t i = 0; i < fw->ntails; i++)
		tail_held_from(fw->tails[i], &sc.v[i].off, &sc.v[i].line);
	classifier_each_open(fw->cl, open_chain, &sc);
	for (size_t i = 0; i < fw->ntails; i++) {
		struct tail *t = fw->tails[i];
		if (t->skip_why || !sc.v[i].off || identity(t, &sc.v[i]) < 0)
			continue;
		v[n++] = (struct position){ t->path, *t->fid, t->last_ms };
	}
	free(sc.v);
	*out = v;
	return n;
}

int follow_resume_tail(struct follower *fw, struct tail *t)
{
	struct fileid id;

	if (!fw->o.resume_for || t->skip_why ||
	    !fw->o.resume_for(fw->o.resume_ctx, t->path, &id))
		return 0;
	if (tail_start_at(t, id.offset, id.line) < 0)
		return 0;
	if (!t->fid)
		t->fid = xmalloc(sizeof *t->fid);
	*t->fid = id;
	return 1;
}
