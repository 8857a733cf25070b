/* A host's identities (who its processes were, their devices, ledgers
 * and leaks): its --hello stream's identity lines, taken into the model
 * with the host set, and given back with its cursor on a reconnect, so
 * that the plogtop there, which starts afresh from the cursor's points,
 * goes on counting from them (and its next lines, absolute, replace
 * ours harmlessly). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "fleet_int.h"
#include "i18n.h"
#include "incident_json.h"
#include "ident_state.h"
#include "stream.h"
#include "taxonomy.h"
#include "wire_limits.h"
#include "xalloc.h"

int fleet_take_identity(struct fleet *fl, struct fleet_host *fh,
			const struct jval *v)
{
	const struct jval *o;

	if (!stream_identity_read(v, &o))
		return 0;
	struct ident snap;
	const char *host;
	struct strbuf why = STRBUF_INIT;
	int bad = !o;
	if (!bad && ident_state_read(o, &snap, &host, &why) < 0) {
		bad = 1;
	} else if (!bad && host) {
		/* Not of the host itself: it never sends such. */
		ident_state_clear(&snap);
		bad = 1;
	}
	/* A bad one is a dropped line, said; the stream goes on. */
	if (bad) {
		fh->mh->dropped++;
		sb_reset(&why);
		sb_adds(&why, _("an identity line that is not one dropped"));
		msglog_about(fl->o.log, fh->mh->name, why.buf);
		sb_free(&why);
		fl->gen++;
		return 1;
	}
	model_ident_restore(fl->m, fh->mh->name, &snap, 1);
	fh->sends_idents = 1;
	ident_state_clear(&snap);
	sb_free(&why);
	fl->gen++;
	return 1;
}

void fleet_cursor_input(struct fleet *fl, const struct fleet_host *fh,
			struct strbuf *out)
{
	const struct ident *const *v;
	size_t n = model_idents(fl->m, &v), k = 0;

	sb_add(out, fh->cursor.buf, fh->cursor.len);
	/* A host that never sent one reads no identities (an older one). */
	if (!fh->sends_idents)
		return;
	/* The cursor is an object: its identities go before its '}'. */
	while (out->len && out->buf[out->len - 1] != '}')
		out->len--;
	if (!out->len)
		return;
	out->len--;
	sb_adds(out, ", \"identities\": [");
	for (size_t i = 0; i < n; i++) {
		if (v[i]->host != fh->mh)
			continue;
		sb_adds(out, k++ ? ",\n" : "\n");
		ident_state_write(out, v[i], 0);
	}
	sb_adds(out, "]}");
}

/* An integer member in [0, WIRE_CLAIM_MAX], or -1. */
static long long claim(const struct jval *o, const char *key)
{
	const struct jval *v = json_get(o, key);

	if (!v || v->type != J_NUMBER || !v->is_int || v->integer < 0 ||
	    (unsigned long long)v->integer > WIRE_CLAIM_MAX)
		return -1;
	return v->integer;
}

int fleet_once_leak(struct fleet *fl, struct fleet_host *fh,
		    const struct jval *o)
{
	const char *name = json_get_str(o, "name");
	const char *res = json_get_str(o, "resource");
	const char *kind = json_get_str(o, "kind");
	const struct jval *complete = json_get(o, "complete");
	const struct jval *dev = json_get(o, "device");
	long long pid = claim(o, "pid"), c = claim(o, "created"),
		  d = claim(o, "destroyed");
	enum ledger_res r = res ? ledger_of_resource(resource_from_name(res))
			  : LEDGER_COUNT;
	long device = -1;

	if (dev && dev->type != J_NULL) {
		device = (long)claim(o, "device");
		if (device < 0 || device > 65535)
			return -1;
	}
	if (!name || strlen(name) > WIRE_STRING_MAX || pid < 1 || c < 0 ||
	    d < 0 || r == LEDGER_COUNT || !kind || strcmp(kind, "rising") ||
	    !complete || complete->type != J_BOOL)
		return -1;
	struct ledger l = { .from = LEDGER_CALLS,
			    .created = (unsigned long long)c,
			    .destroyed = (unsigned long long)d,
			    .complete = complete->boolean, .leak = LEAK_RISING,
			    .warm_span = -1 };
	char *raw = wire_unsanitized(name);
	model_ident_ledger(fl->m, fh->mh->name, (long)pid, raw, r, &l, device);
	free(raw);
	return 0;
}
