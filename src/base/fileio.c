#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "i18n.h"
#include "fileio.h"

/* Reads fd to its end into out, at most max bytes.  Returns 0, or -1
 * with errno set (EFBIG once past max). */
static int read_bounded(int fd, struct strbuf *out, size_t max)
{
	for (;;) {
		sb_grow(out, 65536);
		ssize_t n = read(fd, out->buf + out->len, 65536);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			return 0;
		out->len += (size_t)n;
		out->buf[out->len] = '\0';
		if (out->len > max) {
			errno = EFBIG;
			return -1;
		}
	}
}

int read_small_file(const char *path, struct strbuf *out, size_t max)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	int rc = read_bounded(fd, out, max), e = errno;
	close(fd);
	errno = e;
	return rc;
}

/* The line (from 1) of the byte at offset at. */
static unsigned long line_at(const char *text, size_t at)
{
	unsigned long line = 1;

	for (const char *p = text; (p = memchr(p, '\n', (size_t)(text + at - p)));
	     p++)
		line++;
	return line;
}

int read_data_file(const char *path, const char *what, size_t max,
		   struct strbuf *out, struct strbuf *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	struct stat st;

	sb_reset(err);
	if (fd < 0 || fstat(fd, &st) < 0) {
		sb_addf(err, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		sb_addf(err, _("%s: not a regular file (a %s must be one)"), path,
			what);
		close(fd);
		return -1;
	}
	if (read_bounded(fd, out, max) < 0) {
		if (errno == EFBIG)
			sb_addf(err, _("%s:%lu: larger than %zu KiB, the limit "
				"for a %s"), path, line_at(out->buf, max),
				max / 1024, what);
		else
			sb_addf(err, "%s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	const char *nul = memchr(out->buf, '\0', out->len);
	if (nul) {
		sb_addf(err, _("%s:%lu: not a %s (it holds NUL bytes)"), path,
			line_at(out->buf, (size_t)(nul - out->buf)), what);
		return -1;
	}
	return 0;
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int write_file_atomic(const char *path, const char *buf, size_t len,
		      mode_t mode, int sync, struct strbuf *err)
{
	struct strbuf tmp = STRBUF_INIT;
	const char *slash = strrchr(path, '/');
	struct stat st;
	int rc = -1;

	/* Renamed over, a device would be replaced by a file (as root,
	 * --prom-file=/dev/null would take /dev/null away from the whole
	 * system), a FIFO or a directory lost: only a regular file, or a
	 * name that is not there yet, is written. */
	if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode) &&
	    !S_ISLNK(st.st_mode)) {
		sb_addf(err, _("%s: not a regular file: plogtop writes it by "
			       "renaming a new file over it"), path);
		return -1;
	}

	/* A dot name: node_exporter's collector reads only *.prom files. */
	if (slash)
		sb_addf(&tmp, "%.*s/.%s.XXXXXX", (int)(slash - path), path,
			slash + 1);
	else
		sb_addf(&tmp, ".%s.XXXXXX", path);
	int fd = mkostemp(tmp.buf, O_CLOEXEC);
	if (fd < 0)
		goto fail;
	if (fchmod(fd, mode) < 0 || write_all(fd, buf, len) < 0 ||
	    (sync && fsync(fd) < 0)) {
		int e = errno;
		close(fd);
		unlink(tmp.buf);
		errno = e;
		goto fail;
	}
	if (close(fd) < 0 || rename(tmp.buf, path) < 0) {
		int e = errno;
		unlink(tmp.buf);
		errno = e;
		goto fail;
	}
	rc = 0;
	goto out;
fail:
	sb_addf(err, "%s: %s", path, strerror(errno));
out:
	sb_free(&tmp);
	return rc;
}
