/* Who a process was, for the detail pane and the device view: its
 * devices (logged ids, and the physical NPU with the evidence), its rank
 * (dp/tp/ep), its job, and its ledger per resource (created, destroyed,
 * held, from, complete, leak finding, trend); and the ledger's sentence
 * in an EE1023 fix ("this process created 1,983 streams and destroyed
 * 3", or how to turn the ledger on).  Lines as detail_lines takes them:
 * "\f" starts a title. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "dash_ident.h"
#include "ledger_text.h"
#include "sanitize.h"

/* 1983 as "1,983": the counts of the fix are read at a glance. */
void group_digits(char *buf, size_t n, unsigned long long v)
{
	char raw[32];
	int len = snprintf(raw, sizeof raw, "%llu", v);
	size_t o = 0;

	for (int i = 0; i < len && o + 2 < n; i++) {
		if (i && (len - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = raw[i];
	}
	buf[o < n ? o : n - 1] = '\0';
}

int ident_has_ledger(const struct ident *id)
{
	for (int r = 0; id && r < LEDGER_COUNT; r++)
		if (ident_ledger(id, r)->from != LEDGER_NONE)
			return 1;
	return 0;
}

/* "rank 3 of 8 (local 3), dp 0, tp 5, ep 4": what is known of it. */
void rank_text(const struct ident *id, struct strbuf *sb)
{
	const long v[3] = { id->dp, id->tp, id->ep };
	const char *const what[3] = { "dp", "tp", "ep" };

	if (id->rank != IDENT_UNKNOWN) {
		sb_addf(sb, _(L_ID_RANK), (long)id->rank);
		if (id->world_size != IDENT_UNKNOWN && id->world_size > 0)
			sb_addf(sb, _(L_ID_RANK_OF), (long)id->world_size);
		if (id->local_rank != IDENT_UNKNOWN)
			sb_addf(sb, _(L_ID_LOCAL_RANK), (long)id->local_rank);
	}
	for (int i = 0; i < 3; i++)
		if (v[i] != IDENT_UNKNOWN)
			sb_addf(sb, "%s%s %ld", sb->len ? ", " : "", what[i], v[i]);
	if (!sb->len)
		sb_adds(sb, _(L_ID_RANK_UNKNOWN));
}

/* "device 3, NPU 5 (its visible-device map); devices used: 0, 3". */
static void device_text(const struct ident *id, struct strbuf *out)
{
	if (id->device == IDENT_UNKNOWN) {
		sb_adds(out, _(L_ID_DEVICE_UNKNOWN));
		return;
	}
	sb_addf(out, _(L_ID_DEVICE), id->device);
	if (id->phys != IDENT_UNKNOWN)
		sb_addf(out, _(id->phys_from == PHYS_NPU_SMI ? L_ID_PHYS_SMI
			       : L_ID_PHYS_ENV), id->phys);
	else
		sb_adds(out, _(ident_env(id)->has_map ? L_ID_PHYS_UNKNOWN : L_ID_NO_MAP));
	if (id->ndevices > 1) {
		sb_adds(out, _(L_ID_DEVICES));
		for (size_t i = 0; i < id->ndevices && i < IDENT_DEVICES; i++)
			sb_addf(out, "%s%ld", i ? ", " : "", (long)id->dev[i].device);
	}
}

/* A resource's ledger on one line, its trend and finding on the next. */
static void ledger_line(const struct ledger *l, enum ledger_res r,
			struct strbuf *out)
{
	char c[32], dd[32], h[32];

	group_digits(c, sizeof c, l->created);
	group_digits(dd, sizeof dd, l->destroyed);
	group_digits(h, sizeof h, ledger_held(l));
	sb_addf(out, _(L_LEDGER_ROW), resource_name(ledger_resource(r)), c,
		dd, h, _(l->from == LEDGER_STATISTICS ? L_LEDGER_FROM_STATS
			 : L_LEDGER_FROM_CALLS));
	if (!l->complete)
		sb_adds(out, _(L_LEDGER_INCOMPLETE));
	if (l->failed)
		sb_addf(out, _(L_LEDGER_FAILED), l->failed);
	sb_addc(out, '\n');
	/* The trend: held at the end of each span, from the first known. */
	size_t k = 0;
	while (k < IDENT_TREND - 1 && !l->trend[k])
		k++;
	if (l->from == LEDGER_CALLS && l->trend[IDENT_TREND - 1]) {
		struct strbuf t = STRBUF_INIT;
		for (size_t i = k; i < IDENT_TREND; i++)
			sb_addf(&t, "%s%llu", i > k ? " " : "", l->trend[i]);
		sb_addf(out, _(L_LEDGER_TREND), sb_str(&t));
		sb_addc(out, '\n');
		sb_free(&t);
	}
	if (l->leak != LEAK_NO) {
		sb_adds(out, _(l->leak == LEAK_ENDED ? L_LEAK_ENDED
			       : L_LEAK_RISING));
		sb_addc(out, '\n');
	}
}

/* One line, wrapped where it is shown, and only when a device or a
 * rank is known: the detail's incident stays where it was. */
void ident_lines(const struct tui *t, const struct ident *id,
		 struct strbuf *out)
{
	struct strbuf sb = STRBUF_INIT;

	if (!id || (id->device == IDENT_UNKNOWN && id->rank == IDENT_UNKNOWN &&
		    id->dp == IDENT_UNKNOWN && id->tp == IDENT_UNKNOWN &&
		    id->ep == IDENT_UNKNOWN))
		return;
	sb_addf(out, "%s ", _(L_ID_TITLE));
	device_text(id, out);
	rank_text(id, &sb);
	sb_addf(out, "; %s", sb_str(&sb));
	if (id->job) {
		sb_reset(&sb);
		tui_clean(t, &sb, id->job);
		sb_adds(out, "; ");
		sb_addf(out, _(L_ID_JOB), sb_str(&sb));
	}
	long host_pid = ident_env(id)->host_pid;
	if (host_pid > 0 && host_pid != id->pid) {
		sb_adds(out, "; ");
		sb_addf(out, _(L_ID_HOST_PID), host_pid);
	}
	sb_addc(out, '\n');
	sb_free(&sb);
}

void ledger_lines(const struct ident *id, struct strbuf *out)
{
	if (!ident_has_ledger(id))
		return;
	sb_addf(out, "\f%s\n", _(L_LEDGER_TITLE));
	for (int r = 0; r < LEDGER_COUNT; r++)
		if (ident_ledger(id, r)->from != LEDGER_NONE)
			ledger_line(ident_ledger(id, r), (enum ledger_res)r, out);
}

/* What the ledger knows, for an EE1023 fix on a resource it keeps: the
 * views' sentence (ledger_text.h), as the text report says it. */
int ledger_sentence(const struct ident *id, const struct incident *inc,
		    struct strbuf *out)
{
	if (inc->code != CODE_EE1023)
		return 0;
	return ledger_fix_sentence(out, id, inc->resource) >= 0;
}
