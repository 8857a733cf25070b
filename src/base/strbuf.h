/* A growable byte buffer, always NUL-terminated. */
#ifndef PLOGTOP_STRBUF_H
#define PLOGTOP_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

struct strbuf {
	char *buf;
	size_t len;
	size_t cap;
};

#define STRBUF_INIT { NULL, 0, 0 }

void sb_grow(struct strbuf *sb, size_t extra);
void sb_add(struct strbuf *sb, const void *data, size_t len);
void sb_adds(struct strbuf *sb, const char *s);
void sb_addc_slow(struct strbuf *sb, char c);
/* One byte: inline, since reports are written a byte at a time in
 * places and a call per byte showed in profiles. */
static inline void sb_addc(struct strbuf *sb, char c)
{
	if (sb->len + 2 <= sb->cap) {
		sb->buf[sb->len++] = c;
		sb->buf[sb->len] = '\0';
	} else {
		sb_addc_slow(sb, c);
	}
}
void sb_addf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void sb_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
void sb_reset(struct strbuf *sb);
const char *sb_str(const struct strbuf *sb);
/* Hands the string over to the caller, who frees it; sb is left empty. */
char *sb_detach(struct strbuf *sb);
void sb_free(struct strbuf *sb);

#endif
