/* --no-fix, --exec, --exec-history (options_json.h). */
#include "config.h"

#include <stddef.h>

#include "i18n.h"
#include "msglog.h"
#include "options_json.h"
#include "options_listen.h"
#include "options_pathhost.h"
#include "strbuf.h"

int *json_flag_option(struct options *o, int c)
{
	switch (c) {
	case OPT_NO_FIX:
		return &o->no_fix;
	case OPT_EXEC_HISTORY:
		return &o->exec_history;
	default:
		return NULL;
	}
}

const char **json_word_option(struct options *o, int c, const char **what)
{
	if (c == OPT_HOST_FROM_PATH)
		return pathhost_word_option(o, c, what);
	if (c != OPT_EXEC)
		return listen_word_option(o, c, what);
	*what = N_("--exec needs a command:");
	return &o->exec_cmd;
}

int json_options_check(const struct options *o)
{
	if (o->format == FORMAT_NDJSON && o->from_prometheus)
		return option_usage("", _("--from-prometheus writes text or "
			       "--format=json"));
	if (o->no_fix && o->format == FORMAT_TEXT && !o->exec_cmd)
		return option_usage("", _("--no-fix is for --format=json and "
			       "--format=ndjson"));
	if (o->exec_history && !o->exec_cmd)
		return option_usage("", _("--exec-history is for --exec"));
	if (o->exec_cmd && o->once)
		return exec_needs_watching();
	return 0;
}

int exec_needs_watching(void)
{
	return option_usage("", _("--exec runs a command as incidents complete: use it "
		       "with --follow or the dashboard, not --once"));
}
