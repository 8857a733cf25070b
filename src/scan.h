/* The one-shot scan: finds the plog files under each root and reads them
 * process by process, each process's files in the order of their stamps. */
#ifndef PLOGTOP_SCAN_H
#define PLOGTOP_SCAN_H

#include "engine.h"

/* Reads every path (a directory tree, a file, or "-").  Problems inside a
 * tree are recorded in the model and reported on stderr.  Returns 0, or -1
 * with a message in err if a named path cannot be read at all. */
int scan_paths(struct engine *e, char *const *paths, size_t n,
	       struct strbuf *err);

#endif
