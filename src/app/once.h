/* --once: everything there is now, read to its end (the local paths,
 * then the hosts), reported once as text or JSON, and the prom file and
 * the state written after it. */
#ifndef PLOGTOP_ONCE_H
#define PLOGTOP_ONCE_H

#include "catalog.h"
#include "msglog.h"
#include "options.h"
#include "rules.h"

/* Exit statuses of every mode. */
#define EXIT_CLEAN 0
#define EXIT_INCIDENTS 1
#define EXIT_TROUBLE 2

/* Returns the exit status; every message goes to log (NULL, as without
 * a dashboard: stderr at once, src/base/msglog.h). */
int run_once(const struct options *o, struct ruleset *rs,
	     const struct catalog *cat, struct msglog *log);

#endif
