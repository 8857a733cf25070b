/* Resume points of the followed files (the positions of the state file, plogtop(1) --state): where a
 * restart, or a reconnecting fleet, may read each file again from, with
 * nothing given out twice and nothing lost.  A file's point is the start
 * of the first thing it still holds back: the first line of an open
 * chain that has lines in it, the record being assembled, the unfinished
 * last line; else all it has read.  Chains of other threads that closed
 * after that point were given out already: their first lines go with the
 * point, and a reader that starts there drops them.  Nor may a point cut
 * one given out: a chain whose first line is before it and whose last
 * line is after it (threads interleave) moves the point back to its first
 * line, which then goes with the point, or the reader would take its
 * rest for a chain of its own. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
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
	struct tail *t = tailtab_find(&sc->fw->tt, file);

	if (!t || t->path != file || (sc->only && t != sc->only))
		return;	/* standard input, or a file gone */
	struct held *h = &sc->v[sc->only ? 0 : t->slot];
	if (off < h->off) {
		h->off = off;
		h->line = line ? line - 1 : 0;
	}
}

/* Moves the point back to the first line of a given chain it would cut,
 * until it cuts none. */
static void uncut(const struct tail *t, struct held *h)
{
	for (int moved = 1; moved;) {
		moved = 0;
		for (size_t i = 0; t->span && i < t->ngiven; i++) {
			if (t->given[i] <= h->line && t->span[i].end > h->line &&
			    t->span[i].off < h->off) {
				h->off = t->span[i].off;
				h->line = t->given[i] - 1;
				moved = 1;
			}
		}
	}
}

/* Forgets the given lines at or before the point (line: lines before it). */
static void prune_given(struct tail *t, unsigned long line)
{
	size_t k = 0;

	for (size_t i = 0; i < t->ngiven; i++) {
		if (t->given[i] > line) {
			t->span[k] = t->span[i];
			t->given[k++] = t->given[i];
		}
	}
	t->ngiven = k;
}

