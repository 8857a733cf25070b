/* The live modes' side of the state file (--state) and of the cursor a
 * --hello stream gives (doc/json-schema.md, "The --follow stream").
 *
 * When they are written: the state once the history has been read, then
 * every STATE_INTERVAL_MS when something was read or counted, and when
 * plogtop ends (SIGTERM, SIGINT, SIGHUP, the end of the input); the
 * chains still open then are left to the next run, which reads them
 * from their first line.  A cursor line after the history, then at most
 * once a second when the positions moved, and one when plogtop ends. */
#include "config.h"

#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "fleet.h"
#include "i18n.h"
#include "live_int.h"
#include "state.h"
#include "stream.h"

#define CURSOR_EVERY_MS 1000
/* A cursor line is at most REMOTE_LINE_MAX (1 MiB) with its wrapper. */
#define CURSOR_MAX_BYTES ((1u << 20) - 192)

static void say(void *ctx, const char *text)
{
	struct live *lv = ctx;

	msglog_add(&lv->log, text);
}

int live_state_start(struct live *lv)
{
	int set_aside;

	lv->state_every = STATE_INTERVAL_MS;
	lv->state_lock = -1;
	if (!lv->o->state_file && !lv->o->resume_file)
		return 0;
	/* A state set aside is said; a service goes on counting afresh. */
	return state_open(lv->o->state_file, lv->o->resume_file, &lv->m,
			  &lv->prom, &lv->resume, &set_aside, &lv->state_lock,
			  &lv->log);
}

static unsigned long long generation(const struct live *lv)
{
	return follower_generation(lv->fw) + fleet_generation(lv->fleet) +
	       lv->m.generation;
}

void live_state_write(struct live *lv, unsigned long long now, int force)
{
	if (!lv->o->state_file)
		return;
	unsigned long long gen = generation(lv);
	if (!force && lv->state_written &&
	    !(now >= lv->state_at + lv->state_every &&
	      (gen != lv->state_gen || lv->state_failed)))
		return;
	struct position *pos;
	size_t n = follower_positions(lv->fw, &pos);
	struct strbuf err = STRBUF_INIT;
	lv->m.stats.match_limit_hits = follower_limit_hits(lv->fw);
	struct strbuf hosts = STRBUF_INIT;
	if (lv->fleet) {
		sb_adds(&hosts, "\"hosts\": ");
		fleet_save_state(lv->fleet, &hosts);
	}
	int rc = state_save(lv->o->state_file, &lv->m, &lv->prom, pos, n,
			    &lv->resume, hosts.buf, &err);
	sb_free(&hosts);
	free(pos);
	/* Told once per change, like the prom file's outcome. */
	if (rc < 0 && !lv->state_failed) {
		say(lv, err.buf);
		sb_reset(&lv->state_err);
		sb_add(&lv->state_err, err.buf, err.len);
	} else if (rc == 0 && lv->state_failed) {
		struct strbuf msg = STRBUF_INIT;
		sb_adds(&msg, lv->o->state_file);
		sb_adds(&msg, _(": written again"));
		say(lv, msg.buf);
		sb_free(&msg);
	}
	lv->state_failed = rc < 0;
	sb_free(&err);
	lv->state_gen = gen;
	lv->state_at = now;
	lv->state_written = 1;
}

void live_cursor_write(struct live *lv, unsigned long long now, int force)
{
	/* Forced at the end even while the history is read: a cursor is
	 * good at any point. */
	if (!lv->o->hello || lv->stop ||
	    (!force && follower_reading_history(lv->fw)))
		return;
	unsigned long long gen = follower_generation(lv->fw) +
				 lv->m.generation;
	if (!force && (gen == lv->cursor_gen ||
		       now < lv->cursor_at + CURSOR_EVERY_MS))
		return;
	struct position *pos;
	size_t n = follower_positions(lv->fw, &pos);
	struct strbuf cur = STRBUF_INIT;
	size_t left_out = positions_json(&cur, pos, n, &lv->resume,
					 state_now(), CURSOR_MAX_BYTES);
	free(pos);
	lv->cursor_gen = gen;
	lv->cursor_at = now;
	/* Files left out are read again whole after a resume: the reader
	 * then keeps every identity of the host to drop their overlap.
	 * Settled: nothing of the history is held back any more (no chain
	 * open, no line half written): a fleet's first prom file waits for
	 * this, so that it holds the host's history. */
	int settled = !follower_reading_history(lv->fw) &&
		      follower_settled(lv->fw);
	/* The identities as the positions leave them, before the cursor:
	 * a host's processes, devices and leaks reach the fleet's model. */
	/* What was read: a fleet's header shows its hosts' files and lines. */
	struct stream_read rd = {
		follower_files(lv->fw), lv->m.stats.lines, lv->m.stats.bytes
	};
	if (stream_identities(stdout, &lv->m, &lv->sent) < 0 ||
	    stream_cursor(stdout, cur.buf, cur.len, left_out != 0,
			  settled, &rd) < 0)
		lv->stop = 1;
	sb_free(&cur);
}

int live_state_timeout(const struct live *lv, unsigned long long now)
{
	int t = -1;
	unsigned long long gen = generation(lv);

	if (lv->o->state_file && lv->state_written &&
	    (gen != lv->state_gen || lv->state_failed)) {
		unsigned long long due = lv->state_at + lv->state_every;
		t = due <= now ? 0 : (int)(due - now);
	}
	if (lv->o->hello &&
	    follower_generation(lv->fw) + lv->m.generation != lv->cursor_gen &&
	    !follower_reading_history(lv->fw)) {
		unsigned long long due = lv->cursor_at + CURSOR_EVERY_MS;
		int c = due <= now ? 0 : (int)(due - now);
		if (t < 0 || c < t)
			t = c;
	}
	return t;
}

void live_state_free(struct live *lv)
{
	posset_free(&lv->resume);
	stream_sent_free(&lv->sent);
	sb_free(&lv->state_err);
	if (lv->state_lock >= 0)
		close(lv->state_lock);
	lv->state_lock = -1;
}
