#include "config.h"

#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileid.h"

uint64_t fileid_hash(const void *p, size_t n)
{
	const unsigned char *s = p;
	uint64_t h = 14695981039346656037ULL;

	for (size_t i = 0; i < n; i++)
		h = (h ^ s[i]) * 1099511628211ULL;
	return h;
}

/* The hash of n bytes at off; -1 when they cannot all be read. */
static int hash_at(int fd, unsigned long long off, unsigned n, uint64_t *h)
{
	unsigned char buf[FILEID_HEAD > FILEID_BEFORE ? FILEID_HEAD
						      : FILEID_BEFORE];
	size_t got = 0;

	while (got < n) {
		ssize_t r = pread(fd, buf + got, n - got, (off_t)(off + got));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			if (r == 0)
				errno = EINVAL;
			return -1;
		}
		got += (size_t)r;
	}
	*h = fileid_hash(buf, n);
	return 0;
}

int fileid_take(int fd, unsigned long long offset, unsigned long line,
		struct fileid *id)
{
	struct stat sb;

	if (fstat(fd, &sb) < 0)
		return -1;
	if ((unsigned long long)sb.st_size < offset) {
		errno = EINVAL;
		return -1;
	}
	id->ino = (unsigned long long)sb.st_ino;
	id->dev = (unsigned long long)sb.st_dev;
	id->offset = offset;
	id->line = line;
	/* The head is what the file holds now, even past the offset: files
	 * grow at their end, and a point at 0 must still know its file. */
	unsigned long long size = (unsigned long long)sb.st_size;
	id->headlen = size < FILEID_HEAD ? (unsigned)size : FILEID_HEAD;
	id->beforelen = offset < FILEID_BEFORE ? (unsigned)offset
					       : FILEID_BEFORE;
	if (hash_at(fd, 0, id->headlen, &id->head) < 0 ||
	    hash_at(fd, offset - id->beforelen, id->beforelen,
		    &id->before) < 0)
		return -1;
	return 0;
}

int fileid_matches(const struct fileid *id, int fd)
{
	struct stat sb;
	uint64_t h;

	if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode) ||
	    (unsigned long long)sb.st_size < id->offset ||
	    id->headlen > FILEID_HEAD || id->beforelen > FILEID_BEFORE ||
	    id->beforelen > id->offset)
		return 0;
	if (hash_at(fd, 0, id->headlen, &h) < 0 || h != id->head)
		return 0;
	if (hash_at(fd, id->offset - id->beforelen, id->beforelen, &h) < 0 ||
	    h != id->before)
		return 0;
	return 1;
}

int fileid_same_node(dev_t dev_was, ino_t ino_was, dev_t dev_now,
		     ino_t ino_now)
{
	(void)dev_was;
	(void)dev_now;
	return ino_was == ino_now;
}
