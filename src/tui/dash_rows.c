/* The rows of the dashboard's tables, from the model: a row per process
 * (or per host, v) that passes the filter, with its counts in the
 * window, sorted, the selection kept on the same process or host.
 * Counts of a host's "all" come from the model's hosts, which are never
 * folded; a shorter window sums the host's processes' per-minute
 * counts. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dash_int.h"
#include "monoclock.h"
#include "xalloc.h"

int sort_shown(const struct dash *d, int k)
{
	return k != S_HOST || model_has_hosts(d->m);
}

/* The next sort key shown (host: only when hosts are read). */
int next_sort(const struct dash *d, int k, int delta)
{
	do
		k = (k + S_COUNT + delta) % S_COUNT;
	while (!sort_shown(d, k));
	return k;
}

const char *host_label(const struct model_host *h)
{
	return h ? h->name : _(L_HOST_LOCAL);
}

static void dash_build_host_rows(struct dash *d);

static int matches_filter(const struct dash *d, const struct process *p)
{
	char pid[24];

	if (!d->filter[0])
		return 1;
	snprintf(pid, sizeof pid, "%ld", p->pid);
	return strstr(p->name, d->filter) || strstr(pid, d->filter) ||
	       (p->host && strstr(p->host->name, d->filter));
}

/* p used the device the table is kept to (Enter in the device view). */
int dev_matches(const struct dash *d, const struct process *p)
{
	const struct ident *id;

	if (!d->dev_only)
		return 1;
	if (p->host != d->dev_host || !(id = model_ident(d->m, p)))
		return 0;
	if (id->device == d->dev_id)
		return 1;
	for (size_t i = 0; i < id->ndevices && i < IDENT_DEVICES; i++)
		if (id->dev[i].device == d->dev_id)
			return 1;
	return 0;
}

static int row_cmp_key(const struct row *a, const struct row *b,
		       enum sortkey k)
{
	switch (k) {
	case S_PID:
		return (a->p->pid > b->p->pid) - (a->p->pid < b->p->pid);
	case S_NAME:
		return strcmp(a->p->name, b->p->name);
	case S_ALIVE:
		return b->alive - a->alive;
	case S_HOST:
		return strcmp(a->p->host ? a->p->host->name : "",
			      b->p->host ? b->p->host->name : "");
	case S_LAST:
		return (b->last_at > a->last_at) - (b->last_at < a->last_at);
	case S_TOTAL:
		return (b->total > a->total) - (b->total < a->total);
	default: {
		int c = (int)k - S_COL0;
		return (b->col[c] > a->col[c]) - (b->col[c] < a->col[c]);
	}
	}
}

static int row_cmp(const void *x, const void *y, void *ctx)
{
	const struct row *a = x, *b = y;
	const struct dash *d = ctx;
	int c = row_cmp_key(a, b, d->sort);

	if (!c)
		c = row_cmp_key(a, b, S_TOTAL);
	if (!c)
		c = row_cmp_key(a, b, S_PID);
	if (!c)
		c = strcmp(a->p->name, b->p->name);
	return d->reverse ? -c : c;
}

