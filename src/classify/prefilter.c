#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "literals.h"
#include "prefilter.h"
#include "xalloc.h"

#define SLOTS 4096

/* A literal is listed by its first four bytes (off 0) and, when it is
 * long enough, by its four from the second (off 1): with every literal
 * listed both ways, a scan need look only at every other place, the
 * four bytes there being one literal's at off 0 or 1. */
struct lit {
	char *s;		/* case folded */
	size_t len;
	size_t rule;
	size_t off;		/* where in s the four bytes are */
	struct lit *next;
};

/* The scan's step: 2 when every literal is listed at offsets 0 and 1. */
#define STRIDE_MAX 2

struct prefilter {
	size_t nrules;
	unsigned char *always;	/* rules without literals */
	size_t minlen;		/* of the literals */
	struct lit *slot[SLOTS];
	uint64_t seen[65536 / 64];	/* which 16-bit hashes have a literal */
};

static unsigned char fold(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c;
}

static uint32_t hash4(uint32_t k)
{
	return (k * 2654435761u) >> 16;
}

/* Four bytes, case folded, as prefilter_scan loads them from its folded
 * copy (in the machine's byte order). */
static uint32_t key4(const char *s)
{
	unsigned char b[4];
	uint32_t k;

	for (int i = 0; i < 4; i++)
		b[i] = fold((unsigned char)s[i]);
	memcpy(&k, b, 4);
	return k;
}

struct prefilter *prefilter_new(size_t nrules)
{
	struct prefilter *pf = xcalloc(1, sizeof *pf);

	pf->nrules = nrules;
	pf->minlen = (size_t)-1;
	pf->always = xcalloc(nrules ? nrules : 1, 1);
	return pf;
}

void prefilter_free(struct prefilter *pf)
{
	if (!pf)
		return;
	for (size_t i = 0; i < SLOTS; i++) {
		struct lit *l = pf->slot[i];
		while (l) {
			struct lit *next = l->next;
			free(l->s);
			free(l);
			l = next;
		}
	}
	free(pf->always);
	free(pf);
}

int prefilter_add(struct prefilter *pf, size_t rule, const char *pattern)
{
	struct litset set = { 0 };

	if (!pattern_literals(pattern, &set)) {
		pf->always[rule] = 1;
		return 0;
	}
	for (size_t i = 0; i < set.n; i++) {
		size_t len = strlen(set.v[i]);
		if (len < pf->minlen)
			pf->minlen = len;
		for (size_t off = 0; off < STRIDE_MAX &&
				     off + LITERAL_MIN <= len; off++) {
			struct lit *l = xcalloc(1, sizeof *l);
			l->len = len;
			l->off = off;
			l->s = xstrdup(set.v[i]);
			for (size_t j = 0; j < len; j++)
				l->s[j] = (char)fold((unsigned char)l->s[j]);
			l->rule = rule;
			uint32_t h = hash4(key4(l->s + off));
			pf->seen[h / 64] |= 1ull << (h % 64);
			l->next = pf->slot[h % SLOTS];
			pf->slot[h % SLOTS] = l;
		}
	}
	litset_free(&set);
	return 1;
}

static int equal_folded(const char *text, const char *lit, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (fold((unsigned char)text[i]) != (unsigned char)lit[i])
			return 0;
	return 1;
}

int prefilter_lists_pattern(const char *pattern, const char *text,
			    size_t len)
{
	struct litset set = { 0 };
	int found = 0;

	if (!pattern_literals(pattern, &set))
		return 1;
	for (size_t k = 0; k < set.n && !found; k++) {
		char *lit = set.v[k];
		size_t n = strlen(lit);
		for (size_t j = 0; j < n; j++)
			lit[j] = (char)fold((unsigned char)lit[j]);
		/* The positions prefilter_scan looks at. */
		for (size_t i = 0; i + LITERAL_MIN <= len && !found; i++)
			found = n <= len - i && equal_folded(text + i, lit, n);
	}
	litset_free(&set);
	return found;
}

/* Positions a folded copy covers at a time (on the stack). */
#define SCAN_CHUNK 1024

