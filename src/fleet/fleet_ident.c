/* A host's identities (who its processes were, their devices, ledgers
 * and leaks): its --hello stream's identity lines, taken into the model
 * with the host set, and given back with its cursor on a reconnect, so
 * that the plogtop there, which starts afresh from the cursor's points,
 * goes on counting from them (and its next lines, absolute, replace
 * ours harmlessly). */
#include "config.h"

#include <string.h>

#include "fleet_int.h"
#include "i18n.h"
#include "ident_state.h"
#include "stream.h"

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
