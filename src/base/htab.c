#include "config.h"

#include <stdlib.h>

#include "htab.h"
#include "xalloc.h"

/* FNV-1a, then a final mix so that the low bits (the bucket) depend on
 * every byte. */
size_t htab_hash_str(const char *s, size_t seed)
{
	unsigned long long h = 14695981039346656037ULL ^ seed;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 32;
	return (size_t)h;
}

struct hnode *htab_find(const struct htab *t, size_t hash, htab_eq eq,
			const void *key)
{
	if (!t->nb)
		return NULL;
	for (struct hnode *n = t->b[hash & (t->nb - 1)]; n; n = n->next)
		if (n->hash == hash && eq(n, key))
			return n;
	return NULL;
}

static void grow(struct htab *t)
{
	size_t nb = t->nb ? 2 * t->nb : 64;
	struct hnode **b = xcalloc(nb, sizeof *b);

	for (size_t i = 0; i < t->nb; i++) {
		struct hnode *n = t->b[i];
		while (n) {
			struct hnode *next = n->next;
			n->next = b[n->hash & (nb - 1)];
			b[n->hash & (nb - 1)] = n;
			n = next;
		}
	}
	free(t->b);
	t->b = b;
	t->nb = nb;
}

/* Nodes per bucket, on average, before the table grows: a chain of two
 * costs a lookup little (hashes are compared before keys), and the
 * buckets half the memory of one each (--once indexes 300,000
 * processes: 2 MiB of buckets, not 4).  Nothing depends on the order of
 * a chain: a walk of one that may tie says its own order (ident.c). */
#define HTAB_LOAD 2

void htab_insert(struct htab *t, struct hnode *node)
{
	if (t->n >= HTAB_LOAD * t->nb)
		grow(t);
	struct hnode **head = &t->b[node->hash & (t->nb - 1)];
	node->next = *head;
	*head = node;
	t->n++;
}

void htab_remove(struct htab *t, struct hnode *node)
{
	if (!t->nb)
		return;
	struct hnode **pp = &t->b[node->hash & (t->nb - 1)];

	while (*pp && *pp != node)
		pp = &(*pp)->next;
	if (*pp) {
		*pp = node->next;
		t->n--;
	}
}

void htab_free(struct htab *t)
{
	free(t->b);
	t->b = NULL;
	t->nb = t->n = 0;
}

void htab_free_nodes(struct htab *t)
{
	for (size_t i = 0; i < t->nb; i++)
		for (struct hnode *n = t->b[i], *next; n; n = next) {
			next = n->next;
			free(n);
		}
	htab_free(t);
}