void dash_build_rows(struct dash *d)
{
	logtime_t now = logtime_now();
	long long span = window_usec[d->win];
	unsigned long long ms = monotonic_ms();

	/* Counts come from the model's per-minute counts: the cost of a
	 * frame does not grow with the incidents seen. */
	d->rows = xrealloc(d->rows, (d->m->nprocs + 1) * sizeof *d->rows);
	d->nrows = 0;
	d->nzero = 0;
	d->fold_gen = d->m->fold_gen;
	for (size_t i = 0; i < d->m->nprocs; i++) {
		struct process *p = d->m->procs[i];
		size_t by_res[RES_COUNT];
		if (!matches_filter(d, p) || !dev_matches(d, p))
			continue;
		struct row *r = &d->rows[d->nrows++];
		memset(r, 0, sizeof *r);
		r->p = p;
		r->alive = model_alive(d->m, p);
		r->last = p->last;
		r->last_at = p->last_at;
		r->total = model_window(d->m, p, span, now, by_res);
		/* A row of zeros answers nothing: counted, not listed. */
		if (span && !r->total) {
			d->nrows--;
			d->nzero++;
			continue;
		}
		for (int c = 0; c < NRES; c++)
			r->col[c] = by_res[res_columns[c]];
		model_trend(p, now, r->trend, TREND_MINUTES);
		const struct ident *id = model_ident(d->m, p);
		r->dev = id ? id->device : IDENT_UNKNOWN;
		r->rank = id ? id->rank : IDENT_UNKNOWN;
		/* New: arrived since the history was read, a moment ago. */
		r->fresh = d->history_done_ms && p->lv &&
			   p->lv->seen_ms >= d->history_done_ms &&
			   ms - p->lv->seen_ms < NEW_MS;
	}
	if (d->nrows)
		qsort_r(d->rows, d->nrows, sizeof *d->rows, row_cmp, d);
	/* Keep the selection on the same process, as htop does: a row
	 * moving up does not change what the detail shows (nor resend it). */
	d->sel = 0;
	for (size_t k = 0; k < d->nrows && d->sel_name; k++)
		if (d->rows[k].p->pid == d->sel_pid &&
		    d->rows[k].p->host == d->sel_host &&
		    strcmp(d->rows[k].p->name, d->sel_name) == 0)
			d->sel = k;
	/* No row chosen yet: the top one, whichever comes on top (what the
	 * detail shows is the row highlighted); its detail from its start. */
	if (!d->sel_name) {
		const struct process *top = d->nrows ? d->rows[0].p : NULL;
		if (top != d->top_p) {
			d->detail_scroll = 0;
			d->step = 0;
		}
		d->top_p = top;
	}
	if (d->by_host)
		dash_build_host_rows(d);
	if (d->by_dev)
		dash_build_dev_rows(d);
}

void dash_remember_selection(struct dash *d)
{
	free(d->sel_name);
	d->sel_name = NULL;
	if (d->sel < d->nrows) {
		d->sel_pid = d->rows[d->sel].p->pid;
		d->sel_host = d->rows[d->sel].p->host;
		d->sel_name = xstrdup(d->rows[d->sel].p->name);
	}
	d->detail_scroll = 0;
	d->step = 0;
}

/* ---- rows by host ---- */

static int state_rank(const struct host_row *r)
{
	static const int rank[HOST_STATE_COUNT] = { 1, 2, 0, 3 };

	return r->h ? rank[r->h->state] : HOST_STATE_COUNT;
}

static int hrow_cmp_key(const struct host_row *a, const struct host_row *b,
			enum sortkey k)
{
	switch (k) {
	case S_TOTAL:
		return (b->total > a->total) - (b->total < a->total);
	case S_LAST:
		return (b->last_at > a->last_at) - (b->last_at < a->last_at);
	case S_HOST: case S_NAME:
		return strcmp(host_label(a->h), host_label(b->h));
	case S_ALIVE:	/* down first */
		return state_rank(a) - state_rank(b);
	case S_PID:
		return 0;
	default: {
		int c = (int)k - S_COL0;
		return (b->col[c] > a->col[c]) - (b->col[c] < a->col[c]);
	}
	}
}

static size_t row_index(const struct host_row *r, const struct model *m)
{
	return r->h ? r->h->index : m->nhosts;
}

static int hrow_cmp(const void *x, const void *y, void *ctx)
{
	const struct host_row *a = x, *b = y;
	const struct dash *d = ctx;
	int c = hrow_cmp_key(a, b, d->sort);

	if (d->reverse)
		c = -c;
	/* Then in the order the hosts were named. */
	if (!c)
		c = (row_index(a, d->m) > row_index(b, d->m)) -
		    (row_index(a, d->m) < row_index(b, d->m));
	return c;
}

static void add_process(struct dash *d, struct host_row *r,
			struct process *p, long long span, logtime_t now)
{
	unsigned trend[TREND_MINUTES];

