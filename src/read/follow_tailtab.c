/* The table of followed files: every tail by its path (a hash: a tree of
 * thousands of files sends events naming each), and all of them in
 * discovery order; and the one count of files read.  */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "follow_int.h"
#include "htab.h"
#include "xalloc.h"

static size_t hash_path(const char *s)
{
	return htab_hash_str(s, 0) % TAIL_BUCKETS;
}

struct tail *tailtab_find(const struct tailtab *tt, const char *path)
{
	for (struct tailnode *n = tt->bucket[hash_path(path)]; n; n = n->next)
		if (strcmp(n->t->path, path) == 0)
			return n->t;
	return NULL;
}

void tailtab_insert(struct tailtab *tt, struct tail *t)
{
	struct tailnode *n = xmalloc(sizeof *n);
	size_t h = hash_path(t->path);

	n->t = t;
	n->next = tt->bucket[h];
	tt->bucket[h] = n;
	if (tt->n == tt->cap) {
		tt->cap = tt->cap ? 2 * tt->cap : 64;
		tt->v = xrealloc(tt->v, tt->cap * sizeof *tt->v);
	}
	t->slot = tt->n;
	tt->v[tt->n++] = t;
}

/* Takes t out of its bucket (its slot in v is the caller's). */
static void unlink_node(struct tailtab *tt, const struct tail *t)
{
	struct tailnode **pp = &tt->bucket[hash_path(t->path)];

	while (*pp && (*pp)->t != t)
		pp = &(*pp)->next;
	if (*pp) {
		struct tailnode *dead = *pp;
		*pp = dead->next;
		free(dead);
	}
}

void tailtab_remove(struct tailtab *tt, struct tail *t)
{
	unlink_node(tt, t);
	tt->v[t->slot] = tt->v[--tt->n];
	tt->v[t->slot]->slot = t->slot;
}

void tailtab_sweep(struct tailtab *tt)
{
	size_t k = 0;

	for (size_t i = 0; i < tt->n; i++) {
		struct tail *t = tt->v[i];
		if (!t->let_go) {
			t->slot = k;
			tt->v[k++] = t;
			continue;
		}
		unlink_node(tt, t);
		tail_free(t);
	}
	tt->n = k;
}

void tailtab_free(struct tailtab *tt)
{
	for (size_t i = 0; i < TAIL_BUCKETS; i++) {
		struct tailnode *n = tt->bucket[i];
		while (n) {
			struct tailnode *next = n->next;
			free(n);
			n = next;
		}
	}
	for (size_t i = 0; i < tt->n; i++)
		tail_free(tt->v[i]);
	free(tt->v);
}

/* A file that was read is counted once, for the root it came from. */
void follow_count_read(struct follower *fw, struct tail *t)
{
	if (t->counted)
		return;
	t->counted = 1;
	fw->m->stats.files++;
	if (t->root < fw->m->nroots)
		fw->m->root_files[t->root]++;
}
