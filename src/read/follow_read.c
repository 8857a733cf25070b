/* Reading the followed files as they grow, and standard input: each
 * read a budget at a time, records and lines held back until their
 * writer has gone quiet, and what cannot be read said. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "feeder.h"
#include "filetype.h"
#include "follow_int.h"
#include "i18n.h"
#include "logname.h"
#include "rules.h"
#include "xalloc.h"

/* A record is given to the classifier once its file has been quiet this
 * long: a header-less continuation comes in the same write. */
#define RECORD_QUIET_MS 10
/* The same for a file whose writer writes whole lines (no read has ended
 * inside a line, as none does of the CANN logger's files: it writes its
 * buffer of whole lines with one write(2)); a chain of it that has its
 * trailer closes this long after its last line came, not QUIET_DONE_MS
 * (classifier_set_settle).  What it waits for: the rest of a write that
 * a read overtook as it was being made, or the next line of a writer
 * that writes a line at a time. */
#define WHOLE_QUIET_MS 5

static int whole_lines(const struct tail *t)
{
	return !t->cuts_lines && !t->floods && !t->packed;
}

static unsigned record_quiet(const struct tail *t)
{
	return whole_lines(t) ? WHOLE_QUIET_MS : RECORD_QUIET_MS;
}

/* When the records a tail gives the classifier next came.  A record given
 * out for quiet came with its file's last bytes; for a writer of whole
 * lines its chain's wait counts from then, so that the record's wait and
 * the chain's overlap. */
static void feed_from(struct follower *fw, const struct tail *t,
		      unsigned long long now, int quiet)
{
	classifier_set_tick(fw->cl, quiet && whole_lines(t) ? t->last_ms : now);
}

unsigned follow_settle(const struct tail *t)
{
	return whole_lines(t) ? WHOLE_QUIET_MS : 0;
}

/* How the writer wrote what a read of n bytes got: a read that ended at
 * the end of what was written (at_end), inside a line, was of a writer
 * that cuts lines. */
static void note_pace(struct tail *t, long long n, int at_end)
{
	if (n <= 0)
		return;
	t->floods = n >= READ_BUF;
	if (at_end && linesplit_pending(&t->ls))
		t->cuts_lines = 1;
}

/* Whether a tail's line being written may still continue the record it
 * holds back: for partial_ms after the line began. */
static int line_young(const struct follower *fw, const struct tail *t,
		      unsigned long long now)
{
	return linesplit_pending(&t->ls) &&
	       now < t->partial_since_ms + fw->partial_ms;
}

struct tail *follow_add_tail(struct follower *fw, const char *path,
			     size_t root, int unwatched)
{
	return follow_add_tail_kept(fw, model_intern(fw->m, path), root,
				    unwatched);
}

struct tail *follow_add_tail_kept(struct follower *fw, const char *path,
				  size_t root, int unwatched)
{
	struct tail *t = tail_new(path,
				  file_kind_of(ruleset_lognames(fw->rs), path),
				  fw->rs, fw->cl);

	/* A pod's tree names its host when its first file is found, so
	 * that a pod with nothing wrong is listed too (model_pathhost.c);
	 * the history's files in the plan's order (follow_history.c). */
	if (fw->started)
		model_path_seen(fw->m, t->path);
	t->root = root;
	t->may_pack = 1;
	t->at_start = !fw->started;
	/* Whether its directory is polled is known once, here. */
	t->unwatched = unwatched;
	tailtab_insert(&fw->tt, t);
	fw->generation++;
	return t;
}

/* The follower's lists of tails: each tail knows by a flag of its own
 * whether it is on one, so adding is O(1) and happens once. */
static void list_add(struct taillist *l, unsigned char *on,
		     struct tail *t)
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

static void list_remove(struct taillist *l, unsigned char *on,
			struct tail *t)
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
int follow_holding(const struct tail *t)
{
	return feeder_has_pending(t->feeder) || linesplit_pending(&t->ls);
}

/* Another file's lines are about to be read: a record another file holds
 * back is complete (its continuation lines come in the same write), and
 * must reach the classifier first, or a chain that the logger's rotation
 * cut between two files would arrive out of order. */
static void flush_others(struct follower *fw, const struct tail *t,
			 unsigned long long now)
{
	for (size_t i = 0; i < fw->rd.pending.n;) {
		struct tail *o = fw->rd.pending.v[i];
		if (o == t) {
			i++;
			continue;
		}
		/* A line still being written may continue its record. */
		if (!linesplit_pending(&o->ls)) {
			feed_from(fw, o, now, 1);
			feeder_flush_quiet(o->feeder);
		}
		if (follow_holding(o)) {
			i++;
		} else {
			o->in_pending = 0;
			struct taillist *l = &fw->rd.pending;
			l->v[i] = l->v[--l->n];
		}
	}
}