/* n bytes of s, case folded (fold()), into d: sixteen at a time. */
static void fold_block(unsigned char *d, const char *s, size_t n)
{
	size_t i = 0;
#if defined(__SSE2__)
	const __m128i a1 = _mm_set1_epi8('A' - 1), z1 = _mm_set1_epi8('Z' + 1);
	const __m128i bit = _mm_set1_epi8(0x20);
	for (; i + 16 <= n; i += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
		/* Signed compares: bytes from 0x80 are below 'A'. */
		__m128i up = _mm_and_si128(_mm_cmpgt_epi8(v, a1),
					   _mm_cmplt_epi8(v, z1));
		_mm_storeu_si128((__m128i *)(void *)(d + i),
				 _mm_add_epi8(v, _mm_and_si128(up, bit)));
	}
#endif
	for (; i < n; i++)
		d[i] = fold((unsigned char)s[i]);
}

/* The text is folded a chunk at a time, so that each place costs a
 * load, a hash and a bit test (folding and shifting the key byte by
 * byte was twice that: this is every ERROR line's first cost), and only
 * every other place is looked at when every literal is listed at
 * offsets 0 and 1 (struct lit): a literal at an odd place has its
 * second four bytes at the even place after.  A chunk holds an even
 * number of places, so the places stay even from chunk to chunk. */
void prefilter_scan(const struct prefilter *pf, const char *text, size_t len,
		    unsigned char *cand)
{
	unsigned char low[SCAN_CHUNK + LITERAL_MIN - 1];
	const size_t step = pf->minlen >= LITERAL_MIN + STRIDE_MAX - 1 ?
			    STRIDE_MAX : 1;

	memcpy(cand, pf->always, pf->nrules);
	for (size_t at = 0; at + LITERAL_MIN <= len;) {
		size_t n = len - at < sizeof low ? len - at : sizeof low;
		size_t npos = n - (LITERAL_MIN - 1);
		fold_block(low, text + at, n);
		for (size_t j = 0; j < npos; j += step) {
			uint32_t k;
			memcpy(&k, low + j, 4);
			uint32_t h = hash4(k);
			if (!(pf->seen[h / 64] >> (h % 64) & 1))
				continue;
			for (const struct lit *l = pf->slot[h % SLOTS]; l;
			     l = l->next) {
				/* Where the literal would start: in this
				 * chunk's copy, or a byte before it. */
				if (cand[l->rule] || l->off >= step ||
				    at + j < l->off)
					continue;
				size_t i = at + j - l->off;
				if (l->len > len - i)
					continue;
				/* Inside the folded copy a plain compare does:
				 * most literals are short. */
				if (j >= l->off && j - l->off + l->len <= n ?
				    memcmp(low + j - l->off, l->s, l->len) == 0 :
				    equal_folded(text + i, l->s, l->len))
					cand[l->rule] = 1;
			}
		}
		at += npos;
	}
}

/* ---- a few literals, with case ---- */

/* The literals' first two bytes (up to ANYLIT_FIRST distinct pairs) find
 * where one may start; a bitmap of their first four bytes, hashed, turns
 * most of those places away before any compare.  A pair, not a byte: the
 * literals start at a capital ("SetDevice", "CreateStream") and an ACL
 * line is full of capitals, which sent most blocks of every INFO line to
 * the bitmap (and to a mispredicted branch) for nothing. */
#define ANYLIT_FIRST 6
struct anylit {
	char **v;
	size_t *len;
	size_t n;
	int any;	/* a literal too short to look for was added */
	unsigned char first[ANYLIT_FIRST], second[ANYLIT_FIRST];
	size_t nfirst;	/* > ANYLIT_FIRST: too many, each literal alone */
	uint32_t *head;	/* each literal's first four bytes */
	size_t maxlen;
	/* each pair's first and second byte, 16 times */
	unsigned char vfirst[ANYLIT_FIRST][16], vsecond[ANYLIT_FIRST][16];
	uint64_t key4[65536 / 64];
};

