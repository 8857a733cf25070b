#include "config.h"

#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "locale_note.h"

/* The locale of character types the environment asks for, as
 * setlocale(LC_ALL, "") reads it. */
static const char *asked(void)
{
	static const char *const vars[] = { "LC_ALL", "LC_CTYPE", "LANG" };

	for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
		const char *v = getenv(vars[i]);
		if (v && *v)
			return v;
	}
	return NULL;
}

int locale_unavailable(struct strbuf *msg)
{
	const char *name = asked();

	if (!name || strcmp(name, "C") == 0 || strcmp(name, "POSIX") == 0)
		return 0;
	/* newlocale, unlike setlocale, changes nothing: no state kept. */
	locale_t l = newlocale(LC_CTYPE_MASK, name, (locale_t)0);
	if (l) {
		freelocale(l);
		return 0;
	}
	sb_adds(msg, "the locale ");
	sb_adds(msg, name);	/* raw: the caller sanitises */
	sb_adds(msg, " is not installed on this host: texts in English, "
		"non-ASCII characters escaped (generate it, e.g. locale-gen, "
		"or use LANG=C.UTF-8)");
	return 1;
}
