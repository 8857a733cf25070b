/* What the follower's directories say: inotify's events (an overflow
 * too), and polling where inotify does not serve. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include "follow_int.h"
#include "xalloc.h"

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

	follow_forget_dir(fw, d);
	if (root)
		follow_wait_for(fw, path, root_index);
	for (size_t i = 0; single && i < fw->ds.nsingle; i++) {
		char *parent = follow_dir_of(fw->ds.single[i].path);
		if (strcmp(parent, path) == 0)
			follow_wait_for(fw, fw->ds.single[i].path,
					fw->ds.single[i].root);
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
	if ((ev->mask & IN_ATTRIB) && !ev->len && follow_dir_listed(d)) {
		follow_scan_dir(fw, d, now);
		return;
	}
	if (!ev->len)
		return;
	if (fw->ds.nwaiting && (ev->mask & (IN_CREATE | IN_MOVED_TO)))
		follow_check_waiting(fw, now);
	if (d->kind == DIR_WAITER || d->kind == DIR_SKIPPED)
		return;
	struct strbuf p = STRBUF_INIT;
	follow_join(&p, d->path, ev->name);
	if (d->kind == DIR_SINGLE && !follow_is_named(fw, p.buf)) {
		sb_free(&p);
		return;
	}
	if (ev->mask & IN_ISDIR) {
		struct dir *sub = follow_find_dir(fw, p.buf);
		if ((ev->mask & IN_ATTRIB) && sub && follow_dir_listed(sub))
			follow_scan_dir(fw, sub, now);
		if (ev->mask & (IN_CREATE | IN_MOVED_TO | IN_ATTRIB)) {
			follow_add_dir(fw, p.buf, d->root, now, d->depth + 1);
		} else if (ev->mask & (IN_DELETE | IN_MOVED_FROM)) {
			if (sub)
				follow_forget_dir(fw, sub);
		}
	} else if (ev->mask & (IN_DELETE | IN_MOVED_FROM)) {
		struct tail *t = tailtab_find(&fw->tt, p.buf);
		if (t)
			follow_drop_tail(fw, t);
	} else {
		struct tail *t = tailtab_find(&fw->tt, p.buf);
		if (t)
			follow_mark_dirty(fw, t);
		else
			follow_seen_file(fw, p.buf, d->root, 0, now);
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

	for (size_t i = 0; i < fw->ds.n; i++) {
		struct dir *d = fw->ds.v[i];
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
	for (size_t i = 0; i < fw->ds.n; i++)
		if (follow_dir_listed(fw->ds.v[i]))
			follow_scan_dir(fw, fw->ds.v[i], now);
	for (size_t i = fw->tt.n; i-- > 0;)
		follow_read_tail(fw, fw->tt.v[i], now);
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
			struct dir *d = follow_find_dir_wd(fw, ev->wd);
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
	for (size_t i = 0; i < fw->ds.n; i++)
		if (listed_by_poll(fw, fw->ds.v[i]) &&
		    follow_dir_listed(fw->ds.v[i]))
			follow_scan_dir(fw, fw->ds.v[i], now);
	/* Files in polled directories: read what grew (a tail reads
	 * nothing when nothing was appended). */
	for (size_t i = fw->tt.n; i-- > 0;) {
		struct tail *t = fw->tt.v[i];
		struct stat sb;
		/* Only a file that changed is opened. */
		if (t->unwatched && !t->skip_why &&
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
	return fw->ds.nunwatched > 0 || (fw->ds.nwaiting > 0 && fw->ifd < 0);
}
