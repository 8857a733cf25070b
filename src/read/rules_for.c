/* Loading the rules plogtop runs with (rules_for.h). */
#include "config.h"

#include "datadir.h"
#include "i18n.h"
#include "rules_for.h"

struct ruleset *rules_for(const struct options *o, struct strbuf *err)
{
	struct ruleset *rs = ruleset_new();
	struct strbuf name = STRBUF_INIT, text = STRBUF_INIT;

	/* The shipped rules (built in, or a data directory's), then
	 * each --rules file. */
	int rc = datadir_read("rules/plogtop.rules", _("rules file"),
			      RULES_FILE_MAX, &name, &text, err);
	if (rc == 0)
		rc = ruleset_load_text(rs, name.buf, text.buf, text.len, err);
	for (size_t i = 0; rc == 0 && i < o->nrules; i++)
		rc = ruleset_load(rs, o->rules[i], err);
	sb_free(&name);
	sb_free(&text);
	if (rc < 0) {
		ruleset_free(rs);
		return NULL;
	}
	return rs;
}
