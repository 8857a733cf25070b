/* The prom file's gauges per device (plogtop(1), PROMETHEUS):
 *   plogtop_device_resources_held{device[, id], resource[, host]}: what
 *     the live processes whose current device it is hold by their
 *     ledgers of calls (created and not destroyed); a process that is
 *     gone, or wrote its finalize statistics (it ended), holds nothing
 *     here (its leak stays a finding in the reports);
 *   plogtop_device_failing_processes{device[, id][, host]}: processes
 *     with incidents on the device.
 * device is the logged (logical) id; id the physical NPU (npu-exporter's
 * "id": the node is the scrape's) only when evidence gives it
 * (prom_npu_of), else no id label.  Never a pid.  A process counts as
 * live unless known gone: it runs, or it has a row that liveness has
 * not found gone (a host's process while the model keeps its row:
 * plogtop cannot ask another host's /proc). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ident_view.h"
#include "prom.h"
#include "xalloc.h"

struct dev_series {
	const struct model_host *host;
	long device, npu;	/* npu -1: not known */
	enum resource res;	/* RES_NONE: the failing processes */
	unsigned long long n;
};

struct dev_set {
	struct dev_series *v;
	size_t n, cap;
};

static void add(struct dev_set *s, const struct model_host *h, long dev,
		long npu, enum resource r, unsigned long long n)
{
	for (size_t i = 0; i < s->n; i++) {
		struct dev_series *x = &s->v[i];
		if (x->host == h && x->device == dev && x->npu == npu &&
		    x->res == r) {
			x->n += n;
			return;
		}
	}
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 16;
		s->v = xrealloc(s->v, s->cap * sizeof *s->v);
	}
	s->v[s->n++] = (struct dev_series){ h, dev, npu, r, n };
}

/* Local first, then hosts in the model's order, then device, NPU (none
 * first) and resource. */
static int series_cmp(const void *a, const void *b)
{
	const struct dev_series *x = a, *y = b;
	size_t hx = x->host ? x->host->index + 1 : 0;
	size_t hy = y->host ? y->host->index + 1 : 0;

	if (hx != hy)
		return hx < hy ? -1 : 1;
	if (x->device != y->device)
		return x->device < y->device ? -1 : 1;
	if (x->npu != y->npu)
		return x->npu < y->npu ? -1 : 1;
	return (int)x->res - (int)y->res;
}

static void held(struct dev_set *s, const struct model *m)
{
	const struct ident *const *v;
	size_t n = model_idents(m, &v);

	for (size_t i = 0; i < n; i++) {
		const struct ident *id = v[i];
		long dev = view_ident_device(id);
		if (dev < 0 || !prom_live(id))
			continue;
		long npu = prom_npu_of(id, dev);
		/* A ledger of the finalize statistics is of a process that
		 * ended: it holds nothing now. */
		for (int r = 0; r < LEDGER_COUNT; r++)
			if (ident_ledger(id, r)->from == LEDGER_CALLS)
				add(s, id->host, dev, npu,
				    ledger_resource((enum ledger_res)r),
				    ledger_held(ident_ledger(id, r)));
	}
}

/* Per logged device and its NPU, each process with incidents on it once
 * (model_devices' rows would join logged ids on one NPU, and a row by
 * NPU has no one device to label). */
static void failing(struct dev_set *s, const struct model *m)
{
	const struct ident *const *v;
	size_t n = model_idents(m, &v);

	for (size_t i = 0; i < n; i++) {
		const struct ident *id = v[i];
		for (size_t d = 0; id->dev && d < id->ndevices; d++) {
			long dev = id->dev[d].device;
			if (dev < 0 || dev > VIEW_DEVICE_MAX || !id->dev[d].n)
				continue;
			add(s, id->host, dev, prom_npu_of(id, dev), RES_NONE,
			    1);
		}
	}
}

static void labels(struct strbuf *out, const struct dev_series *x)
{
	sb_addf(out, "{" TAX_KEY_DEVICE "=\"%ld\"", x->device);
	if (x->npu >= 0)
		sb_addf(out, "," TAX_KEY_NPU "=\"%ld\"", x->npu);
	if (x->res != RES_NONE)
		sb_addf(out, "," TAX_KEY_RESOURCE "=\"%s\"",
			resource_name(x->res));
	if (x->host) {
		sb_adds(out, "," TAX_KEY_HOST "=\"");
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
	    "device is the logged id, id the NPU when known.");
	put(out, &s, 0, TAX_PROM_DEVICE_FAILING,
	    "Processes with EE1023 or EE1001 incidents on the device; "
	    "device is the logged id, id the NPU when known.");
	free(s.v);
}
