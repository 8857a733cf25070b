#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include "classifier.h"
#include "feeder.h"
#include "follow.h"
#include "tail.h"
#include "xalloc.h"

#define READ_BUF (256 * 1024)
#define TAIL_BUCKETS 16384
/* A record is given to the classifier once its file has been quiet this
 * long: a header-less continuation comes in the same write. */
#define RECORD_QUIET_MS 30
/* A last line without its newline is taken as it is after this long. */
#define PARTIAL_QUIET_MS 5000
/* Chains: a complete one closes after QUIET_DONE ms without a new line;
 * one still waiting for its API boundary, probably in the logger's next
 * batch, after QUIET_OPEN ms. */
#define QUIET_DONE_MS 120
#define QUIET_OPEN_MS 2500

#define WATCH_MASK (IN_CREATE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | \
		    IN_MOVED_FROM | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF | \
		    IN_ATTRIB | IN_ONLYDIR)

struct tailnode {
	struct tail *t;
	struct tailnode *next;
};

enum dir_kind {
	DIR_TREE,	/* part of a followed tree: everything in it counts */
	DIR_WAITER,	/* the nearest parent of a root not there yet */
	DIR_SINGLE,	/* holds a file named on the command line, only */
};

struct dir {
	char *path;
	int wd;			/* -1: polled */
	int gone;
	enum dir_kind kind;
};

struct order {
	struct tail *t;
	long pid;
	unsigned long long stamp;
	char *dir;
};

struct follower {
	struct ruleset *rs;
	struct model *m;
	struct classifier *cl;
	struct follow_opts o;
	int ifd;
	char *buf;
	struct tailnode *bucket[TAIL_BUCKETS];
	struct tail **tails;	/* every followed file, in discovery order */
	size_t ntails, captails;
	struct dir **dirs;	/* pointers: a dir stays put as more are added */
	size_t ndirs;
	char **waiting;		/* roots that do not exist yet */
	size_t nwaiting;
	char **single;		/* files named on the command line */
	size_t nsingle;
	struct tail *stdin_tail;
	size_t nwatches;
	size_t npolled;		/* directories inotify does not cover */
	int warned_watches, warned_remote, warned_poll;
	unsigned long long next_poll;
	unsigned long long generation;
	int started;
	struct tail **dirty;	/* modified in this batch of events */
	size_t ndirty, capdirty;
	struct tail **pending;	/* holding back a record or a line */
	size_t npending, cappending;
	struct order *hist;	/* files whose history is still to read */
	size_t nhist, hpos;
	unsigned long long hist_bytes;
};

unsigned long long monotonic_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000 +
	       (unsigned long long)ts.tv_nsec / 1000000;
}

static void emit(void *ctx, struct incident *inc)
{
	struct follower *fw = ctx;

	model_add(fw->m, inc);
	fw->generation++;
	if (fw->o.on_incident)
		fw->o.on_incident(fw->o.ctx, inc);
}

/* Status messages go to stderr; reports and incidents to stdout. */
static void say(const char *path, const char *why)
{
	fprintf(stderr, "plogtop: %s: %s\n", path, why);
}

