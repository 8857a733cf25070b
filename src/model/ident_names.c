/* The names of processes and identities, and identities' jobs, kept once
 * each (ident_int.h): 300,000 processes of one job have a few program
 * names and one job, and a copy each was 32 bytes of heap (with its
 * allocation's header) per process and two per identity.  Counted, so
 * that the live modes, which fold processes away, free a name with its
 * last user. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ident_int.h"
#include "xalloc.h"

struct iname {
	struct hnode node;
	size_t refs;
	char s[];
};

#define INAME(s) ((struct iname *)(void *)((char *)(s) - \
		  offsetof(struct iname, s)))

static int name_eq(const struct hnode *n, const void *key)
{
	return strcmp(((const struct iname *)n)->s, key) == 0;
}

char *ident_name_get(struct idents *ids, const char *s)
{
	size_t h = htab_hash_str(s, 0x6e616d65);
	struct iname *e = (struct iname *)htab_find(&ids->names, h, name_eq, s);

	if (!e) {
		size_t len = strlen(s);
		e = xmalloc(sizeof *e + len + 1);
		memcpy(e->s, s, len + 1);
		e->refs = 0;
		e->node.hash = h;
		htab_insert(&ids->names, &e->node);
	}
	e->refs++;
	return e->s;
}

void ident_name_put(struct idents *ids, const char *s)
{
	if (!s)
		return;
	struct iname *e = INAME(s);
	if (--e->refs)
		return;
	htab_remove(&ids->names, &e->node);
	free(e);
}

void ident_names_free(struct idents *ids)
{
	htab_free_nodes(&ids->names);
}
