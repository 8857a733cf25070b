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

#include "i18n.h"
#include "feeder.h"
#include "filetype.h"
#include "follow_int.h"
#include "logname.h"
#include "sanitize.h"
#include "xalloc.h"

/* A record is given to the classifier once its file has been quiet this
 * long: a header-less continuation comes in the same write. */
#define RECORD_QUIET_MS 10
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

	if (fw->o.take) {
		fw->o.take(fw->o.ctx, inc);
		return;
	}
	if (follow_given_before(fw, inc)) {
		incident_free(inc);
		return;
	}
	/* Captured output has no log time: read live, it happened about
	 * now, and counts in the 1-minute window (history keeps none). */
	if (inc->first == LOGTIME_UNKNOWN && !fw->o.once &&
	    !follower_reading_history(fw))
		inc->first = inc->last = logtime_now();
	/* Captured output has no log time: read live, it happened about
	 * now, and counts in the 1-minute window (history keeps none). */
	if (inc->first == LOGTIME_UNKNOWN && fw->m->live &&
	    !follower_reading_history(fw))
		inc->first = inc->last = logtime_now();
	model_add(fw->m, inc);
	fw->generation++;
	if (fw->o.on_incident)
		fw->o.on_incident(fw->o.ctx, inc);
}

void follow_say(const struct follower *fw, const char *path, const char *why)
{
	struct strbuf sb = STRBUF_INIT;

	/* Path names come from the file system: the sink sanitises them
	 * like logs. */
	sb_addf(&sb, "%s: %s", path, why);
	msglog_add(fw->o.log, sb.buf);
	sb_free(&sb);
}

/* Whether a tail's line being written may still continue the record it
 * holds back: for partial_ms after the line began. */
static int line_young(const struct follower *fw, const struct tail *t,
		      unsigned long long now)
{
	return linesplit_pending(&t->ls) &&
	       now < t->partial_since_ms + fw->partial_ms;
}

/* The classifier's question: whether a chain whose last line came from
 * file may still be continued by what that file holds back: a record
 * being assembled, or a line being written, for at most partial_ms since
 * that line began (a line redrawn for ever, a progress bar's, holds no
 * chain for ever; the line itself waits until its writer is silent). */
static int file_held(void *ctx, const char *file, unsigned long long now)
{
	struct follower *fw = ctx;
	const struct tail *t = fw->stdin_tail && fw->stdin_tail->path == file
			       ? fw->stdin_tail : follow_find_tail(fw, file);

	if (!t)
		return 0;
	return feeder_has_pending(t->feeder) || line_young(fw, t, now);
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
	classifier_set_quiet(fw->cl, QUIET_DONE_MS, QUIET_OPEN_MS);
	classifier_set_hold(fw->cl, file_held, fw);
	fw->partial_ms = PARTIAL_LIMIT_MS;
	const char *test_ms = getenv("PLOGTOP_TEST_PARTIAL_MS");
	if (test_ms && *test_ms) {
		char *end;
		unsigned long v = strtoul(test_ms, &end, 10);
		if (!*end && v > 0 && v <= PARTIAL_LIMIT_MS)
			fw->partial_ms = (unsigned)v;
	}
	fw->buf = xmalloc(READ_BUF);
	return fw;
}

void follower_free(struct follower *fw)
{
	if (!fw)
		return;
	for (size_t i = 0; i < TAIL_BUCKETS; i++) {
		struct tailnode *n = fw->bucket[i];
		while (n) {
			struct tailnode *next = n->next;
			free(n);
			n = next;
		}
	}
	for (size_t i = 0; i < fw->ntails; i++)
		tail_free(fw->tails[i]);
	free(fw->tails);
	if (fw->stdin_tail && !fw->o.once && fw->stdin_flags >= 0)
		fcntl(0, F_SETFL, fw->stdin_flags);
	tail_free(fw->stdin_tail);
	follow_free_dirs(fw);
	free(fw->dirty.v);
	free(fw->backlog.v);
	free(fw->pending.v);
	for (size_t i = 0; i < fw->nsingle; i++)
		free(fw->single[i].path);
	free(fw->single);
	follow_free_history(fw);
	follow_free_gone(fw);
	classifier_free(fw->cl);
	if (fw->ifd >= 0)
		close(fw->ifd);
	free(fw->buf);
	free(fw);
}

/* ---- files ---- */

static unsigned hash_path(const char *s)
{
	unsigned h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h % TAIL_BUCKETS;
}

