/* --host-from-path: the rule that names a local file's host and job by
 * its path on shared storage (classify/pathhost.h). */
#ifndef PLOGTOP_OPTIONS_PATHHOST_H
#define PLOGTOP_OPTIONS_PATHHOST_H

#include "options.h"

/* The field --host-from-path's argument sets, or NULL for another
 * option. */
const char **pathhost_word_option(struct options *o, int c,
				  const char **what);
/* Once every option is read: compiles the rule (the built-in layouts
 * without the option) into o->path_hosts; 0, or 2 after a usage error
 * (a bad pattern). */
int pathhost_options_check(struct options *o);

#endif
