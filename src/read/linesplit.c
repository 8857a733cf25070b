#include "config.h"

#include <stdint.h>
#include <string.h>

#include "linesplit.h"

void linesplit_init(struct linesplit *ls, line_fn fn, void *ctx)
{
	memset(ls, 0, sizeof *ls);
	ls->fn = fn;
	ls->ctx = ctx;
#if defined(__x86_64__) && defined(__GNUC__)
	ls->avx2 = __builtin_cpu_supports("avx2") != 0;
#endif
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
	return st->all || line_starts_match(st, s, avail);
}

/* starts_wanted for the skip loop, what it compares in registers:
 * "[ERR" and two more starts, each one and-and-compare of a line's
 * first eight bytes; a match (or a short tail, or more starts) asks
 * starts_wanted. */
struct quick {
	uint64_t fe, me, f0, m0, f1, m1;
	int slow;
};

static inline struct quick quick_init(const struct linesplit *ls)
{
	const struct line_starts *st = ls->starts;
	/* A mask of 0 against a word of ones never matches. */
	struct quick qk = { 0, 0, ~0ULL, 0, ~0ULL, 0, 0 };
	unsigned char e[8] = "[ERR", m[8] = { 0xff, 0xff, 0xff, 0xff };

	memcpy(&qk.fe, e, 8);
	memcpy(&qk.me, m, 8);
	if (!st || !st->n)
		return qk;
	qk.slow = st->all || st->n > 2;
	qk.f0 = st->first8[0];
	qk.m0 = st->mask8[0];
	if (st->n > 1) {
		qk.f1 = st->first8[1];
		qk.m1 = st->mask8[1];
	}
	return qk;
}

static inline int quick_wanted(const struct linesplit *ls, struct quick qk,
			       const char *s, const char *end)
{
	uint64_t w;

	if (qk.slow || end - s < 8)
		return starts_wanted(ls, s, end);
	memcpy(&w, s, 8);
	if ((w & qk.me) == qk.fe)
		return 1;
	if ((w & qk.m0) == qk.f0 || (w & qk.m1) == qk.f1)
		return starts_wanted(ls, s, end);
	return 0;
}

#if defined(__SSE2__)
#include <emmintrin.h>

/* The newlines of a 64-byte block (mask), each line after one asked
 * whether it is wanted: its start, or NULL (n counts the lines). */
static inline const char *block_lines(const struct linesplit *ls,
				      struct quick qk, const char *q,
				      const char *end, uint64_t mask,
				      unsigned long *n)
{
	for (; mask; mask &= mask - 1) {
		const char *next = q + __builtin_ctzll(mask) + 1;
		++*n;
		if (quick_wanted(ls, qk, next, end))
			return next;
	}
	return NULL;
}

/* The last bytes, fewer than a block. */
static const char *tail_lines(struct linesplit *ls, const char *q,
			      const char *end, unsigned long n)
{
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

/* Skips the whole lines from p (a line start) to the first one that
 * starts "[ERR", counting them; returns its start, or end.  Sixteen bytes
 * at a time: this loop is where a large tree spends its time. */
static const char *skip_lines(struct linesplit *ls, const char *p,
			      const char *end)
{
	const __m128i nl = _mm_set1_epi8('\n');
	unsigned long n = 0;
	const char *q = p;
	const struct quick qk = quick_init(ls);

	for (; end - q >= 64; q += 64) {
		const __m128i *v = (const __m128i *)(const void *)q;
		uint64_t mask =
			(uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(v), nl)) |
			(uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(v + 1), nl)) << 16 |
			(uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(v + 2), nl)) << 32 |
			(uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(v + 3), nl)) << 48;
		const char *next = block_lines(ls, qk, q, end, mask, &n);
		if (next) {
			ls->lineno += n;
			return next;
		}
	}
	return tail_lines(ls, q, end, n);
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define HAVE_SKIP_AVX2 1

/* skip_lines with 32 bytes a compare, where the CPU has AVX2 (chosen at
 * linesplit_init): half the instructions for the bytes no line of
 * interest starts in, most of a sparse tree. */
__attribute__((target("avx2")))
static const char *skip_lines_avx2(struct linesplit *ls, const char *p,
				   const char *end)
{
	const __m256i nl = _mm256_set1_epi8('\n');
	unsigned long n = 0;
	const char *q = p;
	const struct quick qk = quick_init(ls);

	for (; end - q >= 64; q += 64) {
		const __m256i *v = (const __m256i *)(const void *)q;
		uint64_t mask =
			(uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_loadu_si256(v), nl)) |
			(uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_loadu_si256(v + 1), nl)) << 32;
		const char *next = block_lines(ls, qk, q, end, mask, &n);
		if (next) {
			ls->lineno += n;
			return next;
		}
	}
	return tail_lines(ls, q, end, n);
}
#endif

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
#ifdef HAVE_SKIP_AVX2
			p = ls->avx2 ? skip_lines_avx2(ls, p, end)
				     : skip_lines(ls, p, end);
#else
			p = skip_lines(ls, p, end);
#endif
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