struct tail *follow_find_tail(struct follower *fw, const char *path)
{
	for (struct tailnode *n = fw->bucket[hash_path(path)]; n; n = n->next)
		if (strcmp(n->t->path, path) == 0)
			return n->t;
	return NULL;
}

char *follow_dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return xstrdup(".");
	return slash == path ? xstrdup("/")
			     : xstrndup(path, (size_t)(slash - path));
}

struct tail *follow_add_tail(struct follower *fw, const char *path,
			     size_t root)
{
	struct tail *t = tail_new(model_intern(fw->m, path),
				  file_kind_of(path), fw->rs, fw->cl);
	struct tailnode *n = xmalloc(sizeof *n);
	unsigned h = hash_path(path);

	n->t = t;
	n->next = fw->bucket[h];
	fw->bucket[h] = n;
	t->root = root;
	/* Whether its directory is polled is known once, here. */
	char *dir = follow_dir_of(path);
	struct dir *d = follow_find_dir(fw, dir);
	t->polled = !d || d->wd < 0;
	free(dir);
	if (fw->ntails == fw->captails) {
		fw->captails = fw->captails ? 2 * fw->captails : 64;
		fw->tails = xrealloc(fw->tails, fw->captails * sizeof *fw->tails);
	}
	t->slot = fw->ntails;
	fw->tails[fw->ntails++] = t;
	fw->generation++;
	return t;
}

/* The follower's lists of tails: each tail knows by a flag of its own
 * whether it is on one, so adding is O(1) and happens once. */
static void list_add(struct taillist *l, int *on, struct tail *t)
{
	if (*on)
		return;
	*on = 1;
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 16;
		l->v = xrealloc(l->v, l->cap * sizeof *l->v);
	}
	l->v[l->n++] = t;
}

static void list_remove(struct taillist *l, int *on, struct tail *t)
{
	if (!*on)
		return;
	*on = 0;
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i] == t)
			l->v[i--] = l->v[--l->n];
}

/* Whether a tail holds something back: a record, or a line without its
 * newline yet.  Only those tails have timers, so only they are listed. */
static int holding(const struct tail *t)
{
	return feeder_has_pending(t->feeder) || linesplit_pending(&t->ls);
}

/* Another file's lines are about to be read: a record another file holds
 * back is complete (its continuation lines come in the same write), and
 * must reach the classifier first, or a chain that the logger's rotation
 * cut between two files would arrive out of order. */
static void flush_others(struct follower *fw, const struct tail *t)
{
	for (size_t i = 0; i < fw->pending.n;) {
		struct tail *o = fw->pending.v[i];
		if (o == t) {
			i++;
			continue;
		}
		/* A line still being written may continue its record. */
		if (!linesplit_pending(&o->ls))
			feeder_flush_quiet(o->feeder);
		if (holding(o)) {
			i++;
		} else {
			o->in_pending = 0;
			fw->pending.v[i] = fw->pending.v[--fw->pending.n];
		}
	}
}

static void note_pending(struct follower *fw, struct tail *t)
{
	if (!holding(t))
		return;
	list_add(&fw->pending, &t->in_pending, t);
}

static void forget_pending(struct follower *fw, struct tail *t)
{
	list_remove(&fw->pending, &t->in_pending, t);
}

void follow_drop_tail(struct follower *fw, struct tail *t)
{
	struct tailnode **pp = &fw->bucket[hash_path(t->path)];

	while (*pp && (*pp)->t != t)
		pp = &(*pp)->next;
	if (*pp) {
		struct tailnode *dead = *pp;
		*pp = dead->next;
		free(dead);
	}
	fw->tails[t->slot] = fw->tails[--fw->ntails];
	fw->tails[t->slot]->slot = t->slot;
	list_remove(&fw->dirty, &t->in_dirty, t);
	for (size_t i = 0; i < fw->nhist; i++)
		if (fw->hist[i].t == t)
			fw->hist[i].t = NULL;
	forget_pending(fw, t);
	list_remove(&fw->backlog, &t->in_backlog, t);
	follow_note_gone(fw, t);
	tail_flush(t);
	model_release_path(fw->m, t->path);
	tail_free(t);
	fw->generation++;
}

/* A file that was read is counted once, for the root it came from. */
void follow_count_read(struct follower *fw, struct tail *t)
{
	if (t->counted)
		return;
	t->counted = 1;
	fw->m->stats.files++;
	if (t->root < fw->m->nroots)
		fw->m->root_files[t->root]++;
}

