#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "fact.h"
#include "xalloc.h"

static const char *const kind_names[FACT_KIND_COUNT] = {
	[FACT_DEVICE] = "device",
	[FACT_RANK] = "rank",
	[FACT_CREATE] = "create",
	[FACT_CREATED] = "created",
	[FACT_DESTROYED] = "destroyed",
	[FACT_STATISTICS] = "statistics",
};

const char *fact_kind_name(enum fact_kind k)
{
	return (unsigned)k < FACT_KIND_COUNT ? kind_names[k] : "";
}

enum fact_kind fact_kind_from_name(const char *s)
{
	for (int k = 0; k < FACT_KIND_COUNT; k++)
		if (strcmp(s, kind_names[k]) == 0)
			return (enum fact_kind)k;
	return FACT_KIND_COUNT;
}

struct fact *fact_dup(const struct fact *f)
{
	struct fact *d = xmalloc(sizeof *d);

	*d = *f;
	d->name = xstrdup(f->name ? f->name : "");
	return d;
}

void fact_free(struct fact *f)
{
	if (!f)
		return;
	free((char *)f->name);
	free(f);
}