static uint32_t raw4(const char *s)
{
	uint32_t k;

	memcpy(&k, s, 4);
	return (k * 2654435761u) >> 16;
}

struct anylit *anylit_new(void)
{
	return xcalloc(1, sizeof(struct anylit));
}

void anylit_free(struct anylit *a)
{
	if (!a)
		return;
	for (size_t i = 0; i < a->n; i++)
		free(a->v[i]);
	free(a->v);
	free(a->len);
	free(a->head);
	free(a);
}

/* Bytes too common to find a literal by: a literal is looked for by its
 * first and last bytes, so it is cut of these at both ends (a part of a
 * required literal is required too). */
static int common_byte(char c)
{
	return c == ' ' || c == '=' || c == ',' || c == ':' || c == '[' ||
	       c == '(' || c == ']' || c == ')';
}

void anylit_add(struct anylit *a, const char *lit)
{
	size_t n = strlen(lit);

	while (n && common_byte(lit[0])) {
		lit++;
		n--;
	}
	while (n && common_byte(lit[n - 1]))
		n--;
	/* Its part from its first capital on, when four bytes or more are
	 * left: a capital letter starts few places in a log's text ("start
	 * to execute aclrtSetDevice" is looked for as "SetDevice"). */
	for (size_t i = 0; i + 4 <= n; i++)
		if (lit[i] >= 'A' && lit[i] <= 'Z') {
			lit += i;
			n -= i;
			break;
		}
	if (n < 4) {
		a->any = 1;	/* nothing to look for: every text may hold it */
		return;
	}
	for (size_t i = 0; i < a->n; i++)
		if (a->len[i] == n && memcmp(a->v[i], lit, n) == 0)
			return;
	a->v = xrealloc(a->v, (a->n + 1) * sizeof *a->v);
	a->len = xrealloc(a->len, (a->n + 1) * sizeof *a->len);
	a->v[a->n] = xstrndup(lit, n);
	a->head = xrealloc(a->head, (a->n + 1) * sizeof *a->head);
	memcpy(&a->head[a->n], lit, 4);
	a->len[a->n++] = n;
	size_t f = 0;
	while (f < a->nfirst && f < ANYLIT_FIRST &&
	       (a->first[f] != (unsigned char)lit[0] ||
		a->second[f] != (unsigned char)lit[1]))
		f++;
	if (f == a->nfirst) {
		if (f < ANYLIT_FIRST) {
			a->first[f] = (unsigned char)lit[0];
			a->second[f] = (unsigned char)lit[1];
			memset(a->vfirst[f], lit[0], 16);
			memset(a->vsecond[f], lit[1], 16);
		}
		a->nfirst++;
	}
	if (n > a->maxlen)
		a->maxlen = n;
	uint32_t h = raw4(lit);
	a->key4[h / 64] |= 1ull << (h % 64);
}

size_t anylit_count(const struct anylit *a)
{
	return a->n;
}

#if defined(__SSE2__)
/* Whether a literal starts at one of the sixteen positions of t (whose
 * bytes are readable that far and a literal's length on): those whose
 * byte is the literal's first and whose byte len-1 on is its last,
 * then a compare of the rest; every literal on the block. */
static int block_has(const struct anylit *a, const char *t)
{
	__m128i blk = _mm_loadu_si128((const __m128i *)(const void *)t);

	for (size_t j = 0; j < a->n; j++) {
		const char *lit = a->v[j];
		size_t len = a->len[j];
		__m128i b = _mm_loadu_si128((const __m128i *)(const void *)(t + len - 1));
		unsigned mask = (unsigned)_mm_movemask_epi8(_mm_and_si128(
			_mm_cmpeq_epi8(blk, _mm_set1_epi8(lit[0])),
			_mm_cmpeq_epi8(b, _mm_set1_epi8(lit[len - 1]))));
		while (mask) {
			unsigned k = (unsigned)__builtin_ctz(mask);
			if (memcmp(t + k + 1, lit + 1, len - 1) == 0)
				return 1;
			mask &= mask - 1;
		}
	}
	return 0;
}

