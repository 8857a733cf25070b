/* Turns lines into records for the classifier: a plog line with the
 * header-less lines that continue it, or a line of screen output.  Only
 * ERROR records reach the chains' rules; every other plog record is
 * skipped after a look at its first bytes, which is what keeps a scan
 * fast, unless a fact rule may take it (its level, its module, then a
 * literal of a fact rule in it): it then goes to the fact rules alone. */
#ifndef PLOGTOP_FEEDER_H
#define PLOGTOP_FEEDER_H

#include <stddef.h>

#include "classifier.h"
#include "rules.h"
#include "strbuf.h"

enum file_kind {
	FILE_PLOG,	/* a plog or device log: every line is plog grammar */
	FILE_MIXED,	/* any other text: captured stdout/stderr, a paste */
};

struct feeder;

struct feeder *feeder_new(struct ruleset *rs, struct classifier *c);
void feeder_free(struct feeder *f);

/* Sets the file the next lines come from.  The record being assembled
 * carries over, so a record continued across a rotation stays whole. */
void feeder_set_file(struct feeder *f, const char *file, enum file_kind kind);
void feeder_line(struct feeder *f, const char *line, size_t len,
		 unsigned long lineno);
/* Ends the record being assembled (end of a process's files, or quiet). */
void feeder_flush(struct feeder *f);
/* The same for quiet (the file has had nothing new for a while): the
 * header-less lines that come next in a plog file still continue the
 * record, whose chain gets them if it is still open. */
void feeder_flush_quiet(struct feeder *f);
/* Lets the buffers of the last record go (after a flush): thousands of
 * files read to their end need not each keep a record's room. */
void feeder_trim(struct feeder *f);
int feeder_has_pending(const struct feeder *f);
/* The byte offset and line number where the pending record starts;
 * 0 when none is pending. */
int feeder_pending_start(const struct feeder *f, unsigned long long *off,
			 unsigned long *line);
/* Points at a flag that is 0 while only ERROR lines can matter (see
 * struct linesplit's want_all). */
const int *feeder_want_all(const struct feeder *f);
/* The other line starts a plog file's lines need to matter: those of
 * the levels and modules fact rules see (rules.h, struct line_starts;
 * struct linesplit's starts). */
const struct line_starts *feeder_line_starts(const struct feeder *f);

#endif
