#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine.h"
#include "xalloc.h"

#define READ_CHUNK (256 * 1024)

static void emit(void *ctx, struct incident *inc)
{
	struct engine *e = ctx;

	model_add(e->model, inc);
	if (e->on_incident)
		e->on_incident(e->ctx, inc);
}

void engine_init(struct engine *e, struct ruleset *rules, struct model *m)
{
	memset(e, 0, sizeof *e);
	e->rules = rules;
	e->model = m;
	e->classifier = classifier_new(rules, emit, e);
	e->feeder = feeder_new(rules, e->classifier);
}

void engine_free(struct engine *e)
{
	feeder_free(e->feeder);
	classifier_free(e->classifier);
	e->feeder = NULL;
	e->classifier = NULL;
}

void engine_end_group(struct engine *e)
{
	feeder_flush(e->feeder);
	classifier_flush(e->classifier);
}

static void on_line(void *ctx, const char *line, size_t len,
		    unsigned long lineno)
{
	feeder_line(ctx, line, len, lineno);
}

/* Text has few control bytes; a file whose first block is mostly them,
 * NULs included, is not a log. */
static int looks_binary(const char *buf, size_t n)
{
	size_t ctl = 0, nul = 0;

	if (n > 8192)
		n = 8192;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)buf[i];
		nul += c == 0;
		ctl += c < 0x09 || (c > 0x0d && c < 0x20) || c == 0x7f;
	}
	return nul > 0 && ctl * 10 > n;
}

static int read_fd(struct engine *e, int fd, int check_binary)
{
	char *buf = xmalloc(READ_CHUNK);
	struct linesplit ls;
	int first = 1, rc = 0;

	linesplit_init(&ls, on_line, e->feeder);
	ls.want_all = feeder_want_all(e->feeder);
	for (;;) {
		ssize_t n = read(fd, buf, READ_CHUNK);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = -1;
			break;
		}
		if (n == 0)
			break;
		if (first && check_binary && looks_binary(buf, (size_t)n)) {
			errno = EILSEQ;
			rc = -2;
			break;
		}
		first = 0;
		e->model->stats.bytes += (unsigned long long)n;
		linesplit_feed(&ls, buf, (size_t)n);
	}
	if (rc == 0)
		linesplit_finish(&ls);
	e->model->stats.lines += ls.lineno;
	e->model->stats.truncated_lines += ls.truncated;
	int saved = errno;
	linesplit_free(&ls);
	free(buf);
	errno = saved;
	return rc;
}

int engine_read_path(struct engine *e, const char *path, enum file_kind kind,
		     int check_binary)
{
	int is_stdin = strcmp(path, "-") == 0;
	int fd = is_stdin ? 0 : open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);

	if (fd < 0)
		return -1;
	if (!is_stdin) {
		struct stat st;
		if (fstat(fd, &st) < 0 || S_ISDIR(st.st_mode)) {
			int saved = S_ISDIR(st.st_mode) ? EISDIR : errno;
			close(fd);
			errno = saved;
			return -1;
		}
		posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	}
	feeder_set_file(e->feeder, model_intern(e->model, path), kind);
	int rc = read_fd(e, fd, check_binary);
	int saved = errno;
	if (!is_stdin)
		close(fd);
	errno = saved;
	if (rc == 0)
		e->model->stats.files++;
	return rc;
}
