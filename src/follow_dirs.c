/* The follower's directories: which are watched with inotify and which
 * polled, what their events mean, and roots that do not exist yet. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "i18n.h"
#include "follow_int.h"
#include "xalloc.h"

#define WATCH_MASK (IN_CREATE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | \
		    IN_MOVED_FROM | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF | \
		    IN_ATTRIB | IN_ONLYDIR)

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

static unsigned path_bucket(const char *s)
{
	unsigned h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h % DIR_BUCKETS;
}

static unsigned wd_bucket(int wd)
{
	return (unsigned)wd % DIR_BUCKETS;
}

/* Directories are found by path and by watch descriptor through hashes:
 * a tree of tens of thousands of directories sends events to each. */
struct dir *follow_find_dir(struct follower *fw, const char *path)
{
	for (struct dir *d = fw->dir_by_path[path_bucket(path)]; d;
	     d = d->by_path)
		if (strcmp(d->path, path) == 0)
			return d;
	return NULL;
}

static struct dir *find_dir_wd(struct follower *fw, int wd)
{
	if (wd < 0)
		return NULL;
	for (struct dir *d = fw->dir_by_wd[wd_bucket(wd)]; d; d = d->by_wd)
		if (d->wd == wd)
			return d;
	return NULL;
}

static void unlink_dir(struct follower *fw, struct dir *d)
{
	struct dir **pp = &fw->dir_by_path[path_bucket(d->path)];

	while (*pp && *pp != d)
		pp = &(*pp)->by_path;
	if (*pp)
		*pp = d->by_path;
	if (d->wd >= 0) {
		pp = &fw->dir_by_wd[wd_bucket(d->wd)];
		while (*pp && *pp != d)
			pp = &(*pp)->by_wd;
		if (*pp)
			*pp = d->by_wd;
	}
	fw->dirs[d->slot] = fw->dirs[--fw->ndirs];
	fw->dirs[d->slot]->slot = d->slot;
	free(d->path);
	free(d);
}

/* Watches one directory, or says once why it will be polled instead. */
static int watch_dir(struct follower *fw, const char *path)
{
	if (fw->ifd < 0)
		return -1;
	if (remote_fs(path)) {
		if (!fw->warned_remote++)
			follow_say(fw, path, _("a network or FUSE file system "
				   "does not report changes; polling it (and "
				   "any other such directory) instead"));
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
			follow_say(fw, path, _("out of inotify watches (see "
				   "/proc/sys/fs/inotify/max_user_watches); "
				   "polling this and further directories "
				   "instead"));
	} else {
		follow_say(fw, path, strerror(errno));
	}
	return -1;
}

/* A directory without a watch that a live follower must poll: counted
 * in nunwatched (--once polls nothing, and a skipped one is not read). */
static int unwatched_live(const struct follower *fw, const struct dir *d)
{
	return d->wd < 0 && !fw->o.once && d->kind != DIR_SKIPPED;
}

struct dir *follow_new_dir(struct follower *fw, const char *path,
			   enum dir_kind kind, size_t root)
{
	if (fw->ndirs == fw->capdirs) {
		fw->capdirs = fw->capdirs ? 2 * fw->capdirs : 64;
		fw->dirs = xrealloc(fw->dirs, fw->capdirs * sizeof *fw->dirs);
	}
	struct dir *d = xcalloc(1, sizeof *d);
	d->slot = fw->ndirs;
	fw->dirs[fw->ndirs++] = d;

	d->path = xstrdup(path);
	d->kind = kind;
	d->root = root;
	d->wd = fw->o.once || kind == DIR_SKIPPED ? -1 : watch_dir(fw, path);
	fw->nunwatched += unwatched_live(fw, d);
	unsigned b = path_bucket(d->path);
	d->by_path = fw->dir_by_path[b];
	fw->dir_by_path[b] = d;
	if (d->wd >= 0) {
		/* A watch on a directory already watched (a link, or the
		 * same directory under two names) has its descriptor. */
		struct dir *twin = find_dir_wd(fw, d->wd);
		if (twin)
			twin->wd = -1;
		b = wd_bucket(d->wd);
		d->by_wd = fw->dir_by_wd[b];
		fw->dir_by_wd[b] = d;
	}
	fw->generation++;
	return d;
}

static void scan_dir(struct follower *fw, struct dir *d,
		     unsigned long long now);

