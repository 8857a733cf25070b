/* The stable order of a report: processes, their classes, problems and
 * skipped files, all from the counts; and the order of incidents.  And
 * a process's count by resource, from its classes. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model_int.h"
#include "xalloc.h"

size_t process_by_resource(const struct process *p, enum resource r)
{
	size_t n = 0;

	for (size_t i = 0; i < p->nclasses; i++)
		if (p->classes[i].k.resource == r)
			n += p->classes[i].n;
	return n;
}

size_t process_total(const struct process *p)
{
	size_t n = 0;

	for (size_t i = 0; i < p->nclasses; i++)
		n += p->classes[i].n;
	return n;
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

static int cmp_process(const void *a, const void *b)
{
	const struct process *p = *(struct process *const *)a;
	const struct process *q = *(struct process *const *)b;

	size_t pt = process_total(p), qt = process_total(q);

	if (pt != qt)
		return pt > qt ? -1 : 1;
	if (p->pid != q->pid)
		return p->pid < q->pid ? -1 : 1;
	return strcmp(p->name, q->name);
}

static int cmp_class_count(const void *a, const void *b)
{
	const struct class_count *x = a, *y = b;

	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	return class_key_cmp(&x->k, &y->k);
}

void model_sort(struct model *m)
{
	if (m->nprocs)
		qsort(m->procs, m->nprocs, sizeof *m->procs, cmp_process);
	for (size_t i = 0; i < m->nprocs; i++) {
		m->procs[i]->index = (unsigned)i;
		if (m->procs[i]->nclasses)
			qsort(m->procs[i]->classes, m->procs[i]->nclasses,
			      sizeof(struct class_count), cmp_class_count);
	}
	if (m->nproblems)
		qsort(m->problems, m->nproblems, sizeof *m->problems,
		      cmp_problem);
	if (m->nskipped_listed)
		qsort(m->skipped, m->nskipped_listed, sizeof *m->skipped,
		      cmp_skipped);
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
