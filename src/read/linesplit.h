/* Splits bytes into lines as they arrive, whatever the size of the
 * pieces: CRLF and LF endings, no final newline, NUL bytes, and lines
 * too long to keep (the first MAX bytes are kept, the rest is counted and
 * dropped, so memory never grows with a line's length). */
#ifndef PLOGTOP_LINESPLIT_H
#define PLOGTOP_LINESPLIT_H

#include <stddef.h>

#include "rules.h"
#include "strbuf.h"

#define LINESPLIT_MAX (64 * 1024)

typedef void (*line_fn)(void *ctx, const char *line, size_t len,
			unsigned long lineno);

struct linesplit {
	struct strbuf carry;	/* the start of a line not yet ended */
	int overlong;		/* dropping the rest of an overlong line */
	unsigned long lineno;	/* of the last line given out */
	unsigned long truncated;/* lines cut at LINESPLIT_MAX */
	line_fn fn;
	void *ctx;
	/* When set and *want_all is 0, lines that do not start with "[ERR"
	 * are counted but not given out: in a plog file only ERROR records
	 * and the lines continuing one matter, and most lines are neither. */
	const int *want_all;
	/* And the lines that start so (the levels and modules fact rules
	 * see, feeder_line_starts), when set. */
	const struct line_starts *starts;
	/* Byte positions in the stream, for resume points: the position of
	 * the next byte fed, of the line being given out, and of the
	 * unfinished line kept in carry. */
	unsigned long long pos, line_start, carry_start;
	const char *feed_buf;	/* the buffer being fed, while it is */
	int avx2;		/* the CPU has AVX2: the skip loop uses it */
};

void linesplit_init(struct linesplit *ls, line_fn fn, void *ctx);
void linesplit_feed(struct linesplit *ls, const char *buf, size_t n);
/* Gives out a last line that has no newline (the end of a whole file). */
void linesplit_finish(struct linesplit *ls);
/* Forgets the partial line: the file was truncated or replaced. */
void linesplit_reset(struct linesplit *ls);
int linesplit_pending(const struct linesplit *ls);
/* Starts at byte pos of a stream, after lineno lines (a resume point). */
void linesplit_seek(struct linesplit *ls, unsigned long long pos,
		    unsigned long lineno);
void linesplit_free(struct linesplit *ls);

#endif
