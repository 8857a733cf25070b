#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ident_view.h"
#include "xalloc.h"

const char *ident_from_name(enum ident_from f)
{
	return f == FROM_LINES ? "lines" : f == FROM_PROCESS ? "process"
	       : NULL;
}

enum ident_from ident_from_of_name(const char *s)
{
	return !s ? FROM_NONE : strcmp(s, "lines") == 0 ? FROM_LINES
	       : strcmp(s, "process") == 0 ? FROM_PROCESS : FROM_NONE;
}

/* A field's value as a number from 0 to max, the whole of it. */
static int field_number(const struct incident *inc, const char *key,
			long max, long *out)
{
	const char *s = incident_field(inc, key);
	char *end;

	if (!s || *s < '0' || *s > '9')
		return 0;
	long v = strtol(s, &end, 10);
	if (*end || v < 0 || v > max)
		return 0;
	*out = v;
	return 1;
}

int view_incident_device(const struct incident *inc, long *dev,
			 enum ident_from *from)
{
	if (inc->device_from != FROM_NONE && inc->device >= 0 &&
	    inc->device <= VIEW_DEVICE_MAX) {
		*dev = inc->device;
		*from = inc->device_from;
		return 1;
	}
	/* Not asked of the model yet: what its own lines say. */
	if (inc->device_from == FROM_NONE &&
	    field_number(inc, "device_id", VIEW_DEVICE_MAX, dev)) {
		*from = FROM_LINES;
		return 1;
	}
	*from = FROM_NONE;
	return 0;
}

int view_incident_rank(const struct incident *inc, long *rank,
		       enum ident_from *from)
{
	if (inc->rank_from != FROM_NONE && inc->rank >= 0 &&
	    inc->rank <= VIEW_RANK_MAX) {
		*rank = inc->rank;
		*from = inc->rank_from;
		return 1;
	}
	if (inc->rank_from == FROM_NONE &&
	    field_number(inc, "rank", VIEW_RANK_MAX, rank)) {
		*from = FROM_LINES;
		return 1;
	}
	*from = FROM_NONE;
	return 0;
}

long view_ident_device(const struct ident *id)
{
	return id && id->device >= 0 && id->device <= VIEW_DEVICE_MAX
	       ? id->device : -1;
}

long view_ident_rank(const struct ident *id)
{
	return id && id->rank >= 0 && id->rank <= VIEW_RANK_MAX
	       ? id->rank : -1;
}

static int by_proc_cmp(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)(*(const struct ident *const *)a)->proc;
	uintptr_t y = (uintptr_t)(*(const struct ident *const *)b)->proc;

	return x < y ? -1 : x > y;
}

void ident_map_init(struct ident_map *im, const struct model *m)
{
	const struct ident *const *v;
	size_t n = model_idents(m, &v);

	memset(im, 0, sizeof *im);
	im->m = m;
	im->by_proc = n ? xcalloc(n, sizeof *im->by_proc) : NULL;
	for (size_t i = 0; i < n; i++)
		if (v[i]->proc)
			im->by_proc[im->n++] = v[i];
	if (im->n)
		qsort(im->by_proc, im->n, sizeof *im->by_proc, by_proc_cmp);
}

const struct ident *ident_map_get(const struct ident_map *im,
				  const struct process *p)
{
	const struct ident *id = model_ident(im->m, p);
	size_t lo = 0, hi = im->n;

	if (id)
		return id;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uintptr_t at = (uintptr_t)im->by_proc[mid]->proc;
		if (at == (uintptr_t)p)
			return im->by_proc[mid];
		if (at < (uintptr_t)p)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

void ident_map_free(struct ident_map *im)
{
	free(im->by_proc);
	memset(im, 0, sizeof *im);
}
