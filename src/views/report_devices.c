#include "config.h"

#include <stdio.h>
#include <string.h>

#include "i18n.h"
#include "ident_view.h"
#include "ledger_text.h"
#include "model.h"
#include "report_devices.h"
#include "sanitize.h"
#include "textfit.h"

/* One item: its first line after first spaces, wrapped at width between
 * words, the lines it wraps into after first + 2. */
static void item(struct strbuf *sb, const char *text, size_t first,
		 size_t width)
{
	const char *p = text;
	size_t indent = first;

	while (*p) {
		size_t room = width > indent + 20 ? width - indent : 20;
		size_t n = wrap_break(p, room);
		for (size_t i = 0; i < indent; i++)
			sb_addc(sb, ' ');
		sb_add(sb, p, n);
		sb_addc(sb, '\n');
		p += n;
		while (*p == ' ')
			p++;
		indent = first + 2;
	}
}

static void clean_name(struct strbuf *sb, const char *s, size_t max)
{
	struct strbuf c = STRBUF_INIT;

	s = s && *s ? s : "-";
	sanitize(&c, s, strlen(s));
	sb_add(sb, sb_str(&c), text_fit(sb_str(&c), max));
	sb_free(&c);
}

static void device_head(struct strbuf *t, const struct device_row *d,
			int hosts)
{
	if (hosts && d->host) {	/* local: no name */
		clean_name(t, d->host->name, 24);
		sb_adds(t, ": ");
	}
	sb_addf(t, _("device %ld"), d->device);
	if (d->phys >= 0 && d->phys_from != PHYS_NONE)
		sb_addf(t, _(" (NPU %ld, from %s)"), d->phys,
			phys_from_name(d->phys_from));
	sb_adds(t, ": ");
	if (d->incidents)
		sb_addf(t, ngettext("%zu incident", "%zu incidents",
				    d->incidents), d->incidents);
	else
		sb_adds(t, _("no incident"));
	const char *sep = " (";
	for (int r = RES_NONE + 1; r < RES_COUNT; r++)
		if (d->by_resource[r]) {
			const char *w = resource_word((enum resource)r);
			sb_addf(t, "%s%zu %s", sep, d->by_resource[r],
				w ? _(w) : resource_name((enum resource)r));
			sep = ", ";
		}
	if (*sep == ',')
		sb_addc(t, ')');
}

static void device_proc(struct strbuf *t, const struct ident *id)
{
	if (id->pid > 0)
		sb_addf(t, _("pid %ld"), id->pid);
	else
		sb_adds(t, _("a process"));
	sb_addc(t, ' ');
	clean_name(t, id->name, 16);
	long rank = view_ident_rank(id);
	if (rank >= 0)
		sb_addf(t, _(", rank %ld"), rank);
	int alive = id->alive || (id->proc && id->proc->alive);
	if (alive)
		sb_adds(t, _(", alive"));
	else if (ident_gone(id))
		sb_adds(t, _(", gone"));
	if (id->job) {
		sb_adds(t, _(", job "));
		/* A job named by its directory: its end says which. */
		path_fit(t, id->job, 32, "...");
		if (id->job_rule)	/* which rule named it */
			sb_addf(t, " (%s)", id->job_rule);
	}
	/* What it holds now by its calls (statistics: it ended). */
	for (int r = 0; r < LEDGER_COUNT; r++) {
		const struct ledger *l = ident_ledger(id, r);
		if (l->from != LEDGER_CALLS || !ledger_held(l))
			continue;
		/* Gone: what it held when its log ended. */
		sb_adds(t, !alive && ident_gone(id) ? _(", held ")
						    : _(", holds "));
		ledger_counted(t, ledger_resource((enum ledger_res)r),
			       ledger_held(l));
	}
}

