/* A refresh's samples made into the model.  Each (node, process, device,
 * class) is one counted incident of the model per window slice: live,
 * what grew in the last minute counts now, what grew in the 5 minutes
 * before that 3 minutes ago, the rest of the hour 30 minutes ago, the
 * rest of the counter with no time; so the dashboard's 1m, 5m, 1h and
 * all windows show what the counters grew in them.  --once counts the
 * counters' values.  A process is of a node's live process (its pid and
 * rank, from plogtop_process_info) when exactly one live process of that
 * name and device runs there; else pid 0, one per device. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster.h"
#include "xalloc.h"

static int scmp(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

/* Samples of counts by series, then by query. */
static int series_cmp(const void *pa, const void *pb)
{
	const struct csample *a = *(const struct csample *const *)pa;
	const struct csample *b = *(const struct csample *const *)pb;
	int c;

	if ((c = scmp(a->host, b->host)) || (c = scmp(a->process, b->process)) ||
	    (c = scmp(a->device, b->device)) || (c = scmp(a->code, b->code)) ||
	    (c = scmp(a->resource, b->resource)) ||
	    (c = scmp(a->cause, b->cause)))
		return c;
	return (int)a->q - (int)b->q;
}

static int same_series(const struct csample *a, const struct csample *b)
{
	return !scmp(a->host, b->host) && !scmp(a->process, b->process) &&
	       !scmp(a->device, b->device) && !scmp(a->code, b->code) &&
	       !scmp(a->resource, b->resource) && !scmp(a->cause, b->cause);
}