/* Room for n given lines, their spans not known. */
static void given_room(struct tail *t, size_t n)
{
	int fresh = !t->span;

	if (n <= t->capgiven && !fresh)
		return;
	if (n > t->capgiven)
		t->capgiven = n;
	t->given = xrealloc(t->given, t->capgiven * sizeof *t->given);
	t->span = xrealloc(t->span, t->capgiven * sizeof *t->span);
	if (fresh)
		memset(t->span, 0, t->capgiven * sizeof *t->span);
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

/* The facts given after a point before line: its last line's, or 0. */
static unsigned long facts_to(const struct tail *t, unsigned long line)
{
	unsigned long to = t->fact_line > t->fact_skip ? t->fact_line
						       : t->fact_skip;
	return to > line ? to : 0;
}

size_t follower_positions(struct follower *fw, struct position **out)
{
	struct scan sc = { fw, xcalloc(fw->tt.n + 1, sizeof *sc.v), NULL };
	struct position *v = xcalloc(fw->tt.n + 1, sizeof *v);
	size_t n = 0;

	for (size_t i = 0; i < fw->tt.n; i++)
		tail_held_from(fw->tt.v[i], &sc.v[i].off, &sc.v[i].line);
	classifier_each_open(fw->cl, open_chain, &sc);
	for (size_t i = 0; i < fw->tt.n; i++) {
		struct tail *t = fw->tt.v[i];
		uncut(t, &sc.v[i]);
		prune_given(t, sc.v[i].line);
		/* A point at 0 matters only with incidents given after it. */
		if (t->skip_why ||
		    (!sc.v[i].off && !t->ngiven &&
		     !facts_to(t, sc.v[i].line)) ||
		    identity(t, &sc.v[i]) < 0)
			continue;
		v[n++] = (struct position){ t->path, *t->fid, t->last_ms,
					    t->given, t->ngiven,
					    facts_to(t, sc.v[i].line) };
	}
	free(sc.v);
	*out = v;
	return n;
}

/* Dropped files remembered, and for how long: a rename shows as the old
 * name going and the new one coming in the same batch of events. */
#define GONE_MAX 1024
#define GONE_MS 60000

struct gone {
	struct fileid id;	/* at all it had read */
	unsigned long *given;
	size_t ngiven;
	unsigned long fact_line;
	unsigned long long when;
};

static void gone_free_at(struct follower *fw, size_t i)
{
	free(fw->gs.v[i].given);
	fw->gs.v[i] = fw->gs.v[--fw->gs.n];
}

void follow_free_gone(struct follower *fw)
{
	while (fw->gs.n)
		gone_free_at(fw, fw->gs.n - 1);
	free(fw->gs.v);
	fw->gs.v = NULL;
}

void follow_note_gone(struct follower *fw, const struct tail *t)
{
	unsigned long long now = monotonic_ms();

	for (size_t i = fw->gs.n; i-- > 0;)
		if (now - fw->gs.v[i].when > GONE_MS)
			gone_free_at(fw, i);
	if (!t->offset || t->skip_why || !t->ino || !fw->started)
		return;
	/* Its bytes are still there under its new name, if it has one. */
	struct fileid id = {
		.ino = (unsigned long long)t->ino,
		.dev = (unsigned long long)t->dev,
		.offset = (unsigned long long)t->offset, .line = t->ls.lineno,
		.head = fileid_hash(t->head, t->headlen),
		.headlen = (unsigned)t->headlen,
		.before = fileid_hash("", 0),
	};
	if (!fw->gs.v)
		fw->gs.v = xcalloc(GONE_MAX, sizeof *fw->gs.v);
	if (fw->gs.n == GONE_MAX)
		gone_free_at(fw, 0);
	struct gone *g = &fw->gs.v[fw->gs.n++];
	*g = (struct gone){ id, NULL, 0, t->fact_line, now };
	if (t->ngiven) {
		g->given = xmalloc(t->ngiven * sizeof *g->given);
		memcpy(g->given, t->given, t->ngiven * sizeof *g->given);
		g->ngiven = t->ngiven;
	}
}

/* A file found that is one dropped a moment ago under another name. */
static int renamed(struct follower *fw, int fd, struct resume_at *at,
		   size_t *which)
{
	struct stat sb;

	if (!fw->gs.n || fstat(fd, &sb) < 0)
		return 0;
	for (size_t i = 0; i < fw->gs.n; i++) {
		struct gone *g = &fw->gs.v[i];
		if (g->id.ino == (unsigned long long)sb.st_ino &&
		    fileid_matches(&g->id, fd)) {
			*at = (struct resume_at){ g->id, g->given, g->ngiven,
						  g->fact_line };
			*which = i;
			return 1;
		}
	}
	return 0;
}

static int from_gone(struct follower *fw, struct tail *t, struct resume_at *at,
		     size_t *which)
{
	if (!fw->gs.n)
		return 0;
	int fd = open(t->path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return 0;
	int r = renamed(fw, fd, at, which);
	close(fd);
	return r;
}

int follow_resume_tail(struct follower *fw, struct tail *t)
{
	struct resume_at at;
	size_t which = (size_t)-1;

	if (t->skip_why)
		return 0;
	/* In this run: the given lines are those still to drop, not any
	 * to skip again (the classifier goes on with its chains). */
	int moved = from_gone(fw, t, &at, &which);
	if (moved)
		at.ngiven = 0;
	if (!moved && (!fw->o.resume_for ||
		       !fw->o.resume_for(fw->o.resume_ctx, t->path, &at)))
		return 0;
	if (tail_start_at(t, at.id.offset, at.id.line) < 0)
		return 0;
	if (!t->fid)
		t->fid = xmalloc(sizeof *t->fid);
	*t->fid = at.id;
	free(t->skip);
	t->skip = NULL;
	t->nskip = 0;
	/* Moved in this run: its facts go on from where it was read to. */
	t->fact_line = at.facts_to;
	t->fact_skip = moved ? 0 : at.facts_to;
	if (at.ngiven) {
		t->skip = xmalloc(at.ngiven * sizeof *t->skip);
		memcpy(t->skip, at.given, at.ngiven * sizeof *t->skip);
		t->nskip = at.ngiven;
		/* They are still given out after the point, for the next;
		 * their spans known once they are read again. */
		given_room(t, at.ngiven);
		memcpy(t->given, at.given, at.ngiven * sizeof *t->given);
		memset(t->span, 0, at.ngiven * sizeof *t->span);
		t->ngiven = at.ngiven;
	}
	if (moved) {
		struct gone *g = &fw->gs.v[which];
		if (g->ngiven) {
			free(t->given);
			free(t->span);
			t->given = g->given;
			t->ngiven = t->capgiven = g->ngiven;
			t->span = xcalloc(g->ngiven, sizeof *t->span);
			g->given = NULL;
		}
		gone_free_at(fw, which);
	}
	return 1;
}

static void note_given(struct follower *fw, struct tail *t,
		       const struct incident *inc)
{
	if (t->ngiven == RESUME_GIVEN_MAX) {
		/* Forget what lies before the point now; at worst the
		 * oldest (counted again after a restart). */
		struct held h;
		struct scan sc = { fw, &h, t };
		tail_held_from(t, &h.off, &h.line);
		classifier_each_open(fw->cl, open_chain, &sc);
		uncut(t, &h);
		prune_given(t, h.line);
		if (t->ngiven == RESUME_GIVEN_MAX) {
			--t->ngiven;
			memmove(t->given, t->given + 1,
				t->ngiven * sizeof *t->given);
			memmove(t->span, t->span + 1,
				t->ngiven * sizeof *t->span);
		}
	}
	if (t->ngiven == t->capgiven || !t->span)
		given_room(t, t->ngiven == t->capgiven
			      ? (t->capgiven ? 2 * t->capgiven : 8)
			      : t->capgiven);
	t->span[t->ngiven] = (struct given_span){ inc->off, inc->last_line };
	t->given[t->ngiven++] = inc->line;
}

/* A chain given before the restart, read again: its span is known now. */
static void note_span(struct tail *t, const struct incident *inc)
{
	for (size_t i = 0; t->span && i < t->ngiven; i++)
		if (t->given[i] == inc->line)
			t->span[i] = (struct given_span){ inc->off,
							  inc->last_line };
}

int follow_given_before(struct follower *fw, const struct incident *inc)
{
	/* Only a reader that gives resume points keeps them. */
	if (!fw->o.resume_for || !inc->file)
		return 0;
	struct tail *t = tailtab_find(&fw->tt, inc->file);
	if (!t || t->path != inc->file)
		return 0;
	for (size_t i = 0; i < t->nskip; i++) {
		if (t->skip[i] == inc->line) {
			t->skip[i] = t->skip[--t->nskip];
			note_span(t, inc);
			return 1;
		}
	}
	/* Only a file whose point can be behind an incident needs them: one
	 * with another chain open (or held), which the point waits for. */
	if (classifier_open_chains(fw->cl) || t->ngiven || t->held)
		note_given(fw, t, inc);
	return 0;
}

int follow_fact_before(struct follower *fw, const struct fact *f)
{
	if (!fw->o.resume_for || !f->file)
		return 0;
	struct tail *t = tailtab_find(&fw->tt, f->file);
	if (!t || t->path != f->file)
		return 0;
	if (f->line && f->line <= t->fact_skip)
		return 1;
	if (f->line > t->fact_line)
		t->fact_line = f->line;
	return 0;
}

struct hold_ctx {
	struct follower *fw;
	struct timespec now;
};

static int hold_recent(void *ctx, const char *file, unsigned long long off,
		       unsigned long line)
{
	struct hold_ctx *hc = ctx;
	struct tail *t = tailtab_find(&hc->fw->tt, file);
	struct stat sb;

	if (!t || t->path != file || stat(t->path, &sb) < 0)
		return 0;
	long long age_ms = (long long)(hc->now.tv_sec - sb.st_mtim.tv_sec) *
			   1000 + (hc->now.tv_nsec - sb.st_mtim.tv_nsec) /
			   1000000;
	if (age_ms > RESUME_HOLD_MS)
		return 0;	/* not written to: complete as it stands */
	if (!t->held || off < t->hold_off) {
		t->held = 1;
		t->hold_off = off;
		t->hold_line = line ? line - 1 : 0;
	}
	return 1;
}

void follow_hold_recent(struct follower *fw)
{
	if (!fw->o.once || !fw->o.resume_for || fw->o.hand_over)
		return;
	struct hold_ctx hc = { fw, { 0, 0 } };
	clock_gettime(CLOCK_REALTIME, &hc.now);
	classifier_hold(fw->cl, hold_recent, &hc);
}
