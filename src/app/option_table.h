/* The options' ids, getopt's tables and --help, all made from the rows
 * of option_rows.h (which says how to add an option). */
#ifndef PLOGTOP_OPTION_TABLE_H
#define PLOGTOP_OPTION_TABLE_H

#include <getopt.h>
#include <stddef.h>

/* OPT_ONCE, OPT_HOST_LIST, ...: what getopt_long returns, above every
 * letter, so that a short option is told by its row's id too. */
enum option_id {
	OPT_NONE_ = 255,
#define OPTION(ID, LONG, SHORT, ARG, HELP) OPT_##ID,
#define ALIAS(ID, LONG, ARG)
#include "option_rows.h"
#undef OPTION
#undef ALIAS
};

/* getopt_long's long options, ended by a row of zeros. */
extern const struct option option_longs[];
/* getopt_long's short option string into buf (":" first: a missing
 * argument returns ':'); OPTION_SHORTS_MAX holds 20 letters with their
 * arguments. */
#define OPTION_SHORTS_MAX 64
void option_shorts(char *buf, size_t size);
/* The id of the row whose SHORT is c, else c itself. */
int option_id_of(int c);
/* Prints --help (translated) to standard output. */
void option_help(void);
/* Says a usage error, WHAT then MSG (both sanitised already), with the
 * pointer to --help, as every option file does; returns 2. */
int option_usage(const char *what, const char *msg);

#endif
