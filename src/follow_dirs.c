/* The follower's directories: which are watched with inotify and which
 * polled, what their events mean, and roots that do not exist yet. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

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

struct dir *follow_find_dir(struct follower *fw, const char *path)
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
			follow_say(fw, path, "a network or FUSE file system "
				   "does not report changes; polling it (and "
				   "any other such directory) instead");
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
			follow_say(fw, path, "out of inotify watches (see "
				   "/proc/sys/fs/inotify/max_user_watches); "
				   "polling this and further directories "
				   "instead");
	} else {
		follow_say(fw, path, strerror(errno));
	}
	return -1;
}

/* A directory that would be polled if it were to be followed live. */
static int counts_as_polled(const struct follower *fw, const struct dir *d)
{
	return d->wd < 0 && !fw->o.once && d->kind != DIR_SKIPPED;
}

struct dir *follow_new_dir(struct follower *fw, const char *path,
			   enum dir_kind kind, size_t root)
{
	fw->dirs = xrealloc(fw->dirs, (fw->ndirs + 1) * sizeof *fw->dirs);
	struct dir *d = xcalloc(1, sizeof *d);
	fw->dirs[fw->ndirs++] = d;

	d->path = xstrdup(path);
	d->kind = kind;
	d->root = root;
	d->wd = fw->o.once || kind == DIR_SKIPPED ? -1 : watch_dir(fw, path);
	fw->npolled += counts_as_polled(fw, d);
	fw->generation++;
	return d;
}

static void scan_dir(struct follower *fw, struct dir *d,
		     unsigned long long now);

/* Watches a directory and everything under it, then lists it: a file
 * created between the two is found by the listing. */
void follow_add_dir(struct follower *fw, const char *path, size_t root,
		    unsigned long long now, int depth)
{
	struct dir *d = follow_find_dir(fw, path);

	if (d && d->kind == DIR_TREE)
		return;
	if (depth > MAX_DEPTH) {
		model_skip(fw->m, path, "more than 64 directories deep");
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
		if (errno != ENOENT) {
			follow_say(fw, path, strerror(errno));
			model_problem(fw->m, path, "%s", strerror(errno));
		}
		free(path);
		return;
	}
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
			follow_file_seen(fw, p.buf, root, type == DT_REG, now);
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
			} else if (counts_as_polled(fw, s)) {
				fw->npolled--;
			}
			s->gone = 1;
		}
	}
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
				follow_file_seen(fw, w.path, w.root, 0, now);
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

static void dir_event(struct follower *fw, struct dir *d,
		      const struct inotify_event *ev, unsigned long long now)
{
	if (ev->mask & (IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED)) {
		char *path = xstrdup(d->path);
		forget_dir(fw, d);
		/* A root that goes away is waited for again. */
		for (size_t i = 0; i < fw->m->nroots; i++)
			if (strcmp(fw->m->roots[i], path) == 0)
				follow_wait_for(fw, path, i);
		free(path);
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
		if (ev->mask & (IN_CREATE | IN_MOVED_TO)) {
			follow_add_dir(fw, p.buf, d->root, now, d->depth + 1);
		} else if (ev->mask & (IN_DELETE | IN_MOVED_FROM)) {
			struct dir *sub = follow_find_dir(fw, p.buf);
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

/* Whether a directory's entries are ours to read. */
static int listed(const struct dir *d)
{
	return d->kind == DIR_TREE || d->kind == DIR_SINGLE;
}

/* Everything is looked at again: after a lost event nothing is lost,
 * since files are read from their offsets, and nothing is counted twice. */
static void rescan_all(struct follower *fw, unsigned long long now)
{
	for (size_t i = 0; i < fw->ndirs; i++)
		if (!fw->dirs[i]->gone && listed(fw->dirs[i]))
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

static int polled(const struct follower *fw, const struct dir *d)
{
	return fw->ifd < 0 || d->wd < 0;
}

void follow_poll_dirs(struct follower *fw, unsigned long long now)
{
	for (size_t i = 0; i < fw->ndirs; i++)
		if (!fw->dirs[i]->gone && polled(fw, fw->dirs[i]) &&
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

int follow_any_polled(const struct follower *fw)
{
	return fw->npolled > 0 || (fw->nwaiting > 0 && fw->ifd < 0);
}
