/* Where an identity keeps what does not fit its record: room for its
 * devices (the first inside the record) and the side record of what few
 * identities have (ident.h's struct ident_more), each made when first
 * needed and let go with the identity.  Its own file so that the table
 * (ident.c), what it learns (ident_learn.c), its ledgers and its restore
 * all call down to it and nothing calls back. */
#include "config.h"

#include <stdlib.h>

#include "ident_int.h"
#include "xalloc.h"

struct ident_more *ident_more_mut(struct ident *id)
{
	if (!id->more)
		id->more = xcalloc(1, sizeof *id->more);
	return id->more;
}

void ident_more_free(struct ident *id)
{
	struct ident_more *x = id->more;

	if (!x)
		return;
	for (int r = 0; r < LEDGER_COUNT; r++)
		free(x->ledger[r]);
	if (x->env) {
		free(x->env->pod_name);
		free(x->env->pod_namespace);
		free(x->env->container_name);
		free(x->env);
	}
	free(x->job_file);
	free(x);
	id->more = NULL;
}

void ident_devs_room(struct ident *id, size_t n)
{
	int inline_now = !id->dev || id->dev == &id->dev1;

	if (n <= 1) {
		if (!inline_now) {
			if (id->ndevices)
				id->dev1 = id->dev[0];
			free(id->dev);
		}
		id->dev = &id->dev1;
	} else if (inline_now) {
		struct ident_dev *v = xcalloc(n, sizeof *v);
		if (id->dev && id->ndevices)
			v[0] = id->dev1;
		id->dev = v;
	} else {
		id->dev = xrealloc(id->dev, n * sizeof *id->dev);
	}
}

void ident_devs_free(struct ident *id)
{
	if (id->dev != &id->dev1)
		free(id->dev);
	id->dev = NULL;
}