static void skip_tail(struct follower *fw, struct tail *t)
{
	/* Kept, so that it is not looked at (and said) again. */
	forget_pending(fw, t);
	model_skip(fw->m, t->path, t->skip_why);
	/* A one-shot report lists them; a stream of incidents cannot. */
	if (!fw->o.once)
		follow_say(fw, t->path, t->skip_why);
	fw->generation++;
}

static void note_backlog(struct follower *fw, struct tail *t)
{
	list_add(&fw->backlog, &t->in_backlog, t);
}

/* Files with more to read than one budget: one more step each.  A file
 * that still has more after it goes to the end of the next round. */
static void read_backlog(struct follower *fw, unsigned long long now)
{
	struct taillist l = fw->backlog;

	fw->backlog = (struct taillist){ NULL, 0, 0 };
	for (size_t i = 0; i < l.n; i++) {
		/* Only reading a file can drop it, and then nothing here
		 * names it again. */
		l.v[i]->in_backlog = 0;
		follow_read_tail(fw, l.v[i], now);
	}
	free(l.v);
}

void follow_read_tail(struct follower *fw, struct tail *t,
		      unsigned long long now)
{
	if (t->in_history || t->skip_why)
		return;	/* read in its turn, in the history's order */
	classifier_set_tick(fw->cl, now);
	flush_others(fw, t);
	long long n = tail_read(t, fw->buf, READ_BUF,
				fw->o.once ? ~0ULL : READ_BUDGET, &fw->m->stats,
				now);
	/* A last line without its newline in a file nobody has written to
	 * for longer than a writer may pause mid-line (a file that simply
	 * ends so) is complete: it holds no chain back. */
	if (n >= 0 && !fw->o.once && !t->more && linesplit_pending(&t->ls) &&
	    t->idle_ms >= fw->partial_ms)
		tail_flush(t);
	if (n >= 0) {
		note_pending(fw, t);
		follow_count_read(fw, t);
	}
	if (n > 0) {
		fw->generation++;
		if (t->more)
			note_backlog(fw, t);	/* the rest next time */
	} else if (n < 0 && t->skip_why) {
		skip_tail(fw, t);
	} else if (n < 0 && errno == ENOENT) {
		follow_drop_tail(fw, t);
	} else if (n < 0) {
		follow_say(fw, t->path, strerror(errno));
		model_problem(fw->m, t->path, "%s", strerror(errno));
		follow_drop_tail(fw, t);
	}
}

int follow_is_named_file(const struct follower *fw, const char *path)
{
	for (size_t i = 0; i < fw->nsingle; i++)
		if (strcmp(fw->single[i].path, path) == 0)
			return 1;
	return 0;
}

/* A file found in a followed tree, or named on the command line: every
 * regular file is read (plog names as plog, any other as captured
 * output), and what is not read is said, with why. */
struct tail *follow_file_seen(struct follower *fw, const char *path,
			      size_t root, int regular,
			      unsigned long long now)
{
	struct tail *t = follow_find_tail(fw, path);

	if (!t) {
		struct stat sb;
		const char *why = NULL;
		/* A directory listing that says "regular" spares a stat: on
		 * a tree of thousands of files, stat calls are much of the
		 * cost.  Reading checks again (fstat) anyway. */
		if (!regular) {
			if (stat(path, &sb) < 0)
				return NULL;	/* gone, or a dangling link */
			why = S_ISDIR(sb.st_mode)
			      ? N_("a link to a directory, not followed")
			      : filetype_not_regular(&sb);
		}
		t = follow_add_tail(fw, path, root);
		if (why) {
			t->skip_why = why;
			skip_tail(fw, t);
			return t;
		}
		if (!fw->started)
			return t;	/* the history is read in order later */
		follow_resume_tail(fw, t);
	}
	follow_read_tail(fw, t, now);
	return t;
}

/* ---- events ---- */

/* A file is read once per batch of events, however many it had. */
void follow_mark_dirty(struct follower *fw, struct tail *t)
{
	list_add(&fw->dirty, &t->in_dirty, t);
}

void follow_read_dirty(struct follower *fw, unsigned long long now)
{
	/* follow_read_tail may drop a tail: take the list first. */
	while (fw->dirty.n) {
		struct tail *t = fw->dirty.v[--fw->dirty.n];
		t->in_dirty = 0;
		follow_read_tail(fw, t, now);
	}
}

