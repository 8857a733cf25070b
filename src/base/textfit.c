#include "config.h"

#include <string.h>

#include "sanitize.h"
#include "textfit.h"

void path_fit(struct strbuf *sb, const char *s, size_t width,
	      const char *ellipsis)
{
	size_t w = text_width(s), ew = text_width(ellipsis);

	if (w <= width || width < ew + 4) {
		sb_add(sb, s, text_fit(s, width));
		return;
	}
	/* A third of the room for the start, the rest for the end: the
	 * file name (plog-PID_TIME.log) is what tells files apart. */
	size_t head = text_fit(s, (width - ew) / 3);
	size_t hw = 0;
	{
		struct strbuf h = STRBUF_INIT;
		sb_add(&h, s, head);
		hw = text_width(sb_str(&h));
		sb_free(&h);
	}
	size_t left = width - ew - hw;
	const char *tail = s + head;
	while (*tail && text_width(tail) > left) {
		tail++;
		while ((*tail & 0xc0) == 0x80)
			tail++;
	}
	sb_add(sb, s, head);
	sb_adds(sb, ellipsis);
	sb_adds(sb, tail);
}

/* s without a trailing ":DIGITS". */
static size_t without_port(const char *s)
{
	size_t n = strlen(s), i = n;

	while (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9')
		i--;
	return i > 0 && i < n && s[i - 1] == ':' ? i - 1 : n;
}

void host_fit(struct strbuf *sb, const char *s, size_t width,
	      const char *ellipsis)
{
	struct strbuf h = STRBUF_INIT;

	if (text_width(s) <= width) {
		sb_adds(sb, s);
		return;
	}
	sb_add(&h, s, without_port(s));
	/* A domain name (a letter in it; an IPv4 address has none). */
	size_t dot = strcspn(h.buf ? h.buf : "", ".");
	if (text_width(sb_str(&h)) > width && h.buf && h.buf[dot] &&
	    strpbrk(h.buf, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")) {
		h.buf[dot] = '\0';
		h.len = dot;
	}
	const char *a = sb_str(&h);
	size_t ew = text_width(ellipsis);
	/* An IPv4 address (a pod's, shared storage): the hosts of a job
	 * share its start, so its end is kept, from an octet's digit. */
	if (h.len && strspn(a, "0123456789.") == h.len && width > ew &&
	    h.len > width) {
		const char *tail = a + h.len - (width - ew);
		tail += *tail == '.';
		sb_adds(sb, ellipsis);
		sb_adds(sb, tail);
	} else {
		path_fit(sb, a, width, ellipsis);
	}
	sb_free(&h);
}

/* The lead byte of a character whose display is two columns wide. */
static int wide_at(const char *s, size_t i)
{
	char one[8];
	size_t n = 1;

	while ((s[i + n] & 0xc0) == 0x80 && n < 6)
		n++;
	memcpy(one, s + i, n);
	one[n] = '\0';
	return text_width(one) == 2;
}

/* The start of the character that ends at byte i (i > 0). */
static size_t char_before(const char *s, size_t i)
{
	do
		i--;
	while (i > 0 && (s[i] & 0xc0) == 0x80);
	return i;
}

/* Whether the character at s+i is one of the UTF-8 texts in set (each
 * ending with a space). */
static int one_of(const char *s, size_t i, const char *set)
{
	for (const char *p = set; *p; ) {
		size_t n = strcspn(p, " ");
		if (n && strncmp(s + i, p, n) == 0)
			return 1;
		p += n + (p[n] == ' ');
	}
	return 0;
}

/* CJK line breaking (kinsoku): no line starts with closing punctuation
 * or a pause mark, none ends with opening punctuation. */
static const char no_start[] =
	"\xef\xbc\x8c \xe3\x80\x82 \xe3\x80\x81 \xef\xbc\x9b \xef\xbc\x9a "
	"\xef\xbc\x9f \xef\xbc\x81 \xef\xbc\x89 \xe3\x80\x8d \xe3\x80\x8f "
	"\xe3\x80\x91 \xe3\x80\x8b \xe3\x80\x89 \xe2\x80\x9d \xe2\x80\x99 "
	"\xe2\x80\xa6 \xc2\xb7 \xe3\x83\xbb \xef\xbc\x85 , . ; : ! ? ) ] } % ";
static const char no_end[] =
	"\xef\xbc\x88 \xe3\x80\x8c \xe3\x80\x8e \xe3\x80\x90 \xe3\x80\x8a "
	"\xe3\x80\x88 \xe2\x80\x9c \xe2\x80\x98 ( [ { ";

/* Whether a line may break before byte i (a character boundary, not a
 * space): next to a wide character, unless punctuation forbids it. */
static int cjk_break(const char *s, size_t i)
{
	size_t prev = char_before(s, i);

	if (!wide_at(s, prev) && !wide_at(s, i))
		return 0;
	return !one_of(s, i, no_start) && !one_of(s, prev, no_end);
}

size_t wrap_break(const char *s, size_t width)
{
	size_t fit = text_fit(s, width);

	if (!s[fit])
		return fit;
	if (s[fit] == ' ')
		return fit ? fit : 1;
	/* The latest place that may break: a space, or next to a wide
	 * (CJK) character by the rules above. */
	size_t slash = 0;
	for (size_t i = fit; i > 0; i--) {
		if ((s[i] & 0xc0) == 0x80)
			continue;
		if (s[i] == ' ')
			return i;
		if (cjk_break(s, i))
			return i;
		if (!slash && s[i - 1] == '/' && i > 1)
			slash = i;
	}
	if (slash)
		return slash;
	if (fit)
		return fit;
	/* Not even one character fits: take one, the caller cuts it. */
	size_t n = 1;
	while ((s[n] & 0xc0) == 0x80)
		n++;
	return n;
}
