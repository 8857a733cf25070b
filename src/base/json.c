#include "config.h"

#include <stdint.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "sanitize.h"
#include "xalloc.h"

/* Printable ASCII with no quote or backslash: the sanitiser would leave
 * it as it is and JSON needs no escape (most strings are such). */
static int plain(const char *s, size_t n)
{
	size_t i = 0;
#if defined(__SSE2__)
	/* Sixteen bytes at a time: bytes from 0x80 are negative as signed,
	 * so one signed compare finds them and the control bytes. */
	const __m128i sp = _mm_set1_epi8(0x20), del = _mm_set1_epi8(0x7f),
		      q = _mm_set1_epi8('"'), bs = _mm_set1_epi8('\\');
	for (; i + 16 <= n; i += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
		__m128i bad = _mm_or_si128(
			_mm_or_si128(_mm_cmplt_epi8(v, sp),
				     _mm_cmpeq_epi8(v, del)),
			_mm_or_si128(_mm_cmpeq_epi8(v, q), _mm_cmpeq_epi8(v, bs)));
		if (_mm_movemask_epi8(bad))
			return 0;
	}
#endif
	for (; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\')
			return 0;
	}
	return 1;
}

#define CUT_MARK "\xe2\x80\xa6"	/* U+2026: a string cut at its bound */

/* The bytes of the character or sanitiser escape at s (len left). */
static size_t token_len(const unsigned char *s, size_t len)
{
	size_t n = 1;

	if (s[0] == '\\' && len > 1)
		n = s[1] == 'x' ? 4 : s[1] == 'u' ? 6 : 2;
	else if (s[0] >= 0xf0)
		n = 4;
	else if (s[0] >= 0xe0)
		n = 3;
	else if (s[0] >= 0xc0)
		n = 2;
	return n < len ? n : len;
}

/* Where to cut sanitised s of len bytes so that it and the mark take at
 * most max bytes: never inside a character or an escape. */
static size_t cut_at(const char *s, size_t len, size_t max)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t room = max > sizeof CUT_MARK - 1 ? max - (sizeof CUT_MARK - 1)
						: 0, at = 0;

	while (at < len) {
		size_t n = token_len(u + at, len - at);
		if (at + n > room)
			break;
		at += n;
	}
	return at;
}

/* Appends s with its quotes and backslashes escaped. */
static void escaped(struct strbuf *out, const char *p, size_t len)
{
	const char *end = p + len;

	while (p < end) {
		size_t run = 0;
		while (p + run < end && p[run] != '"' && p[run] != '\\')
			run++;
		sb_add(out, p, run);
		p += run;
		if (p < end) {
			sb_addc(out, '\\');
			sb_addc(out, *p++);
		}
	}
}

void json_string_max(struct strbuf *out, const char *s, size_t n,
		     size_t max)
{
	struct strbuf clean = STRBUF_INIT;

	if (n <= max && plain(s, n)) {
		sb_grow(out, n + 2);
		sb_addc(out, '"');
		sb_add(out, s, n);
		sb_addc(out, '"');
		return;
	}
	sanitize(&clean, s, n);
	sb_addc(out, '"');
	/* The sanitiser leaves no control byte; only these two need it. */
	if (clean.len > max) {
		escaped(out, sb_str(&clean), cut_at(clean.buf, clean.len, max));
		if (max >= sizeof CUT_MARK - 1)
			sb_adds(out, CUT_MARK);
	} else {
		escaped(out, sb_str(&clean), clean.len);
	}
	sb_addc(out, '"');
	sb_free(&clean);
}

void json_string(struct strbuf *out, const char *s, size_t n)
{
	json_string_max(out, s, n, SIZE_MAX);
}

void json_cstring(struct strbuf *out, const char *s)
{
	json_string(out, s, strlen(s));
}

void json_time(struct strbuf *out, logtime_t t)
{
	char iso[LOGTIME_ISO_LEN];

	if (t == LOGTIME_UNKNOWN) {
		sb_adds(out, "null");
		return;
	}
	logtime_iso(t, iso);
	sb_addc(out, '"');
	sb_adds(out, iso);
	sb_addc(out, '"');
}

void json_text_max(struct strbuf *out, const char *s, size_t max)
{
	size_t len = strlen(s), end = len > max ? cut_at(s, len, max) : len;

	sb_addc(out, '"');
	for (const unsigned char *p = (const unsigned char *)s,
	     *e = (const unsigned char *)s + end; p < e; p++) {
		/* Plain text is copied a run at a time. */
		size_t run = 0;
		while (p + run < e && p[run] >= 0x20 && p[run] != '"' &&
		       p[run] != '\\')
			run++;
		if (run) {
			sb_add(out, p, run);
			p += run - 1;
			continue;
		}
		if (*p == '"' || *p == '\\') {
			sb_addc(out, '\\');
			sb_addc(out, (char)*p);
		} else if (*p == '\n') {
			sb_adds(out, "\\n");
		} else if (*p < 0x20) {
			sb_addf(out, "\\u%04x", *p);
		} else {
			sb_addc(out, (char)*p);
		}
	}
	if (end < len && max >= sizeof CUT_MARK - 1)
		sb_adds(out, CUT_MARK);
	sb_addc(out, '"');
}

/* The extra bytes json_text_max's escape of a byte takes: \" \\ \n,
 * \u00XX for the other control bytes (NUL included: a C string ends
 * there, and json_text_tail hands the text to json_text_max then). */
