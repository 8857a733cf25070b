/* The one sanitiser.  Every byte of log content that reaches a terminal or
 * a report passes through sanitize(): logs are written by other programs
 * and may carry escape sequences, control bytes or broken UTF-8. */
#ifndef PLOGTOP_SANITIZE_H
#define PLOGTOP_SANITIZE_H

#include <stddef.h>

#include "strbuf.h"

/* Appends the n bytes at s to out as printable UTF-8.  Valid printable
 * characters pass unchanged; a tab becomes "\t"; other C0 controls and
 * DEL become "\xNN"; C1 controls, line and paragraph separators and
 * bidirectional overrides become "\uNNNN"; each byte of an invalid UTF-8
 * sequence becomes "\xNN".  The output holds no byte below 0x20. */
void sanitize(struct strbuf *out, const char *s, size_t n);

/* Columns that the (already sanitised, valid UTF-8) string s takes on a
 * terminal: East Asian wide characters count two, combining marks none. */
size_t text_width(const char *s);

/* Length in bytes of the longest prefix of sanitised s that fits in
 * width columns, never splitting a character. */
size_t text_fit(const char *s, size_t width);

#endif
