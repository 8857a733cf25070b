/* The live modes' side of the model: recent incidents, per-minute counts,
 * liveness, and folding processes into the totals. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ident_int.h"
#include "model_int.h"
#include "xalloc.h"

#define USEC_PER_MIN 60000000LL
/* Minutes kept per process: the hour of the widest window, the minute
 * it starts in, the minute now is in, and those ahead of the clock that
 * a skewed host's times are believed in (model_counted_time): no time is
 * counted further ahead, so future minutes never crowd out new ones. */
#define MINUTES_MAX (MODEL_WINDOW_MINUTES + 3 + \
		     (int)(MODEL_SKEW_USEC / USEC_PER_MIN))

#define LRU_PROC(l) model_lru_proc(l)
#define RAW_INC(l) DLIST_ENTRY(l, struct incident, in_raw)
#define PROC_INC(l) DLIST_ENTRY(l, struct incident, in_proc)
#define KEPT_INC(l) DLIST_ENTRY(l, struct incident, in_kept)

struct process *model_lru_proc(const struct dlink *l)
{
	const struct process_live *lv =
		DLIST_ENTRY(l, const struct process_live, lru);

	return lv ? lv->proc : NULL;
}

void model_touch(struct model *m, struct process *p)
{
	if (!p->lv) {
		p->lv = xcalloc(1, sizeof *p->lv);
		p->lv->proc = p;
	}
	p->lv->seen_ms = m->clock_ms();
	dlist_remove(&m->lru, &p->lv->lru);
	dlist_push_front(&m->lru, &p->lv->lru);
}

/* ---- raw lines of the kept incidents ---- */

/* What a heap block costs beyond its bytes (glibc's chunk header and
 * rounding, about): the budget is of memory, not of text. */
#define ALLOC_COST 16

/* What inc's raw lines take: their text and their structures. */
static size_t raw_size(const struct incident *inc)
{
	size_t n = inc->nraw * sizeof *inc->raw + ALLOC_COST;

	for (size_t i = 0; i < inc->nraw; i++)
		n += strlen(inc->raw[i].text) + 1 + ALLOC_COST;
	return n;
}

/* inc lets the raw lines the model kept go (the incident itself may
 * stay); dropped: for the budget, which the detail says. */
static void raw_let_go(struct model *m, struct incident *inc, int dropped)
{
	if (!dlist_has(&m->raw, &inc->in_raw))
		return;
	dlist_remove(&m->raw, &inc->in_raw);
	m->raw_bytes -= inc->raw_bytes;
	inc->raw_bytes = 0;
	inc->raw_dropped = dropped;
	model_release_raw(m, inc);
}

/* inc, just kept (a latest or a recent one), keeps its raw lines; those
 * kept longest ago let theirs go while the budget is passed (the newest
 * keeps its own, whatever their size: at most MAX_RAW lines). */
static void raw_hold(struct model *m, struct incident *inc)
{
	if (dlist_has(&m->raw, &inc->in_raw) || !inc->nraw)
		return;
	inc->raw_refs++;
	inc->raw_bytes = raw_size(inc);
	m->raw_bytes += inc->raw_bytes;
	dlist_push_back(&m->raw, &inc->in_raw);
	while (m->raw_bytes > MODEL_RAW_BYTES && m->raw.n > 1)
		raw_let_go(m, RAW_INC(m->raw.first), 1);
}

/* inc is no longer one of p's kept ones: neither its latest nor a
 * recent one. */
static void raw_unkept(struct model *m, struct process *p,
		       struct incident *inc)
{
	if (!p->lv || (inc != p->lv->latest &&
			!dlist_has(&p->lv->recent, &inc->in_proc)))
		raw_let_go(m, inc, 0);
}

/* ---- recent incidents ---- */

/* p: inc's process (inc->proc may already be cleared, see model_fold). */
static void unkeep(struct model *m, struct process *p, struct incident *inc)
{
	dlist_remove(&p->lv->recent, &inc->in_proc);
	dlist_remove(&m->kept, &inc->in_kept);
	raw_unkept(m, p, inc);
	model_unref(m, inc);
}

static void keep_recent(struct model *m, struct process *p,
			struct incident *inc)
{
	inc->refs++;
	dlist_push_back(&p->lv->recent, &inc->in_proc);
	dlist_push_back(&m->kept, &inc->in_kept);
	if (p->lv->recent.n > m->keep)
		unkeep(m, p, PROC_INC(p->lv->recent.first));
	/* The oldest in all go first, whichever process they are of. */
	while (m->kept.n > MODEL_KEPT_MAX) {
		struct incident *oldest = KEPT_INC(m->kept.first);
		unkeep(m, oldest->proc, oldest);
	}
}

const struct incident *model_first_recent(const struct process *p)
{
	return p->lv ? PROC_INC(p->lv->recent.first) : NULL;
}

const struct incident *model_next_recent(const struct incident *inc)
{
	return PROC_INC(inc->in_proc.next);
}

const struct incident *model_last_recent(const struct process *p)
{
	return p->lv ? PROC_INC(p->lv->recent.last) : NULL;
}

const struct incident *model_prev_recent(const struct incident *inc)
{
	return PROC_INC(inc->in_proc.prev);
}

/* ---- per-minute counts ---- */

static void add_minute(struct minute **v, size_t *n, long long min,
		       enum resource r, long long now_min, unsigned w)
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
		(*v)[i - 1].n[r] += w;
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
	(*v)[i].n[r] = w;
	(*n)++;
}

/* The order of incidents as counted: by when they count (a time far
 * ahead counts as of its reading), then the report's order. */
