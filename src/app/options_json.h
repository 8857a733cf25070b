/* --no-fix, --exec and --exec-history, and what --format=ndjson may be
 * used with (options.c parses them with the others). */
#ifndef PLOGTOP_OPTIONS_JSON_H
#define PLOGTOP_OPTIONS_JSON_H

#include "option_table.h"
#include "options.h"

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
