#include "config.h"

#include <langinfo.h>
#include <locale.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>
#include <wchar.h>

#include "sanitize.h"

/* Decodes one UTF-8 character at s (n bytes available).  Returns its
 * length and stores the code point, or returns 0 for an invalid sequence
 * (overlong forms, surrogates and values past U+10FFFF included). */
static size_t utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
	size_t len;
	uint32_t c = s[0], min;

	if (c < 0x80) {
		*cp = c;
		return 1;
	} else if ((c & 0xe0) == 0xc0) {
		len = 2, c &= 0x1f, min = 0x80;
	} else if ((c & 0xf0) == 0xe0) {
		len = 3, c &= 0x0f, min = 0x800;
	} else if ((c & 0xf8) == 0xf0) {
		len = 4, c &= 0x07, min = 0x10000;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return len;
}

/* Characters that are valid but change how a terminal shows what
 * follows, or do not show at all (so that two names that look the same
 * are told apart): C1 controls, the soft hyphen, bidirectional marks,
 * embeddings, overrides and isolates, zero-width spaces and joiners,
 * invisible operators, the byte order mark, interlinear annotations and
 * tag characters. */
static int is_invisible_control(uint32_t c)
{
	return (c >= 0x80 && c <= 0x9f) || c == 0xad || c == 0x61c ||
	       c == 0x180e || (c >= 0x200b && c <= 0x200f) ||
	       (c >= 0x2028 && c <= 0x202e) || (c >= 0x2060 && c <= 0x2064) ||
	       (c >= 0x2066 && c <= 0x206f) || c == 0xfeff ||
	       (c >= 0xfff9 && c <= 0xfffb) || c == 0xe0001 ||
	       (c >= 0xe0020 && c <= 0xe007f);
}

int locale_is_utf8(void)
{
	const char *cs = nl_langinfo(CODESET);

	return cs && (strcasecmp(cs, "UTF-8") == 0 ||
		      strcasecmp(cs, "utf8") == 0);
}

void escape_8bit(struct strbuf *out, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;

	sb_grow(out, n);
	for (size_t i = 0; i < n; i++) {
		if (p[i] < 0x80)
			sb_addc(out, (char)p[i]);
		else
			sb_addf(out, "\\x%02x", p[i]);
	}
}

void sanitize(struct strbuf *out, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	sb_grow(out, n);
	while (i < n) {
		size_t run = i;

		/* Fast path: a run of printable ASCII is copied as one block;
		 * a backslash is doubled, so that no text can look like one
		 * of the escapes below. */
		while (run < n && p[run] >= 0x20 && p[run] < 0x7f &&
		       p[run] != '\\')
			run++;
		if (run > i) {
			sb_add(out, p + i, run - i);
			i = run;
			continue;
		}
		if (i < n && p[i] == '\\') {
			sb_add(out, "\\\\", 2);
			i++;
			continue;
		}
		uint32_t cp;
		size_t len = utf8_decode(p + i, n - i, &cp);
		if (len == 0) {
			sb_addf(out, "\\x%02x", p[i]);
			i++;
		} else if (cp == '\t') {
			sb_add(out, "\\t", 2);
			i++;
		} else if (cp < 0x20 || cp == 0x7f) {
			sb_addf(out, "\\x%02x", (unsigned)cp);
			i++;
		} else if (is_invisible_control(cp)) {
			sb_addf(out, "\\u%04x", (unsigned)cp);
			i += len;
		} else {
			sb_add(out, p + i, len);
			i += len;
		}
	}
}

void clean_for(struct strbuf *out, const char *s, size_t n,
	       enum clean_target to)
{
	int ascii = (to & CLEAN_ASCII) ||
		    ((to & CLEAN_LOCALE) && !locale_is_utf8());

	if (n == 0)
		return;
	if (!ascii) {
		if (to & CLEAN_DONE)
			sb_add(out, s, n);
		else
			sanitize(out, s, n);
		return;
	}
	if (to & CLEAN_DONE) {
		escape_8bit(out, s, n);
		return;
	}
	struct strbuf clean = STRBUF_INIT;
	sanitize(&clean, s, n);
	escape_8bit(out, clean.buf, clean.len);
	sb_free(&clean);
}

/* Widths are wcwidth(3)'s, asked in a UTF-8 locale whatever the
 * current one is (text here is UTF-8 whatever the terminal's charset):
 * CJK and emoji take two columns, combining marks none.  With no UTF-8
 * locale on the host at all, a character counts one. */
static locale_t utf8_ctype(void)
{
	static locale_t loc;	/* found once, never changes after */
	static int tried;

	if (!tried) {
		static const char *const names[] = {
			"C.UTF-8", "C.utf8", "en_US.UTF-8", "en_US.utf8"
		};
		tried = 1;
		for (size_t i = 0; !loc && i < sizeof names / sizeof *names; i++)
			loc = newlocale(LC_CTYPE_MASK, names[i], (locale_t)0);
	}
	return loc;
}

static int char_width(uint32_t c, locale_t loc)
{
	if (c < 0x7f)
		return 1;
	if (!loc)
		return 1;
	int w = wcwidth((wchar_t)c);
	return w < 0 ? 1 : w;
}

/* Walks s while it fits in width columns: returns the bytes that fit and
 * stores the columns they take. */
static size_t measure(const char *s, size_t width, size_t *columns)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), i = 0, used = 0;
	locale_t loc = utf8_ctype(), old = loc ? uselocale(loc) : (locale_t)0;

	while (i < n) {
		uint32_t cp;
		size_t len = utf8_decode(p + i, n - i, &cp);
		if (len == 0)
			len = 1, cp = '?';
		size_t w = (size_t)char_width(cp, loc);
		if (used + w > width)
			break;
		used += w;
		i += len;
	}
	if (loc)
		uselocale(old);
	*columns = used;
	return i;
}

size_t text_fit(const char *s, size_t width)
{
	size_t columns;

	return measure(s, width, &columns);
}

size_t text_width(const char *s)
{
	size_t columns;

	measure(s, (size_t)-1, &columns);
	return columns;
}
