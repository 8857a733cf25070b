/* --host-from-path (options_pathhost.h). */
#include "config.h"

#include "i18n.h"
#include "option_table.h"
#include "options_pathhost.h"
#include "pathhost.h"
#include "strbuf.h"

const char **pathhost_word_option(struct options *o, int c,
				  const char **what)
{
	if (c != OPT_HOST_FROM_PATH)
		return NULL;
	*what = N_("--host-from-path needs a pattern (or none):");
	return &o->host_from_path;
}

int pathhost_options_check(struct options *o)
{
	struct strbuf err = STRBUF_INIT;

	o->path_hosts = pathhost_new(o->host_from_path, &err);
	if (o->path_hosts)
		return 0;
	int rc = option_usage("", err.buf);
	sb_free(&err);
	return rc;
}
