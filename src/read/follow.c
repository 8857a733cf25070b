/* The follower's public side (follow.h), over the layers of
 * follow_int.h: set-up, a turn of the event loop, timeouts and the end,
 * and the classifier's callbacks. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "follow_int.h"
#include "ident.h"
#include "xalloc.h"

/* A line without its newline yet is being written: its writer may pause
 * (a full pipe, a stopped process, a slow disk) or write a byte at a
 * time, and the line, the record it may continue and the chain it may
 * continue all wait for it.  Only a writer silent this long in the middle
 * of a line (killed mid-line) has its line taken as it stands, counted in
 * the report (unfinished_lines).  PLOGTOP_TEST_PARTIAL_MS overrides it,
 * for the test suite only. */
#define PARTIAL_LIMIT_MS 30000
/* Chains: a complete one closes after QUIET_DONE ms without a new line;
 * one still waiting for its API boundary, probably in the logger's next
 * batch, after QUIET_OPEN ms. */
#define QUIET_DONE_MS 50
#define QUIET_OPEN_MS 2500

static void emit(void *ctx, struct incident *inc)
{
	struct follower *fw = ctx;

	if (fw->o.hand_over) {
		fw->o.hand_over(fw->o.ctx, inc);
		return;
	}
	if (follow_given_before(fw, inc)) {
		incident_free(inc);
		return;
	}
	model_add(fw->m, inc, follower_reading_history(fw) ? READ_BEFORE
							  : READ_AS_WRITTEN);
}

/* A fact the classifier read: the model's, or the reading thread's. */
static void on_fact(void *ctx, const struct fact *f)
{
	struct follower *fw = ctx;

	if (follow_fact_before(fw, f))
		return;
	if (fw->o.hand_over_fact) {
		fw->o.hand_over_fact(fw->o.ctx, fact_dup(f));
		return;
	}
	model_fact(fw->m, f);
}

/* The classifier's question: whether a chain whose last line came from
 * file may still be continued by what that file holds back: a record
 * being assembled, or a line being written, for at most partial_ms since
 * that line began (a line redrawn for ever, a progress bar's, holds no
 * chain for ever; the line itself waits until its writer is silent). */
static int file_held(void *ctx, const char *file, unsigned long long now)
{
	struct follower *fw = ctx;
	const struct tail *in = fw->rd.stdin_tail;
	const struct tail *t = in && in->path == file
			       ? in : tailtab_find(&fw->tt, file);

	return t && follow_held(fw, t, now);
}

/* The classifier's other question: how the file of a chain's last line
 * is written (follow_settle). */
static unsigned file_settle(void *ctx, const char *file)
{
	struct follower *fw = ctx;
	const struct tail *in = fw->rd.stdin_tail;
	const struct tail *t = in && in->path == file
			       ? in : tailtab_find(&fw->tt, file);

	return t ? follow_settle(t) : 0;
}

struct follower *follower_new(struct ruleset *rs, struct model *m,
			      const struct follow_opts *o, struct strbuf *err)
{
	struct follower *fw = xcalloc(1, sizeof *fw);

	fw->rs = rs;
	fw->m = m;
	fw->o = *o;
	fw->ifd = -1;
	if (!o->poll_ms && !o->once) {
		fw->ifd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
		if (fw->ifd < 0) {
			sb_addf(err, "inotify: %s (try --poll=SECONDS)",
				strerror(errno));
			free(fw);
			return NULL;
		}
	}
	fw->cl = classifier_new(rs, emit, fw);
	classifier_set_facts(fw->cl, on_fact, fw);
	classifier_set_quiet(fw->cl, QUIET_DONE_MS, QUIET_OPEN_MS);
	classifier_set_hold(fw->cl, file_held, fw);
	classifier_set_settle(fw->cl, file_settle, fw);
	fw->partial_ms = PARTIAL_LIMIT_MS;
	const char *test_ms = getenv("PLOGTOP_TEST_PARTIAL_MS");
	if (test_ms && *test_ms) {
		char *end;
		unsigned long v = strtoul(test_ms, &end, 10);
		if (!*end && v > 0 && v <= PARTIAL_LIMIT_MS)
			fw->partial_ms = (unsigned)v;
	}
	fw->buf = xmalloc(READ_BUF);
	fw->lastdir.fd = -1;
	fw->rd.on_drop = follow_history_forget;
	return fw;
}