	r->nprocs++;
	model_trend(p, now, trend, TREND_MINUTES);
	for (int i = 0; i < TREND_MINUTES; i++)
		r->trend[i] += trend[i];
	/* A host's "all" is its own count (folded processes included). */
	if (span || !r->h) {
		size_t by_res[RES_COUNT];
		r->total += model_window(d->m, p, span, now, by_res);
		for (int c = 0; c < NRES; c++)
			r->col[c] += by_res[res_columns[c]];
	}
	if (!r->h && p->last > r->last)
		r->last = p->last;
	if (!r->h && p->last_at > r->last_at)
		r->last_at = p->last_at;
}

/* The local input's row is at rows[m->nhosts], there only when there
 * is local input. */
size_t fill_host_rows(struct dash *d, struct host_row *rows)
{
	struct model *m = d->m;
	long long span = window_usec[d->win];
	logtime_t now = logtime_now();
	int has_local = m->nroots > 0;

	memset(rows, 0, (m->nhosts + 1) * sizeof *rows);
	for (size_t i = 0; i < m->nhosts; i++) {
		struct host_row *r = &rows[i];
		r->h = m->hosts[i];
		r->last = r->h->last;
		r->last_at = r->h->last_at;
		if (!span) {
			r->total = r->h->n;
			for (int c = 0; c < NRES; c++)
				r->col[c] = r->h->by_resource[res_columns[c]];
		}
	}
	for (size_t i = 0; i < m->nprocs; i++) {
		struct process *p = m->procs[i];
		has_local |= !p->host;
		add_process(d, &rows[p->host ? p->host->index : m->nhosts], p,
			    span, now);
	}
	return m->nhosts + (has_local ? 1 : 0);
}

static void dash_build_host_rows(struct dash *d)
{
	const struct model_host *keep = NULL;
	int keep_any = d->hsel < d->nhrows;

	if (keep_any)
		keep = d->hrows[d->hsel].h;
	d->hrows = xrealloc(d->hrows, (d->m->nhosts + 1) * sizeof *d->hrows);
	size_t all = fill_host_rows(d, d->hrows);
	/* The filter keeps the hosts whose name has it. */
	size_t n = 0;
	for (size_t i = 0; i < all; i++) {
		if (d->filter[0] && !strstr(host_label(d->hrows[i].h), d->filter))
			continue;
		d->hrows[n++] = d->hrows[i];
	}
	d->nhrows = n;
	qsort_r(d->hrows, n, sizeof *d->hrows, hrow_cmp, d);
	/* The selection stays on its host. */
	for (size_t k = 0; k < n && keep_any; k++)
		if (d->hrows[k].h == keep)
			d->hsel = k;
	if (d->hsel >= n)
		d->hsel = n ? n - 1 : 0;
}


/* ---- rows by device ---- */

/* The model's devices (by host, then id), the filter keeping those
 * whose host or id has it; the selection stays on its device. */
void dash_build_dev_rows(struct dash *d)
{
	const struct model_host *host = NULL;
	long dev = IDENT_UNKNOWN;
	int keep = d->dsel < d->ndrows;
	struct device_row *v;
	char id[24];

	if (keep) {
		host = d->drows[d->dsel].host;
		dev = d->drows[d->dsel].device;
	}
	model_devices_free(d->drows, d->ndrows_all);
	size_t n = model_devices(d->m, &v), k = 0;
	for (size_t i = 0; i < n; i++) {
		snprintf(id, sizeof id, "%ld", v[i].device);
		if (d->filter[0] && !strstr(host_label(v[i].host), d->filter) &&
		    strcmp(id, d->filter) != 0)
			continue;
		struct device_row t = v[k];
		v[k] = v[i];
		v[i] = t;
		k++;
	}
	/* The rows left out are freed with the others (all n are kept). */
	d->drows = v;
	d->ndrows = k;
	d->ndrows_all = n;
	for (size_t i = 0; i < k && keep; i++)
		if (v[i].host == host && v[i].device == dev)
			d->dsel = i;
	if (d->dsel >= k)
		d->dsel = k ? k - 1 : 0;
}