static const unsigned char escape_extra_of[256] = {
	5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 1, 5, 5, 5, 5, 5,
	5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5,
	['"'] = 1, ['\\'] = 1,
};

static size_t escape_extra(unsigned char c)
{
	return escape_extra_of[c];
}

/* The escape of c, escape_extra(c) + 1 bytes, at d. */
static void put_escape(char *d, unsigned char c)
{
	static const char hex[] = "0123456789abcdef";

	d[0] = '\\';
	if (c == '"' || c == '\\' || c == '\n') {
		d[1] = c == '\n' ? 'n' : (char)c;
		return;
	}
	memcpy(d + 1, "u00", 3);
	d[4] = hex[c >> 4];
	d[5] = hex[c & 15];
}

#define TAIL_ESCAPES 64

/* The text at buf + from (n bytes, its escapes at pos[0..np)) made a
 * JSON string where it lies (extra more bytes, and its quotes): the
 * runs between escapes moved back to front, so that none is
 * overwritten before it moved. */
static void escape_back(char *buf, size_t from, size_t n, size_t extra,
			const size_t *pos, size_t np)
{
	size_t end = n;

	for (size_t k = np; k-- > 0;) {
		size_t p = pos[k];
		unsigned char c = (unsigned char)buf[from + p];
		memmove(buf + from + 1 + p + 1 + extra, buf + from + p + 1,
			end - p - 1);
		extra -= escape_extra(c);
		put_escape(buf + from + 1 + p + extra, c);
		end = p;
	}
	memmove(buf + from + 1, buf + from, end);
	buf[from] = '"';
}

void json_text_tail(struct strbuf *out, size_t from, size_t max)
{
	size_t n = out->len - from, extra = 0, np = 0;
	size_t pos[TAIL_ESCAPES];
	const unsigned char *t = (const unsigned char *)out->buf + from;

	size_t i = 0;
#if defined(__SSE2__)
	/* Sixteen bytes at a time: most hold no byte to escape. */
	const __m128i c1f = _mm_set1_epi8(0x1f), q = _mm_set1_epi8('"'),
		      bs = _mm_set1_epi8('\\');
	for (; i + 16 <= n; i += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(t + i));
		__m128i ctl = _mm_cmpeq_epi8(_mm_min_epu8(v, c1f), v);
		unsigned m = (unsigned)_mm_movemask_epi8(_mm_or_si128(ctl,
				_mm_or_si128(_mm_cmpeq_epi8(v, q),
					     _mm_cmpeq_epi8(v, bs))));
		for (; m; m &= m - 1) {
			size_t at = i + (size_t)__builtin_ctz(m);
			if (np < TAIL_ESCAPES)
				pos[np] = at;
			np++;
			extra += escape_extra(t[at]);
		}
	}
#endif
	for (; i < n; i++) {
		size_t e = escape_extra(t[i]);
		if (e) {
			if (np < TAIL_ESCAPES)
				pos[np] = i;
			np++;
			extra += e;
		}
	}
	if (n > max || np > TAIL_ESCAPES || memchr(t, '\0', n)) {
		/* Cut, many escapes, or a NUL: json_text_max's way, from a
		 * copy. */
		char *copy = xstrndup(out->buf + from, n);
		out->len = from;
		out->buf[from] = '\0';
		json_text_max(out, copy, max);
		free(copy);
		return;
	}
	sb_grow(out, extra + 2);
	escape_back(out->buf, from, n, extra, pos, np);
	out->len += extra + 2;
	out->buf[out->len - 1] = '"';
	out->buf[out->len] = '\0';
}

void json_text(struct strbuf *out, const char *s)
{
	json_text_max(out, s, SIZE_MAX);
}

void json_key(struct strbuf *out, const char *key)
{
	sb_addc(out, '"');
	sb_adds(out, key);
	sb_add(out, "\": ", 3);
}

void json_member(struct strbuf *out, const char *key, const char *value)
{
	json_key(out, key);
	json_cstring(out, value);
}

void json_member_max(struct strbuf *out, const char *key, const char *value,
		     size_t max)
{
	json_key(out, key);
	json_string_max(out, value, strlen(value), max);
}

/* As "%ld" writes it, without printf: a few per incident, and printf
 * was a fair part of rendering one. */
void json_long(struct strbuf *out, long v)
{
	char buf[24], *p = buf + sizeof buf;
	unsigned long u = v < 0 ? -(unsigned long)v : (unsigned long)v;

	do
		*--p = (char)('0' + u % 10);
	while (u /= 10);
	if (v < 0)
		*--p = '-';
	sb_add(out, p, (size_t)(buf + sizeof buf - p));
}

void json_ulong(struct strbuf *out, unsigned long v)
{
	char buf[24], *p = buf + sizeof buf;

	do
		*--p = (char)('0' + v % 10);
	while (v /= 10);
	sb_add(out, p, (size_t)(buf + sizeof buf - p));
}

void json_id(struct strbuf *out, long id)
{
	if (id)
		json_long(out, id);
	else
		sb_adds(out, "null");
}

void json_more_count(struct strbuf *out, const char *key, long n)
{
	sb_adds(out, ", ");
	json_key(out, key);
	if (n >= 0)
		json_long(out, n);
	else
		sb_adds(out, "null");
}
