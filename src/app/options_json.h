/* --no-fix, --exec and --exec-history, and what --format=ndjson may be
 * used with (options.c parses them with the others). */
#ifndef PLOGTOP_OPTIONS_JSON_H
#define PLOGTOP_OPTIONS_JSON_H

#include "options.h"

enum { OPT_NO_FIX = 1100, OPT_EXEC, OPT_EXEC_HISTORY };

/* Their rows of getopt_long's table. */
#define JSON_LONG_OPTIONS \
	{ "no-fix", no_argument, NULL, OPT_NO_FIX }, \
	{ "exec", required_argument, NULL, OPT_EXEC }, \
	{ "exec-history", no_argument, NULL, OPT_EXEC_HISTORY }

/* Their --help entry (translated where it is printed). */
extern const char json_usage_text[];

/* The flag an option sets, or NULL for another option. */
int *json_flag_option(struct options *o, int c);
/* The field an option's argument sets (what: the message for an empty
 * argument), or listen_word_option's answer for another option. */
const char **json_word_option(struct options *o, int c, const char **what);
/* Once every option is read: 0, or 2 after a usage error. */
int json_options_check(const struct options *o);
/* The message when --once (also the default when standard output is not
 * a terminal) meets --exec; returns 2. */
int exec_needs_watching(void);

#endif
