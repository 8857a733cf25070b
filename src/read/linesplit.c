#include "config.h"

#include <stdint.h>
#include <string.h>

#include "linesplit.h"

void linesplit_init(struct linesplit *ls, line_fn fn, void *ctx)
{
	memset(ls, 0, sizeof *ls);
	ls->fn = fn;
	ls->ctx = ctx;
}

static inline int starts_wanted(const struct linesplit *ls, const char *s,
				const char *end);

static int wanted(const struct linesplit *ls, const char *line, size_t len)
{
	return !ls->want_all || *ls->want_all ||
	       starts_wanted(ls, line, line + len);
}

static void give(struct linesplit *ls, const char *line, size_t len)
{
	if (!wanted(ls, line, len)) {
		ls->lineno++;
		return;
	}
	if (len && line[len - 1] == '\r')
		len--;
	ls->fn(ls->ctx, line, len, ++ls->lineno);
}

/* Keeps at most LINESPLIT_MAX bytes of an unfinished line. */
static void keep(struct linesplit *ls, const char *p, size_t n)
{
	if (!ls->carry.len && !ls->overlong)
		ls->carry_start = ls->pos + (unsigned long long)(p - ls->feed_buf);
	size_t room = LINESPLIT_MAX - ls->carry.len;

	if (n > room) {
		n = room;
		if (!ls->overlong)
			ls->truncated++;
		ls->overlong = 1;
	}
	sb_add(&ls->carry, p, n);
}

/* Whether the line at s (bytes up to end available) starts "[ERR", or
 * as a fact rule's records do ("[INFO] ASCENDCL(").  Every plog line
 * starts with '[': the first eight bytes, one compare per start, turn
 * almost all of them away. */
static inline int starts_wanted(const struct linesplit *ls, const char *s,
				const char *end)
{
	size_t avail = (size_t)(end - s);

	if (avail < 4 || s[0] != '[')
		return 0;
	if (memcmp(s, "[ERR", 4) == 0)
		return 1;
	const struct line_starts *st = ls->starts;
	if (!st || !st->n)
		return 0;
	if (st->all)
		return 1;
	uint64_t w = 0;
	if (avail >= 8)
		memcpy(&w, s, 8);
	else
		memcpy(&w, s, avail);
	for (size_t i = 0; i < st->n; i++)
		if ((w & st->mask8[i]) == st->first8[i] && avail >= st->len[i] &&
		    memcmp(s, st->s[i], st->len[i]) == 0)
			return 1;
	return 0;
}

/* starts_wanted for the skip loop, with what it compares in locals:
 * ERROR and two more starts in a few instructions a line; anything else
 * (a short tail, more starts) asks starts_wanted. */
struct quick {
	uint32_t err;
	uint64_t f[2], m[2];
	size_t n;
	int slow;
};

static inline void quick_init(struct quick *qk, const struct linesplit *ls)
{
	const struct line_starts *st = ls->starts;

	memset(qk, 0, sizeof *qk);
	memcpy(&qk->err, "[ERR", 4);
	if (!st || !st->n)
		return;
	qk->slow = st->all || st->n > 2;
	qk->n = st->n;
	for (size_t i = 0; i < st->n && i < 2; i++) {
		qk->f[i] = st->first8[i];
		qk->m[i] = st->mask8[i];
	}
}

static inline int quick_wanted(const struct linesplit *ls,
			       const struct quick *qk, const char *s,
			       const char *end)
{
	uint32_t w4;
	uint64_t w;

	if (qk->slow || end - s < 8)
		return starts_wanted(ls, s, end);
	memcpy(&w4, s, 4);
	if (w4 == qk->err)
		return 1;
	if (!qk->n)
		return 0;
	memcpy(&w, s, 8);
	if ((w & qk->m[0]) == qk->f[0] ||
	    (qk->n > 1 && (w & qk->m[1]) == qk->f[1]))
		return starts_wanted(ls, s, end);
	return 0;
}

#if defined(__SSE2__)
#include <emmintrin.h>

/* Skips the whole lines from p (a line start) to the first one that
 * starts "[ERR", counting them; returns its start, or end.  Sixteen bytes
 * at a time: this loop is where a large tree spends its time. */
static const char *skip_lines(struct linesplit *ls, const char *p,
			      const char *end)
{
	const __m128i nl = _mm_set1_epi8('\n');
	unsigned long n = 0;
	const char *q = p;
	struct quick qk;

	quick_init(&qk, ls);
	for (; end - q >= 64; q += 64) {
		const __m128i *v = (const __m128i *)(const void *)q;
		uint64_t mask =
			(uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(v), nl)) |
			(uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(v + 1), nl)) << 16 |
			(uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(v + 2), nl)) << 32 |
			(uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(v + 3), nl)) << 48;
		while (mask) {
			const char *next = q + __builtin_ctzll(mask) + 1;
			n++;
			if (quick_wanted(ls, &qk, next, end)) {
				ls->lineno += n;
				return next;
			}
			mask &= mask - 1;
		}
	}
	for (; q < end; q++) {
		if (*q != '\n')
			continue;
		n++;
		if (starts_wanted(ls, q + 1, end)) {
			ls->lineno += n;
			return q + 1;
		}
	}
	ls->lineno += n;
	return end;
}

#else
static const char *skip_lines(struct linesplit *ls, const char *p,
			      const char *end)
{
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		ls->lineno++;
		p = nl + 1;
		if (starts_wanted(ls, p, end))
			return p;
	}
	return end;
}
#endif

/* Gives out the whole lines of [p, end), end[-1] being a newline. */
static void whole_lines(struct linesplit *ls, const char *p, const char *end)
{
	while (p < end) {
		if (ls->want_all && !*ls->want_all && !starts_wanted(ls, p, end)) {
			p = skip_lines(ls, p, end);
			if (p == end)
				return;
		}
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = (size_t)(nl - p);
		if (len > LINESPLIT_MAX) {
			ls->truncated++;
			len = LINESPLIT_MAX;
		}
		ls->line_start = ls->pos + (unsigned long long)(p - ls->feed_buf);
		give(ls, p, len);
		p = nl + 1;
	}
}

void linesplit_feed(struct linesplit *ls, const char *buf, size_t n)
{
	const char *p = buf, *end = buf + n;

	ls->feed_buf = buf;
	if (ls->carry.len || ls->overlong) {
		const char *nl = memchr(p, '\n', n);
		if (!nl) {
			keep(ls, p, n);
			ls->pos += n;
			return;
		}
		keep(ls, p, (size_t)(nl - p));
		ls->line_start = ls->carry_start;
		give(ls, ls->carry.buf, ls->carry.len);
		sb_reset(&ls->carry);
		ls->overlong = 0;
		p = nl + 1;
	}
	const char *last = p < end ? memrchr(p, '\n', (size_t)(end - p)) : NULL;
	if (last) {
		whole_lines(ls, p, last + 1);
		p = last + 1;
	}
	if (p < end)
		keep(ls, p, (size_t)(end - p));
	ls->pos += n;
}

void linesplit_finish(struct linesplit *ls)
{
	ls->line_start = ls->carry_start;
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
	ls->pos = ls->line_start = ls->carry_start = 0;
}

void linesplit_seek(struct linesplit *ls, unsigned long long pos,
		    unsigned long lineno)
{
	linesplit_reset(ls);
	ls->pos = ls->line_start = ls->carry_start = pos;
	ls->lineno = lineno;
}

int linesplit_pending(const struct linesplit *ls)
{
	return ls->carry.len > 0 || ls->overlong;
}

void linesplit_free(struct linesplit *ls)
{
	sb_free(&ls->carry);
}
