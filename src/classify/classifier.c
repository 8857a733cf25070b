/* The classifier over plog records: which chain a record joins, when a
 * chain ends (another call starts, the log's clock moves past it, it
 * goes quiet, its stream ends), the tombstones of chains closed for
 * being quiet, and resume points.  One chain's life is chain.c; screen
 * blocks are screenblock.c, fed by the feeder beside this. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chain.h"
#include "classifier.h"
#include "xalloc.h"

struct classifier *classifier_new(struct ruleset *rs, incident_fn emit,
				  void *ctx)
{
	struct classifier *c = xcalloc(1, sizeof *c);

	c->rs = rs;
	c->emit = emit;
	c->ctx = ctx;
	return c;
}

void classifier_free(struct classifier *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nopen; i++)
		chain_free(c->open[i]);
	free(c->open);
	free(c->bucket);
	for (size_t i = 0; i < TOMBSTONES; i++)
		free(c->tomb[i].name);
	sb_free(&c->facts.caps);
	free(c->facts.cap);
	sb_free(&c->deferred.caps);
	free(c->deferred.cap);
	free(c);
}

void classifier_set_tick(struct classifier *c, unsigned long long now_ms)
{
	c->tick = now_ms;
}

void classifier_set_quiet(struct classifier *c, unsigned quiet_done,
			  unsigned quiet_open)
{
	c->quiet_done = quiet_done;
	c->quiet_open = quiet_open;
}

void classifier_set_settle(struct classifier *c, settle_fn settle, void *ctx)
{
	c->settle = settle;
	c->settle_ctx = ctx;
}

void classifier_set_hold(struct classifier *c, held_fn held, void *ctx)
{
	c->held = held;
	c->held_ctx = ctx;
}

size_t classifier_open_chains(const struct classifier *c)
{
	return c->nopen;
}

/* Whether this plog record starts another call rather than continuing the
 * chain: after the API boundary only trailer lines follow; a place in the
 * code met again means the call was made again, unless it is the line
 * just before (which often writes two lines) with other words (the same
 * words with other numbers are a retry: "attempt 3", then "attempt 4");
 * a long pause means so too, and so does a chain grown past what one call
 * writes (CHAIN_MAX_LINES, CHAIN_SPAN_USEC).  Only log time counts, never
 * when the lines arrive, so that a file read live and read whole give the
 * same chains. */
static int starts_new_call(const struct classifier *c, const struct chain *ch,
			   const struct record *rec, const struct facts *f)
{
	if (ch->boundary && !chain_has_role(f, ROLE_TRAILER))
		return 1;
	if (ch->inc->nlines + rec->nlines > CHAIN_MAX_LINES)
		return 1;
	if (rec->time != LOGTIME_UNKNOWN && ch->last != LOGTIME_UNKNOWN &&
	    (rec->time - ch->last > CHAIN_GAP_USEC || rec->time < ch->last - CHAIN_GAP_USEC))
		return 1;
	if (rec->time != LOGTIME_UNKNOWN && ch->inc->first != LOGTIME_UNKNOWN &&
	    rec->time - ch->inc->first > CHAIN_SPAN_USEC)
		return 1;
	if (!rec->srcloclen)
		return 0;
	uint32_t h = c->rh.loc;
	if (h == ch->lastloc)
		return c->rh.shape == ch->lastshape;
	for (size_t i = 0; i < ch->nlocs; i++)
		if (ch->locs[i] == h)
			return 1;
	return 0;
}

static int late_trailer(const struct classifier *c, const struct record *rec,
			const struct facts *f);

/* The log's time now: the median of the last three known times (see
 * struct classifier), or unknown before there are three. */
static logtime_t log_clock(const struct classifier *c)
{
	if (c->nrecent < 3)
		return LOGTIME_UNKNOWN;
	logtime_t a = c->recent[0], b = c->recent[1], d = c->recent[2];
	if (a > b) {
		logtime_t t = a;
		a = b;
		b = t;
	}
	/* a <= b: the median is b, unless d is below it. */
	return d >= b ? b : d >= a ? d : a;
}

static void note_time(struct classifier *c, long pid, logtime_t t)
{
	if (t == LOGTIME_UNKNOWN)
		return;
	if (pid != c->clock_pid) {
		c->clock_pid = pid;
		c->nrecent = 0;
	}
	c->recent[c->nrecent % 3] = t;
	if (++c->nrecent >= 6)
		c->nrecent -= 3;	/* stays >= 3, and the slot order holds */
}

#define SWEEP_SLACK_USEC 2000000

/* Whether a chain's last line at t may still be followed by a line of its
 * call, the log being at now. */
static int near(logtime_t t, logtime_t now)
{
	logtime_t far = CHAIN_GAP_USEC + SWEEP_SLACK_USEC;

	return t <= now + far && t + far >= now;
}

