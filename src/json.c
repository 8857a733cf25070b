#include "config.h"

#include <string.h>

#include "json.h"
#include "sanitize.h"

/* Printable ASCII with no quote or backslash: the sanitiser would leave
 * it as it is and JSON needs no escape (most strings are such). */
static int plain(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\')
			return 0;
	}
	return 1;
}

void json_string(struct strbuf *out, const char *s, size_t n)
{
	struct strbuf clean = STRBUF_INIT;

	if (plain(s, n)) {
		sb_grow(out, n + 2);
		sb_addc(out, '"');
		sb_add(out, s, n);
		sb_addc(out, '"');
		return;
	}

	sanitize(&clean, s, n);
	sb_addc(out, '"');
	/* The sanitiser leaves no control byte; only these two need it. */
	const char *p = sb_str(&clean);
	for (;;) {
		size_t run = strcspn(p, "\"\\");
		sb_add(out, p, run);
		if (!p[run])
			break;
		sb_addc(out, '\\');
		sb_addc(out, p[run]);
		p += run + 1;
	}
	sb_addc(out, '"');
	sb_free(&clean);
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

void json_text(struct strbuf *out, const char *s)
{
	sb_addc(out, '"');
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		/* Plain text is copied a run at a time. */
		size_t run = 0;
		while (p[run] >= 0x20 && p[run] != '"' && p[run] != '\\')
			run++;
		if (run) {
			sb_add(out, p, run);
			p += run - 1;
			continue;
		}
		if (*p == '"' || *p == '\\')
			sb_addf(out, "\\%c", *p);
		else if (*p == '\n')
			sb_adds(out, "\\n");
		else if (*p < 0x20)
			sb_addf(out, "\\u%04x", *p);
		else
			sb_addc(out, (char)*p);
	}
	sb_addc(out, '"');
}