void follower_free(struct follower *fw)
{
	if (!fw)
		return;
	tailtab_free(&fw->tt);
	follow_free_reading(fw);
	follow_free_dirs(fw);
	follow_free_history(fw);
	follow_free_gone(fw);
	classifier_free(fw->cl);
	if (fw->ifd >= 0)
		close(fw->ifd);
	free(fw->buf);
	if (fw->lastdir.fd >= 0)
		close(fw->lastdir.fd);
	free(fw->lastdir.path);
	free(fw);
}

static unsigned poll_interval(const struct follower *fw)
{
	return fw->o.poll_ms ? fw->o.poll_ms : 1000;
}

void follower_handle(struct follower *fw, int inotify_ready, int stdin_ready,
		     unsigned long long now)
{
	if (inotify_ready && fw->ifd >= 0)
		follow_read_events(fw, now);
	if (stdin_ready && fw->rd.stdin_tail && !fw->rd.stdin_tail->stdin_eof)
		follow_read_stdin(fw, now);
	if (follow_polling(fw) && now >= fw->next_poll) {
		follow_poll_dirs(fw, now);
		fw->next_poll = now + poll_interval(fw);
	}
	follow_read_backlog(fw, now);
	follow_flush_quiet(fw, now);
	/* While the history is read, chains end with their stream, as in
	 * a one-shot read, not with the clock. */
	if (!follower_reading_history(fw))
		classifier_expire(fw->cl, now);
}

static void earliest(unsigned long long *next, unsigned long long t)
{
	if (t && (!*next || t < *next))
		*next = t;
}

int follower_timeout(const struct follower *fw, unsigned long long now)
{
	unsigned long long next = classifier_next_expiry(fw->cl);

	earliest(&next, follow_read_due(fw, now));
	if (follow_polling(fw))
		earliest(&next, fw->next_poll ? fw->next_poll : now);
	if (fw->rd.backlog.n)
		return 0;
	if (!next)
		return -1;
	return next <= now ? 0 : (int)(next - now > INT_MAX ? INT_MAX
							    : next - now);
}

int follower_fd(const struct follower *fw)
{
	return fw->ifd;
}

int follower_stdin_fd(const struct follower *fw)
{
	return fw->rd.stdin_tail && !fw->rd.stdin_tail->stdin_eof ? 0 : -1;
}

int follower_finished(const struct follower *fw)
{
	return fw->rd.stdin_tail && fw->rd.stdin_tail->stdin_eof &&
	       fw->tt.n == 0 && fw->ds.n == 0 && fw->ds.nwaiting == 0;
}

void follower_flush(struct follower *fw)
{
	for (size_t i = 0; i < fw->tt.n; i++)
		tail_flush(fw->tt.v[i]);
	if (fw->rd.stdin_tail)
		tail_flush(fw->rd.stdin_tail);
	follow_hold_recent(fw);
	classifier_flush(fw->cl);
}

static int still_there(void *ctx, const char *file)
{
	struct stat sb;

	(void)ctx;
	return stat(file, &sb) == 0;
}

void follower_flush_gone(struct follower *fw)
{
	classifier_flush_but(fw->cl, still_there, NULL);
}

size_t follower_files(const struct follower *fw)
{
	return fw->m->stats.files;
}

size_t follower_watched(const struct follower *fw)
{
	size_t n = 0;

	for (size_t i = 0; i < fw->tt.n; i++)
		if (!fw->tt.v[i]->skip_why)
			n++;
	return n;
}

int follower_settled(const struct follower *fw)
{
	if (classifier_open_chains(fw->cl))
		return 0;
	for (size_t i = 0; i < fw->rd.pending.n; i++)
		if (follow_holding(fw->rd.pending.v[i]))
			return 0;
	return 1;
}

void follower_mark_history_end(struct follower *fw)
{
	for (size_t i = 0; i < fw->tt.n; i++)
		fw->tt.v[i]->history_lines = fw->tt.v[i]->ls.lineno;
}

int follower_of_history(const struct follower *fw, const char *file,
			unsigned long line)
{
	const struct tail *t = tailtab_find(&fw->tt, file);

	return t && t != fw->rd.stdin_tail && line <= t->history_lines;
}

unsigned long follower_limit_hits(const struct follower *fw)
{
	return ruleset_limit_hits(fw->rs);
}

unsigned long long follower_generation(const struct follower *fw)
{
	return fw->generation;
}