/* The same by the first two bytes and the bitmap: t's sixteen positions
 * whose two bytes are some literal's first two, then whose four bytes
 * hash to a literal's, then the compares of the literals that fit in the
 * avail bytes from t (PAIR_READ are readable; in scan_pairs' NUL-padded
 * copy no pair matches past the text, so k < avail there too). */
static inline __m128i vbytes(const unsigned char v[16])
{
	return _mm_loadu_si128((const __m128i *)(const void *)v);
}

static inline int block_has_first(const struct anylit *a, const char *t,
				  size_t avail)
{
	__m128i blk = _mm_loadu_si128((const __m128i *)(const void *)t);
	__m128i nxt = _mm_loadu_si128((const __m128i *)(const void *)(t + 1));
	__m128i eq = _mm_setzero_si128();

	for (size_t f = 0; f < a->nfirst; f++)
		eq = _mm_or_si128(eq, _mm_and_si128(
			_mm_cmpeq_epi8(blk, vbytes(a->vfirst[f])),
			_mm_cmpeq_epi8(nxt, vbytes(a->vsecond[f]))));
	unsigned mask = (unsigned)_mm_movemask_epi8(eq);
	while (mask) {
		unsigned k = (unsigned)__builtin_ctz(mask);
		uint32_t w, h;
		memcpy(&w, t + k, 4);
		h = (w * 2654435761u) >> 16;
		if (a->key4[h / 64] >> (h % 64) & 1)
			for (size_t j = 0; j < a->n; j++)
				if (a->head[j] == w && a->len[j] <= avail - k &&
				    memcmp(t + k + 4, a->v[j] + 4,
					   a->len[j] - 4) == 0)
					return 1;
		mask &= mask - 1;
	}
	return 0;
}

/* Bytes block_has_first reads from its t: the pair's sixteen and one,
 * and a four-byte key at the last place. */
#define PAIR_READ 19

/* By the pairs: sixteen places a block while PAIR_READ bytes are left
 * (a literal is compared only where it fits, avail), the rest from a
 * copy padded with NUL bytes.  Not the literal's length: the longest
 * ("TraverseStatistics: The ResourceType") sent the last 52 bytes of
 * every line to the copy. */
static int scan_pairs(const struct anylit *a, const char *text, size_t n)
{
	char pad[2 * 16 + PAIR_READ] = { 0 };
	size_t i = 0;

	for (; i + PAIR_READ <= n; i += 16)
		if (block_has_first(a, text + i, n - i))
			return 1;
	size_t rest = n - i;
	memcpy(pad, text + i, rest);
	for (size_t k = 0; k + 4 <= rest; k += 16)
		if (block_has_first(a, pad + k, rest - k))
			return 1;
	return 0;
}

#define ANYLIT_PAD 512

int anylit_scan(const struct anylit *a, const char *text, size_t n)
{
	size_t maxlen = a->maxlen, i = 0;
	char pad[ANYLIT_PAD];

	if (a->any)
		return 1;
	if (!maxlen)
		return 0;
	if (a->nfirst <= ANYLIT_FIRST)
		return scan_pairs(a, text, n);
	for (; i + 16 + maxlen - 1 <= n; i += 16)
		if (block_has(a, text + i))
			return 1;
	/* The last positions, from a copy padded with NUL bytes (no
	 * literal holds one, so none matches across the end). */
	size_t rest = n - i;
	if (rest + 16 + maxlen > sizeof pad) {
		for (size_t j = 0; j < a->n; j++)
			if (memmem(text + i, rest, a->v[j], a->len[j]))
				return 1;
		return 0;
	}
	memcpy(pad, text + i, rest);
	memset(pad + rest, 0, 16 + maxlen);
	for (size_t k = 0; k < rest; k += 16)
		if (block_has(a, pad + k))
			return 1;
	return 0;
}
#else
int anylit_scan(const struct anylit *a, const char *text, size_t len)
{
	if (a->any)
		return 1;
	for (size_t i = 0; i < a->n; i++)
		if (memmem(text, len, a->v[i], a->len[i]))
			return 1;
	return 0;
}
#endif
