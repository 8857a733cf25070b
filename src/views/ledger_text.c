#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "ledger_text.h"
#include "sanitize.h"

void ledger_count(struct strbuf *sb, unsigned long long n)
{
	char digits[32];
	int len = snprintf(digits, sizeof digits, "%llu", n);

	for (int i = 0; i < len; i++) {
		if (i && (len - i) % 3 == 0)
			sb_addc(sb, ',');
		sb_addc(sb, digits[i]);
	}
}

/* "1,983 streams": n of the resource, counted. */
void ledger_counted(struct strbuf *sb, enum resource r, unsigned long long n)
{
	struct strbuf c = STRBUF_INIT;
	unsigned long k = n == 1 ? 1 : 2;

	ledger_count(&c, n);
	switch (r) {
	case RES_STREAM:
		sb_addf(sb, ngettext("%s stream", "%s streams", k), c.buf);
		break;
	case RES_EVENT:
		sb_addf(sb, ngettext("%s event", "%s events", k), c.buf);
		break;
	case RES_NOTIFY:
		sb_addf(sb, ngettext("%s notify", "%s notifies", k), c.buf);
		break;
	default:
		sb_addf(sb, ngettext("%s resource", "%s resources", k), c.buf);
	}
	sb_free(&c);
}

/* "created 1,983 streams and destroyed 3", after its subject. */
static void created_destroyed(struct strbuf *sb, const char *subject,
			      const struct ledger *l, enum resource r)
{
	struct strbuf c = STRBUF_INIT, d = STRBUF_INIT;

	ledger_counted(&c, r, l->created);
	ledger_count(&d, l->destroyed);
	/* TRANSLATORS: who, how many of what, how many destroyed. */
	sb_addf(sb, _("%s created %s and destroyed %s"), subject, sb_str(&c),
		sb_str(&d));
	sb_free(&c);
	sb_free(&d);
}

static const char *from_words(enum ledger_from f)
{
	return f == LEDGER_STATISTICS ? _("(the aclFinalize statistics)")
	       : _("(counted from its INFO-level calls)");
}

int ledger_fix_sentence(struct strbuf *sb, const struct ident *id,
		    enum resource r)
{
	enum ledger_res lr = ledger_of_resource(r);

	if (lr == LEDGER_COUNT)
		return -1;
	const struct ledger *l = id ? ident_ledger(id, lr) : NULL;
	if (!l || l->from == LEDGER_NONE) {
		sb_adds(sb, _("The ledger is empty: turn on INFO logging with "
			      "ASCEND_GLOBAL_LOG_LEVEL=1 (or "
			      "ASCEND_MODULE_LOG_LEVEL=ASCENDCL=1) to count "
			      "this process's creates and destroys."));
		return 0;
	}
	struct strbuf what = STRBUF_INIT;
	created_destroyed(&what, _("This process"), l, r);
	/* TRANSLATORS: the ledger's sentence: what it created and
	 * destroyed, where the numbers come from, and "; its earlier lines
	 * were not read..." or nothing.  Its spaces and full stop are the
	 * language's (Chinese: "%s%s%s。"). */
	sb_addf(sb, _("%s %s%s."), sb_str(&what), from_words(l->from),
		l->complete ? "" : _("; its earlier lines were not read, so "
				     "it may have created more"));
	sb_free(&what);
	if (l->leak == LEAK_ENDED)
		sb_adds(sb, _(" It ended holding what it did not destroy: a "
			      "leak."));
	else if (l->leak == LEAK_RISING)
		sb_adds(sb, _(" What it holds kept rising after its warm-up: "
			      "a leak suspect."));
	return 1;
}

void leak_sentence(struct strbuf *sb, const struct ident *id,
		   enum ledger_res lr)
{
	const struct ledger *l = ident_ledger(id, lr);
	struct strbuf who = STRBUF_INIT;
	const char *name = id->name && *id->name ? id->name : "-";

	if (id->pid > 0)
		sb_addf(&who, _("pid %ld"), id->pid);
	else
		sb_adds(&who, _("a process"));
	sb_adds(&who, " (");
	sanitize(&who, name, strlen(name));
	sb_adds(&who, ")");
	created_destroyed(sb, sb_str(&who), l, ledger_resource(lr));
	sb_adds(sb, l->from == LEDGER_STATISTICS ? _(" (statistics)")
		: _(" (calls)"));
	if (l->leak == LEAK_RISING)
		sb_adds(sb, _(", held rising"));
	if (!l->complete)
		sb_adds(sb, _(", incomplete"));
	sb_free(&who);
}

