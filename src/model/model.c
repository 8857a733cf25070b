#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ident_int.h"
#include "model_int.h"
#include "monoclock.h"
#include "xalloc.h"

void model_init(struct model *m)
{
	memset(m, 0, sizeof *m);
	m->clock_ms = monotonic_ms;
	m->max_procs = MODEL_MAX_PROCS;
	m->fold_quiet_ms = MODEL_FOLD_QUIET_MS;
	m->weight = 1;
	idents_init(&m->idents);
	/* Blocks of some 64 KiB, below malloc's mmap threshold. */
	recpool_init(&m->proc_pool, sizeof(struct process), 480);
	/* To the millisecond: the prom file's %.3f gives it back exactly,
	 * and the rules compare it for equality. */
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	m->counted_since = (double)ts.tv_sec + (double)(ts.tv_nsec / 1000000) / 1e3;
}

void model_set_live(struct model *m, size_t keep)
{
	m->live = 1;
	m->keep = keep;
}

/* The incident lent back by the last model_add: its caller is done. */
static void take_back_lent(struct model *m)
{
	if (m->lent)
		model_unref(m, m->lent);
	m->lent = NULL;
}

/* ---- views ---- */

void model_watch(struct model *m, model_view_fn *on_incident, void *ctx)
{
	if (m->nviews < MODEL_VIEWS)
		m->views[m->nviews++] = (struct model_view){ on_incident, ctx };
}

void model_unwatch(struct model *m, void *ctx)
{
	size_t k = 0;

	for (size_t i = 0; i < m->nviews; i++)
		if (m->views[i].ctx != ctx)
			m->views[k++] = m->views[i];
	m->nviews = k;
}

static void tell_views(struct model *m, const struct incident *inc)
{
	for (size_t i = 0; i < m->nviews; i++)
		m->views[i].on_incident(m->views[i].ctx, inc);
}

/* ---- freeing ---- */

void model_free(struct model *m)
{
	take_back_lent(m);
	for (size_t i = 0; i < m->nprocs; i++)
		model_free_process(m, m->procs[i]);
	recpool_free(&m->proc_pool);
	free(m->procs);
	htab_free(&m->proc_index);
	for (size_t i = 0; i < m->nproblems; i++) {
		free(m->problems[i].path);
		free(m->problems[i].error);
	}
	free(m->problems);
	model_dedupe_free(m);
	model_free_paths(m);
	for (size_t i = 0; i < m->nroots; i++)
		free(m->roots[i]);
	free(m->roots);
	free(m->root_files);
	for (size_t i = 0; i < m->nskipped_listed; i++)
		free(m->skipped[i].path);
	free(m->skipped);
	free(m->minutes);
	liveness_free(&m->live_pids);
	model_hosts_free(m);
	idents_free(&m->idents);
	memset(m, 0, sizeof *m);
}

/* ---- counting ---- */

static int same_class(const struct class_key *a, const struct incident *inc)
{
	struct class_key k = { inc->code, inc->resource, inc->cause };

	return class_key_cmp(a, &k) == 0;
}

/* Counts inc in its process's short list of classes; returns whether
 * the class is new there.  The first is kept in the record itself. */
static int count_class(struct process *p, const struct incident *inc,
		       size_t seq, size_t w)
{
	for (size_t i = 0; i < p->nclasses; i++) {
		if (same_class(&p->classes[i].k, inc)) {
			p->classes[i].n += w;
			return 0;
		}
	}
	if (!p->nclasses) {
		p->classes = &p->one_class;
	} else if (p->classes == &p->one_class) {
		p->classes = xmalloc(2 * sizeof *p->classes);
		p->classes[0] = p->one_class;
	} else {
		p->classes = xrealloc(p->classes,
				      (p->nclasses + 1) * sizeof *p->classes);
	}
	p->classes[p->nclasses++] = (struct class_count){
		{ inc->code, inc->resource, inc->cause }, (uint32_t)seq, w
	};
	return 1;
}

