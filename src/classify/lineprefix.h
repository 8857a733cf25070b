/* The shape of a line prefix: what a launcher, logger or collector writes
 * before each line of a job's output ("[rank0]: ", "(Worker pid=7) ERROR
 * 05-09 08:06:34 [engine.py:448] ", "service-1  | ").  Lines of one
 * screen-print block carry prefixes of one shape: their clocks and
 * counters differ, what names the stream (a rank, a pid, a service) does
 * not.  So a shape keeps identity text literal and turns clock-like
 * tokens into a wildcard; two ranks interleaved in one file have two
 * shapes and stay two blocks. */
#ifndef PLOGTOP_LINEPREFIX_H
#define PLOGTOP_LINEPREFIX_H

#include <stddef.h>

#include "strbuf.h"

/* Bytes of a shape besides literal ones. */
#define SHAPE_CLOCK '\001'	/* a clock or counter: 08:06:34, 0.00.476.376 */
#define SHAPE_SPACE '\002'	/* a run of blanks inside the prefix */

/* Writes the shape of prefix p (n bytes) to out (reset first).  A prefix
 * of blanks only is indentation, not a prefix: its shape is empty. */
void lineprefix_shape(const char *p, size_t n, struct strbuf *out);

/* Whether line starts with a prefix of this shape; if so *off is where
 * the rest of the line begins.  The blanks that end a prefix are matched
 * exactly, so that the indentation of what follows is kept; a line that
 * ends inside them is a blank line of that prefix. */
int lineprefix_match(const char *shape, size_t shapelen, const char *line,
		     size_t len, size_t *off);

/* The length of the clock-like token at s (0 if none): two or more digit
 * groups joined by ':' '.' '-' '/' or 'T' (an optional 'Z' after), where
 * a token joined by '-' or '/' alone has groups of two digits or more
 * ("05-09", but not the "0-1" of a name). */
size_t lineprefix_clock(const char *s, size_t n);

#endif
