/* The text report's process table (report_text.c's head says the
 * order in which its columns shorten or drop to fit), and the text
 * helpers the report's parts share. */
#ifndef PLOGTOP_REPORT_TABLE_H
#define PLOGTOP_REPORT_TABLE_H

#include <stddef.h>

#include "ident_view.h"
#include "logtime.h"
#include "report.h"
#include "strbuf.h"

/* Log content, sanitised, cut to width columns (padded when pad). */
void put_fitted(struct strbuf *sb, const char *s, size_t width, int pad);
/* A translated text padded to width terminal cells, right-aligned when
 * right. */
void pad(struct strbuf *sb, const char *text, size_t width, int right);
/* "07-13 11:39", or "-" (buf of 16). */
void short_time(char *buf, logtime_t t);

void process_table(struct strbuf *sb, const struct model *m,
		   const struct ident_map *im, const struct report_opts *o);

#endif