static int counted_cmp(const struct incident *a, const struct incident *b)
{
	if (a->at != b->at && a->at != LOGTIME_UNKNOWN &&
	    b->at != LOGTIME_UNKNOWN)
		return a->at < b->at ? -1 : 1;
	return model_incident_cmp(a, b);
}

void model_track(struct model *m, struct process *p, struct incident *inc,
		logtime_t now)
{
	model_touch(m, p);
	if (!p->lv->latest || counted_cmp(inc, p->lv->latest) >= 0) {
		struct incident *old = p->lv->latest;
		p->lv->latest = inc;
		inc->refs++;
		raw_hold(m, inc);
		if (old) {
			raw_unkept(m, p, old);
			model_unref(m, old);
		}
	}
	if (m->keep) {
		raw_hold(m, inc);
		keep_recent(m, p, inc);
	}
	if (inc->at != LOGTIME_UNKNOWN) {
		long long now_min = now / USEC_PER_MIN;
		long long min = inc->at / USEC_PER_MIN;
		add_minute(&p->lv->minutes, &p->lv->nminutes, min, inc->resource,
			   now_min, (unsigned)m->weight);
		add_minute(&m->minutes, &m->nminutes, min, inc->resource,
			   now_min, (unsigned)m->weight);
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
		for (int r = 0; r < RES_COUNT; r++)
			by_resource[r] =
				process_by_resource(p, (enum resource)r);
		return process_total(p);
	}
	memset(by_resource, 0, RES_COUNT * sizeof *by_resource);
	if (!p->lv)
		return 0;
	return sum_minutes(p->lv->minutes, p->lv->nminutes, span_usec, now,
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
	for (size_t i = 0; p->lv && i < p->lv->nminutes; i++) {
		long long age = now_min - p->lv->minutes[i].min;
		/* A minute ahead (a skewed host, believed): the current one,
		 * as the windows count it. */
		if (age < 0)
			age = 0;
		if (age >= n)
			continue;
		for (int r = 0; r < RES_COUNT; r++)
			trend[n - 1 - age] += p->lv->minutes[i].n[r];
	}
}

/* ---- liveness and folding ---- */

int model_alive(struct model *m, struct process *p)
{
	unsigned long long now = m->clock_ms();

	/* A remote pid means nothing here: a remote process counts as
	 * gone, and folds once quiet; unless its source said it runs (a
	 * cluster's plogtop_process_info, src/cluster/). */
	if (p->host)
		return p->alive;
	/* Trusted for LIVENESS_MS in the live modes; --once (no live
	 * part) asks each process once, and keeps the answer. */
	if (p->lv ? p->lv->alive_ms && now < p->lv->alive_ms + LIVENESS_MS
		  : p->alive_asked && !m->live)
		return p->alive;
	liveness_refresh(&m->live_pids, now);
	p->alive = liveness_has(&m->live_pids, p->pid) &&
		   liveness_same_program(p->pid, p->name);
	p->alive_asked = 1;
	if (p->lv)
		p->lv->alive_ms = now ? now : 1;
	/* Its identity learns it, and reads the environment of a live one
	 * (only now, after the check that it runs the same program). */
	ident_alive(m, p, p->alive);
	return p->alive;
}

void model_ask_alive(struct model *m)
{
	for (size_t i = 0; i < m->nprocs; i++)
		if (!m->procs[i]->host)
			model_alive(m, m->procs[i]);
	/* Identities without a row: a process folded, or one that only
	 * wrote facts. */
	liveness_refresh(&m->live_pids, m->clock_ms());
	for (size_t i = 0; i < m->idents.n; i++) {
		struct ident *id = m->idents.v[i];
		if (id->proc || id->host)
			continue;
		ident_alive_id(m, id, liveness_has(&m->live_pids, id->pid) &&
				      liveness_same_program(id->pid, id->name));
	}
}

static void forget_recent(struct model *m, struct process *p)
{
	if (!p->lv)
		return;
	while (p->lv->recent.first)
		unkeep(m, p, PROC_INC(p->lv->recent.first));
	if (p->lv->latest) {
		struct incident *inc = p->lv->latest;
		p->lv->latest = NULL;
		raw_unkept(m, p, inc);
		if (inc->refs > 1)
			inc->proc = NULL;	/* a report's example */
		model_unref(m, inc);
	}
}

void model_free_process(struct model *m, struct process *p)
{
	/* Its identity (and its leak finding) stays, without a row. */
	ident_forget_proc(m, p);
	forget_recent(m, p);
	if (p->host)
		p->host->nprocs--;
	ident_name_put(&m->idents, p->name);
	if (p->classes != &p->one_class)
		free(p->classes);
	if (p->lv)
		free(p->lv->minutes);
	free(p->lv);
	recpool_put(&m->proc_pool, p);
}

/* Its counts stay in the totals (model.n, and the prom file's counts, a
 * view that folds nothing); its row and recent incidents go. */
void model_fold(struct model *m, struct process *p)
{
	m->folded_procs++;
	m->folded_incidents += process_total(p);
	m->fold_gen++;
	htab_remove(&m->proc_index, &p->node);
	if (p->lv)
		dlist_remove(&m->lru, &p->lv->lru);
	struct process *last = m->procs[--m->nprocs];
	m->procs[p->index] = last;
	last->index = p->index;
	model_free_process(m, p);
}

/* At the cap, a process goes: one that is gone if one of the least
 * recently active is, else the least recently active. */
void model_make_room(struct model *m)
{
	if (m->nprocs < m->max_procs || !m->lru.last)
		return;
	struct process *p = LRU_PROC(m->lru.last);
	for (int i = 0; i < 8 && p; i++, p = LRU_PROC(p->lv->lru.prev)) {
		if (!model_alive(m, p)) {
			model_fold(m, p);
			return;
		}
	}
	model_fold(m, LRU_PROC(m->lru.last));
}
