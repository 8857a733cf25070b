#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "fileio.h"

int read_small_file(const char *path, struct strbuf *out, size_t max)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	for (;;) {
		sb_grow(out, 65536);
		ssize_t n = read(fd, out->buf + out->len, 65536);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;
			close(fd);
			errno = e;
			return -1;
		}
		if (n == 0)
			break;
		out->len += (size_t)n;
		out->buf[out->len] = '\0';
		if (out->len > max) {
			close(fd);
			errno = EFBIG;
			return -1;
		}
	}
	close(fd);
	return 0;
}
