/* Where plogtop's data files (rules, messages, themes) are: the source
 * tree when the binary runs from its build tree, else the installed
 * $(pkgdatadir); $PLOGTOP_DATADIR overrides both. */
#ifndef PLOGTOP_DATADIR_H
#define PLOGTOP_DATADIR_H

#include "strbuf.h"

/* Appends the full path of a data file (e.g. "rules/plogtop.rules"). */
void datadir_path(struct strbuf *out, const char *rel);

#endif
