/* The devices view of the identities (ident.h, model_devices): each
 * device of each host with its processes, its incidents by resource, its
 * tenants, and the co-tenancy findings.
 *
 * Grouping: by host and logged (logical) device id; a host whose every
 * process-and-device has a physical NPU on evidence (its visible-device
 * map, npu-smi) is grouped by physical NPU instead, since logical ids of
 * two processes may name different NPUs (and different ids the same).
 * A logical row says its NPU when all its processes agree on one.
 *
 * Findings:
 *  - orphan: a process whose log ended before the device's latest
 *    failure, by at most IDENT_ORPHAN_USEC, or that still runs and holds
 *    some of what it created there (local): a rank left behind by a
 *    killed run, holding what the next run lacks.  Of several, the one
 *    that held most (its ledger of calls when its log ended; one that
 *    wrote its finalize statistics let everything go), then one that
 *    did not fail there, then one that runs.  Logs of runs days apart
 *    on one logical id are no evidence of each other;
 *  - no_map: two or more processes on one logical id, none with a map:
 *    "same logical id, no device map", never "same NPU". */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ident_int.h"
#include "liveness.h"
#include "npusmi.h"
#include "xalloc.h"

/* The physical NPU of device i of id, and how it is known. */
static long phys_of(const struct ident *id, size_t i, enum phys_from *from)
{
	long dev = id->dev[i].device;

	if (dev == id->device && id->phys >= 0) {
		*from = id->phys_from;
		return id->phys;
	}
	const struct ident_env *env = ident_env(id);

	if (dev >= 0 && dev < env->nmap) {
		*from = PHYS_ENVIRON;
		return env->map[dev];
	}
	*from = PHYS_NONE;
	return IDENT_UNKNOWN;
}

/* For each host (index + 1; 0: local): whether every device of every
 * identity of it has a physical NPU (and it has one at least). */
static int *hosts_all_phys(const struct model *m)
{
	int *ok = xcalloc(m->nhosts + 1, sizeof *ok);
	unsigned char *bad = xcalloc(m->nhosts + 1, 1);

	for (size_t k = 0; k < m->idents.n; k++) {
		const struct ident *id = m->idents.v[k];
		size_t h = id->host ? id->host->index + 1 : 0;
		enum phys_from from;
		for (size_t i = 0; i < id->ndevices; i++) {
			if (phys_of(id, i, &from) < 0)
				bad[h] = 1;
			ok[h] = 1;
		}
	}
	for (size_t h = 0; h <= m->nhosts; h++)
		ok[h] = ok[h] && !bad[h];
	free(bad);
	return ok;
}

struct rows {
	struct device_row *v;
	size_t n, cap;
};

static struct device_row *row_for(struct rows *rs, struct model_host *h,
				  long key, int by_phys)
{
	for (size_t i = 0; i < rs->n; i++) {
		struct device_row *r = &rs->v[i];
		if (r->host == h && r->by_phys == by_phys &&
		    (by_phys ? r->phys : r->device) == key)
			return r;
	}
	if (rs->n == rs->cap) {
		rs->cap = rs->cap ? 2 * rs->cap : 16;
		rs->v = xrealloc(rs->v, rs->cap * sizeof *rs->v);
	}
	struct device_row *r = &rs->v[rs->n++];
	memset(r, 0, sizeof *r);
	r->host = h;
	r->by_phys = by_phys;
	r->device = key;
	r->phys = by_phys ? key : -2;	/* -2: no process seen yet */
	r->last = LOGTIME_UNKNOWN;
	r->chip = "";
	return r;
}

/* A local process known not to run: asked (model_alive,
 * model_ask_alive), or, never asked (--once), its pid does not run the
 * program that logged now. */
int ident_gone(const struct ident *id)
{
	if (id->host)
		return 0;
	if (id->alive_known)
		return !id->alive;
	return !liveness_same_program(id->pid, id->name);
}

static void add_pair(struct device_row *r, const struct ident *id, size_t i)
{
	const struct ident_dev *d = id->dev ? &id->dev[i] : NULL;
	enum phys_from from;
	long phys = phys_of(id, i, &from);

	if (!r->by_phys) {
		if (r->phys == -2 || (r->phys == phys && phys >= 0)) {
			r->phys = phys;
			if (r->phys_from == PHYS_NONE || from == PHYS_ENVIRON)
				r->phys_from = from;
		} else {
			r->phys = IDENT_UNKNOWN;
			r->phys_from = PHYS_NONE;
		}
	} else {
		if (!r->nprocs)
			r->device = id->dev[i].device;	/* the first one's */
		if (r->phys_from == PHYS_NONE || from == PHYS_ENVIRON)
			r->phys_from = from;
	}
	if (!r->nprocs || r->procs[r->nprocs - 1] != id) {
		r->procs = xrealloc(r->procs, (r->nprocs + 1) * sizeof *r->procs);
		r->procs[r->nprocs++] = id;
		if (d && d->n)
			r->failing++;
	}
	if (id->dev[i].device == id->device && !ident_gone(id)) {
		for (int k = 0; k < LEDGER_COUNT; k++) {
			const struct ledger *l = ident_ledger(id, k);
			if (l->from != LEDGER_NONE)
				r->held_known[k] = 1;
			if (l->from == LEDGER_CALLS)
				r->held[k] += ledger_held(l);
		}
	}
	if (!d)
		return;
	r->incidents += d->n;
	for (int k = 0; k < RES_COUNT; k++)
		r->by_resource[k] += d->by_resource[k];
	if (d->last != LOGTIME_UNKNOWN &&
	    (r->last == LOGTIME_UNKNOWN || d->last > r->last))
		r->last = d->last;
}