/* Whether a directory's entries are ours to read. */
static int listed(const struct dir *d)
{
	return d->kind == DIR_TREE || d->kind == DIR_SINGLE;
}

/* Watches a directory and everything under it, then lists it: a file
 * created between the two is found by the listing. */
void follow_add_dir(struct follower *fw, const char *path, size_t root,
		    unsigned long long now, int depth)
{
	struct dir *d = follow_find_dir(fw, path);

	if (d && d->kind == DIR_TREE)
		return;
	if (depth > MAX_DEPTH) {
		model_skip(fw->m, path, N_("more than 64 directories deep"));
		/* Known, so that it is said once. */
		if (!d)
			follow_new_dir(fw, path, DIR_SKIPPED, root);
		return;
	}
	if (!d)
		d = follow_new_dir(fw, path, DIR_TREE, root);
	d->kind = DIR_TREE;
	d->root = root;
	d->depth = depth;
	scan_dir(fw, d, now);
}

static void scan_dir(struct follower *fw, struct dir *d,
		     unsigned long long now)
{
	char *path = xstrdup(d->path);
	size_t root = d->root;
	int depth = d->depth;
	int tree = d->kind == DIR_TREE;
	DIR *dp = opendir(path);

	if (!dp) {
		/* Said once, not at every poll; read when it can be. */
		if (errno != ENOENT && !d->unreadable) {
			follow_say(fw, path, strerror(errno));
			model_problem(fw->m, path, "%s", strerror(errno));
		}
		d->unreadable = errno != ENOENT;
		free(path);
		return;
	}
	d->unreadable = 0;
	struct dirent *de;
	errno = 0;
	/* d may move as directories are added: only copies are used. */
	while ((de = readdir(dp)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		struct strbuf p = STRBUF_INIT;
		follow_join(&p, path, de->d_name);
		struct stat sb;
		int type = de->d_type;
		/* Links to directories are not followed: they can loop. */
		if (type == DT_UNKNOWN && lstat(p.buf, &sb) == 0)
			type = S_ISDIR(sb.st_mode) ? DT_DIR
			       : S_ISREG(sb.st_mode) ? DT_REG : DT_LNK;
		if (type == DT_DIR) {
			if (tree)
				follow_add_dir(fw, p.buf, root, now, depth + 1);
		} else if (tree || follow_is_named_file(fw, p.buf)) {
			struct tail *t = follow_file_seen(fw, p.buf, root,
							  type == DT_REG, now);
			/* --once plans its reading by size: a stat relative
			 * to the directory costs less than one by path. */
			if (t && fw->o.once && !fw->started &&
			    type == DT_REG && !t->scan_sized &&
			    fstatat(dirfd(dp), de->d_name, &sb,
				    AT_SYMLINK_NOFOLLOW) == 0) {
				t->scan_sized = 1;
				t->scan_size = (unsigned long long)sb.st_size;
			}
		}
		sb_free(&p);
		errno = 0;
	}
	if (errno) {
		follow_say(fw, path, strerror(errno));
		model_problem(fw->m, path, "%s", strerror(errno));
	}
	closedir(dp);
	free(path);
}

/* A directory and its subdirectories went away: their watches and
 * their memory go too. */
static void forget_dir(struct follower *fw, struct dir *d)
{
	char *top = xstrdup(d->path);
	size_t len = strlen(top);

	for (size_t i = fw->ndirs; i-- > 0;) {
		struct dir *s = fw->dirs[i];
		if (strncmp(s->path, top, len) != 0 ||
		    (s->path[len] != '/' && s->path[len] != '\0' &&
		     strcmp(top, "/") != 0))
			continue;
		if (s->wd >= 0 && fw->ifd >= 0) {
			inotify_rm_watch(fw->ifd, s->wd);
			fw->nwatches--;
		} else if (unwatched_live(fw, s)) {
			fw->nunwatched--;
		}
		unlink_dir(fw, s);
		if (i > fw->ndirs)
			i = fw->ndirs;
	}
	free(top);
	fw->generation++;
}

void follow_free_dirs(struct follower *fw)
{
	for (size_t i = 0; i < fw->ndirs; i++) {
		free(fw->dirs[i]->path);
		free(fw->dirs[i]);
	}
	free(fw->dirs);
	for (size_t i = 0; i < fw->nwaiting; i++)
		free(fw->waiting[i].path);
	free(fw->waiting);
}

/* ---- roots that do not exist yet ---- */

/* Watches the nearest directory of path that exists, for creations only:
 * one there is the root, or a step towards it. */
static void watch_nearest(struct follower *fw, const char *path, size_t root)
{
	char *p = xstrdup(path);
	for (;;) {
		char *slash = strrchr(p, '/');
		/* A relative path's last resort is the working directory:
		 * "logs" removed and made again must be seen. */
		const char *dir = !slash ? "." : slash == p ? "/" : p;
		if (slash)
			*slash = '\0';
		struct stat sb;
		if (stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode)) {
			if (!follow_find_dir(fw, dir))
				follow_new_dir(fw, dir, DIR_WAITER, root);
			break;
		}
		if (!slash || slash == p)
			break;
	}
	free(p);
}

