#include "config.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "strbuf.h"
#include "xalloc.h"

void model_init(struct model *m)
{
	memset(m, 0, sizeof *m);
}

static void free_section(struct section *s)
{
	for (size_t i = 0; i < s->nprocs; i++)
		free(s->names[i]);
	free(s->pids);
	free(s->names);
}

void model_free(struct model *m)
{
	for (size_t i = 0; i < m->n; i++)
		incident_free(m->incidents[i]);
	free(m->incidents);
	for (size_t i = 0; i < m->nprocs; i++) {
		free(m->procs[i]->name);
		free(m->procs[i]->classes);
		free(m->procs[i]);
	}
	free(m->procs);
	for (size_t i = 0; i < m->nsections; i++)
		free_section(&m->sections[i]);
	free(m->sections);
	for (size_t i = 0; i < m->nproblems; i++) {
		free(m->problems[i].path);
		free(m->problems[i].error);
	}
	free(m->problems);
	for (size_t i = 0; i < m->nfiles; i++)
		free(m->files[i]);
	free(m->files);
	for (size_t i = 0; i < m->nroots; i++)
		free(m->roots[i]);
	free(m->roots);
	free(m->root_files);
	for (size_t i = 0; i < m->nskipped_listed; i++)
		free(m->skipped[i].path);
	free(m->skipped);
	memset(m, 0, sizeof *m);
}

const char *model_intern(struct model *m, const char *path)
{
	/* The last few are checked: a file is interned once per read. */
	for (size_t i = m->nfiles; i-- > 0 && i + 8 >= m->nfiles;)
		if (strcmp(m->files[i], path) == 0)
			return m->files[i];
	m->files = xrealloc(m->files, (m->nfiles + 1) * sizeof *m->files);
	m->files[m->nfiles] = xstrdup(path);
	return m->files[m->nfiles++];
}

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

	va_start(ap, fmt);
	sb_vaddf(&sb, fmt, ap);
	va_end(ap);
	m->problems = xrealloc(m->problems,
			       (m->nproblems + 1) * sizeof *m->problems);
	m->problems[m->nproblems++] = (struct problem){
		xstrdup(path), sb_detach(&sb)
	};
}

static int same_class(const struct klass *a, const struct incident *inc)
{
	return a->code == inc->code && a->resource == inc->resource &&
	       a->cause == inc->cause;
}

/* The report order of incidents: by time, then place. */
static int incident_cmp(const struct incident *a, const struct incident *b)
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

static struct process *find_process(struct model *m, long pid,
				    const char *name)
{
	for (size_t i = 0; i < m->nprocs; i++)
		if (m->procs[i]->pid == pid && strcmp(m->procs[i]->name, name) == 0)
			return m->procs[i];
	struct process *p = xcalloc(1, sizeof *p);
	p->id = m->nprocs;
	p->pid = pid;
	p->name = xstrdup(name);
	m->procs = xrealloc(m->procs, (m->nprocs + 1) * sizeof *m->procs);
	m->procs[m->nprocs++] = p;
	return p;
}

/* Raw lines are kept while a view may show them: as the example of its
 * class, or as the latest incident of its process. */
static void release_raw(struct incident *inc)
{
	if (--inc->raw_refs == 0)
		incident_drop_raw(inc);
}

static void count_in_process(struct process *p, struct incident *inc)
{
	p->total++;
	p->by_resource[inc->resource]++;
	if (inc->first != LOGTIME_UNKNOWN) {
		if (p->first == LOGTIME_UNKNOWN || inc->first < p->first)
			p->first = inc->first;
		if (inc->last > p->last)
			p->last = inc->last;
	}
	if (!p->latest || incident_cmp(inc, p->latest) >= 0) {
		if (p->latest)
			release_raw(p->latest);
		p->latest = inc;
		inc->raw_refs++;
	}
	for (size_t i = 0; i < p->nclasses; i++) {
		if (same_class(&p->classes[i].k, inc)) {
			p->classes[i].n++;
			return;
		}
	}
	p->classes = xrealloc(p->classes,
			      (p->nclasses + 1) * sizeof *p->classes);
	p->classes[p->nclasses++] = (struct class_count){
		{ inc->code, inc->resource, inc->cause }, 1
	};
}

