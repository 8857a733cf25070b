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
#include "htab.h"
#include "xalloc.h"


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

static size_t path_bucket(const char *s)
{
	return htab_hash_str(s, 0) % DIR_BUCKETS;
}

static unsigned wd_bucket(int wd)
{
	return (unsigned)wd % DIR_BUCKETS;
}

char *follow_dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return xstrdup(".");
	return slash == path ? xstrdup("/")
			     : xstrndup(path, (size_t)(slash - path));
}

int follow_is_named(const struct follower *fw, const char *path)
{
	for (size_t i = 0; i < fw->ds.nsingle; i++)
		if (strcmp(fw->ds.single[i].path, path) == 0)
			return 1;
	return 0;
}

/* Whether path's directory has no watch (or is not known): its file is
 * polled. */
int follow_unwatched(struct follower *fw, const char *path)
{
	char *dir = follow_dir_of(path);
	struct dir *d = follow_find_dir(fw, dir);

	free(dir);
	return !d || d->wd < 0;
}

/* A file found in a directory: read through follow_read.c, which is
 * told whether it is polled when it is new. */
struct tail *follow_seen_file(struct follower *fw, const char *path,
			      size_t root, int regular,
			      unsigned long long now)
{
	/* A file named alone that a tree's listing holds: its tail, as a
	 * listing without follow_list_file made it, and then seen again. */
	struct listed l;
	if (!regular && follow_unlist(fw, path, &l)) {
		struct tail *t = follow_add_tail(fw, path, l.root,
						 follow_unwatched(fw, path));
		t->scan_sized = 1;
		t->scan_size = l.size;
	}
	int unwatched = !tailtab_find(&fw->tt, path) &&
			follow_unwatched(fw, path);

	return follow_file_seen(fw, path, root, regular, unwatched, now);
}

/* Directories are found by path and by watch descriptor through hashes:
 * a tree of tens of thousands of directories sends events to each. */
struct dir *follow_find_dir(struct follower *fw, const char *path)
{
	for (struct dir *d = fw->ds.by_path[path_bucket(path)]; d;
	     d = d->by_path)
		if (strcmp(d->path, path) == 0)
			return d;
	return NULL;
}

struct dir *follow_find_dir_wd(struct follower *fw, int wd)
{
	if (wd < 0)
		return NULL;
	for (struct dir *d = fw->ds.by_wd[wd_bucket(wd)]; d; d = d->by_wd)
		if (d->wd == wd)
			return d;
	return NULL;
}

static void unlink_dir(struct follower *fw, struct dir *d)
{
	struct dir **pp = &fw->ds.by_path[path_bucket(d->path)];

	while (*pp && *pp != d)
		pp = &(*pp)->by_path;
	if (*pp)
		*pp = d->by_path;
	if (d->wd >= 0) {
		pp = &fw->ds.by_wd[wd_bucket(d->wd)];
		while (*pp && *pp != d)
			pp = &(*pp)->by_wd;
		if (*pp)
			*pp = d->by_wd;
	}
	fw->ds.v[d->slot] = fw->ds.v[--fw->ds.n];
	fw->ds.v[d->slot]->slot = d->slot;
	free(d->path);
	free(d);
}

/* Watches one directory, or says once why it will be polled instead. */
static int watch_dir(struct follower *fw, const char *path)
{
	if (fw->ifd < 0)
		return -1;
	if (remote_fs(path)) {
		if (!fw->ds.warned_remote++)
			msglog_about(fw->o.log, path, _("a network or FUSE file system "
				   "does not report changes; polling it (and "
				   "any other such directory) instead"));
		return -1;
	}
	int wd = -1;
	if (!fw->o.max_watches || fw->ds.nwatches < fw->o.max_watches)
		wd = inotify_add_watch(fw->ifd, path, WATCH_MASK);
	else
		errno = ENOSPC;
	if (wd >= 0) {
		fw->ds.nwatches++;
		return wd;
	}
	if (errno == ENOSPC) {
		if (!fw->ds.warned_watches++)
			msglog_about(fw->o.log, path, _("out of inotify watches (see "
				   "/proc/sys/fs/inotify/max_user_watches); "
				   "polling this and further directories "
				   "instead"));
	} else {
		msglog_about(fw->o.log, path, strerror(errno));
	}
	return -1;
}

/* A directory without a watch that a live follower must poll: counted
 * in nunwatched (--once polls nothing, and a skipped one is not read). */
static int unwatched_live(const struct follower *fw, const struct dir *d)
{
	return d->wd < 0 && !fw->o.once && d->kind != DIR_SKIPPED;
}

static struct dir *follow_new_dir(struct follower *fw, const char *path,
				  enum dir_kind kind, size_t root)
{
	if (fw->ds.n == fw->ds.cap) {
		fw->ds.cap = fw->ds.cap ? 2 * fw->ds.cap : 64;
		fw->ds.v = xrealloc(fw->ds.v, fw->ds.cap * sizeof *fw->ds.v);
	}
	struct dir *d = xcalloc(1, sizeof *d);
	d->slot = fw->ds.n;
	fw->ds.v[fw->ds.n++] = d;