static int proc_cmp(const void *pa, const void *pb)
{
	const struct csample *a = *(const struct csample *const *)pa;
	const struct csample *b = *(const struct csample *const *)pb;
	int c;

	if ((c = scmp(a->host, b->host)) || (c = scmp(a->process, b->process)))
		return c;
	return scmp(a->device, b->device);
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static size_t count_of(double v)
{
	return v <= 0 ? 0 : v >= 1e15 ? (size_t)1e15 : (size_t)(v + 0.5);
}

/* The live process a series is of: its info sample when there is one
 * and only one. */
static const struct csample *info_of(struct csample **info, size_t n,
				     const struct csample *s)
{
	struct csample **hit = bsearch(&s, info, n, sizeof *info, proc_cmp);

	if (!hit)
		return NULL;
	if ((hit > info && !proc_cmp(hit - 1, hit)) ||
	    (hit + 1 < info + n && !proc_cmp(hit + 1, hit)))
		return NULL;
	return *hit;
}

static void add_one(struct model *m, const struct csample *s,
		    const struct csample *info, logtime_t at, size_t n)
{
	struct incident *inc = xcalloc(1, sizeof *inc);

	inc->host = s->host;
	/* No file: "-", as the views name input with none (o opens
	 * nothing, the orders compare it). */
	inc->file = "-";
	inc->name = xstrdup(s->process ? s->process : "");
	inc->code = code_from_name(s->code ? s->code : "");
	inc->resource = resource_from_name(s->resource ? s->resource : "");
	inc->cause = cause_from_name(s->cause ? s->cause : "");
	if (inc->cause == CAUSE_NONE)
		inc->cause = CAUSE_UNKNOWN;
	inc->reported_code = xstrdup(s->code ? s->code : "");
	inc->first = inc->last = at;
	inc->pid = info && info->pid ? strtol(info->pid, NULL, 10) : 0;
	if (inc->pid < 0)
		inc->pid = 0;
	if (s->device)
		incident_set_field(inc, "device_id", s->device,
				   strlen(s->device));
	if (info && info->rank)
		incident_set_field(inc, "rank", info->rank, strlen(info->rank));
	/* Lent back until the next one: its process runs when its node
	 * said so. */
	if (model_add_counted(m, inc, n) && inc->proc && info)
		inc->proc->alive = 1;
}

/* One series: its samples g[0..k), sorted by query. */
static void add_series(struct model *m, struct csample *const *g, size_t k,
		       struct csample **info, size_t ninfo)
{
	double v[CQ_INFO] = { 0 };

	for (size_t i = 0; i < k; i++)
		if (g[i]->q < CQ_INFO)
			v[g[i]->q] = g[i]->v;
	/* Each window holds the one inside it, whatever the rounding of
	 * instant queries made of them. */
	size_t c1 = count_of(v[CQ_1M]);
	size_t c5 = count_of(v[CQ_5M]), c60 = count_of(v[CQ_1H]);
	size_t all = count_of(v[CQ_TOTAL]);
	c5 = c5 < c1 ? c1 : c5;
	c60 = c60 < c5 ? c5 : c60;
	all = all < c60 ? c60 : all;
	if (!all)
		return;
	const struct csample *in = info_of(info, ninfo, g[0]);
	if (!m->live) {
		add_one(m, g[0], in, LOGTIME_UNKNOWN, all);
		return;
	}
	logtime_t now = logtime_now();
	const long long min = 60LL * 1000000;
	if (c1)
		add_one(m, g[0], in, now, c1);
	if (c5 > c1)
		add_one(m, g[0], in, now - 3 * min, c5 - c1);
	if (c60 > c5)
		add_one(m, g[0], in, now - 30 * min, c60 - c5);
	if (all > c60)
		add_one(m, g[0], in, LOGTIME_UNKNOWN, all - c60);
}

/* Every node named by any answer, in the order of their names (the
 * first refresh's; later ones keep the hosts the model has). */
static void add_hosts(struct model *m, const struct cluster_data *d)
{
	const char **names = xcalloc(d->n + 1, sizeof *names);
	size_t n = 0;

	for (size_t i = 0; i < d->n; i++)
		names[n++] = d->v[i].host;
	qsort(names, n, sizeof *names, name_cmp);
	for (size_t i = 0; i < n; i++)
		if (!i || strcmp(names[i], names[i - 1]))
			model_host_add(m, names[i]);
	free(names);
}

/* Each host's state, set once a refresh: a host down since the last
 * one stays down since then (model_host_set keeps state_ms). */
static void set_states(struct model *m, const struct cluster_data *d,
		       enum host_state done_state)
{
	char **why = xcalloc(m->nhosts + 1, sizeof *why);

	for (size_t i = 0; i < d->n; i++) {
		const struct csample *s = &d->v[i];
		struct model_host *h = model_host_find(m, s->host);
		if (!h)
			continue;
		if (s->q == CQ_FILES) {
			h->files = count_of(s->v);
			m->stats.files += h->files;
		} else if (s->q == CQ_DOWN) {
			free(why[h->index]);
			why[h->index] = xstrdup("its scrape target is down "
						"(up == 0)");
		} else if (s->q == CQ_AGE && s->v > CLUSTER_STALE_S &&
			   !why[h->index]) {
			char t[96];
			snprintf(t, sizeof t, "stale: its plogtop last updated "
				 "%.0f s ago", s->v);
			why[h->index] = xstrdup(t);
		}
	}
	for (size_t i = 0; i < m->nhosts; i++) {
		model_host_set(m, m->hosts[i], why[i] ? HOST_DOWN : done_state,
			       why[i]);
		free(why[i]);
	}
	free(why);
}

void cluster_to_model(const struct cluster_data *d, struct model *m,
		      enum host_state done_state)
{
	struct csample **cnt = xcalloc(d->n + 1, sizeof *cnt);
	struct csample **info = xcalloc(d->n + 1, sizeof *info);
	size_t nc = 0, ni = 0;

	model_reset_counts(m);
	add_hosts(m, d);
	set_states(m, d, done_state);
	for (size_t i = 0; i < d->n; i++) {
		if (d->v[i].q < CQ_INFO && d->v[i].process)
			cnt[nc++] = &d->v[i];
		else if (d->v[i].q == CQ_INFO && d->v[i].process)
			info[ni++] = &d->v[i];
	}
	qsort(cnt, nc, sizeof *cnt, series_cmp);
	qsort(info, ni, sizeof *info, proc_cmp);
	for (size_t i = 0, k; i < nc; i += k) {
		for (k = 1; i + k < nc && same_series(cnt[i], cnt[i + k]); k++)
			;
		add_series(m, cnt + i, k, info, ni);
	}
	free(cnt);
	free(info);
}