static void note_section_process(struct section *s, const struct incident *inc)
{
	for (size_t i = 0; i < s->nprocs; i++)
		if (s->pids[i] == inc->pid && strcmp(s->names[i], inc->name) == 0)
			return;
	s->pids = xrealloc(s->pids, (s->nprocs + 1) * sizeof *s->pids);
	s->names = xrealloc(s->names, (s->nprocs + 1) * sizeof *s->names);
	s->pids[s->nprocs] = inc->pid;
	s->names[s->nprocs++] = xstrdup(inc->name);
}

/* Only one incident per class keeps its raw lines (the example a report
 * shows), so memory grows with incidents, not with the lines they wrote. */
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
		s->k = (struct klass){ inc->code, inc->resource, inc->cause };
	}
	s->n++;
	note_section_process(s, inc);
	if (!s->example || incident_cmp(inc, s->example) < 0) {
		if (s->example)
			release_raw(s->example);
		s->example = inc;
		inc->raw_refs++;
	}
}

void model_add(struct model *m, struct incident *inc)
{
	if (m->since != LOGTIME_UNKNOWN &&
	    (inc->first == LOGTIME_UNKNOWN || inc->first < m->since)) {
		m->filtered++;
		incident_free(inc);
		return;
	}
	if (m->n == m->cap) {
		m->cap = m->cap ? 2 * m->cap : 64;
		m->incidents = xrealloc(m->incidents,
					m->cap * sizeof *m->incidents);
	}
	m->incidents[m->n++] = inc;
	inc->proc = find_process(m, inc->pid, inc->name);
	count_in_process(inc->proc, inc);
	count_in_section(m, inc);
	if (!inc->raw_refs)
		incident_drop_raw(inc);
}

static int cmp_problem(const void *a, const void *b)
{
	const struct problem *p = a, *q = b;

	return strcmp(p->path, q->path);
}

static int cmp_skipped(const void *a, const void *b)
{
	const struct skipped *p = a, *q = b;

	return strcmp(p->path, q->path);
}

static int cmp_incident(const void *a, const void *b)
{
	return incident_cmp(*(struct incident *const *)a,
			    *(struct incident *const *)b);
}

static int cmp_process(const void *a, const void *b)
{
	const struct process *p = *(struct process *const *)a;
	const struct process *q = *(struct process *const *)b;

	if (p->total != q->total)
		return p->total > q->total ? -1 : 1;
	if (p->pid != q->pid)
		return p->pid < q->pid ? -1 : 1;
	return strcmp(p->name, q->name);
}

static int cmp_section(const void *a, const void *b)
{
	const struct section *s = a, *t = b;

	if (s->n != t->n)
		return s->n > t->n ? -1 : 1;
	if (s->k.code != t->k.code)
		return s->k.code < t->k.code ? -1 : 1;
	if (s->k.resource != t->k.resource)
		return s->k.resource < t->k.resource ? -1 : 1;
	return s->k.cause < t->k.cause ? -1 : s->k.cause > t->k.cause;
}

static int cmp_class_count(const void *a, const void *b)
{
	const struct class_count *x = a, *y = b;

	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	if (x->k.code != y->k.code)
		return x->k.code < y->k.code ? -1 : 1;
	if (x->k.resource != y->k.resource)
		return x->k.resource < y->k.resource ? -1 : 1;
	return x->k.cause < y->k.cause ? -1 : x->k.cause > y->k.cause;
}

void model_sort(struct model *m)
{
	if (m->n)
		qsort(m->incidents, m->n, sizeof *m->incidents, cmp_incident);
	if (m->nprocs)
		qsort(m->procs, m->nprocs, sizeof *m->procs, cmp_process);
	for (size_t i = 0; i < m->nprocs; i++)
		if (m->procs[i]->nclasses)
			qsort(m->procs[i]->classes, m->procs[i]->nclasses,
			      sizeof(struct class_count), cmp_class_count);
	if (m->nsections)
		qsort(m->sections, m->nsections, sizeof *m->sections,
		      cmp_section);
	if (m->nproblems)
		qsort(m->problems, m->nproblems, sizeof *m->problems,
		      cmp_problem);
	if (m->nskipped_listed)
		qsort(m->skipped, m->nskipped_listed, sizeof *m->skipped,
		      cmp_skipped);
}

size_t model_count(const struct model *m, enum code code)
{
	size_t n = 0;

	for (size_t i = 0; i < m->n; i++)
		n += m->incidents[i]->code == code;
	return n;
}
