/* --listen and its options (options.c parses them with the others). */
#ifndef PLOGTOP_OPTIONS_LISTEN_H
#define PLOGTOP_OPTIONS_LISTEN_H

#include "option_table.h"
#include "options.h"

/* The field an option of --listen's sets (what: the message for an
 * empty argument), or NULL for another option. */
const char **listen_word_option(struct options *o, int c, const char **what);
/* Once every option is read: 0, or 2 after a usage error. */
int listen_options_check(const struct options *o);
/* The message when --once (also the default when standard output is not
 * a terminal) meets --listen; returns 2. */
int listen_needs_watching(void);

#endif
