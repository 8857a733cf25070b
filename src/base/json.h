/* Writing JSON: strings from logs are sanitised first, then escaped. */
#ifndef PLOGTOP_JSON_H
#define PLOGTOP_JSON_H

#include <stddef.h>

#include "logtime.h"
#include "strbuf.h"

/* Appends a JSON string holding the sanitised bytes. */
void json_string(struct strbuf *out, const char *s, size_t n);
void json_cstring(struct strbuf *out, const char *s);
/* The same, the sanitised text cut to at most max bytes (never inside a
 * character or an escape), a cut one ending in "…" (wire_limits.h). */
void json_string_max(struct strbuf *out, const char *s, size_t n,
		     size_t max);
/* A JSON string of plogtop's own text, whose log content was sanitised
 * when it was put in (catalog renderings): line breaks stay line breaks. */
void json_text(struct strbuf *out, const char *s);
void json_text_max(struct strbuf *out, const char *s, size_t max);
/* json_text_max of the text out holds from byte from to its end, in its
 * place: the text is rendered into out, with no buffer of its own. */
void json_text_tail(struct strbuf *out, size_t from, size_t max);
/* A log time as an ISO 8601 string, or null when unknown. */
void json_time(struct strbuf *out, logtime_t t);

/* The members of plogtop's objects, as every writer spells them:
 * "key": then its value (key is plogtop's own, written as it is). */
void json_key(struct strbuf *out, const char *key);
/* "key": "value", the value sanitised (json_cstring). */
void json_member(struct strbuf *out, const char *key, const char *value);
/* The same, the value cut to at most max bytes (json_string_max). */
void json_member_max(struct strbuf *out, const char *key, const char *value,
		     size_t max);
/* A process or thread id: the number, or null for 0 (the log did not
 * say). */
/* A decimal integer, as "%ld" / "%lu" write it. */
void json_long(struct strbuf *out, long v);
void json_ulong(struct strbuf *out, unsigned long v);
void json_id(struct strbuf *out, long id);
/* ", \"key\": N", or null for a negative N (not known). */
void json_more_count(struct strbuf *out, const char *key, long n);

#endif
