/* Fitting sanitised text into columns, shared by the dashboard and the
 * text report: paths shortened in the middle (the file name at the end
 * stays), and line breaks that never split a word or a file name when a
 * line has a better place to break.  Widths are display columns
 * (text_width: wcwidth(3)), so CJK text wraps by its width. */
#ifndef PLOGTOP_TEXTFIT_H
#define PLOGTOP_TEXTFIT_H

#include <stddef.h>

#include "strbuf.h"

/* Appends the sanitised path s in at most width columns: whole when it
 * fits, else "head" ELLIPSIS "tail" keeping as much of the end as
 * possible.  ellipsis is "..." (any terminal) or "\u2026". */
void path_fit(struct strbuf *sb, const char *s, size_t width,
	      const char *ellipsis);

/* Appends the sanitised host name s in at most width columns: whole
 * when it fits; else without its ":PORT" (an instance label), then only
 * its first label when it is a domain name (node01.example.com is
 * node01), when that fits; else cut in the middle as path_fit does
 * (node-0041 and node-0042 differ at their ends), but an IPv4 address
 * keeps its end (a job's pods share the start). */
void host_fit(struct strbuf *sb, const char *s, size_t width,
	      const char *ellipsis);

/* Bytes of sanitised s to put on a line of width columns: all of it when
 * it fits; else up to the last space that fits; else (one word longer
 * than the line) after the last '/' or between two wide (CJK)
 * characters; only else where the width ends.  Never 0 for non-empty s. */
size_t wrap_break(const char *s, size_t width);

#endif
