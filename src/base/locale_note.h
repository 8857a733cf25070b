/* The locale rule: the language of texts and the ability to draw them
 * are one decision.  A locale that LC_ALL/LC_CTYPE/LANG name but that
 * cannot be loaded (not generated on this host, or forwarded by ssh from
 * a host that has it) leaves plogtop in the C locale: texts in English,
 * non-ASCII names escaped, and this says so, once. */
#ifndef PLOGTOP_LOCALE_NOTE_H
#define PLOGTOP_LOCALE_NOTE_H

#include "strbuf.h"

/* 1 with what is wrong and what to do in msg when the locale the
 * environment names cannot be loaded; 0 when it can (or names none). */
int locale_unavailable(struct strbuf *msg);

#endif
