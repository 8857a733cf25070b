#include "config.h"

#include <string.h>

#include "linesplit.h"

void linesplit_init(struct linesplit *ls, line_fn fn, void *ctx)
{
	memset(ls, 0, sizeof *ls);
	ls->fn = fn;
	ls->ctx = ctx;
}

static void give(struct linesplit *ls, const char *line, size_t len)
{
	if (len && line[len - 1] == '\r')
		len--;
	ls->fn(ls->ctx, line, len, ++ls->lineno);
}

/* Keeps at most LINESPLIT_MAX bytes of an unfinished line. */
static void keep(struct linesplit *ls, const char *p, size_t n)
{
	size_t room = LINESPLIT_MAX - ls->carry.len;

	if (n > room) {
		n = room;
		if (!ls->overlong)
			ls->truncated++;
		ls->overlong = 1;
	}
	sb_add(&ls->carry, p, n);
}

void linesplit_feed(struct linesplit *ls, const char *buf, size_t n)
{
	const char *p = buf, *end = buf + n;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl) {
			keep(ls, p, (size_t)(end - p));
			return;
		}
		if (ls->carry.len || ls->overlong) {
			keep(ls, p, (size_t)(nl - p));
			give(ls, ls->carry.buf, ls->carry.len);
			sb_reset(&ls->carry);
			ls->overlong = 0;
		} else if ((size_t)(nl - p) > LINESPLIT_MAX) {
			ls->truncated++;
			give(ls, p, LINESPLIT_MAX);
		} else {
			give(ls, p, (size_t)(nl - p));
		}
		p = nl + 1;
	}
}

void linesplit_finish(struct linesplit *ls)
{
	if (ls->carry.len || ls->overlong)
		give(ls, ls->carry.buf ? ls->carry.buf : "", ls->carry.len);
	sb_reset(&ls->carry);
	ls->overlong = 0;
}

void linesplit_reset(struct linesplit *ls)
{
	sb_reset(&ls->carry);
	ls->overlong = 0;
	ls->lineno = 0;
}

int linesplit_pending(const struct linesplit *ls)
{
	return ls->carry.len > 0 || ls->overlong;
}

void linesplit_free(struct linesplit *ls)
{
	sb_free(&ls->carry);
}
