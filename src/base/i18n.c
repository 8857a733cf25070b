#include "config.h"

#include <string.h>

#include "datadir.h"
#include "i18n.h"
#include "locale_note.h"
#include "sanitize.h"
#include "strbuf.h"

void i18n_init(void)
{
#if ENABLE_NLS
	struct strbuf note = STRBUF_INIT, dir = STRBUF_INIT;

	/* Without textdomain(), gettext looks in the domain "messages",
	 * which has no plogtop texts: English. */
	if (!locale_unavailable(&note) && locale_is_utf8()) {
		datadir_localedir(&dir);
		bindtextdomain(PACKAGE, dir.buf);
		bind_textdomain_codeset(PACKAGE, "UTF-8");
		textdomain(PACKAGE);
	}
	sb_free(&note);
	sb_free(&dir);
#endif
}

const char *i18n_lang(char lang[I18N_LANG_MAX])
{
#if ENABLE_NLS
	/* gettext("") is the catalog's header (not a text to extract). */
	static const char header_msgid[] = "";
	const char *h = gettext(header_msgid);
	const char *l = *h ? strstr(h, "Language: ") : NULL;

	if (l) {
		l += strlen("Language: ");
		size_t n = strcspn(l, "\n");
		if (n > 0 && n < I18N_LANG_MAX) {
			memcpy(lang, l, n);
			lang[n] = '\0';
			return lang;
		}
	}
#else
	(void)lang;
#endif
	return "en";
}
