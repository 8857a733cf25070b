/* The one sanitiser.  Every byte of log content that reaches a terminal or
 * a report passes through sanitize(): logs are written by other programs
 * and may carry escape sequences, control bytes or broken UTF-8. */
#ifndef PLOGTOP_SANITIZE_H
#define PLOGTOP_SANITIZE_H

#include <stddef.h>

#include "strbuf.h"

/* Appends the n bytes at s to out as printable UTF-8.  Valid printable
 * characters pass unchanged; a backslash becomes "\\" (so that text
 * cannot pose as an escape); a tab becomes "\t"; other C0 controls and
 * DEL become "\xNN"; C1 controls, line and paragraph separators,
 * bidirectional marks, overrides and isolates, and invisible characters
 * (zero-width spaces and joiners, U+061C, U+2060..U+2064, U+FEFF, tags)
 * become "\uNNNN"; each byte of an invalid UTF-8 sequence becomes "\xNN".
 * The output holds no byte below 0x20. */
void sanitize(struct strbuf *out, const char *s, size_t n);

/* Whether the locale's charset (after setlocale) is UTF-8.  Decided once
 * at start: text for a terminal in any other charset goes through
 * escape_8bit, since there a byte >= 0x80 may be a C1 control (0x9b is
 * CSI on an 8-bit terminal).  JSON and the prom file are always UTF-8. */
int locale_is_utf8(void);

/* Appends sanitised text s with every byte >= 0x80 as "\xNN": pure ASCII
 * for an output whose charset is not UTF-8: clean_for's step for
 * CLEAN_ASCII (call clean_for). */
void escape_8bit(struct strbuf *out, const char *s, size_t n);

/* Where text is going, for clean_for. */
enum clean_target {
	CLEAN_UTF8 = 0,		/* JSON, the prom file, a UTF-8 screen */
	CLEAN_ASCII = 1,	/* a screen whose charset is not UTF-8 */
	CLEAN_LOCALE = 2,	/* stderr, a text report or line on stdout:
				 * ASCII unless the locale's charset is UTF-8 */
	/* Or'ed in: the text is sanitised already (a report or a line
	 * made of sanitised parts), only its charset is fitted. */
	CLEAN_DONE = 4,
};

/* The one "clean this for that output": appends the n bytes at s to out,
 * sanitised (unless CLEAN_DONE), then with every byte >= 0x80 spelt
 * "\xNN" when the target's charset is not UTF-8 (there a byte >= 0x80
 * may be a C1 control: 0x9b is CSI on an 8-bit terminal). */
void clean_for(struct strbuf *out, const char *s, size_t n,
	       enum clean_target to);

/* Columns that the (already sanitised, valid UTF-8) string s takes on a
 * terminal: East Asian wide characters count two, combining marks none. */
size_t text_width(const char *s);

/* Length in bytes of the longest prefix of sanitised s that fits in
 * width columns, never splitting a character. */
size_t text_fit(const char *s, size_t width);

#endif
