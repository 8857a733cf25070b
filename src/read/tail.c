#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fileid.h"
#include "filetype.h"
#include "tail.h"
#include "xalloc.h"

static void on_line(void *ctx, const char *line, size_t len,
		    unsigned long lineno)
{
	struct tail *t = ctx;

	/* Where the line starts, for the resume points of its chain. */
	classifier_set_line_off(t->c, t->ls.line_start);
	feeder_line(t->feeder, line, len, lineno);
}

struct tail *tail_new(const char *path, enum file_kind kind,
		      struct ruleset *rs, struct classifier *c)
{
	struct tail *t = xcalloc(1, sizeof *t);

	t->path = path;
	t->kind = kind;
	t->rs = rs;
	t->c = c;
	linesplit_init(&t->ls, on_line, NULL);
	return t;
}

static void make_feeder(struct tail *t)
{
	t->feeder = feeder_new(t->rs, t->c);
	feeder_set_file(t->feeder, t->path, t->kind);
	t->ls.ctx = t;
	t->ls.want_all = feeder_want_all(t->feeder);
	t->ls.starts = feeder_line_starts(t->feeder);
}

void tail_free(struct tail *t)
{
	if (!t)
		return;
	if (t->pk)
		t->pk_free(t->pk);
	feeder_free(t->feeder);
	linesplit_free(&t->ls);
	free(t->fid);
	free(t->given);
	free(t->span);
	free(t->skip);
	free(t);
}

void tail_flush(struct tail *t)
{
	t->partial_since_ms = 0;
	if (!t->feeder)
		return;		/* nothing read */
	linesplit_finish(&t->ls);
	feeder_flush(t->feeder);
}

/* The file is not the one read so far: read it again from its start.
 * What was half-read of the old one is given out first. */
static void restart(struct tail *t)
{
	tail_flush(t);
	linesplit_reset(&t->ls);
	t->offset = 0;
	t->headlen = 0;
	/* Its resume point's identity and lines were the old file's. */
	free(t->fid);
	t->fid = NULL;
	t->ngiven = t->nskip = 0;
	t->fact_line = t->fact_skip = 0;
	t->held = 0;
}

static int head_changed(struct tail *t, int fd)
{
	unsigned char now[TAIL_HEAD];

	if (!t->headlen)
		return 0;
	ssize_t n = pread(fd, now, t->headlen, 0);
	return n != (ssize_t)t->headlen || memcmp(now, t->head, t->headlen);
}

static void keep_head(struct tail *t, const char *buf, size_t n)
{
	if (t->offset >= TAIL_HEAD)
		return;
	size_t take = TAIL_HEAD - (size_t)t->offset;
	if (take > n)
		take = n;
	memcpy(t->head + t->offset, buf, take);
	t->headlen = (size_t)t->offset + take;
}

int tail_feed(struct tail *t, const char *buf, size_t n,
	      struct scan_stats *st, unsigned long long now_ms)
{
	if (t->offset == 0 && n && t->may_pack && !t->packed &&
	    (t->packed = codec_sniff((const unsigned char *)buf, n))) {
		errno = EILSEQ;
		return -1;
	}
	if (t->offset == 0 && n && (t->skip_why = filetype_not_text(buf, n))) {
		errno = EILSEQ;
		return -1;
	}
	unsigned long before = t->ls.lineno;
	if (!t->feeder)
		make_feeder(t);
	keep_head(t, buf, n);
	linesplit_feed(&t->ls, buf, n);
	if (!linesplit_pending(&t->ls))
		t->partial_since_ms = 0;
	else if (t->ls.lineno != before || !t->partial_since_ms)
		t->partial_since_ms = now_ms;	/* a new line began here */
	t->offset += (off_t)n;
	st->bytes += (unsigned long long)n;
	st->lines += t->ls.lineno - before;
	st->truncated_lines += t->ls.truncated - t->truncated_seen;
	t->truncated_seen = t->ls.truncated;
	t->last_ms = now_ms;
	return 0;
}