void follow_wait_for(struct follower *fw, const char *path, size_t root)
{
	for (size_t i = 0; i < fw->nwaiting; i++)
		if (strcmp(fw->waiting[i].path, path) == 0)
			return;
	fw->waiting = xrealloc(fw->waiting,
			       (fw->nwaiting + 1) * sizeof *fw->waiting);
	fw->waiting[fw->nwaiting++] = (struct named){ xstrdup(path), root };
	watch_nearest(fw, path, root);
}

/* Roots that have appeared are taken up. */
void follow_check_waiting(struct follower *fw, unsigned long long now)
{
	for (size_t i = 0; i < fw->nwaiting;) {
		struct stat sb;
		struct named w = fw->waiting[i];
		if (stat(w.path, &sb) == 0) {
			fw->waiting[i] = fw->waiting[--fw->nwaiting];
			if (S_ISDIR(sb.st_mode))
				follow_add_dir(fw, w.path, w.root, now, 0);
			else
				follow_add_single(fw, w.path, w.root, now);
			free(w.path);
		} else {
			/* A step closer, perhaps.  A directory made between
			 * the look and the new watch sends no event: look
			 * again while the watches keep going deeper. */
			size_t before = fw->ndirs;
			watch_nearest(fw, w.path, w.root);
			if (fw->ndirs == before)
				i++;
		}
	}
}

/* ---- events ---- */

/* A directory went away: it is forgotten, and what it was followed for
 * is waited for again: a root, or the files named in it ("rm -rf out;
 * mkdir out" before each run of a job writing out/job.log).  The caller
 * then looks for what is waited for (follow_check_waiting). */
static void lose_dir(struct follower *fw, struct dir *d)
{
	char *path = xstrdup(d->path);
	int root = d->kind == DIR_TREE && d->depth == 0;
	size_t root_index = d->root;
	int single = d->kind == DIR_SINGLE;

	forget_dir(fw, d);
	if (root)
		follow_wait_for(fw, path, root_index);
	for (size_t i = 0; single && i < fw->nsingle; i++) {
		char *parent = follow_dir_of(fw->single[i].path);
		if (strcmp(parent, path) == 0)
			follow_wait_for(fw, fw->single[i].path,
					fw->single[i].root);
		free(parent);
	}
	free(path);
}

static void dir_event(struct follower *fw, struct dir *d,
		      const struct inotify_event *ev, unsigned long long now)
{
	if (ev->mask & (IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED)) {
		lose_dir(fw, d);
		/* Made again already, before its parent was watched (rm -rf
		 * logs; mkdir logs): no event will say so.  And a directory
		 * watched while waiting for a root below it is replaced by
		 * the nearest one still there. */
		follow_check_waiting(fw, now);
		return;
	}
	/* A directory's mode changed: one that could not be read may be
	 * readable now, with files made meanwhile. */
	if ((ev->mask & IN_ATTRIB) && !ev->len && listed(d)) {
		scan_dir(fw, d, now);
		return;
	}
	if (!ev->len)
		return;
	if (fw->nwaiting && (ev->mask & (IN_CREATE | IN_MOVED_TO)))
		follow_check_waiting(fw, now);
	if (d->kind == DIR_WAITER || d->kind == DIR_SKIPPED)
		return;
	struct strbuf p = STRBUF_INIT;
	follow_join(&p, d->path, ev->name);
	if (d->kind == DIR_SINGLE && !follow_is_named_file(fw, p.buf)) {
		sb_free(&p);
		return;
	}
	if (ev->mask & IN_ISDIR) {
		struct dir *sub = follow_find_dir(fw, p.buf);
		if ((ev->mask & IN_ATTRIB) && sub && listed(sub))
			scan_dir(fw, sub, now);
		if (ev->mask & (IN_CREATE | IN_MOVED_TO | IN_ATTRIB)) {
			follow_add_dir(fw, p.buf, d->root, now, d->depth + 1);
		} else if (ev->mask & (IN_DELETE | IN_MOVED_FROM)) {
			if (sub)
				forget_dir(fw, sub);
		}
	} else if (ev->mask & (IN_DELETE | IN_MOVED_FROM)) {
		struct tail *t = follow_find_tail(fw, p.buf);
		if (t)
			follow_drop_tail(fw, t);
	} else {
		struct tail *t = follow_find_tail(fw, p.buf);
		if (t)
			follow_mark_dirty(fw, t);
		else
			follow_file_seen(fw, p.buf, d->root, 0, now);
	}
	sb_free(&p);
}