/* A process is a host, a pid and a name: the same pid on two hosts is
 * two processes. */
struct pkey {
	const struct model_host *host;
	long pid;
	const char *name;
	long key_dev;
};

static int proc_eq(const struct hnode *n, const void *key)
{
	const struct process *p = (const struct process *)n;
	const struct pkey *k = key;

	return p->host == k->host && p->pid == k->pid &&
	       p->key_dev == k->key_dev && strcmp(p->name, k->name) == 0;
}

static struct process *find_process(struct model *m, struct model_host *host,
				    long pid, const char *name, long key_dev)
{
	struct pkey key = { host, pid, name, key_dev };
	/* By host and pid only: the names of one pid share a bucket, which
	 * the pid-only joins walk (ident.c). */
	size_t h = model_pid_hash(host, pid);
	struct process *p = (struct process *)
		htab_find(&m->proc_index, h, proc_eq, &key);

	if (p)
		return p;
	if (m->live)
		model_make_room(m);
	p = recpool_get(&m->proc_pool);
	p->id = (uint32_t)m->next_id++;
	p->host = host;
	if (host)
		host->nprocs++;
	p->pid = pid;
	p->key_dev = (int)key_dev;
	p->name = ident_name_get(&m->idents, name);
	p->first = p->last = p->last_at = LOGTIME_UNKNOWN;
	p->node.hash = h;
	htab_insert(&m->proc_index, &p->node);
	if (m->nprocs == m->capprocs) {
		m->capprocs = recpool_next_cap(m->capprocs, 64);
		m->procs = xrealloc(m->procs, m->capprocs * sizeof *m->procs);
	}
	p->index = (unsigned)m->nprocs;
	m->procs[m->nprocs++] = p;
	return p;
}

static void count_in_process(struct model *m, struct process *p,
			     struct incident *inc, logtime_t last_at)
{
	if (inc->first != LOGTIME_UNKNOWN) {
		if (p->first == LOGTIME_UNKNOWN || inc->first < p->first)
			p->first = inc->first;
		if (p->last == LOGTIME_UNKNOWN || inc->last > p->last)
			p->last = inc->last;
		if (p->last_at == LOGTIME_UNKNOWN || last_at > p->last_at)
			p->last_at = last_at;
	}
	if (count_class(p, inc, m->pairs, m->weight))
		m->pairs++;
}

logtime_t model_counted_time(logtime_t t, logtime_t now)
{
	if (t == LOGTIME_UNKNOWN || now == LOGTIME_UNKNOWN)
		return t;
	return t > now && t - now > MODEL_SKEW_USEC ? now : t;
}

int model_since_keeps(logtime_t since, const struct incident *inc)
{
	return since == LOGTIME_UNKNOWN ||
	       (inc->first != LOGTIME_UNKNOWN && inc->first >= since);
}

/* Counts a kept incident in its host and its process. */
static void count_incident(struct model *m, struct incident *inc)
{
	model_hold_paths(m, inc);
	m->n += m->weight;
	if (inc->code < sizeof m->by_code / sizeof m->by_code[0])
		m->by_code[inc->code] += m->weight;
	/* Live, a time far ahead of the clock counts as of now, when it
	 * was read; --once has no "now" to count by (model.h). */
	logtime_t now = m->live ? logtime_now() : LOGTIME_UNKNOWN;
	inc->at = model_counted_time(inc->first, now);
	logtime_t last_at = model_counted_time(inc->last, now);
	if (last_at != LOGTIME_UNKNOWN && inc->at != LOGTIME_UNKNOWN &&
	    last_at < inc->at)
		last_at = inc->at;
	struct model_host *host = inc->host
		? model_host_count(m, inc, last_at) : NULL;
	/* Who it was, before its process is found: a pid-only block takes
	 * its process's name here. */
	model_ident_incident(m, inc);
	/* Counted classes with no pid (a cluster's) are a process per
	 * device: its name alone would make one of a node's 16 ranks. */
	long key_dev = m->weighted && !inc->pid && inc->device_from != FROM_NONE
		? inc->device : IDENT_UNKNOWN;
	struct process *p = find_process(m, host, inc->pid, inc->name, key_dev);
	ident_link_proc(m, p);
	inc->proc = p;
	count_in_process(m, p, inc, last_at);
	if (m->live)
		model_track(m, p, inc, now);
}

