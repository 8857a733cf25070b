/* plogtop_process_info{pid, process[, device][, id][, rank][, task_id]
 * [, pod_name][, namespace][, container_name][, host]} 1: one series per
 * live process the model knows (a row of incidents, or an identity), so
 * that an alert on the bounded series (incidents by process name,
 * device, NPU) can lead to a pid and a pod.  A process known gone is not
 * written: its series ends when liveness finds it gone.  A label that is
 * not known is left out; every value passes prom_label.
 *
 * Bounded: PROM_MAX_PROCESS_INFO series at most, those with incidents
 * first, then the latest seen; the rest are counted in
 * plogtop_process_info_omitted.  task_id is --job or MINDX_TASK_ID, never
 * the top directory an identity's job falls back to. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ident_view.h"
#include "prom.h"
#include "xalloc.h"

long prom_npu_of(const struct ident *id, long dev)
{
	if (!id || dev < 0)
		return -1;
	if (dev == id->device && id->phys >= 0 && id->phys_from != PHYS_NONE)
		return id->phys;
	if (dev < ident_env(id)->nmap && ident_env(id)->map[dev] >= 0)
		return ident_env(id)->map[dev];
	return -1;
}

int prom_live(const struct ident *id)
{
	if (id->alive || (id->proc && id->proc->alive))
		return 1;
	return id->proc && (id->host || !id->proc->alive_asked);
}

/* A row's process without an identity: it runs (asked), was never
 * asked, or is a host's (kept while its host's model keeps it). */
static int row_live(const struct process *p)
{
	return p->host || p->alive || !p->alive_asked;
}

struct info {
	const struct model_host *host;
	long pid;
	const char *name;
	const struct ident *id;	/* or NULL */
	size_t incidents;
	logtime_t last;
};

struct infos {
	struct info *v;
	size_t n, cap;
};

static void add(struct infos *s, const struct info *x)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		s->v = xrealloc(s->v, s->cap * sizeof *s->v);
	}
	s->v[s->n++] = *x;
}

/* Which to keep at the bound: with incidents first, then latest. */
static int keep_cmp(const void *a, const void *b)
{
	const struct info *x = a, *y = b;

	if (!x->incidents != !y->incidents)
		return x->incidents ? -1 : 1;
	return (x->last < y->last) - (x->last > y->last);
}

/* Local first, hosts in the model's order, then pid and name. */
static int out_cmp(const void *a, const void *b)
{
	const struct info *x = a, *y = b;
	size_t hx = x->host ? x->host->index + 1 : 0;
	size_t hy = y->host ? y->host->index + 1 : 0;

	if (hx != hy)
		return hx < hy ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return strcmp(x->name, y->name);
}

static void collect(struct infos *s, const struct model *m)
{
	const struct ident *const *v;
	size_t n = model_idents(m, &v);

	for (size_t i = 0; i < n; i++) {
		const struct ident *id = v[i];
		if (!prom_live(id) || !id->name)
			continue;
		add(s, &(struct info){ id->host, id->pid, id->name, id,
				       id->proc ? process_total(id->proc) : 0,
				       id->last });
	}
	for (size_t i = 0; i < m->nprocs; i++) {
		const struct process *p = m->procs[i];
		const struct ident *id = model_ident(m, p);
		if ((id && id->proc == p) || !row_live(p))
			continue;	/* written with its identity, or gone */
		if (id && prom_live(id))
			continue;
		add(s, &(struct info){ p->host, p->pid, p->name, NULL,
				       process_total(p), p->last });
	}
}

/* --job or MINDX_TASK_ID; not a top directory (a root, or a path). */
static const char *task_of(const struct model *m, const struct ident *id)
{
	if (!id || !id->job || !id->job[0] || strchr(id->job, '/'))
		return NULL;
	for (size_t i = 0; i < m->nroots; i++)
		if (strcmp(m->roots[i], id->job) == 0)
			return NULL;
	return id->job;
}

static void label(struct strbuf *out, const char *key, const char *value)
{
	if (!value || !value[0])
		return;
	sb_addf(out, ",%s=\"", key);
	prom_label(out, value);
	sb_addc(out, '"');
}

static void put(struct strbuf *out, const struct model *m,
		const struct info *x)
{
	const struct ident *id = x->id;
	long dev = view_ident_device(id), rank = view_ident_rank(id);
	long npu = prom_npu_of(id, dev);

	sb_addf(out, TAX_PROM_PROCESS_INFO "{" TAX_KEY_PID "=\"%ld\","
		TAX_KEY_PROCESS "=\"", x->pid);
	prom_label(out, x->name);
	sb_addc(out, '"');
	if (dev >= 0)
		sb_addf(out, "," TAX_KEY_DEVICE "=\"%ld\"", dev);
	if (npu >= 0)
		sb_addf(out, "," TAX_KEY_NPU "=\"%ld\"", npu);
	if (rank >= 0)
		sb_addf(out, "," TAX_KEY_RANK "=\"%ld\"", rank);
	label(out, TAX_KEY_TASK, task_of(m, id));
	if (id) {
		label(out, TAX_KEY_POD, ident_env(id)->pod_name);
		label(out, TAX_KEY_NAMESPACE, ident_env(id)->pod_namespace);
		label(out, TAX_KEY_CONTAINER, ident_env(id)->container_name);
	}
	if (x->host)
		label(out, TAX_KEY_HOST, x->host->name);
	sb_adds(out, "} 1\n");
}

void prom_render_processes(struct strbuf *out, const struct model *m)
{
	struct infos s = { NULL, 0, 0 };
	size_t omitted = 0;

	collect(&s, m);
	if (s.n > PROM_MAX_PROCESS_INFO) {
		qsort(s.v, s.n, sizeof *s.v, keep_cmp);
		omitted = s.n - PROM_MAX_PROCESS_INFO;
		s.n = PROM_MAX_PROCESS_INFO;
	}
	if (s.n)
		qsort(s.v, s.n, sizeof *s.v, out_cmp);
	prom_metric_head(out, TAX_PROM_PROCESS_INFO, "gauge",
		    "A live process plogtop knows (incidents or an identity), "
		    "value 1; gone with the process.  Join on process, device "
		    "and id to lead an alert to a pid and a pod.");
	for (size_t i = 0; i < s.n; i++)
		put(out, m, &s.v[i]);
	prom_metric_head(out, TAX_PROM_PROCESS_INFO "_omitted", "gauge",
		    "Live processes left out of plogtop_process_info for its "
		    "bound.");
	sb_addf(out, TAX_PROM_PROCESS_INFO "_omitted %zu\n", omitted);
	free(s.v);
}
