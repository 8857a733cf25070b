/* The stable order of a report: processes, their classes, sections and
 * the processes each section hit, all from the counts. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model_int.h"
#include "xalloc.h"

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

struct hit {
	size_t seq;
	struct process *p;
};

static int cmp_hit(const void *a, const void *b)
{
	const struct hit *x = a, *y = b;

	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Each section's processes, in the order each was first hit by the
 * section's class (the order incidents were read in). */
static void section_processes(struct model *m)
{
	for (size_t s = 0; s < m->nsections; s++) {
		struct section *sec = &m->sections[s];
		struct hit *hits = xmalloc((m->nprocs + 1) * sizeof *hits);
		size_t n = 0;
		for (size_t i = 0; i < m->nprocs; i++) {
			struct process *p = m->procs[i];
			for (size_t j = 0; j < p->nclasses; j++) {
				if (memcmp(&p->classes[j].k, &sec->k,
					   sizeof sec->k) != 0)
					continue;
				hits[n++] = (struct hit){ p->classes[j].seq, p };
			}
		}
		if (n)
			qsort(hits, n, sizeof *hits, cmp_hit);
		free(sec->procs);
		sec->procs = xmalloc((n ? n : 1) * sizeof *sec->procs);
		for (size_t i = 0; i < n; i++)
			sec->procs[i] = hits[i].p;
		sec->nprocs = n;
		free(hits);
	}
}

void model_sort(struct model *m)
{
	if (m->nprocs)
		qsort(m->procs, m->nprocs, sizeof *m->procs, cmp_process);
	for (size_t i = 0; i < m->nprocs; i++) {
		m->procs[i]->index = i;
		if (m->procs[i]->nclasses)
			qsort(m->procs[i]->classes, m->procs[i]->nclasses,
			      sizeof(struct class_count), cmp_class_count);
	}
	if (m->nsections)
		qsort(m->sections, m->nsections, sizeof *m->sections,
		      cmp_section);
	section_processes(m);
	if (m->nproblems)
		qsort(m->problems, m->nproblems, sizeof *m->problems,
		      cmp_problem);
	if (m->nskipped_listed)
		qsort(m->skipped, m->nskipped_listed, sizeof *m->skipped,
		      cmp_skipped);
}
