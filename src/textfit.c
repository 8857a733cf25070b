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

size_t wrap_break(const char *s, size_t width)
{
	size_t fit = text_fit(s, width);

	if (!s[fit])
		return fit;
	if (s[fit] == ' ')
		return fit ? fit : 1;
	size_t slash = 0, wide = 0;
	for (size_t i = fit; i > 0; i--) {
		if (s[i] == ' ')
			return i;
		if (!slash && s[i - 1] == '/' && i > 1)
			slash = i;
		/* Chinese text has no spaces: it may break before any
		 * wide character. */
		if (!wide && (s[i] & 0xc0) != 0x80 && wide_at(s, i))
			wide = i;
	}
	if (slash)
		return slash;
	if (wide)
		return wide;
	if (fit)
		return fit;
	/* Not even one character fits: take one, the caller cuts it. */
	size_t n = 1;
	while ((s[n] & 0xc0) == 0x80)
		n++;
	return n;
}
