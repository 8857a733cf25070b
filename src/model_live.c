/* The live modes' side of the model: recent incidents, per-minute counts,
 * liveness, and folding processes into the totals. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model_int.h"
#include "xalloc.h"

#define USEC_PER_MIN 60000000LL
/* Minutes kept per process: the hour of the widest window, the minute
 * it starts in, and a few ahead of the clock (a skewed host). */
#define MINUTES_MAX (MODEL_WINDOW_MINUTES + 10)

/* ---- the LRU list: processes by their last incident ---- */

static void lru_unlink(struct model *m, struct process *p)
{
	if (p->lru_prev)
		p->lru_prev->lru_next = p->lru_next;
	else if (m->lru_first == p)
		m->lru_first = p->lru_next;
	if (p->lru_next)
		p->lru_next->lru_prev = p->lru_prev;
	else if (m->lru_last == p)
		m->lru_last = p->lru_prev;
	p->lru_prev = p->lru_next = NULL;
}

void live_touch(struct model *m, struct process *p)
{
	p->seen_ms = m->clock_ms();
	lru_unlink(m, p);
	p->lru_next = m->lru_first;
	if (m->lru_first)
		m->lru_first->lru_prev = p;
	m->lru_first = p;
	if (!m->lru_last)
		m->lru_last = p;
}

/* ---- recent incidents ---- */

/* p: inc's process (inc->proc may already be cleared, see live_fold). */
static void unkeep(struct model *m, struct process *p, struct incident *inc)
{
	if (inc->pprev)
		inc->pprev->pnext = inc->pnext;
	else
		p->recent = inc->pnext;
	if (inc->pnext)
		inc->pnext->pprev = inc->pprev;
	else
		p->recent_last = inc->pprev;
	p->nrecent--;
	if (inc->gprev)
		inc->gprev->gnext = inc->gnext;
	else
		m->kept_first = inc->gnext;
	if (inc->gnext)
		inc->gnext->gprev = inc->gprev;
	else
		m->kept_last = inc->gprev;
	m->kept--;
	inc->pprev = inc->pnext = inc->gprev = inc->gnext = NULL;
	model_unref(m, inc);
}

static void keep_recent(struct model *m, struct process *p,
			struct incident *inc)
{
	inc->refs++;
	inc->pprev = p->recent_last;
	if (p->recent_last)
		p->recent_last->pnext = inc;
	else
		p->recent = inc;
	p->recent_last = inc;
	p->nrecent++;
	inc->gprev = m->kept_last;
	if (m->kept_last)
		m->kept_last->gnext = inc;
	else
		m->kept_first = inc;
	m->kept_last = inc;
	m->kept++;
	if (p->nrecent > m->keep)
		unkeep(m, p, p->recent);
	/* The oldest in all go first, whichever process they are of. */
	while (m->kept > MODEL_KEPT_MAX)
		unkeep(m, m->kept_first->proc, m->kept_first);
}

const struct incident *model_next_recent(const struct incident *inc)
{
	return inc->pnext;
}

/* ---- per-minute counts ---- */

static void add_minute(struct minute **v, size_t *n, long long min,
		       enum resource r, long long now_min)
{
	long long oldest = now_min - MODEL_WINDOW_MINUTES - 1;
	size_t drop = 0;

	while (drop < *n && (*v)[drop].min < oldest)
		drop++;
	if (drop) {
		memmove(*v, *v + drop, (*n - drop) * sizeof **v);
		*n -= drop;
	}
	if (min < oldest)
		return;
	size_t i = *n;
	while (i > 0 && (*v)[i - 1].min > min)
		i--;
	if (i > 0 && (*v)[i - 1].min == min) {
		(*v)[i - 1].n[r]++;
		return;
	}
	if (*n >= MINUTES_MAX) {
		if (i == 0)
			return;
		memmove(*v, *v + 1, (*n - 1) * sizeof **v);
		(*n)--;
		i--;
	}
	*v = xrealloc(*v, (*n + 1) * sizeof **v);
	memmove(*v + i + 1, *v + i, (*n - i) * sizeof **v);
	memset(&(*v)[i], 0, sizeof **v);
	(*v)[i].min = min;
	(*v)[i].n[r] = 1;
	(*n)++;
}

/* ---- raw lines of the latest incidents ---- */

static void raw_unlink(struct model *m, struct process *p)
{
	if (p->raw_prev)
		p->raw_prev->raw_next = p->raw_next;
	else
		m->raw_first = p->raw_next;
	if (p->raw_next)
		p->raw_next->raw_prev = p->raw_prev;
	else
		m->raw_last = p->raw_prev;
	p->raw_prev = p->raw_next = NULL;
	p->raw_held = 0;
	m->raw_procs--;
}

/* p's latest lets its raw lines go (the incident itself stays). */
static void raw_let_go(struct model *m, struct process *p)
{
	if (!p->raw_held)
		return;
	raw_unlink(m, p);
	model_release_raw(m, p->latest);
}

/* p's latest (just set) keeps its raw lines; the process whose latest
 * came longest ago lets them go when more than MODEL_RAW_PROCS hold. */