/* Chains whose last line is farther, in log time, from where the log is
 * now than any line of theirs could be (a line more than CHAIN_GAP_USEC
 * from the one before starts another call; the logger's batches of other
 * threads can be a little late) are done: closed now, so that a scan of
 * millions of calls holds only the few still being written.  A few are
 * looked at per sweep, the least recently fed first, of the process whose
 * line was fed last (another's clock says nothing of it).  The distance is
 * taken either way, from the log's time (a median) and from the last
 * line's: a clock that jumps (one line dated 2099, a clock set back)
 * neither closes the chain being written nor keeps every other one open. */
static void sweep(struct classifier *c)
{
	int looked = 0;
	logtime_t now = log_clock(c);

	if (now == LOGTIME_UNKNOWN)
		return;
	logtime_t last = c->recent[(c->nrecent - 1) % 3];
	for (struct chain *ch = LRU_CHAIN(c->lru.first), *next;
	     ch && looked < 64; ch = next, looked++) {
		next = LRU_CHAIN(ch->lru.next);
		if (ch->screen || ch->last == LOGTIME_UNKNOWN ||
		    ch->pid != c->clock_pid)
			continue;
		if (near(ch->last, now) || near(ch->last, last))
			break;
		if (ch->boundary)
			chain_bury(c, ch);
		chain_close(c, ch);
	}
}

/* The record (whose facts c->facts holds) joins the chain. */
static void chain_join(struct classifier *c, struct chain *ch,
		       const struct record *rec)
{
	const struct facts *f = &c->facts;

	chain_append(c, ch, rec);
	chain_merge_evidence(ch, f);
	if (chain_has_role(f, ROLE_BOUNDARY))
		ch->boundary = 1;
	ch->tick = c->tick;
	chain_touch(c, ch);
}

/* A record's continuation line that came late (struct record's late): the
 * chain gets its line and what the rules see in it, as if it had come
 * with its record. */
static void feed_late(struct classifier *c, const struct record *rec)
{
	size_t i;
	struct chain *ch = chain_find(c, rec, &i);

	if (ch && !ch->screen)
		chain_join(c, ch, rec);
}

static void feed_hashed(struct classifier *c, const struct record *rec)
{
	size_t i;
	struct chain *ch = chain_find(c, rec, &i);
	const struct facts *f = &c->facts;

	if (ch && starts_new_call(c, ch, rec, f)) {
		chain_close_at(c, i);
		ch = NULL;
	}
	if (!ch && late_trailer(c, rec, f))
		return;
	if (!ch)
		ch = chain_open(c, rec);
	if (ch->boundary)
		ch->trailer = 1;	/* only trailers follow it */
	chain_join(c, ch, rec);
	note_time(c, rec->pid, rec->time);
	if (++c->fed % 256 == 0)
		sweep(c);
}

/* The record's hashes are made once, for whether it starts a new call
 * and for the chain it joins, and forgotten after: the next record may
 * come at the same address. */
static void feed_plog(struct classifier *c, const struct record *rec)
{
	c->rh.rec = NULL;
	c->rh = chain_rec_hash(c, rec);
	feed_hashed(c, rec);
	c->rh.rec = NULL;
}

void classifier_set_facts(struct classifier *c, fact_fn fn, void *ctx)
{
	c->fact_emit = fn;
	c->fact_ctx = ctx;
}

void classifier_feed_facts(struct classifier *c, const struct record *rec)
{
	fact_read(c, rec);
}

void classifier_feed(struct classifier *c, const struct record *rec)
{
	/* Screen output goes through screen_feed(): a line of it means
	 * something only beside the blocks already open. */
	if (rec->level == LEVEL_SCREEN)
		return;
	/* An ERROR record may say a fact too (fact rules of that level);
	 * that changes nothing of its chain. */
	if (!rec->late)
		fact_read(c, rec);
	chain_read_facts(c, rec);
	if (rec->late)
		feed_late(c, rec);
	else
		feed_plog(c, rec);
}

void classifier_flush(struct classifier *c)
{
	while (c->nopen)
		chain_close_at(c, c->nopen - 1);
	/* The next stream starts afresh: its clock (an older process's
	 * lines must not look stale beside this one's), its sweeps and its
	 * tombstones, so that a stream reads the same whatever was read
	 * before it (and on whichever thread). */
	c->nrecent = 0;
	c->fed = 0;
	for (size_t i = 0; i < TOMBSTONES; i++) {
		free(c->tomb[i].name);
		c->tomb[i].name = NULL;
	}
	c->ntomb = 0;
}