/* The events lost in an overflow may be the ones saying a directory went
 * away (rm -rf of a big tree overflows the queue before the root's
 * IN_DELETE_SELF): its watch is dead, and a directory made again under
 * its name would never be heard of.  Asking for the watch again tells:
 * the same directory answers with the same descriptor. */
static void lose_dead_watches(struct follower *fw)
{
	char **dead = NULL;
	size_t ndead = 0;

	for (size_t i = 0; i < fw->ndirs; i++) {
		struct dir *d = fw->dirs[i];
		if (d->wd < 0)
			continue;
		int wd = inotify_add_watch(fw->ifd, d->path, WATCH_MASK);
		if (wd == d->wd)
			continue;
		/* Taken again when the directory is found again. */
		if (wd >= 0)
			inotify_rm_watch(fw->ifd, wd);
		dead = xrealloc(dead, (ndead + 1) * sizeof *dead);
		dead[ndead++] = xstrdup(d->path);
	}
	/* Found again by path: losing a directory loses those under it.
	 * What is waited for is looked for at the end of the rescan. */
	for (size_t i = 0; i < ndead; i++) {
		struct dir *d = follow_find_dir(fw, dead[i]);
		if (d)
			lose_dir(fw, d);
		free(dead[i]);
	}
	free(dead);
}

/* Everything is looked at again: after a lost event nothing is lost,
 * since files are read from their offsets, and nothing is counted twice. */
static void rescan_all(struct follower *fw, unsigned long long now)
{
	lose_dead_watches(fw);
	for (size_t i = 0; i < fw->ndirs; i++)
		if (listed(fw->dirs[i]))
			scan_dir(fw, fw->dirs[i], now);
	for (size_t i = fw->ntails; i-- > 0;)
		follow_read_tail(fw, fw->tails[i], now);
	follow_check_waiting(fw, now);
}

void follow_read_events(struct follower *fw, unsigned long long now)
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
		follow_read_dirty(fw, now);
	}
}

/* Whether a poll lists d: no inotify at all, or no watch on it. */
static int listed_by_poll(const struct follower *fw, const struct dir *d)
{
	return fw->ifd < 0 || d->wd < 0;
}

void follow_poll_dirs(struct follower *fw, unsigned long long now)
{
	for (size_t i = 0; i < fw->ndirs; i++)
		if (listed_by_poll(fw, fw->dirs[i]) &&
		    listed(fw->dirs[i]))
			scan_dir(fw, fw->dirs[i], now);
	/* Files in polled directories: read what grew (a tail reads
	 * nothing when nothing was appended). */
	for (size_t i = fw->ntails; i-- > 0;) {
		struct tail *t = fw->tails[i];
		struct stat sb;
		/* Only a file that changed is opened. */
		if (t->polled && !t->skip_why &&
		    (stat(t->path, &sb) < 0 || sb.st_size != t->offset ||
		     sb.st_ino != t->ino || sb.st_dev != t->dev))
			follow_read_tail(fw, t, now);
	}
	follow_check_waiting(fw, now);
}

const char *follower_how(const struct follower *fw)
{
	if (fw->o.poll_ms || fw->ifd < 0)
		return "polling";
	return follow_polling(fw) ? "inotify+polling" : "inotify";
}

int follow_polling(const struct follower *fw)
{
	return fw->nunwatched > 0 || (fw->nwaiting > 0 && fw->ifd < 0);
}
