/* Screen-print blocks in a job's captured output: a heading such as
 * "Resource_Error(EE1023): ..." or "EE1001: [PID: 7] ..." wherever it
 * stands in a line, the preamble lines that may come before it, and the
 * Solution/TraceBack body after it.  What stands before the heading is
 * the block's prefix; its following lines carry a prefix of the same
 * shape (lineprefix.h), so blocks of ranks interleaved in one file stay
 * apart.  The feeder asks what a line is (screen_scan), sends the plog
 * record it holds, if any, then hands the line over (screen_feed). */
#ifndef PLOGTOP_SCREENBLOCK_H
#define PLOGTOP_SCREENBLOCK_H

#include <stddef.h>

#include "classifier.h"
#include "strbuf.h"

enum screen_kind {
	SCREEN_NONE,		/* no part of any block */
	SCREEN_HEADING,		/* starts a block (or goes on with its preamble) */
	SCREEN_PREAMBLE,	/* may come before a heading: opens a block */
	SCREEN_BODY,		/* Solution, TraceBack, an indented line */
	SCREEN_BLANK,		/* nothing after the block's prefix */
	SCREEN_END,		/* a line of the block's prefix that ends it */
	SCREEN_HEADLESS,	/* a TraceBack whose heading was cut off */
};

/* What a line is; owned by the caller and reused line after line. */
struct screen_line {
	enum screen_kind kind;
	size_t off;		/* where the message begins, after the prefix */
	size_t keep;		/* BODY: how much of the block's shape it has */
	struct strbuf key;	/* the block's key: the shape of its prefix */
};

void screen_scan(struct classifier *c, const char *file, const char *line,
		 size_t len, struct screen_line *sl);
void screen_feed(struct classifier *c, const struct screen_line *sl,
		 const char *file, const char *line, size_t len,
		 unsigned long lineno);
void screen_line_free(struct screen_line *sl);

#endif