void classifier_flush_but(struct classifier *c,
			  int (*keep)(void *ctx, const char *file), void *ctx)
{
	/* Closing slot i moves the last chain, already looked at, there. */
	for (size_t i = c->nopen; i-- > 0;) {
		const struct chain *ch = c->open[i];
		if (!keep(ctx, ch->file2 ? ch->file2 : ch->inc->file))
			chain_close_at(c, i);
	}
	size_t kept = c->nopen;
	c->nopen = 0;		/* only the stream's clocks start afresh */
	classifier_flush(c);
	c->nopen = kept;
}

static int chain_done(const struct chain *ch)
{
	return ch->screen ? ch->body : ch->boundary;
}

/* How long a chain waits for more after its last line: a chain still
 * without its API boundary, quiet_open (the rest may be in the logger's
 * next batch); one with its boundary, quiet_done; one with a trailer too,
 * from a writer of whole lines, only its settle time.  The CANN logger
 * writes a call's lines (the trailers 3 to 41 us after the boundary in
 * every real chain) into one buffer and the buffer with one write(2); a
 * call that the exchange of its buffers cuts has its rest in the next
 * write, 20 ms later at the soonest (its flush thread sleeps in steps of
 * 20 ms) and 200 ms later when the process logs less than 768 KiB in
 * that time, which no short wait catches: the tombstone then keeps the
 * late trailer from counting as a new failure. */
static unsigned long long deadline(const struct classifier *c,
				   const struct chain *ch)
{
	if (ch->screen)
		return ch->tick + (ch->body ? c->quiet_done : c->quiet_open);
	if (!ch->boundary)
		return ch->tick + c->quiet_open;
	unsigned settle = ch->trailer && c->settle && ch->lastfile
			  ? c->settle(c->settle_ctx, ch->lastfile) : 0;
	return ch->tick + (settle ? settle : c->quiet_done);
}

void classifier_expire(struct classifier *c, unsigned long long now_ms)
{
	for (size_t i = c->nopen; i-- > 0;) {
		struct chain *ch = c->open[i];
		if (deadline(c, ch) > now_ms)
			continue;
		if (c->held && ch->lastfile &&
		    c->held(c->held_ctx, ch->lastfile, now_ms)) {
			ch->tick = now_ms;	/* looked at again later */
			continue;
		}
		if (!ch->screen && ch->boundary)
			chain_bury(c, ch);
		chain_close_at(c, i);
	}
}

unsigned long long classifier_next_expiry(const struct classifier *c)
{
	unsigned long long next = 0;

	for (size_t i = 0; i < c->nopen; i++) {
		unsigned long long d = deadline(c, c->open[i]);
		if (!next || d < next)
			next = d;
	}
	return next;
}

/* A trailer of a call whose chain was closed for being quiet. */
static int late_trailer(const struct classifier *c, const struct record *rec,
			const struct facts *f)
{
	if (!chain_has_role(f, ROLE_TRAILER) || chain_has_role(f, ROLE_BOUNDARY))
		return 0;
	for (size_t i = 0; i < TOMBSTONES; i++) {
		const struct tombstone *t = &c->tomb[i];
		if (t->name && t->pid == rec->pid && t->tid == rec->tid &&
		    t->namelen == rec->namelen &&
		    memcmp(t->name, rec->name, rec->namelen) == 0 &&
		    (rec->time == LOGTIME_UNKNOWN || t->last == LOGTIME_UNKNOWN ||
		     (rec->time >= t->last &&
		      rec->time - t->last <= CHAIN_GAP_USEC)))
			return 1;
	}
	return 0;
}

/* ---- resume points ---- */

void classifier_set_line_off(struct classifier *c, unsigned long long off)
{
	c->line_off = off;
}

unsigned long long classifier_line_off(const struct classifier *c)
{
	return c->line_off;
}

void classifier_each_open(const struct classifier *c, open_line_fn fn,
			  void *ctx)
{
	for (size_t i = 0; i < c->nopen; i++) {
		const struct chain *ch = c->open[i];
		fn(ctx, ch->inc->file, ch->off, ch->inc->line);
		if (ch->file2)
			fn(ctx, ch->file2, ch->off2, ch->line2);
	}
}

void classifier_hold(struct classifier *c, int (*hold)(void *ctx,
		     const char *file, unsigned long long off,
		     unsigned long line), void *ctx)
{
	for (size_t i = c->nopen; i-- > 0;) {
		struct chain *ch = c->open[i];
		if (chain_done(ch) || !hold(ctx, ch->inc->file, ch->off,
					    ch->inc->line))
			continue;
		if (ch->file2)
			hold(ctx, ch->file2, ch->off2, ch->line2);
		if (!ch->screen)
			chain_unindex(c, ch);
		dlist_remove(&c->lru, &ch->lru);
		c->open[i] = c->open[--c->nopen];
		c->open[i]->slot = i;
		chain_free(ch);
	}
}