int model_add(struct model *m, struct incident *inc, enum read_when when)
{
	model_path_host(m, inc);	/* a local file's host by its path */
	take_back_lent(m);
	/* Kept until the next call, so that the caller may still read it. */
	inc->refs++;
	m->lent = inc;
	/* Captured output has no log time: read live, it happened about
	 * now, and counts in the 1-minute window (history keeps none). */
	if (inc->first == LOGTIME_UNKNOWN && m->live &&
	    when == READ_AS_WRITTEN)
		inc->first = inc->last = logtime_now();
	m->generation++;
	if (!model_since_keeps(m->since, inc)) {
		m->filtered++;
		return 0;
	}
	if (model_dedupe(m, inc, when))
		return 0;
	count_incident(m, inc);
	tell_views(m, inc);
	if (!inc->raw_refs)
		model_drop_raw(m, inc);
	if (m->live)
		model_maintain(m);
	return 1;
}

void model_maintain(struct model *m)
{
	unsigned long long now = m->clock_ms();

	if (m->maintained_ms && now < m->maintained_ms + 1000)
		return;
	m->maintained_ms = now;
	model_reap_paths(m, now);
	if (!m->live)
		return;
	/* Gone and quiet: folded, least recently active first. */
	struct process *p = model_lru_proc(m->lru.last);
	while (p && now >= p->lv->seen_ms + m->fold_quiet_ms) {
		struct process *prev = model_lru_proc(p->lv->lru.prev);
		if (m->lent && m->lent->proc == p)
			;	/* its caller may still read it */
		else if (model_alive(m, p))
			model_touch(m, p);	/* asked again in a while */
		else
			model_fold(m, p);
		p = prev;
	}
}

size_t model_count(const struct model *m, enum code code)
{
	return code < sizeof m->by_code / sizeof m->by_code[0]
	       ? m->by_code[code] : 0;
}

int model_add_counted(struct model *m, struct incident *inc, size_t n)
{
	if (!n)
		n = 1;
	m->weight = n;
	m->weighted = 1;
	int rc = model_add(m, inc, READ_BEFORE);
	m->weight = 1;
	m->weighted = 0;
	return rc;
}

void model_reset_counts(struct model *m)
{
	struct model keep = *m;

	/* The hosts and the settings live on; the rest goes. */
	m->hosts = NULL;
	m->nhosts = 0;
	memset(&m->host_index, 0, sizeof m->host_index);
	model_free(m);
	model_init(m);
	m->hosts = keep.hosts;
	m->nhosts = keep.nhosts;
	m->host_index = keep.host_index;
	m->clock_ms = keep.clock_ms;
	m->live = keep.live;
	m->keep = keep.keep;
	m->max_procs = keep.max_procs;
	m->fold_quiet_ms = keep.fold_quiet_ms;
	m->since = keep.since;
	m->idents.job = keep.idents.job;
	m->counted_since = keep.counted_since;
	m->generation = keep.generation + 1;
	m->fold_gen = keep.fold_gen + 1;
	memcpy(m->views, keep.views, sizeof m->views);
	m->nviews = keep.nviews;
	for (size_t i = 0; i < m->nhosts; i++) {
		struct model_host *h = m->hosts[i];
		h->n = h->nprocs = 0;
		memset(h->by_code, 0, sizeof h->by_code);
		memset(h->by_resource, 0, sizeof h->by_resource);
		h->last = h->last_at = LOGTIME_UNKNOWN;
	}
}
