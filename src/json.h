/* Writing JSON: strings from logs are sanitised first, then escaped. */
#ifndef PLOGTOP_JSON_H
#define PLOGTOP_JSON_H

#include <stddef.h>

#include "logtime.h"
#include "strbuf.h"

/* Appends a JSON string holding the sanitised bytes. */
void json_string(struct strbuf *out, const char *s, size_t n);
void json_cstring(struct strbuf *out, const char *s);
/* A JSON string of plogtop's own text, whose log content was sanitised
 * when it was put in (catalog renderings): line breaks stay line breaks. */
void json_text(struct strbuf *out, const char *s);
/* A log time as an ISO 8601 string, or null when unknown. */
void json_time(struct strbuf *out, logtime_t t);

#endif