/* What p held on the row's device when its log ended: its ledgers of
 * calls, while that device was the one it had set. */
static unsigned long long held_on(const struct ident *p,
				  const struct device_row *r)
{
	unsigned long long h = 0;

	if (r->by_phys ? p->phys != r->phys : p->device != r->device)
		return 0;
	for (int k = 0; k < LEDGER_COUNT; k++)
		if (ident_ledger(p, k)->from == LEDGER_CALLS)
			h += ledger_held(ident_ledger(p, k));
	return h;
}

/* Whether p failed on the row's device. */
static int fails_on(const struct ident *p, const struct device_row *r)
{
	for (size_t i = 0; i < p->ndevices; i++)
		if (p->dev && p->dev[i].n &&
		    (r->by_phys || p->dev[i].device == r->device))
			return 1;
	return 0;
}

/* How strongly p is the device's orphan (0: not one): its log ended
 * before the device's latest failure (within IDENT_ORPHAN_USEC), or it
 * still runs and holds some; one that held what it created there weighs
 * most, then one that did not fail there, then one that still runs. */
static int orphan_weight(const struct device_row *r, const struct ident *p,
			 int is_gone, unsigned long long h)
{
	int alive = !p->host && !is_gone;
	int before = r->last != LOGTIME_UNKNOWN && p->last != LOGTIME_UNKNOWN &&
		     r->last > p->last && r->last - p->last <= IDENT_ORPHAN_USEC;

	if (!r->incidents || (!before && !(alive && h)))
		return 0;
	return 1 + (h ? 4 : 0) + (!fails_on(p, r) ? 2 : 0) + alive;
}

static void orphan_finding(struct device_row *r, const struct ident *p,
			   int is_gone, int *best, unsigned long long *most)
{
	unsigned long long h = held_on(p, r);
	int w = orphan_weight(r, p, is_gone, h);

	if (!w || w < *best || (w == *best && h <= *most))
		return;
	r->orphan = 1;
	r->orphan_id = p;
	r->orphan_gone = is_gone;
	*best = w;
	*most = h;
}

static void findings(struct device_row *r)
{
	int map = 0;
	unsigned long long most = 0;
	int best = 0;

	for (size_t i = 0; i < r->nprocs; i++) {
		const struct ident *p = r->procs[i];
		map |= ident_env(p)->has_map;
		size_t j = 0;
		while (p->job && j < i && (!r->procs[j]->job ||
					   strcmp(r->procs[j]->job, p->job)))
			j++;
		if (p->job && j == i)
			r->jobs++;	/* a job not seen before in the row */
		orphan_finding(r, p, ident_gone(p), &best, &most);
	}
	r->no_map = !r->by_phys && r->nprocs >= 2 && !map;
	if (r->phys == -2)
		r->phys = IDENT_UNKNOWN;
}

/* npu-smi's rows for the row's NPU, and its chip's name. */
static void tenants(const struct model *m, struct device_row *r)
{
	const struct npu_table *t = m->idents.npu;

	if (!t || r->host)
		return;
	/* The limits go by chip model: a host of one model gives it to
	 * every row, NPU known or not. */
	for (size_t i = 0; i < t->nchips; i++) {
		if (i == 0 || strcmp(t->chips[i].name, r->chip) == 0)
			r->chip = t->chips[i].name;
		else
			r->chip = "";
		if (!r->chip[0])
			break;
	}
	for (size_t i = 0; r->phys >= 0 && i < t->nchips; i++)
		if (t->chips[i].npu == r->phys) {
			r->chip = t->chips[i].name;
			break;
		}
	if (r->phys < 0)
		return;
	struct npu_proc *v = NULL;
	size_t n = 0;
	for (size_t i = 0; i < t->nprocs; i++) {
		if (t->procs[i].npu != r->phys)
			continue;
		v = xrealloc(v, (n + 1) * sizeof *v);
		v[n++] = t->procs[i];
	}
	r->tenants = v;
	r->ntenants = n;
}

static int row_cmp(const void *a, const void *b)
{
	const struct device_row *x = a, *y = b;
	size_t hx = x->host ? x->host->index + 1 : 0;
	size_t hy = y->host ? y->host->index + 1 : 0;
	long kx = x->by_phys ? x->phys : x->device;
	long ky = y->by_phys ? y->phys : y->device;

	if (hx != hy)
		return hx < hy ? -1 : 1;
	return (kx > ky) - (kx < ky);
}

size_t model_devices(const struct model *m, struct device_row **out)
{
	struct rows rs = { NULL, 0, 0 };
	int *phys_host = hosts_all_phys(m);

	for (size_t k = 0; k < m->idents.n; k++) {
		const struct ident *id = m->idents.v[k];
		int by_phys = phys_host[id->host ? id->host->index + 1 : 0];
		for (size_t i = 0; i < id->ndevices; i++) {
			enum phys_from from;
			long key = by_phys ? phys_of(id, i, &from)
					   : id->dev[i].device;
			add_pair(row_for(&rs, id->host, key, by_phys), id, i);
		}
	}
	free(phys_host);
	for (size_t i = 0; i < rs.n; i++) {
		findings(&rs.v[i]);
		tenants(m, &rs.v[i]);
	}
	if (rs.n)
		qsort(rs.v, rs.n, sizeof *rs.v, row_cmp);
	*out = rs.v;
	return rs.n;
}

void model_devices_free(struct device_row *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].procs);
		free((void *)v[i].tenants);
	}
	free(v);
}
