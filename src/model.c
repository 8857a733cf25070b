#include "config.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model_int.h"
#include "strbuf.h"
#include "xalloc.h"

/* A path is freed this long after its last reference went: a chain the
 * classifier is still assembling may point at it without one, and closes
 * within seconds. */
#define PATH_GRACE_MS 60000

struct path {
	struct hnode node;
	size_t refs;
	int on_reap;
	unsigned long long zero_ms;	/* when refs went to 0 */
	struct path *reap_next;
	char s[];
};

static unsigned long long monotonic_clock(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000 +
	       (unsigned long long)ts.tv_nsec / 1000000;
}

void model_init(struct model *m)
{
	memset(m, 0, sizeof *m);
	m->clock_ms = monotonic_clock;
	m->max_procs = MODEL_MAX_PROCS;
	m->fold_quiet_ms = MODEL_FOLD_QUIET_MS;
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

/* ---- paths ---- */

static int path_eq(const struct hnode *n, const void *key)
{
	return strcmp(((const struct path *)n)->s, key) == 0;
}

static struct path *find_path(const struct model *m, const char *s)
{
	return (struct path *)htab_find(&m->path_index, htab_hash_str(s, 0),
					path_eq, s);
}

const char *model_intern(struct model *m, const char *path)
{
	struct path *p = find_path(m, path);

	if (!p) {
		size_t len = strlen(path);
		p = xcalloc(1, sizeof *p + len + 1);
		memcpy(p->s, path, len + 1);
		p->node.hash = htab_hash_str(path, 0);
		htab_insert(&m->path_index, &p->node);
	}
	p->refs++;
	return p->s;
}

/* Only a pointer the model gave out counts (tests may pass others). */
static struct path *own_path(const struct model *m, const char *s)
{
	struct path *p = s ? find_path(m, s) : NULL;

	return p && p->s == s ? p : NULL;
}

static void path_ref_n(struct model *m, const char *s, size_t k)
{
	struct path *p = own_path(m, s);

	if (p)
		p->refs += k;
}

static void path_ref(struct model *m, const char *s)
{
	path_ref_n(m, s, 1);
}

static void path_unref_n(struct model *m, const char *s, size_t k)
{
	struct path *p = own_path(m, s);

	if (!p || !p->refs)
		return;
	p->refs -= k < p->refs ? k : p->refs;
	if (p->refs)
		return;
	p->zero_ms = m->clock_ms();
	if (!p->on_reap) {
		p->on_reap = 1;
		p->reap_next = m->reap;
		m->reap = p;
	}
}

static void path_unref(struct model *m, const char *s)
{
	path_unref_n(m, s, 1);
}

void model_release_path(struct model *m, const char *path)
{
	path_unref(m, path);
}

static void reap_paths(struct model *m, unsigned long long now)
{
	struct path **pp = &m->reap;

	while (*pp) {
		struct path *p = *pp;
		if (!p->refs && now < p->zero_ms + PATH_GRACE_MS) {
			pp = &p->reap_next;
			continue;
		}
		*pp = p->reap_next;
		p->on_reap = 0;
		if (!p->refs) {
			htab_remove(&m->path_index, &p->node);
			free(p);
		}
	}
}

size_t model_paths(const struct model *m)
{
	return m->path_index.n;
}

/* ---- incidents' owners ---- */

/* The raw lines of an incident are mostly of one file: a path is looked
 * up once for each run of lines that share it. */
static size_t same_file_run(const struct incident *inc, size_t i)
{
	size_t j = i + 1;

	while (j < inc->nraw && inc->raw[j].file == inc->raw[i].file)
		j++;
	return j - i;
}

static void hold_paths(struct model *m, struct incident *inc)
{
	inc->held_paths = 1;
	path_ref(m, inc->file);
	for (size_t i = 0, k; i < inc->nraw; i += k) {
		k = same_file_run(inc, i);
		path_ref_n(m, inc->raw[i].file, k);
	}
}

static void drop_raw(struct model *m, struct incident *inc)
{
	if (inc->held_paths)
		for (size_t i = 0, k; i < inc->nraw; i += k) {
			k = same_file_run(inc, i);
			path_unref_n(m, inc->raw[i].file, k);
		}
	incident_drop_raw(inc);
}

void model_release_raw(struct model *m, struct incident *inc)
{
	if (--inc->raw_refs == 0)
		drop_raw(m, inc);
}

void model_unref(struct model *m, struct incident *inc)
{
	if (--inc->refs > 0)
		return;
	drop_raw(m, inc);
	if (inc->held_paths)
		path_unref(m, inc->file);
	incident_free(inc);
}

/* The incident given to the last model_add, shown by its caller since. */
static void settle(struct model *m)
{
	if (m->limbo)
		model_unref(m, m->limbo);
	m->limbo = NULL;
}

/* ---- freeing ---- */

void model_free_process(struct model *m, struct process *p)
{
	live_forget(m, p);
	if (p->host)
		p->host->nprocs--;
	free(p->name);
	free(p->classes);
	free(p->minutes);
	free(p);
}

static void free_paths(struct model *m)
{
	for (size_t i = 0; i < m->path_index.nb; i++) {
		struct hnode *n = m->path_index.b[i];
		while (n) {
			struct hnode *next = n->next;
			free(n);
			n = next;
		}
	}
	htab_free(&m->path_index);
}

void model_free(struct model *m)
{
	settle(m);
	for (size_t i = 0; i < m->nprocs; i++)
		model_free_process(m, m->procs[i]);
	free(m->procs);
	htab_free(&m->proc_index);
	for (size_t i = 0; i < m->nnames; i++) {
		free(m->names[i]->name);
		free(m->names[i]->classes);
		free(m->names[i]);
	}
	free(m->names);
	htab_free(&m->name_index);
	for (size_t i = 0; i < m->nsections; i++) {
		if (m->sections[i].example) {
			model_release_raw(m, m->sections[i].example);
			model_unref(m, m->sections[i].example);
		}
		free(m->sections[i].procs);
	}
	free(m->sections);
	for (size_t i = 0; i < m->nproblems; i++) {
		free(m->problems[i].path);
		free(m->problems[i].error);
	}
	free(m->problems);
	free_paths(m);
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
	memset(m, 0, sizeof *m);
}

/* ---- what was read ---- */

void model_add_root(struct model *m, const char *root)
{
	m->roots = xrealloc(m->roots, (m->nroots + 1) * sizeof *m->roots);
	m->root_files = xrealloc(m->root_files,
				 (m->nroots + 1) * sizeof *m->root_files);
	m->root_files[m->nroots] = 0;
	m->roots[m->nroots++] = xstrdup(root);
}

void model_skip(struct model *m, const char *path, const char *why)
{
	m->nskipped++;
	if (m->nskipped_listed == MODEL_LISTED)
		return;
	m->skipped = xrealloc(m->skipped,
			      (m->nskipped_listed + 1) * sizeof *m->skipped);
	m->skipped[m->nskipped_listed++] = (struct skipped){
		xstrdup(path), why
	};
}

size_t model_roots_unread(const struct model *m)
{
	size_t n = 0;

	for (size_t i = 0; i < m->nroots; i++)
		n += m->root_files[i] == 0;
	return n;
}

void model_problem(struct model *m, const char *path, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	/* Counted, and listed up to MODEL_LISTED: a tree that keeps
	 * failing (a directory chmod 000 and back, for weeks) must not
	 * grow the model. */
	m->problems_total++;
	if (m->nproblems == MODEL_LISTED)
		return;
	va_start(ap, fmt);
	sb_vaddf(&sb, fmt, ap);
	va_end(ap);
	m->problems = xrealloc(m->problems,
			       (m->nproblems + 1) * sizeof *m->problems);
	m->problems[m->nproblems++] = (struct problem){
		xstrdup(path), sb_detach(&sb)
	};
}

/* ---- counting ---- */

static int same_class(const struct class_key *a, const struct incident *inc)
{
	return a->code == inc->code && a->resource == inc->resource &&
	       a->cause == inc->cause;
}

/* The report order of incidents: by time, then place. */
int model_incident_cmp(const struct incident *a, const struct incident *b)
{
	/* Incidents with no time (screen output often has none) go last. */
	if ((a->first == LOGTIME_UNKNOWN) != (b->first == LOGTIME_UNKNOWN))
		return a->first == LOGTIME_UNKNOWN ? 1 : -1;
	if (a->first != b->first)
		return a->first < b->first ? -1 : 1;
	int c = strcmp(a->file, b->file);
	if (c)
		return c;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	return 0;
}

/* Counts inc in a short list of classes; returns whether the class is
 * new there. */
static int count_class(struct class_count **v, size_t *n,
		       const struct incident *inc, size_t seq)
{
	for (size_t i = 0; i < *n; i++) {
		if (same_class(&(*v)[i].k, inc)) {
			(*v)[i].n++;
			return 0;
		}
	}
	*v = xrealloc(*v, (*n + 1) * sizeof **v);
	(*v)[(*n)++] = (struct class_count){
		{ inc->code, inc->resource, inc->cause }, 1, seq
	};
	return 1;
}

static int name_eq(const struct hnode *n, const void *key)
{
	return strcmp(((const struct name_count *)n)->name, key) == 0;
}

/* Names beyond MODEL_MAX_NAMES add up under MODEL_OTHER_NAME: a name
 * per pid would otherwise make the prom file grow for ever. */
static struct name_count *find_name(struct model *m, const char *name)
{
	size_t h = htab_hash_str(name, 1);
	struct name_count *nc = (struct name_count *)
		htab_find(&m->name_index, h, name_eq, name);

	if (nc)
		return nc;
	if (m->nnames >= MODEL_MAX_NAMES &&
	    strcmp(name, MODEL_OTHER_NAME) != 0)
		return find_name(m, MODEL_OTHER_NAME);
	nc = xcalloc(1, sizeof *nc);
	nc->name = xstrdup(name);
	nc->node.hash = h;
	htab_insert(&m->name_index, &nc->node);
	m->names = xrealloc(m->names, (m->nnames + 1) * sizeof *m->names);
	m->names[m->nnames++] = nc;
	return nc;
}

void model_count_name(struct model *m, const char *name,
		      const struct class_key *k, size_t n)
{
	struct name_count *nc = find_name(m, name);

	for (size_t i = 0; i < nc->nclasses; i++) {
		struct class_key *c = &nc->classes[i].k;
		if (c->code == k->code && c->resource == k->resource &&
		    c->cause == k->cause) {
			nc->classes[i].n += n;
			return;
		}
	}
	nc->classes = xrealloc(nc->classes,
			       (nc->nclasses + 1) * sizeof *nc->classes);
	nc->classes[nc->nclasses++] = (struct class_count){ *k, n, 0 };
}

/* A process is a host, a pid and a name: the same pid on two hosts is
 * two processes. */
struct pkey {
	const struct model_host *host;
	long pid;
	const char *name;
};

static int proc_eq(const struct hnode *n, const void *key)
{
	const struct process *p = (const struct process *)n;
	const struct pkey *k = key;

	return p->host == k->host && p->pid == k->pid &&
	       strcmp(p->name, k->name) == 0;
}

static struct process *find_process(struct model *m, struct model_host *host,
				    long pid, const char *name)
{
	struct pkey key = { host, pid, name };
	size_t seed = (size_t)pid * 0x9e3779b97f4a7c15ULL +
		      (host ? host->index + 1 : 0) * 0x85ebca6bU;
	size_t h = htab_hash_str(name, seed);
	struct process *p = (struct process *)
		htab_find(&m->proc_index, h, proc_eq, &key);

	if (p)
		return p;
	if (m->live)
		live_make_room(m);
	p = xcalloc(1, sizeof *p);
	p->id = m->next_id++;
	p->host = host;
	if (host)
		host->nprocs++;
	p->pid = pid;
	p->name = xstrdup(name);
	p->first = p->last = p->last_at = LOGTIME_UNKNOWN;
	p->node.hash = h;
	htab_insert(&m->proc_index, &p->node);
	if (m->nprocs == m->capprocs) {
		m->capprocs = m->capprocs ? 2 * m->capprocs : 64;
		m->procs = xrealloc(m->procs, m->capprocs * sizeof *m->procs);
	}
	p->index = m->nprocs;
	m->procs[m->nprocs++] = p;
	return p;
}

static void count_in_process(struct model *m, struct process *p,
			     struct incident *inc, logtime_t last_at)
{
	p->total++;
	p->by_resource[inc->resource]++;
	if (inc->first != LOGTIME_UNKNOWN) {
		if (p->first == LOGTIME_UNKNOWN || inc->first < p->first)
			p->first = inc->first;
		if (p->last == LOGTIME_UNKNOWN || inc->last > p->last)
			p->last = inc->last;
		if (p->last_at == LOGTIME_UNKNOWN || last_at > p->last_at)
			p->last_at = last_at;
	}
	if (count_class(&p->classes, &p->nclasses, inc, m->pairs))
		m->pairs++;
}

/* Only one incident per class keeps its raw lines (the example a report
 * shows), so memory grows with classes, not with the lines they wrote. */
static void count_in_section(struct model *m, struct incident *inc)
{
	struct section *s = NULL;

	for (size_t i = 0; i < m->nsections && !s; i++)
		if (same_class(&m->sections[i].k, inc))
			s = &m->sections[i];
	if (!s) {
		m->sections = xrealloc(m->sections,
				       (m->nsections + 1) * sizeof *m->sections);
		s = &m->sections[m->nsections++];
		memset(s, 0, sizeof *s);
		s->k = (struct class_key){ inc->code, inc->resource, inc->cause };
	}
	s->n++;
	if (!s->example || model_incident_cmp(inc, s->example) < 0) {
		if (s->example) {
			model_release_raw(m, s->example);
			model_unref(m, s->example);
		}
		s->example = inc;
		inc->raw_refs++;
		inc->refs++;
	}
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

void model_add(struct model *m, struct incident *inc)
{
	settle(m);
	/* Kept until the next call, so that the caller may show it. */
	inc->refs++;
	m->limbo = inc;
	if (!model_since_keeps(m->since, inc)) {
		m->filtered++;
		return;
	}
	hold_paths(m, inc);
	m->n++;
	if (inc->code < sizeof m->by_code / sizeof m->by_code[0])
		m->by_code[inc->code]++;
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
	struct process *p = find_process(m, host, inc->pid, inc->name);
	inc->proc = p;
	count_in_process(m, p, inc, last_at);
	struct name_count *nc = find_name(m, inc->name);
	count_class(&nc->classes, &nc->nclasses, inc, 0);
	count_in_section(m, inc);
	if (m->live)
		live_count(m, p, inc, now);
	if (!inc->raw_refs)
		drop_raw(m, inc);
	if (m->live)
		model_maintain(m);
}

void model_maintain(struct model *m)
{
	unsigned long long now = m->clock_ms();

	if (m->maintained_ms && now < m->maintained_ms + 1000)
		return;
	m->maintained_ms = now;
	reap_paths(m, now);
	if (!m->live)
		return;
	/* Gone and quiet: folded, least recently active first. */
	struct process *p = DLIST_ENTRY(m->lru.last, struct process, lru);
	while (p && now >= p->seen_ms + m->fold_quiet_ms) {
		struct process *prev = DLIST_ENTRY(p->lru.prev, struct process,
						   lru);
		if (m->limbo && m->limbo->proc == p)
			;	/* its caller is about to show it */
		else if (model_alive(m, p))
			live_touch(m, p);	/* asked again in a while */
		else
			live_fold(m, p);
		p = prev;
	}
}

size_t model_count(const struct model *m, enum code code)
{
	return code < sizeof m->by_code / sizeof m->by_code[0]
	       ? m->by_code[code] : 0;
}