	d->path = xstrdup(path);
	d->kind = kind;
	d->root = root;
	d->wd = fw->o.once || kind == DIR_SKIPPED ? -1 : watch_dir(fw, path);
	fw->ds.nunwatched += unwatched_live(fw, d);
	size_t b = path_bucket(d->path);
	d->by_path = fw->ds.by_path[b];
	fw->ds.by_path[b] = d;
	if (d->wd >= 0) {
		/* A watch on a directory already watched (a link, or the
		 * same directory under two names) has its descriptor. */
		struct dir *twin = follow_find_dir_wd(fw, d->wd);
		if (twin)
			twin->wd = -1;
		b = wd_bucket(d->wd);
		d->by_wd = fw->ds.by_wd[b];
		fw->ds.by_wd[b] = d;
	}
	fw->generation++;
	return d;
}


/* Whether a directory's entries are ours to read. */
int follow_dir_listed(const struct dir *d)
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
	follow_scan_dir(fw, d, now);
}

void follow_scan_dir(struct follower *fw, struct dir *d,
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
			msglog_about(fw->o.log, path, strerror(errno));
			model_problem(fw->m, path, "%s", strerror(errno));
		}
		d->unreadable = errno != ENOENT;
		free(path);
		return;
	}
	d->unreadable = 0;
	/* The dir stays put (follow_int.h), and so does its path. */
	const char *dpath = d->path;
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
		} else if (tree && type == DT_REG &&
			   follow_may_list(fw, de->d_name) &&
			   !tailtab_find(&fw->tt, p.buf) &&
			   fstatat(dirfd(dp), de->d_name, &sb,
				   AT_SYMLINK_NOFOLLOW) == 0 &&
			   S_ISREG(sb.st_mode)) {
			/* --once: a path and a size, the tail at its turn. */
			follow_list_file(fw, dpath, de->d_name, root,
					 (unsigned long long)sb.st_size);
		} else if (tree || follow_is_named(fw, p.buf)) {
			struct tail *t = follow_seen_file(fw, p.buf, root,
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
		msglog_about(fw->o.log, path, strerror(errno));
		model_problem(fw->m, path, "%s", strerror(errno));
	}
	closedir(dp);
	free(path);
}

/* A directory and its subdirectories went away: their watches and
 * their memory go too. */
void follow_forget_dir(struct follower *fw, struct dir *d)
{
	char *top = xstrdup(d->path);
	size_t len = strlen(top);

	for (size_t i = fw->ds.n; i-- > 0;) {
		struct dir *s = fw->ds.v[i];
		if (strncmp(s->path, top, len) != 0 ||
		    (s->path[len] != '/' && s->path[len] != '\0' &&
		     strcmp(top, "/") != 0))
			continue;
		if (s->wd >= 0 && fw->ifd >= 0) {
			inotify_rm_watch(fw->ifd, s->wd);
			fw->ds.nwatches--;
		} else if (unwatched_live(fw, s)) {
			fw->ds.nunwatched--;
		}
		unlink_dir(fw, s);
		if (i > fw->ds.n)
			i = fw->ds.n;
	}
	free(top);
	fw->generation++;
}

void follow_free_dirs(struct follower *fw)
{
	follow_free_listing(fw);
	for (size_t i = 0; i < fw->ds.n; i++) {
		free(fw->ds.v[i]->path);
		free(fw->ds.v[i]);
	}
	free(fw->ds.v);
	for (size_t i = 0; i < fw->ds.nwaiting; i++)
		free(fw->ds.waiting[i].path);
	free(fw->ds.waiting);
	for (size_t i = 0; i < fw->ds.nsingle; i++)
		free(fw->ds.single[i].path);
	free(fw->ds.single);
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
	for (size_t i = 0; i < fw->ds.nwaiting; i++)
		if (strcmp(fw->ds.waiting[i].path, path) == 0)
			return;
	fw->ds.waiting = xrealloc(fw->ds.waiting,
			       (fw->ds.nwaiting + 1) * sizeof *fw->ds.waiting);
	fw->ds.waiting[fw->ds.nwaiting++] = (struct named){ xstrdup(path), root };
	watch_nearest(fw, path, root);
}

/* Roots that have appeared are taken up. */
void follow_check_waiting(struct follower *fw, unsigned long long now)
{
	for (size_t i = 0; i < fw->ds.nwaiting;) {
		struct stat sb;
		struct named w = fw->ds.waiting[i];
		if (stat(w.path, &sb) == 0) {
			fw->ds.waiting[i] = fw->ds.waiting[--fw->ds.nwaiting];
			if (S_ISDIR(sb.st_mode))
				follow_add_dir(fw, w.path, w.root, now, 0);
			else
				follow_add_single(fw, w.path, w.root, now);
			free(w.path);
		} else {
			/* A step closer, perhaps.  A directory made between
			 * the look and the new watch sends no event: look
			 * again while the watches keep going deeper. */
			size_t before = fw->ds.n;
			watch_nearest(fw, w.path, w.root);
			if (fw->ds.n == before)
				i++;
		}
	}
}

/* A file named on the command line, there at the start or later: its
 * directory is watched for it (a directory watched only while waiting
 * for it now reports its changes). */
void follow_add_single(struct follower *fw, const char *p, size_t root,
		       unsigned long long now)
{
	if (!follow_is_named(fw, p)) {
		fw->ds.single = xrealloc(fw->ds.single,
				      (fw->ds.nsingle + 1) * sizeof *fw->ds.single);
		fw->ds.single[fw->ds.nsingle++] = (struct named){ xstrdup(p), root };
	}
	char *parent = follow_dir_of(p);
	struct dir *d = follow_find_dir(fw, parent);
	if (!d)
		follow_new_dir(fw, parent, DIR_SINGLE, root);
	else if (d->kind == DIR_WAITER)
		d->kind = DIR_SINGLE;
	free(parent);
	follow_seen_file(fw, p, root, 0, now);
}