static void tenants(struct strbuf *sb, const struct device_row *d,
		    const struct npu_table *npu, size_t width)
{
	struct strbuf t = STRBUF_INIT;
	size_t k = 0;

	if (!npu || d->host || d->phys < 0 || d->phys_from == PHYS_NONE)
		return;
	sb_addf(&t, _("on NPU %ld now (npu-smi):"), d->phys);
	for (size_t i = 0; i < npu->nprocs && i < NPU_PROCS_MAX; i++) {
		const struct npu_proc *p = &npu->procs[i];
		if (p->npu != d->phys)
			continue;
		sb_addf(&t, "%s %ld ", k++ ? "," : "", p->pid);
		clean_name(&t, p->name, 24);
		if (p->mem_mb >= 0) {
			sb_adds(&t, " (");
			ledger_count(&t, (unsigned long long)p->mem_mb);
			sb_adds(&t, " MB)");
		}
	}
	if (!k)
		sb_addf(&t, " %s", _("no process"));
	item(sb, sb_str(&t), 4, width);
	sb_free(&t);
}

/* The guide's checks, done: several jobs, a gone process whose device
 * still fails, a logical id shared with no device map. */
static void callouts(struct strbuf *sb, const struct device_row *d,
		     size_t width)
{
	struct strbuf t = STRBUF_INIT;

	if (d->jobs > 1) {
		sb_addf(&t, _("shared by processes of %zu jobs: run fewer "
			      "processes per device"), d->jobs);
		item(sb, sb_str(&t), 4, width);
		sb_reset(&t);
	}
	if (d->orphan && d->orphan_id) {
		orphan_sentence(&t, d);
		item(sb, sb_str(&t), 4, width);
		sb_reset(&t);
	}
	if (d->no_map)
		item(sb, _("same logical id, no device map: these processes "
			   "may be on different NPUs"), 4, width);
	sb_free(&t);
}

void report_devices(struct strbuf *sb, const struct device_row *v, size_t n,
		    const struct npu_table *npu, int hosts, size_t width)
{
	struct strbuf t = STRBUF_INIT;

	if (!n)
		return;
	sb_addf(sb, "\n%s\n", _("Devices:"));
	for (size_t i = 0; i < n; i++) {
		const struct device_row *d = &v[i];
		device_head(&t, d, hosts);
		item(sb, sb_str(&t), 2, width);
		for (size_t j = 0; j < d->nprocs && j < 16; j++) {
			sb_reset(&t);
			device_proc(&t, d->procs[j]);
			item(sb, sb_str(&t), 4, width);
		}
		if (d->nprocs > 16) {
			sb_reset(&t);
			sb_addf(&t, _("and %zu more"), d->nprocs - 16);
			item(sb, sb_str(&t), 4, width);
		}
		tenants(sb, d, npu, width);
		callouts(sb, d, width);
		sb_reset(&t);
	}
	sb_free(&t);
}

size_t report_leaks(struct strbuf *sb, const struct ident *const *v,
		    size_t n, int hosts, size_t width)
{
	struct strbuf t = STRBUF_INIT;
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		for (int r = 0; r < LEDGER_COUNT; r++) {
			if (ident_ledger(v[i], r)->leak == LEAK_NO)
				continue;
			if (!k++)
				sb_addf(sb, "\n%s\n", _("Leaks:"));
			if (k > REPORT_LEAKS_SHOWN)
				continue;	/* counted, said below */
			sb_reset(&t);
			if (hosts && v[i]->host) {	/* local: none */
				clean_name(&t, v[i]->host->name, 24);
				sb_adds(&t, ": ");
			}
			leak_sentence(&t, v[i], (enum ledger_res)r);
			item(sb, sb_str(&t), 2, width);
		}
	if (k > REPORT_LEAKS_SHOWN) {
		sb_reset(&t);
		sb_addf(&t, _("and %zu more (all in --format=json)"),
			k - REPORT_LEAKS_SHOWN);
		item(sb, sb_str(&t), 2, width);
	}
	sb_free(&t);
	return k;
}
