/* What a fleet keeps in the state file (--state, its "hosts" section), so
 * that a restart of this plogtop counts no host's incidents again: for
 * each host, whether it resumes, the last cursor it sent, and the
 * identities of the incidents it sent since (that a resumed stream sends
 * again).
 *
 *   {"version": 1, "hosts": [{"name": "node07", "resume": true,
 *     "cursor": {...}, "seen_all": false, "seen": ["16 hex digits", ...]}]}
 *
 * A host with more identities to keep than FLEET_STATE_SEEN_MAX is left
 * out: after a restart its overlap may be counted again. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet_int.h"
#include "json.h"

#define FLEET_STATE_VERSION 1
#define FLEET_STATE_SEEN_MAX 262144

static void save_seen(struct strbuf *out, const struct fleet_seen *s)
{
	size_t n = 0;

	sb_adds(out, "[");
	for (size_t i = 0; i < s->cap; i++)
		if (s->slot[i])
			sb_addf(out, "%s\"%016" PRIx64 "\"", n++ ? "," : "",
				s->slot[i]);
	sb_adds(out, "]");
}

void fleet_save_state(const struct fleet *fl, struct strbuf *out)
{
	size_t n = 0;

	sb_addf(out, "{\"version\": %d, \"hosts\": [", FLEET_STATE_VERSION);
	for (size_t i = 0; fl && i < fl->n; i++) {
		const struct fleet_host *fh = &fl->h[i];
		if ((!fh->resume || !fh->cursor.len) && !fh->seen.n)
			continue;
		if (fh->seen.n > FLEET_STATE_SEEN_MAX || fh->seen.full)
			continue;
		sb_adds(out, n++ ? ",\n {\"name\": " : "\n {\"name\": ");
		json_cstring(out, fh->mh->name);
		sb_addf(out, ", \"resume\": %s, \"seen_all\": %s",
			fh->resume && fh->cursor.len ? "true" : "false",
			fh->seen_all ? "true" : "false");
		if (fh->resume && fh->cursor.len) {
			sb_adds(out, ", \"cursor\": ");
			sb_add(out, fh->cursor.buf, fh->cursor.len);
		}
		sb_adds(out, ", \"seen\": ");
		save_seen(out, &fh->seen);
		sb_adds(out, "}");
	}
	sb_adds(out, "]}");
}

static struct fleet_host *host_named(struct fleet *fl, const char *name)
{
	for (size_t i = 0; i < fl->n; i++)
		if (strcmp(fl->h[i].mh->name, name) == 0)
			return &fl->h[i];
	return NULL;
}

/* One host's entry; a malformed one is left out whole. */
static void restore_host(struct fleet *fl, const struct jval *e)
{
	const char *name = json_get_str(e, "name");
	const struct jval *resume = json_get(e, "resume");
	const struct jval *all = json_get(e, "seen_all");
	const struct jval *cursor = json_get(e, "cursor");
	const struct jval *seen = json_get(e, "seen");
	struct fleet_host *fh = name ? host_named(fl, name) : NULL;

	if (!fh || !resume || resume->type != J_BOOL || !all ||
	    all->type != J_BOOL || !seen || seen->type != J_ARRAY ||
	    seen->n > FLEET_STATE_SEEN_MAX ||
	    (resume->boolean && (!cursor || cursor->type != J_OBJECT)))
		return;
	for (size_t i = 0; i < seen->n; i++) {
		const struct jval *s = &seen->items[i];
		char *end;
		if (s->type != J_STRING || s->len != 16)
			return;
		strtoull(s->str, &end, 16);
		if (end != s->str + 16)
			return;
	}
	if (resume->boolean) {
		struct strbuf c = STRBUF_INIT;
		json_write_parsed(&c, cursor);
		if (c.len + 1 > REMOTE_LINE_MAX) {
			sb_free(&c);
			return;
		}
		sb_free(&fh->cursor);
		fh->cursor = c;
		fh->resume = 1;
	}
	fh->seen_all = all->boolean;
	for (size_t i = 0; i < seen->n; i++)
		fleet_seen_add(&fh->seen,
			       strtoull(seen->items[i].str, NULL, 16));
}

void fleet_restore_state(struct fleet *fl, const char *text, size_t len)
{
	struct json_limits lim = { 1u << 20, 16u << 20 };
	struct strbuf err = STRBUF_INIT;
	struct jval doc;

	if (!fl || json_parse(text, len, &lim, &doc, &err) < 0) {
		sb_free(&err);
		return;
	}
	const struct jval *v = json_get(&doc, "version");
	const struct jval *hosts = json_get(&doc, "hosts");
	if (v && v->type == J_NUMBER && v->is_int &&
	    v->integer == FLEET_STATE_VERSION && hosts &&
	    hosts->type == J_ARRAY)
		for (size_t i = 0; i < hosts->n; i++)
			restore_host(fl, &hosts->items[i]);
	jval_free(&doc);
	sb_free(&err);
}
