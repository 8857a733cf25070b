/* Where plogtop's data files (rules, messages, themes) are: the source
 * tree when the binary runs from its build tree, else the installed
 * $(pkgdatadir); $PLOGTOP_DATADIR overrides both. */
#ifndef PLOGTOP_DATADIR_H
#define PLOGTOP_DATADIR_H

#include "strbuf.h"

/* Appends the full path of a data file (e.g. "rules/plogtop.rules"). */
void datadir_path(struct strbuf *out, const char *rel);

/* Where the translations (LL/LC_MESSAGES/plogtop.mo) are: the build
 * tree's locale/ when the binary runs from its build tree, else the
 * installed $(localedir). */
void datadir_localedir(struct strbuf *out);

#endif