struct follower *follower_new(struct ruleset *rs, struct model *m,
			      const struct follow_opts *o, struct strbuf *err)
{
	struct follower *fw = xcalloc(1, sizeof *fw);

	fw->rs = rs;
	fw->m = m;
	fw->o = *o;
	fw->ifd = -1;
	if (!o->poll_ms) {
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
	tail_free(fw->stdin_tail);
	for (size_t i = 0; i < fw->ndirs; i++) {
		free(fw->dirs[i]->path);
		free(fw->dirs[i]);
	}
	free(fw->dirs);
	free(fw->dirty);
	free(fw->pending);
	for (size_t i = 0; i < fw->nwaiting; i++)
		free(fw->waiting[i]);
	free(fw->waiting);
	for (size_t i = 0; i < fw->nsingle; i++)
		free(fw->single[i]);
	free(fw->single);
	for (size_t i = 0; i < fw->nhist; i++)
		free(fw->hist[i].dir);
	free(fw->hist);
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

static struct tail *find_tail(struct follower *fw, const char *path)
{
	for (struct tailnode *n = fw->bucket[hash_path(path)]; n; n = n->next)
		if (strcmp(n->t->path, path) == 0)
			return n->t;
	return NULL;
}

static struct dir *find_dir_path(struct follower *fw, const char *path);

static struct tail *add_tail(struct follower *fw, const char *path,
			     enum file_kind kind)
{
	struct tail *t = tail_new(model_intern(fw->m, path), kind, fw->rs,
				  fw->cl);
	struct tailnode *n = xmalloc(sizeof *n);
	unsigned h = hash_path(path);

	n->t = t;
	n->next = fw->bucket[h];
	fw->bucket[h] = n;
	/* Whether its directory is polled is known once, here. */
	char *dir = xstrdup(path);
	char *slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	struct dir *d = find_dir_path(fw, slash ? (*dir ? dir : "/") : ".");
	t->polled = !d || d->wd < 0;
	free(dir);
	if (fw->ntails == fw->captails) {
		fw->captails = fw->captails ? 2 * fw->captails : 64;
		fw->tails = xrealloc(fw->tails, fw->captails * sizeof *fw->tails);
	}
	fw->tails[fw->ntails++] = t;
	fw->m->stats.files = fw->ntails;
	fw->generation++;
	return t;
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
	for (size_t i = 0; i < fw->npending;) {
		struct tail *o = fw->pending[i];
		if (o == t) {
			i++;
			continue;
		}
		feeder_flush(o->feeder);
		if (holding(o))
			i++;
		else
			fw->pending[i] = fw->pending[--fw->npending];
	}
}

static void note_pending(struct follower *fw, struct tail *t)
{
	if (!holding(t))
		return;
	for (size_t i = 0; i < fw->npending; i++)
		if (fw->pending[i] == t)
			return;
	if (fw->npending == fw->cappending) {
		fw->cappending = fw->cappending ? 2 * fw->cappending : 16;
		fw->pending = xrealloc(fw->pending,
				       fw->cappending * sizeof *fw->pending);
	}
	fw->pending[fw->npending++] = t;
}

static void forget_pending(struct follower *fw, const struct tail *t)
{
	for (size_t i = 0; i < fw->npending; i++)
		if (fw->pending[i] == t)
			fw->pending[i--] = fw->pending[--fw->npending];
}

static void drop_tail(struct follower *fw, struct tail *t)
{
	struct tailnode **pp = &fw->bucket[hash_path(t->path)];

	while (*pp && (*pp)->t != t)
		pp = &(*pp)->next;
	if (*pp) {
		struct tailnode *dead = *pp;
		*pp = dead->next;
		free(dead);
	}
	for (size_t i = 0; i < fw->ntails; i++) {
		if (fw->tails[i] == t) {
			fw->tails[i] = fw->tails[--fw->ntails];
			break;
		}
	}
	for (size_t i = 0; i < fw->ndirty; i++)
		if (fw->dirty[i] == t)
			fw->dirty[i--] = fw->dirty[--fw->ndirty];
	for (size_t i = 0; i < fw->nhist; i++)
		if (fw->hist[i].t == t)
			fw->hist[i].t = NULL;
	forget_pending(fw, t);
	tail_flush(t);
	tail_free(t);
	fw->m->stats.files = fw->ntails;
	fw->generation++;
}

static void read_tail(struct follower *fw, struct tail *t,
		      unsigned long long now)
{
	if (t->in_history)
		return;	/* read in its turn, in the history's order */
	classifier_set_tick(fw->cl, now);
	flush_others(fw, t);
	long long n = tail_read(t, fw->buf, READ_BUF, &fw->m->stats, now);
	if (n >= 0)
		note_pending(fw, t);
	if (n > 0) {
		fw->generation++;
	} else if (n < 0 && errno == ENOENT) {
		drop_tail(fw, t);
	} else if (n < 0) {
		say(t->path, strerror(errno));
		model_problem(fw->m, t->path, "%s", strerror(errno));
		drop_tail(fw, t);
	}
}

static int is_named_file(const struct follower *fw, const char *path)
{
	for (size_t i = 0; i < fw->nsingle; i++)
		if (strcmp(fw->single[i], path) == 0)
			return 1;
	return 0;
}

/* A file found in a watched directory: a plog file of the tree, or one
 * named on the command line. */
static void file_seen(struct follower *fw, const char *path,
		      unsigned long long now)
{
	struct tail *t = find_tail(fw, path);

	if (!t) {
		enum file_kind kind = file_kind_of(path);
		if (kind != FILE_PLOG && !is_named_file(fw, path))
			return;
		struct stat sb;
		if (stat(path, &sb) < 0 || !S_ISREG(sb.st_mode))
			return;
		t = add_tail(fw, path, kind);
		if (!fw->started)
			return;	/* the history is read in order later */
	}
	read_tail(fw, t, now);
}

/* ---- directories ---- */

static int remote_fs(const char *path)
{
	static const long remote[] = {
		0x6969,		/* NFS */
		0x517B,		/* SMB */
		(long)0xFF534D42,	/* CIFS */
		(long)0xFE534D42,	/* SMB2 */
		0x65735546,	/* FUSE */
		0x00C36400,	/* Ceph */
		0x01021997,	/* 9P */
		0x5346414F,	/* AFS */
		0x73757245,	/* Coda */
		0x47504653,	/* GPFS */
		0x0BD00BD0,	/* Lustre */
	};
	struct statfs sf;

	if (statfs(path, &sf) < 0)
		return 0;
	for (size_t i = 0; i < sizeof remote / sizeof remote[0]; i++)
		if ((long)sf.f_type == remote[i])
			return 1;
	return 0;
}

static struct dir *find_dir_path(struct follower *fw, const char *path)
{
	for (size_t i = 0; i < fw->ndirs; i++)
		if (!fw->dirs[i]->gone && strcmp(fw->dirs[i]->path, path) == 0)
			return fw->dirs[i];
	return NULL;
}

static struct dir *find_dir_wd(struct follower *fw, int wd)
{
	for (size_t i = 0; i < fw->ndirs; i++)
		if (!fw->dirs[i]->gone && fw->dirs[i]->wd == wd)
			return fw->dirs[i];
	return NULL;
}

/* Watches one directory, or says once why it will be polled instead. */
static int watch_dir(struct follower *fw, const char *path)
{
	if (fw->ifd < 0)
		return -1;
	if (remote_fs(path)) {
		if (!fw->warned_remote++)
			say(path, "a network or FUSE file system "
			    "does not report changes; polling it (and any "
			    "other such directory) instead");
		return -1;
	}
	int wd = -1;
	if (!fw->o.max_watches || fw->nwatches < fw->o.max_watches)
		wd = inotify_add_watch(fw->ifd, path, WATCH_MASK);
	else
		errno = ENOSPC;
	if (wd >= 0) {
		fw->nwatches++;
		return wd;
	}
	if (errno == ENOSPC) {
		if (!fw->warned_watches++)
			say(path, "out of inotify watches (see "
			    "/proc/sys/fs/inotify/max_user_watches); polling "
			    "this and further directories instead");
	} else {
		say(path, strerror(errno));
	}
	return -1;
}

static struct dir *new_dir(struct follower *fw, const char *path,
			   enum dir_kind kind)
{
	fw->dirs = xrealloc(fw->dirs, (fw->ndirs + 1) * sizeof *fw->dirs);
	struct dir *d = xcalloc(1, sizeof *d);
	fw->dirs[fw->ndirs++] = d;

	d->path = xstrdup(path);
	d->gone = 0;
	d->kind = kind;
	d->wd = watch_dir(fw, path);
	fw->npolled += d->wd < 0;
	fw->generation++;
	return d;
}

static void scan_dir(struct follower *fw, const char *path,
		     unsigned long long now, int depth);

/* Watches a directory and everything under it, then lists it: a file
 * created between the two is found by the listing. */
static void add_dir(struct follower *fw, const char *path,
		    unsigned long long now, int depth)
{
	struct dir *d = find_dir_path(fw, path);

	if (!d)
		d = new_dir(fw, path, DIR_TREE);
	else
		d->kind = DIR_TREE;
	scan_dir(fw, path, now, depth);
}

static void scan_dir(struct follower *fw, const char *path,
		     unsigned long long now, int depth)
{
	DIR *dp = opendir(path);

	if (!dp) {
		if (errno != ENOENT) {
			say(path, strerror(errno));
			model_problem(fw->m, path, "%s", strerror(errno));
		}
		return;
	}
	struct dirent *de;
	while ((de = readdir(dp)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		struct strbuf p = STRBUF_INIT;
		sb_addf(&p, "%s/%s", path, de->d_name);
		struct stat sb;
		struct dir *d = find_dir_path(fw, path);
		int tree = !d || d->kind == DIR_TREE;
		if (lstat(p.buf, &sb) == 0 && S_ISDIR(sb.st_mode)) {
			if (tree && depth < 64)
				add_dir(fw, p.buf, now, depth + 1);
		} else if (tree || is_named_file(fw, p.buf)) {
			file_seen(fw, p.buf, now);
		}
		sb_free(&p);
	}
	closedir(dp);
}

static void forget_dir(struct follower *fw, struct dir *d)
{
	size_t len = strlen(d->path);

	/* Its subdirectories went with it. */
	for (size_t i = 0; i < fw->ndirs; i++) {
		struct dir *s = fw->dirs[i];
		if (!s->gone && strncmp(s->path, d->path, len) == 0 &&
		    (s->path[len] == '/' || s->path[len] == '\0')) {
			if (s->wd >= 0 && fw->ifd >= 0) {
				inotify_rm_watch(fw->ifd, s->wd);
				fw->nwatches--;
			} else if (s->wd < 0) {
				fw->npolled--;
			}
			s->gone = 1;
		}
	}
}

/* ---- roots that do not exist yet ---- */

/* Watches the nearest directory of path that exists, for creations only:
 * one there is the root, or a step towards it. */
static void watch_nearest(struct follower *fw, const char *path)
{
	char *p = xstrdup(path);
	for (;;) {
		char *slash = strrchr(p, '/');
		if (!slash)
			break;
		*slash = '\0';
		const char *dir = *p ? p : "/";
		struct stat sb;
		if (stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode)) {
			if (!find_dir_path(fw, dir))
				new_dir(fw, dir, DIR_WAITER);
			break;
		}
	}
	free(p);
}

static void wait_for(struct follower *fw, const char *path)
{
	for (size_t i = 0; i < fw->nwaiting; i++)
		if (strcmp(fw->waiting[i], path) == 0)
			return;
	fw->waiting = xrealloc(fw->waiting,
			       (fw->nwaiting + 1) * sizeof *fw->waiting);
	fw->waiting[fw->nwaiting++] = xstrdup(path);
	watch_nearest(fw, path);
}

/* Roots that have appeared are taken up. */
static void check_waiting(struct follower *fw, unsigned long long now)
{
	for (size_t i = 0; i < fw->nwaiting;) {
		struct stat sb;
		char *root = fw->waiting[i];
		if (stat(root, &sb) == 0) {
			fw->waiting[i] = fw->waiting[--fw->nwaiting];
			if (S_ISDIR(sb.st_mode)) {
				add_dir(fw, root, now, 0);
			} else {
				struct tail *t = find_tail(fw, root);
				if (!t)
					t = add_tail(fw, root, file_kind_of(root));
				read_tail(fw, t, now);
			}
			free(root);
		} else {
			/* A step closer, perhaps.  A directory made between
			 * the look and the new watch sends no event: look
			 * again while the watches keep going deeper. */
			size_t before = fw->ndirs;
			watch_nearest(fw, root);
			if (fw->ndirs == before)
				i++;
		}
	}
}

/* ---- setting up ---- */

static char *clean_path(const char *path)
{
	char *p = xstrdup(path);
	size_t n = strlen(p);

	while (n > 1 && p[n - 1] == '/')
		p[--n] = '\0';
	return p;
}

void follower_add(struct follower *fw, const char *path)
{
	char *p = clean_path(path);
	struct stat sb;

	model_add_root(fw->m, path);
	if (strcmp(p, "-") == 0) {
		fw->stdin_tail = tail_new(model_intern(fw->m, "-"), FILE_MIXED,
					  fw->rs, fw->cl);
		fcntl(0, F_SETFL, fcntl(0, F_GETFL) | O_NONBLOCK);
	} else if (stat(p, &sb) < 0) {
		say(p, "not there yet; waiting for it to appear");
		wait_for(fw, p);
	} else if (S_ISDIR(sb.st_mode)) {
		add_dir(fw, p, 0, 0);
	} else {
		fw->single = xrealloc(fw->single,
				      (fw->nsingle + 1) * sizeof *fw->single);
		fw->single[fw->nsingle++] = xstrdup(p);
		char *dir = xstrdup(p);
		char *slash = strrchr(dir, '/');
		if (slash)
			*slash = '\0';
		const char *parent = slash ? (*dir ? dir : "/") : ".";
		if (!find_dir_path(fw, parent))
			new_dir(fw, parent, DIR_SINGLE);
		free(dir);
		if (!find_tail(fw, p))
			add_tail(fw, p, file_kind_of(p));
	}
	free(p);
}

static int order_cmp(const void *a, const void *b)
{
	const struct order *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (!x->pid) {
		int c = strcmp(x->dir, y->dir);
		if (c)
			return c;
	}
	if (x->stamp != y->stamp)
		return x->stamp < y->stamp ? -1 : 1;
	return strcmp(x->t->path, y->t->path);
}

/* The history is read as a one-shot scan reads a tree: a process's files
 * in the order of their stamps, and the chains of one process closed
 * before the next one's files are read.  It is read in steps, so that a
 * dashboard can show its progress. */
void follower_start(struct follower *fw, unsigned long long now_ms)
{
	size_t n = fw->ntails;
	struct order *v = xcalloc(n + 1, sizeof *v);

	for (size_t i = 0; i < n; i++) {
		struct stat sb;
		v[i].t = fw->tails[i];
		plog_name_parts(v[i].t->path, &v[i].pid, &v[i].stamp);
		v[i].dir = xstrdup(v[i].t->path);
		char *slash = strrchr(v[i].dir, '/');
		if (slash)
			*slash = '\0';
		if (stat(v[i].t->path, &sb) == 0)
			fw->hist_bytes += (unsigned long long)sb.st_size;
	}
	qsort(v, n, sizeof *v, order_cmp);
	fw->started = 1;
	/* A root may have appeared while the others were set up. */
	check_waiting(fw, now_ms);
	if (fw->o.skip_history) {
		for (size_t i = 0; i < n; i++) {
			tail_skip_to_end(v[i].t);
			free(v[i].dir);
		}
		free(v);
		n = 0;
		v = NULL;
		fw->hist_bytes = 0;
	} else {
		for (size_t i = 0; i < n; i++)
			v[i].t->in_history = 1;
	}
	fw->hist = v;
	fw->nhist = n;
	fw->hpos = 0;
	if (fw->ifd < 0 || fw->o.poll_ms)
		fw->next_poll = now_ms + fw->o.poll_ms;
}

static int same_process(const struct order *a, const struct order *b)
{
	return a->pid == b->pid && (a->pid || strcmp(a->dir, b->dir) == 0);
}

int follower_history_step(struct follower *fw, unsigned budget_ms)
{
	unsigned long long start = monotonic_ms();

	while (fw->hpos < fw->nhist) {
		struct order *o = &fw->hist[fw->hpos];
		if (fw->hpos > 0 && !same_process(o, &fw->hist[fw->hpos - 1]))
			classifier_flush(fw->cl);
		if (o->t) {
			struct tail *t = o->t;
			t->in_history = 0;
			read_tail(fw, t, monotonic_ms());
			/* read_tail may have dropped it (gone meanwhile). */
			if (fw->hist[fw->hpos].t)
				feeder_flush(t->feeder);
		}
		fw->hpos++;
		if (monotonic_ms() - start >= budget_ms)
			break;
	}
	if (fw->hpos < fw->nhist)
		return 1;
	for (size_t i = 0; i < fw->nhist; i++)
		free(fw->hist[i].dir);
	free(fw->hist);
	fw->hist = NULL;
	fw->nhist = fw->hpos = 0;
	return 0;
}

int follower_reading_history(const struct follower *fw)
{
	return fw->hpos < fw->nhist;
}

void follower_history_progress(const struct follower *fw, size_t *files,
			       size_t *files_total,
			       unsigned long long *bytes,
			       unsigned long long *bytes_total)
{
	*files = fw->hpos;
	*files_total = fw->nhist;
	*bytes = fw->m->stats.bytes;
	*bytes_total = fw->hist_bytes;
}

/* ---- events ---- */

/* A file is read once per batch of events, however many it had. */
static void mark_dirty(struct follower *fw, struct tail *t)
{
	for (size_t i = 0; i < fw->ndirty; i++)
		if (fw->dirty[i] == t)
			return;
	if (fw->ndirty == fw->capdirty) {
		fw->capdirty = fw->capdirty ? 2 * fw->capdirty : 64;
		fw->dirty = xrealloc(fw->dirty, fw->capdirty * sizeof *fw->dirty);
	}
	fw->dirty[fw->ndirty++] = t;
}

static void read_dirty(struct follower *fw, unsigned long long now)
{
	/* read_tail may drop a tail: take the list first. */
	while (fw->ndirty)
		read_tail(fw, fw->dirty[--fw->ndirty], now);
}

static void dir_event(struct follower *fw, struct dir *d,
		      const struct inotify_event *ev, unsigned long long now)
{
	if (ev->mask & (IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED)) {
		char *path = xstrdup(d->path);
		forget_dir(fw, d);
		/* A root that goes away is waited for again. */
		for (size_t i = 0; i < fw->m->nroots; i++)
			if (strcmp(fw->m->roots[i], path) == 0)
				wait_for(fw, path);
		free(path);
		return;
	}
	if (!ev->len)
		return;
	if (fw->nwaiting && (ev->mask & (IN_CREATE | IN_MOVED_TO)))
		check_waiting(fw, now);
	if (d->kind == DIR_WAITER)
		return;
	struct strbuf p = STRBUF_INIT;
	sb_addf(&p, "%s/%s", d->path, ev->name);
	if (d->kind == DIR_SINGLE && !is_named_file(fw, p.buf)) {
		sb_free(&p);
		return;
	}
	if (ev->mask & IN_ISDIR) {
		if (ev->mask & (IN_CREATE | IN_MOVED_TO)) {
			if (!find_dir_path(fw, p.buf))
				add_dir(fw, p.buf, now, 1);
		} else if (ev->mask & (IN_DELETE | IN_MOVED_FROM)) {
			struct dir *sub = find_dir_path(fw, p.buf);
			if (sub)
				forget_dir(fw, sub);
		}
	} else if (ev->mask & (IN_DELETE | IN_MOVED_FROM)) {
		struct tail *t = find_tail(fw, p.buf);
		if (t)
			drop_tail(fw, t);
	} else {
		struct tail *t = find_tail(fw, p.buf);
		if (t)
			mark_dirty(fw, t);
		else
			file_seen(fw, p.buf, now);
	}
	sb_free(&p);
}

/* Everything is looked at again: after a lost event nothing is lost,
 * since files are read from their offsets, and nothing is counted twice. */
static void rescan_all(struct follower *fw, unsigned long long now)
{
	for (size_t i = 0; i < fw->ndirs; i++)
		if (!fw->dirs[i]->gone)
			scan_dir(fw, fw->dirs[i]->path, now, 1);
	for (size_t i = fw->ntails; i-- > 0;)
		read_tail(fw, fw->tails[i], now);
	check_waiting(fw, now);
}

static void read_events(struct follower *fw, unsigned long long now)
{
	char buf[64 * 1024] __attribute__((aligned(__alignof__(struct inotify_event))));

	for (;;) {
		ssize_t n = read(fw->ifd, buf, sizeof buf);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		for (char *p = buf; p < buf + n;) {
			const struct inotify_event *ev = (const void *)p;
			p += sizeof *ev + ev->len;
			if (ev->mask & IN_Q_OVERFLOW) {
				rescan_all(fw, now);
				continue;
			}
			struct dir *d = find_dir_wd(fw, ev->wd);
			if (d)
				dir_event(fw, d, ev, now);
		}
		read_dirty(fw, now);
	}
}

static void read_stdin(struct follower *fw, unsigned long long now)
{
	struct tail *t = fw->stdin_tail;

	classifier_set_tick(fw->cl, now);
	for (;;) {
		ssize_t n = read(0, fw->buf, READ_BUF);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return;
		if (n <= 0) {
			tail_flush(t);
			t->stdin_eof = 1;
			return;
		}
		unsigned long before = t->ls.lineno;
		linesplit_feed(&t->ls, fw->buf, (size_t)n);
		fw->m->stats.bytes += (unsigned long long)n;
		fw->m->stats.lines += t->ls.lineno - before;
		t->last_ms = now;
		fw->generation++;
		note_pending(fw, t);
	}
}

static int polled(const struct follower *fw, const struct dir *d)
{
	return fw->ifd < 0 || d->wd < 0;
}

static void poll_dirs(struct follower *fw, unsigned long long now)
{
	for (size_t i = 0; i < fw->ndirs; i++)
		if (!fw->dirs[i]->gone && polled(fw, fw->dirs[i]))
			scan_dir(fw, fw->dirs[i]->path, now, 1);
	/* Files in polled directories: read what grew (a tail reads
	 * nothing when nothing was appended). */
	for (size_t i = fw->ntails; i-- > 0;) {
		struct tail *t = fw->tails[i];
		struct stat sb;
		/* Only a file that changed is opened. */
		if (t->polled &&
		    (stat(t->path, &sb) < 0 || sb.st_size != t->offset ||
		     sb.st_ino != t->ino || sb.st_dev != t->dev))
			read_tail(fw, t, now);
	}
	check_waiting(fw, now);
}

static int any_polled(const struct follower *fw)
{
	return fw->npolled > 0 || (fw->nwaiting > 0 && fw->ifd < 0);
}

static unsigned poll_interval(const struct follower *fw)
{
	return fw->o.poll_ms ? fw->o.poll_ms : 1000;
}

/* Records and last lines whose writer has gone quiet are given out. */
static void flush_quiet(struct follower *fw, unsigned long long now)
{
	classifier_set_tick(fw->cl, now);
	for (size_t i = 0; i < fw->npending;) {
		struct tail *t = fw->pending[i];
		if (feeder_has_pending(t->feeder) &&
		    now >= t->last_ms + RECORD_QUIET_MS)
			feeder_flush(t->feeder);
		if (linesplit_pending(&t->ls) &&
		    now >= t->last_ms + PARTIAL_QUIET_MS)
			tail_flush(t);
		if (holding(t))
			i++;
		else
			fw->pending[i] = fw->pending[--fw->npending];
	}
}

void follower_handle(struct follower *fw, int inotify_ready, int stdin_ready,
		     unsigned long long now)
{
	if (inotify_ready && fw->ifd >= 0)
		read_events(fw, now);
	if (stdin_ready && fw->stdin_tail && !fw->stdin_tail->stdin_eof)
		read_stdin(fw, now);
	if (any_polled(fw) && now >= fw->next_poll) {
		poll_dirs(fw, now);
		fw->next_poll = now + poll_interval(fw);
	}
	flush_quiet(fw, now);
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

	for (size_t i = 0; i < fw->npending; i++) {
		const struct tail *t = fw->pending[i];
		if (feeder_has_pending(t->feeder))
			earliest(&next, t->last_ms + RECORD_QUIET_MS);
		if (linesplit_pending(&t->ls))
			earliest(&next, t->last_ms + PARTIAL_QUIET_MS);
	}
	if (any_polled(fw))
		earliest(&next, fw->next_poll ? fw->next_poll : now);
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
	classifier_flush(fw->cl);
}

size_t follower_files(const struct follower *fw)
{
	return fw->ntails;
}

unsigned long long follower_generation(const struct follower *fw)
{
	return fw->generation;
}