static void raw_hold(struct model *m, struct process *p)
{
	p->latest->raw_refs++;
	p->raw_held = 1;
	p->raw_next = m->raw_first;
	if (m->raw_first)
		m->raw_first->raw_prev = p;
	else
		m->raw_last = p;
	m->raw_first = p;
	m->raw_procs++;
	if (m->raw_procs > MODEL_RAW_PROCS)
		raw_let_go(m, m->raw_last);
}

void live_count(struct model *m, struct process *p, struct incident *inc)
{
	live_touch(m, p);
	if (!p->latest || model_incident_cmp(inc, p->latest) >= 0) {
		if (p->latest) {
			raw_let_go(m, p);
			model_unref(m, p->latest);
		}
		p->latest = inc;
		inc->refs++;
		raw_hold(m, p);
	}
	if (m->keep)
		keep_recent(m, p, inc);
	if (inc->first != LOGTIME_UNKNOWN) {
		long long now_min = logtime_now() / USEC_PER_MIN;
		long long min = inc->first / USEC_PER_MIN;
		add_minute(&p->minutes, &p->nminutes, min, inc->resource,
			   now_min);
		add_minute(&m->minutes, &m->nminutes, min, inc->resource,
			   now_min);
	}
}

static size_t sum_minutes(const struct minute *v, size_t n,
			  long long span_usec, logtime_t now,
			  size_t by_resource[RES_COUNT])
{
	long long lo = (now - span_usec) / USEC_PER_MIN;
	size_t total = 0;

	for (size_t i = n; i-- > 0 && v[i].min >= lo;) {
		for (int r = 0; r < RES_COUNT; r++) {
			if (by_resource)
				by_resource[r] += v[i].n[r];
			total += v[i].n[r];
		}
	}
	return total;
}

size_t model_window(const struct model *m, const struct process *p,
		    long long span_usec, logtime_t now,
		    size_t by_resource[RES_COUNT])
{
	(void)m;
	if (!span_usec) {
		memcpy(by_resource, p->by_resource, sizeof p->by_resource);
		return p->total;
	}
	memset(by_resource, 0, RES_COUNT * sizeof *by_resource);
	return sum_minutes(p->minutes, p->nminutes, span_usec, now,
			   by_resource);
}

size_t model_count_window(const struct model *m, long long span_usec,
			  logtime_t now)
{
	if (!span_usec)
		return m->n;
	return sum_minutes(m->minutes, m->nminutes, span_usec, now, NULL);
}

void model_trend(const struct process *p, logtime_t now, unsigned *trend,
		 int n)
{
	long long now_min = now / USEC_PER_MIN;

	memset(trend, 0, (size_t)n * sizeof *trend);
	for (size_t i = 0; i < p->nminutes; i++) {
		long long age = now_min - p->minutes[i].min;
		if (age < 0 || age >= n)
			continue;
		for (int r = 0; r < RES_COUNT; r++)
			trend[n - 1 - age] += p->minutes[i].n[r];
	}
}

/* ---- liveness and folding ---- */

int model_alive(struct model *m, struct process *p)
{
	unsigned long long now = m->clock_ms();

	/* A remote pid means nothing here: a remote process counts as
	 * gone, and folds once quiet. */
	if (p->host)
		return 0;
	if (p->alive_ms && now < p->alive_ms + LIVENESS_MS)
		return p->alive;
	liveness_refresh(&m->live_pids, now);
	p->alive = liveness_has(&m->live_pids, p->pid) &&
		   liveness_same_program(p->pid, p->name);
	p->alive_ms = now ? now : 1;
	return p->alive;
}

void live_forget(struct model *m, struct process *p)
{
	while (p->recent)
		unkeep(m, p, p->recent);
	if (p->latest) {
		struct incident *inc = p->latest;
		raw_let_go(m, p);
		p->latest = NULL;
		if (inc->refs > 1)
			inc->proc = NULL;	/* a report's example */
		model_unref(m, inc);
	}
}

/* Its counts stay in the totals (model.n, the names' counts that the
 * prom file shows); its row and recent incidents go. */
void live_fold(struct model *m, struct process *p)
{
	m->folded_procs++;
	m->folded_incidents += p->total;
	m->fold_gen++;
	htab_remove(&m->proc_index, &p->node);
	lru_unlink(m, p);
	struct process *last = m->procs[--m->nprocs];
	m->procs[p->index] = last;
	last->index = p->index;
	for (size_t i = 0; i < m->nsections; i++)
		if (m->sections[i].example && m->sections[i].example->proc == p)
			m->sections[i].example->proc = NULL;
	model_free_process(m, p);
}

/* At the cap, a process goes: one that is gone if one of the least
 * recently active is, else the least recently active. */
void live_make_room(struct model *m)
{
	if (m->nprocs < m->max_procs || !m->lru_last)
		return;
	struct process *p = m->lru_last;
	for (int i = 0; i < 8 && p; i++, p = p->lru_prev) {
		if (!model_alive(m, p)) {
			live_fold(m, p);
			return;
		}
	}
	live_fold(m, m->lru_last);
}