static void note_pending(struct follower *fw, struct tail *t)
{
	if (!follow_holding(t))
		return;
	list_add(&fw->rd.pending, &t->in_pending, t);
}

static void forget_pending(struct follower *fw, struct tail *t)
{
	list_remove(&fw->rd.pending, &t->in_pending, t);
}

void follow_drop_tail(struct follower *fw, struct tail *t)
{
	tailtab_remove(&fw->tt, t);
	list_remove(&fw->rd.dirty, &t->in_dirty, t);
	if (fw->rd.on_drop)
		fw->rd.on_drop(fw, t);
	forget_pending(fw, t);
	list_remove(&fw->rd.backlog, &t->in_backlog, t);
	follow_note_gone(fw, t);
	tail_flush(t);
	model_release_path(fw->m, t->path);
	tail_free(t);
	fw->generation++;
}

/* Swept this many at a time: a sweep walks every tail. */
#define LET_GO_BATCH 4096

int follow_let_go(struct follower *fw, struct tail *t)
{
	if (!fw->o.once || fw->o.resume_for || t->let_go || t->more ||
	    t->pk || t->packed || t->skip_why || t == fw->rd.stdin_tail ||
	    t->in_dirty || t->in_pending || t->in_backlog ||
	    follow_holding(t))
		return 0;
	t->let_go = 1;
	if (++fw->rd.nlet_go >= LET_GO_BATCH) {
		tailtab_sweep(&fw->tt);
		fw->rd.nlet_go = 0;
	}
	return 1;
}

static void skip_tail(struct follower *fw, struct tail *t)
{
	/* Kept, so that it is not looked at (and said) again. */
	forget_pending(fw, t);
	model_skip(fw->m, t->path, t->skip_why);
	/* A one-shot report lists them; a stream of incidents cannot. */
	if (!fw->o.once)
		msglog_about(fw->o.log, t->path, t->skip_why);
	fw->generation++;
}

static void note_backlog(struct follower *fw, struct tail *t)
{
	list_add(&fw->rd.backlog, &t->in_backlog, t);
}

/* Files with more to read than one budget: one more step each.  A file
 * that still has more after it goes to the end of the next round. */
void follow_read_backlog(struct follower *fw, unsigned long long now)
{
	struct taillist l = fw->rd.backlog;

	fw->rd.backlog = (struct taillist){ NULL, 0, 0 };
	for (size_t i = 0; i < l.n; i++) {
		/* Only reading a file can drop it, and then nothing here
		 * names it again. */
		l.v[i]->in_backlog = 0;
		follow_read_tail(fw, l.v[i], now);
	}
	free(l.v);
}

/* --once: an open descriptor of t's directory, or -1 (then its path is
 * opened).  Only --once: it reads a listing just made, while a live
 * follower's directory may be replaced under the same name. */
static int once_dir(struct follower *fw, const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!fw->o.once || !slash || slash == path)
		return -1;
	size_t len = (size_t)(slash - path);
	if (fw->lastdir.path && fw->lastdir.len == len &&
	    memcmp(fw->lastdir.path, path, len) == 0)
		return fw->lastdir.fd;
	if (fw->lastdir.fd >= 0)
		close(fw->lastdir.fd);
	free(fw->lastdir.path);
	fw->lastdir.path = xmemdup(path, len + 1);
	fw->lastdir.path[len] = '\0';
	fw->lastdir.len = len;
	/* A failure here is said by the open of the file's own path. */
	fw->lastdir.fd = open(fw->lastdir.path,
			      O_PATH | O_DIRECTORY | O_CLOEXEC);
	return fw->lastdir.fd;
}

void follow_read_tail(struct follower *fw, struct tail *t,
		      unsigned long long now)
{
	if (t->in_history || t->skip_why || t->packed_done)
		return;	/* read in its turn, in the history's order */
	flush_others(fw, t, now);
	feed_from(fw, t, now, 0);
	long long n = t->packed ? -1
		      : tail_read(t, once_dir(fw, t->path), fw->buf,
				  READ_BUF, fw->o.once ? ~0ULL : READ_BUDGET,
				  &fw->m->stats, now);
	note_pace(t, n, !t->more);
	if (n < 0 && t->packed) {
		follow_read_packed(fw, t, now);
		if (t->more)
			note_backlog(fw, t);
		return;
	}
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
		msglog_about(fw->o.log, t->path, strerror(errno));
		model_problem(fw->m, t->path, "%s", strerror(errno));
		follow_drop_tail(fw, t);
	}
}

