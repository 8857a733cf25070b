/* Where plogtop's data (rules, messages, themes) comes from.  The
 * shipped files are built into the binary (builtin.h), so a copy runs
 * anywhere; a directory on disk replaces them all when it is
 *   - $PLOGTOP_DATADIR: the user's own (the source tree, a test's), used
 *     as named, unless it holds a VERSION file of another plogtop;
 *   - else the installed $(pkgdatadir), when its VERSION file says this
 *     plogtop's version.
 * A directory of another version (an older package beside a newer
 * copied binary) is never read: datadir_note says so once. */
#ifndef PLOGTOP_DATADIR_H
#define PLOGTOP_DATADIR_H

#include <stddef.h>

#include "strbuf.h"

/* The text of a data file (rel: "rules/plogtop.rules"), of max bytes
 * at most (what: "rules file", for messages).  name gets what messages
 * call it: its path, or "built-in rules/plogtop.rules".  0, or -1 with
 * why in err (a file missing from $PLOGTOP_DATADIR, a name that is no
 * shipped file). */
int datadir_read(const char *rel, const char *what, size_t max,
		 struct strbuf *name, struct strbuf *text, struct strbuf *err);

/* Where a data file comes from, for --check-rules: "built-in (plogtop
 * 0.1.0)", or its path. */
void datadir_origin(const char *rel, struct strbuf *out);

/* 1, with the sentence in out, when a data directory is ignored for
 * being of another version (said once, by main). */
int datadir_note(struct strbuf *out);

/* Where the translations (LL/LC_MESSAGES/plogtop.mo) are: the build
 * tree's locale/ when the binary runs from its build tree, else the
 * installed $(localedir). */
void datadir_localedir(struct strbuf *out);

#endif