static unsigned long long idle_ms(const struct stat *sb)
{
	struct timespec now;

	if (clock_gettime(CLOCK_REALTIME, &now) < 0)
		return 0;
	long long ms = (long long)(now.tv_sec - sb->st_mtim.tv_sec) * 1000 +
		       (now.tv_nsec - sb->st_mtim.tv_nsec) / 1000000;
	return ms > 0 ? (unsigned long long)ms : 0;
}

/* The file, by its name in dir when dir is its directory's (see
 * tail_read), else by its path. */
static int open_tail(const struct tail *t, int dir)
{
	const int flags = O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK;
	const char *name = strrchr(t->path, '/');

	if (dir >= 0 && name && name[1])
		return openat(dir, name + 1, flags);
	return open(t->path, flags);
}

long long tail_read(struct tail *t, int dir, char *buf, size_t size,
		    unsigned long long budget, struct scan_stats *st,
		    unsigned long long now_ms)
{
	int fd = open_tail(t, dir);
	struct stat sb;
	long long total = 0;

	if (fd < 0)
		return -1;
	if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode)) {
		int e = S_ISREG(sb.st_mode) ? errno : EINVAL;
		close(fd);
		errno = e;
		return -1;
	}
	if ((t->ino && !fileid_same_node(t->dev, t->ino, sb.st_dev,
					 sb.st_ino)) ||
	    sb.st_size < t->offset || head_changed(t, fd))
		restart(t);
	t->dev = sb.st_dev;
	t->ino = sb.st_ino;
	t->more = 0;
	t->idle_ms = idle_ms(&sb);
	if (sb.st_size - t->offset > (off_t)size)
		posix_fadvise(fd, t->offset, 0, POSIX_FADV_SEQUENTIAL);
	for (;;) {
		ssize_t n = pread(fd, buf, size, t->offset);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n < 0)
				total = total ? total : -1;
			break;
		}
		if (tail_feed(t, buf, (size_t)n, st, now_ms) < 0) {
			total = -1;
			break;
		}
		total += n;
		/* A short read of a regular file is its end for now: what
		 * is appended later comes with its own event. */
		if ((size_t)n < size)
			break;
		if ((unsigned long long)total >= budget) {
			t->more = 1;
			break;
		}
	}
	int e = errno;
	close(fd);
	errno = e;
	return total;
}

int tail_skip_to_end(struct tail *t)
{
	struct stat sb;

	if (stat(t->path, &sb) < 0)
		return -1;
	t->dev = sb.st_dev;
	t->ino = sb.st_ino;
	t->offset = sb.st_size;
	/* The head of what was skipped is still the file's head. */
	int fd = open(t->path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd >= 0) {
		ssize_t n = pread(fd, t->head, TAIL_HEAD, 0);
		t->headlen = n > 0 && n <= sb.st_size ? (size_t)n : 0;
		close(fd);
	}
	return 0;
}

void tail_held_from(const struct tail *t, unsigned long long *off,
		    unsigned long *line)
{
	unsigned long long o;
	unsigned long l;

	*off = (unsigned long long)t->offset;
	*line = t->ls.lineno;
	if (linesplit_pending(&t->ls)) {
		*off = t->ls.carry_start;
		*line = t->ls.lineno;
	}
	if (feeder_pending_start(t->feeder, &o, &l) && o < *off) {
		*off = o;
		*line = l ? l - 1 : 0;
	}
	if (t->held && t->hold_off < *off) {
		*off = t->hold_off;
		*line = t->hold_line;
	}
}

int tail_start_at(struct tail *t, unsigned long long off, unsigned long line)
{
	struct stat sb;
	int fd = open(t->path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);

	if (fd < 0)
		return -1;
	if (fstat(fd, &sb) < 0 || (unsigned long long)sb.st_size < off) {
		close(fd);
		return -1;
	}
	t->dev = sb.st_dev;
	t->ino = sb.st_ino;
	t->offset = (off_t)off;
	linesplit_seek(&t->ls, off, line);
	/* The file's head, to notice a rewrite as after any read. */
	ssize_t n = pread(fd, t->head, TAIL_HEAD, 0);
	t->headlen = n > 0 ? (size_t)n : 0;
	if ((unsigned long long)t->headlen > off)
		t->headlen = (size_t)off;
	close(fd);
	return 0;
}
