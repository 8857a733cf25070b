/* Translations through GNU gettext: _() translates a text, N_() marks one
 * kept in a table and translated where it is used (with _()).
 * Every text a person reads goes through one of them; what machines read
 * (JSON keys, codes, resources, causes, option names) does not.
 * Configured with --disable-nls, all of them give the English text. */
#ifndef PLOGTOP_I18N_H
#define PLOGTOP_I18N_H

#if ENABLE_NLS
#include <libintl.h>
#define _(s) gettext(s)
#else
#define _(s) (s)
#define ngettext(s, p, n) ((n) == 1 ? (s) : (p))
#endif
#define N_(s) s

/* After setlocale(LC_ALL, ""): plogtop's texts in the language that
 * LANGUAGE, LC_ALL, LC_MESSAGES or LANG name, from $(localedir) or, when
 * the binary runs from its build tree, from the build tree's locale/.
 * Only under a locale that loads and whose charset is UTF-8: otherwise
 * (the locale rule of locale_note.h) every text stays English. */
void i18n_init(void);

/* The language the texts are in: the catalog's Language (zh_CN, written
 * into lang), or "en" when none is in use.  JSON's "lang" says it. */
#define I18N_LANG_MAX 16
const char *i18n_lang(char lang[I18N_LANG_MAX]);

#endif
