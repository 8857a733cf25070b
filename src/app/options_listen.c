/* --listen, --listen-cert, --listen-key, --listen-auth (options_listen.h). */
#include "config.h"

#include <stddef.h>

#include "i18n.h"
#include "listen_addr.h"
#include "msglog.h"
#include "options_listen.h"
#include "strbuf.h"

const char **listen_word_option(struct options *o, int c, const char **what)
{
	switch (c) {
	case OPT_LISTEN:
		*what = N_("--listen needs [ADDR]:PORT (:9466, "
			   "127.0.0.1:9466):");
		return &o->listen;
	case OPT_LISTEN_CERT:
		*what = N_("--listen-cert needs a path:");
		return &o->listen_cert;
	case OPT_LISTEN_KEY:
		*what = N_("--listen-key needs a path:");
		return &o->listen_key;
	case OPT_LISTEN_AUTH:
		*what = N_("--listen-auth needs a path:");
		return &o->listen_auth;
	default:
		return NULL;
	}
}

int listen_options_check(const struct options *o)
{
	struct listen_addr a;
	struct strbuf err = STRBUF_INIT;
	int rc = 0;

	if (!o->listen && (o->listen_cert || o->listen_key || o->listen_auth))
		return option_usage("", _("--listen-cert, --listen-key and --listen-auth "
			       "are for --listen"));
	if (!o->listen_cert != !o->listen_key)
		return option_usage("", _("--listen-cert and --listen-key go together"));
	if (o->listen && o->once)
		return listen_needs_watching();
	if (o->listen && listen_addr_parse(o->listen, &a, &err) < 0) {
		struct strbuf msg = STRBUF_INIT;
		sb_addf(&msg, "--listen: %s", err.buf);
		rc = option_usage("", msg.buf);
		sb_free(&msg);
	}
	sb_free(&err);
	return rc;
}

int listen_needs_watching(void)
{
	return option_usage("", _("--listen serves while plogtop watches: use it with "
		       "--follow or the dashboard, not --once"));
}
