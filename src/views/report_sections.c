#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "report_sections.h"
#include "xalloc.h"

static int same_class(const struct class_key *a, const struct incident *inc)
{
	struct class_key k = { inc->code, inc->resource, inc->cause };

	return class_key_cmp(a, &k) == 0;
}

/* Only one incident per class keeps its raw lines (the example a report
 * shows), so memory grows with classes, not with the lines they wrote. */
static void count_in_section(void *ctx, const struct incident *inc)
{
	struct report_sections *rs = ctx;
	struct section *s = NULL;

	for (size_t i = 0; i < rs->n && !s; i++)
		if (same_class(&rs->v[i].k, inc))
			s = &rs->v[i];
	if (!s) {
		rs->v = xrealloc(rs->v, (rs->n + 1) * sizeof *rs->v);
		s = &rs->v[rs->n++];
		memset(s, 0, sizeof *s);
		s->k = (struct class_key){ inc->code, inc->resource, inc->cause };
	}
	s->n += rs->m->weight;	/* a cluster's class stands for more */
	if (!s->example || model_incident_cmp(inc, s->example) < 0) {
		if (s->example)
			model_let_go(rs->m, s->example, 1);
		s->example = model_keep(rs->m, inc, 1);
	}
}

void report_sections_init(struct report_sections *rs, struct model *m)
{
	memset(rs, 0, sizeof *rs);
	rs->m = m;
	model_watch(m, count_in_section, rs);
}

static int cmp_section(const void *a, const void *b)
{
	const struct section *s = a, *t = b;

	if (s->n != t->n)
		return s->n > t->n ? -1 : 1;
	return class_key_cmp(&s->k, &t->k);
}

struct hit {
	size_t host;	/* 0 local, else the host's index + 1 */
	size_t seq;
	struct process *p;
};

static int cmp_hit(const void *a, const void *b)
{
	const struct hit *x = a, *y = b;

	if (x->host != y->host)
		return x->host < y->host ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* A section's processes: local ones first, then each host's in the
 * order the hosts were named (hosts answer in any order, the report
 * must not), each in the order it was first hit by the section's class
 * (the order incidents were read in). */
static void section_processes(const struct model *m, struct section *sec)
{
	struct hit *hits = xmalloc((m->nprocs + 1) * sizeof *hits);
	size_t n = 0;

	for (size_t i = 0; i < m->nprocs; i++) {
		struct process *p = m->procs[i];
		for (size_t j = 0; j < p->nclasses; j++) {
			if (memcmp(&p->classes[j].k, &sec->k,
				   sizeof sec->k) != 0)
				continue;
			hits[n++] = (struct hit){
				p->host ? p->host->index + 1 : 0,
				p->classes[j].seq, p };
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

void report_sections_sort(struct report_sections *rs)
{
	if (rs->n)
		qsort(rs->v, rs->n, sizeof *rs->v, cmp_section);
	for (size_t s = 0; s < rs->n; s++)
		section_processes(rs->m, &rs->v[s]);
}

void report_sections_free(struct report_sections *rs)
{
	if (!rs->m)
		return;
	model_unwatch(rs->m, rs);
	for (size_t i = 0; i < rs->n; i++) {
		if (rs->v[i].example)
			model_let_go(rs->m, rs->v[i].example, 1);
		free(rs->v[i].procs);
	}
	free(rs->v);
	memset(rs, 0, sizeof *rs);
}
