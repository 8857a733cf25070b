/* A chained hash table of intrusive nodes: the model's index of
 * processes, names and paths, so that a lookup costs the same with ten
 * entries or a million.  It owns only its bucket array. */
#ifndef PLOGTOP_HTAB_H
#define PLOGTOP_HTAB_H

#include <stddef.h>

struct hnode {
	struct hnode *next;
	size_t hash;
};

struct htab {
	struct hnode **b;
	size_t nb;	/* a power of two, or 0 before the first insert */
	size_t n;
};

/* Returns 1 when the node's key equals key. */
typedef int (*htab_eq)(const struct hnode *node, const void *key);

size_t htab_hash_str(const char *s, size_t seed);
struct hnode *htab_find(const struct htab *t, size_t hash, htab_eq eq,
			const void *key);
/* The node's hash must be set; the table grows as needed. */
void htab_insert(struct htab *t, struct hnode *node);
void htab_remove(struct htab *t, struct hnode *node);
void htab_free(struct htab *t);
/* htab_free, after freeing every node: for tables whose nodes are each
 * the start of an allocation of their own, holding nothing else to free. */
void htab_free_nodes(struct htab *t);

#endif