/* A file found in a followed tree, or named on the command line: every
 * regular file is read (plog names as plog, any other as captured
 * output), and what is not read is said, with why. */
struct tail *follow_file_seen(struct follower *fw, const char *path,
			      size_t root, int regular, int unwatched,
			      unsigned long long now)
{
	struct tail *t = tailtab_find(&fw->tt, path);

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
		t = follow_add_tail(fw, path, root, unwatched);
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

/* A file is read once per batch of events, however many it had. */
void follow_mark_dirty(struct follower *fw, struct tail *t)
{
	list_add(&fw->rd.dirty, &t->in_dirty, t);
}

void follow_read_dirty(struct follower *fw, unsigned long long now)
{
	/* follow_read_tail may drop a tail: take the list first. */
	while (fw->rd.dirty.n) {
		struct tail *t = fw->rd.dirty.v[--fw->rd.dirty.n];
		t->in_dirty = 0;
		follow_read_tail(fw, t, now);
	}
}

void follow_read_stdin(struct follower *fw, unsigned long long now)
{
	struct tail *t = fw->rd.stdin_tail;

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
				msglog_about(fw->o.log, _("standard input"),
					     strerror(errno));
			if (t->skip_why) {
				model_skip(fw->m, t->path, t->skip_why);
				msglog_about(fw->o.log, _("standard input"),
					     t->skip_why);
			}
			tail_flush(t);
			t->stdin_eof = 1;
			return;
		}
		/* A pipe's read ends where its writer's write did, or at
		 * the pipe's size. */
		note_pace(t, n, (size_t)n < READ_BUF);
		follow_count_read(fw, t);
		fw->generation++;
		note_pending(fw, t);
	}
}

void follow_flush_quiet(struct follower *fw, unsigned long long now)
{
	for (size_t i = 0; i < fw->rd.pending.n;) {
		struct tail *t = fw->rd.pending.v[i];
		if (feeder_has_pending(t->feeder) && !line_young(fw, t, now) &&
		    now >= t->last_ms + record_quiet(t)) {
			feed_from(fw, t, now, 1);
			feeder_flush_quiet(t->feeder);
		}
		if (linesplit_pending(&t->ls) &&
		    now >= t->last_ms + fw->partial_ms) {
			feed_from(fw, t, now, 0);
			fw->m->stats.unfinished_lines++;
			tail_flush(t);
		}
		if (follow_holding(t)) {
			i++;
		} else {
			t->in_pending = 0;
			struct taillist *l = &fw->rd.pending;
			l->v[i] = l->v[--l->n];
		}
	}
	classifier_set_tick(fw->cl, now);
}

int follow_held(const struct follower *fw, const struct tail *t,
		unsigned long long now)
{
	return feeder_has_pending(t->feeder) || line_young(fw, t, now);
}

static void earliest(unsigned long long *next, unsigned long long t)
{
	if (t && (!*next || t < *next))
		*next = t;
}

unsigned long long follow_read_due(const struct follower *fw,
				   unsigned long long now)
{
	unsigned long long next = 0;

	for (size_t i = 0; i < fw->rd.pending.n; i++) {
		const struct tail *t = fw->rd.pending.v[i];
		if (linesplit_pending(&t->ls))
			earliest(&next, t->last_ms + fw->partial_ms);
		if (feeder_has_pending(t->feeder))
			earliest(&next, line_young(fw, t, now)
					? t->partial_since_ms + fw->partial_ms
					: t->last_ms + record_quiet(t));
	}
	return next;
}

void follow_open_stdin(struct follower *fw, size_t root)
{
	fw->rd.stdin_tail = tail_new(model_intern(fw->m, "-"), FILE_MIXED,
				     fw->rs, fw->cl);
	fw->rd.stdin_tail->root = root;
	/* Non-blocking while followed, as it was when plogtop ends: the
	 * shell that ran it shares the file description. */
	fw->rd.stdin_flags = fcntl(0, F_GETFL);
	if (!fw->o.once && fw->rd.stdin_flags >= 0)
		fcntl(0, F_SETFL, fw->rd.stdin_flags | O_NONBLOCK);
}

void follow_free_reading(struct follower *fw)
{
	if (fw->rd.stdin_tail && !fw->o.once && fw->rd.stdin_flags >= 0)
		fcntl(0, F_SETFL, fw->rd.stdin_flags);
	tail_free(fw->rd.stdin_tail);
	free(fw->rd.dirty.v);
	free(fw->rd.backlog.v);
	free(fw->rd.pending.v);
}
