/* The prom file's gauges per device (plogtop(1), PROMETHEUS):
 *   plogtop_device_resources_held{id, resource[, id_kind][, host]}: what
 *     the live processes whose current device it is hold by their
 *     ledgers of calls (created and not destroyed); a process that is
 *     gone, or wrote its finalize statistics (it ended), holds nothing
 *     here (its leak stays a finding in the reports);
 *   plogtop_device_failing_processes{id[, id_kind][, host]}: processes
 *     with incidents on the device.
 * id is the physical NPU when evidence gives it (npu-exporter's "id":
 * the node is the scrape's), else the logged id with id_kind="logical".
 * Never a pid.  A process counts as live unless known gone: it runs, or
 * it has a row that liveness has not found gone (a host's process while
 * the model keeps its row: plogtop cannot ask another host's /proc). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ident_view.h"
#include "prom.h"
#include "xalloc.h"

struct dev_series {
	const struct model_host *host;
	long id;
	int logical;
	enum resource res;	/* RES_NONE: the failing processes */
	unsigned long long n;
};

struct dev_set {
	struct dev_series *v;
	size_t n, cap;
};

static void add(struct dev_set *s, const struct model_host *h, long id,
		int logical, enum resource r, unsigned long long n)
{
	for (size_t i = 0; i < s->n; i++) {
		struct dev_series *x = &s->v[i];
		if (x->host == h && x->id == id && x->logical == logical &&
		    x->res == r) {
			x->n += n;
			return;
		}
	}
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 16;
		s->v = xrealloc(s->v, s->cap * sizeof *s->v);
	}
	s->v[s->n++] = (struct dev_series){ h, id, logical, r, n };
}

/* Local first, then hosts in the model's order, physical before
 * logical, then id and resource. */
static int series_cmp(const void *a, const void *b)
{
	const struct dev_series *x = a, *y = b;
	size_t hx = x->host ? x->host->index + 1 : 0;
	size_t hy = y->host ? y->host->index + 1 : 0;

	if (hx != hy)
		return hx < hy ? -1 : 1;
	if (x->logical != y->logical)
		return x->logical - y->logical;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return (int)x->res - (int)y->res;
}

/* Not known gone: it runs (asked), or it has a row that liveness has
 * not said is gone (a host's rows are never asked). */
static int live(const struct ident *id)
{
	if (id->alive || (id->proc && id->proc->alive))
		return 1;
	return id->proc && (id->host || !id->proc->alive_ms);
}

static void held(struct dev_set *s, const struct model *m)
{
	const struct ident *const *v;
	size_t n = model_idents(m, &v);

	for (size_t i = 0; i < n; i++) {
		const struct ident *id = v[i];
		long dev = view_ident_device(id);
		if (dev < 0 || !live(id))
			continue;
		int logical = id->phys_from == PHYS_NONE || id->phys < 0;
		/* A ledger of the finalize statistics is of a process that
		 * ended: it holds nothing now. */
		for (int r = 0; r < LEDGER_COUNT; r++)
			if (id->ledger[r].from == LEDGER_CALLS)
				add(s, id->host, logical ? dev : id->phys,
				    logical,
				    ledger_resource((enum ledger_res)r),
				    ledger_held(&id->ledger[r]));
	}
}

static void failing(struct dev_set *s, const struct model *m)
{
	struct device_row *rows;
	size_t n = model_devices(m, &rows);

	for (size_t i = 0; i < n; i++) {
		const struct device_row *d = &rows[i];
		int logical = d->phys_from == PHYS_NONE || d->phys < 0;
		if (d->device < 0 && logical)
			continue;
		add(s, d->host, logical ? d->device : d->phys, logical,
		    RES_NONE, d->failing);
	}
	model_devices_free(rows, n);
}

static void labels(struct strbuf *out, const struct dev_series *x)
{
	sb_addf(out, "{" TAX_KEY_NPU "=\"%ld\"", x->id);
	if (x->res != RES_NONE)
		sb_addf(out, "," TAX_KEY_RESOURCE "=\"%s\"",
			resource_name(x->res));
	if (x->logical)
		sb_adds(out, "," TAX_KEY_ID_KIND "=\"" TAX_ID_KIND_LOGICAL
			"\"");
	if (x->host) {
		sb_adds(out, ",host=\"");
		prom_label(out, x->host->name);
		sb_addc(out, '"');
	}
	sb_addc(out, '}');
}

static void put(struct strbuf *out, const struct dev_set *s, int want_res,
		const char *name, const char *help)
{
	int head = 0;

	for (size_t i = 0; i < s->n; i++) {
		const struct dev_series *x = &s->v[i];
		if ((x->res != RES_NONE) != want_res)
			continue;
		if (!head++)
			prom_metric_head(out, name, "gauge", help);
		sb_adds(out, name);
		labels(out, x);
		sb_addf(out, " %llu\n", x->n);
	}
}

void prom_render_devices(struct strbuf *out, const struct model *m)
{
	struct dev_set s = { 0 };

	held(&s, m);
	failing(&s, m);
	if (s.n)
		qsort(s.v, s.n, sizeof *s.v, series_cmp);
	put(out, &s, 1, TAX_PROM_DEVICE_HELD,
	    "Resources (streams, events, notifies) that the live processes "
	    "on the device created and did not destroy, by their ledgers; "
	    "id is the NPU, or the logged id with id_kind=\"logical\".");
	put(out, &s, 0, TAX_PROM_DEVICE_FAILING,
	    "Processes with EE1023 or EE1001 incidents on the device; id is "
	    "the NPU, or the logged id with id_kind=\"logical\".");
	free(s.v);
}