static void read_stdin(struct follower *fw, unsigned long long now)
{
	struct tail *t = fw->stdin_tail;

	unsigned long long budget = READ_BUDGET;

	classifier_set_tick(fw->cl, now);
	/* A stream that never pauses (a flood, /dev/zero) is read a budget
	 * at a time: poll says it is ready again, and signals get their turn
	 * in between. */
	while (budget >= READ_BUF) {
		budget -= READ_BUF;
		ssize_t n = read(0, fw->buf, READ_BUF);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return;
		if (n <= 0 || tail_feed(t, fw->buf, (size_t)n, &fw->m->stats,
					now) < 0) {
			if (n < 0)
				follow_say(fw, _("standard input"), strerror(errno));
			if (t->skip_why) {
				model_skip(fw->m, t->path, t->skip_why);
				follow_say(fw, _("standard input"), t->skip_why);
			}
			tail_flush(t);
			t->stdin_eof = 1;
			return;
		}
		follow_count_read(fw, t);
		fw->generation++;
		note_pending(fw, t);
	}
}

static unsigned poll_interval(const struct follower *fw)
{
	return fw->o.poll_ms ? fw->o.poll_ms : 1000;
}

/* Records and last lines whose writer has gone quiet are given out. */
static void flush_quiet(struct follower *fw, unsigned long long now)
{
	classifier_set_tick(fw->cl, now);
	for (size_t i = 0; i < fw->pending.n;) {
		struct tail *t = fw->pending.v[i];
		if (feeder_has_pending(t->feeder) && !line_young(fw, t, now) &&
		    now >= t->last_ms + RECORD_QUIET_MS)
			feeder_flush_quiet(t->feeder);
		if (linesplit_pending(&t->ls) &&
		    now >= t->last_ms + fw->partial_ms) {
			fw->m->stats.unfinished_lines++;
			tail_flush(t);
		}
		if (holding(t)) {
			i++;
		} else {
			t->in_pending = 0;
			fw->pending.v[i] = fw->pending.v[--fw->pending.n];
		}
	}
}

void follower_handle(struct follower *fw, int inotify_ready, int stdin_ready,
		     unsigned long long now)
{
	if (inotify_ready && fw->ifd >= 0)
		follow_read_events(fw, now);
	if (stdin_ready && fw->stdin_tail && !fw->stdin_tail->stdin_eof)
		read_stdin(fw, now);
	if (follow_any_polled(fw) && now >= fw->next_poll) {
		follow_poll_dirs(fw, now);
		fw->next_poll = now + poll_interval(fw);
	}
	read_backlog(fw, now);
	flush_quiet(fw, now);
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

	for (size_t i = 0; i < fw->pending.n; i++) {
		const struct tail *t = fw->pending.v[i];
		if (linesplit_pending(&t->ls))
			earliest(&next, t->last_ms + fw->partial_ms);
		if (feeder_has_pending(t->feeder))
			earliest(&next, line_young(fw, t, now)
					? t->partial_since_ms + fw->partial_ms
					: t->last_ms + RECORD_QUIET_MS);
	}
	if (follow_any_polled(fw))
		earliest(&next, fw->next_poll ? fw->next_poll : now);
	if (fw->backlog.n)
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
	return fw->stdin_tail && !fw->stdin_tail->stdin_eof ? 0 : -1;
}

int follower_finished(const struct follower *fw)
{
	return fw->stdin_tail && fw->stdin_tail->stdin_eof &&
	       fw->ntails == 0 && fw->ndirs == 0 && fw->nwaiting == 0;
}

void follower_flush(struct follower *fw)
{
	for (size_t i = 0; i < fw->ntails; i++)
		tail_flush(fw->tails[i]);
	if (fw->stdin_tail)
		tail_flush(fw->stdin_tail);
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

	for (size_t i = 0; i < fw->ntails; i++)
		if (!fw->tails[i]->skip_why)
			n++;
	return n;
}

int follower_settled(const struct follower *fw)
{
	if (classifier_open_chains(fw->cl))
		return 0;
	for (size_t i = 0; i < fw->pending.n; i++)
		if (holding(fw->pending.v[i]))
			return 0;
	return 1;
}

unsigned long follower_limit_hits(const struct follower *fw)
{
	return ruleset_limit_hits(fw->rs);
}

unsigned long long follower_generation(const struct follower *fw)
{
	return fw->generation;
}