const char *ledger_chip(const struct ident *id, const struct npu_table *npu)
{
	const char *one = NULL;

	if (!npu || (id && id->host))
		return NULL;	/* npu-smi's table is this host's */
	for (size_t i = 0; i < npu->nchips && i < NPU_MAX; i++) {
		const struct npu_chip *c = &npu->chips[i];
		if (id && id->phys_from != PHYS_NONE && c->npu == id->phys)
			return c->name;
		if (one && strcmp(one, c->name) != 0)
			one = "";	/* several models: none is the one */
		else if (!one)
			one = c->name;
	}
	if (id && id->phys_from != PHYS_NONE)
		return NULL;	/* its NPU is not in the table */
	return one && *one ? one : NULL;
}

/* stream_limit as the decoder inferred it, or 0. */
static unsigned long inferred(const struct incident *inc)
{
	const char *s = incident_field(inc, "stream_limit");
	char *end;

	if (!s || *s < '0' || *s > '9')
		return 0;
	unsigned long v = strtoul(s, &end, 10);
	return *end ? 0 : v;
}

int limit_sentence(struct strbuf *sb, const struct incident *inc,
		   const struct ident *id, const struct npu_table *npu)
{
	const char *chip = ledger_chip(id, npu), *family = NULL;
	int about = 0;
	unsigned long lim = chip ? npu_limit(chip, inc->resource, &about,
					     &family) : 0;
	unsigned long guess = inc->resource == RES_STREAM ? inferred(inc) : 0;
	struct strbuf n = STRBUF_INIT, clean = STRBUF_INIT;

	if (lim) {
		ledger_counted(&n, inc->resource, lim);
		sanitize(&clean, chip, strlen(chip));
		sb_addf(sb, about ? _("Limit: about %s per device on %s "
				      "(%s, from npu-smi)")
			: _("Limit: %s per device on %s (%s, from npu-smi)"),
			sb_str(&n), sb_str(&clean), family ? family : "?");
		if (guess && guess != lim) {
			sb_reset(&n);
			ledger_count(&n, guess);
			sb_addf(sb, _(", used instead of the %s inferred from "
				      "stream_id"), sb_str(&n));
		}
		sb_addc(sb, '.');
	} else if (guess) {
		ledger_counted(&n, RES_STREAM, guess);
		sb_addf(sb, _("Limit: %s per device, inferred from stream_id "
			      "(no chip model from npu-smi)."), sb_str(&n));
	}
	sb_free(&n);
	sb_free(&clean);
	return lim || guess;
}

/* What it held on the device when its log ended: "584 streams and 4
 * notifies", or nothing. */
static void held_list(struct strbuf *sb, const struct ident *p)
{
	for (int r = 0; r < LEDGER_COUNT; r++) {
		const struct ledger *l = ident_ledger(p, r);
		if (l->from != LEDGER_CALLS || !ledger_held(l))
			continue;
		if (sb->len)
			sb_adds(sb, _(" and "));
		ledger_counted(sb, ledger_resource((enum ledger_res)r),
			       ledger_held(l));
	}
}

void orphan_sentence(struct strbuf *sb, const struct device_row *d)
{
	const struct ident *p = d->orphan_id;
	struct strbuf name = STRBUF_INIT, held = STRBUF_INIT;

	if (!p)
		return;
	sanitize(&name, p->name && *p->name ? p->name : "-",
		 strlen(p->name && *p->name ? p->name : "-"));
	held_list(&held, p);
	if (held.len)
		sb_addf(sb, _("orphan: pid %ld (%s) held %s on device %ld when "
			      "its log ended, and the device failed after it"),
			p->pid, name.buf, held.buf, d->device);
	else
		sb_addf(sb, _("orphan: pid %ld (%s) used device %ld until its "
			      "log ended, and the device failed after it"),
			p->pid, name.buf, d->device);
	if (p->host)
		sb_adds(sb, _("; whether it still runs on its host is not "
			      "known here"));
	else if (d->orphan_gone)
		sb_adds(sb, _("; it is gone, but a process killed hard can "
			      "leave what it held to the driver until the NPU is "
			      "reset (npu-smi info shows what runs there)"));
	else
		sb_addf(sb, _("; it still runs: end it (kill %ld) to free "
			      "what it holds"), p->pid);
	sb_free(&name);
	sb_free(&held);
}
