/* A doubly linked list whose links live in its elements: taking one out
 * (a process folded, an incident let go, a chain closed) is O(1) and
 * costs no allocation.  The model's LRU and recent lists and the
 * classifier's chains in order of use are all this one list. */
#ifndef PLOGTOP_DLIST_H
#define PLOGTOP_DLIST_H

#include <stddef.h>

struct dlink {
	struct dlink *prev, *next;
};

struct dlist {
	struct dlink *first, *last;
	size_t n;
};

/* The element holding link l (NULL for NULL): DLIST_ENTRY(l, struct
 * process, lru). */
#define DLIST_ENTRY(l, type, member) \
	((l) ? (type *)(void *)((char *)(l) - offsetof(type, member)) : NULL)

static inline int dlist_has(const struct dlist *l, const struct dlink *e)
{
	return e->prev != NULL || l->first == e;
}

/* Takes e out; an element not in the list is left as it is. */
static inline void dlist_remove(struct dlist *l, struct dlink *e)
{
	if (!dlist_has(l, e))
		return;
	if (e->prev)
		e->prev->next = e->next;
	else
		l->first = e->next;
	if (e->next)
		e->next->prev = e->prev;
	else
		l->last = e->prev;
	e->prev = e->next = NULL;
	l->n--;
}

/* e, in no list, goes first. */
static inline void dlist_push_front(struct dlist *l, struct dlink *e)
{
	e->prev = NULL;
	e->next = l->first;
	if (l->first)
		l->first->prev = e;
	else
		l->last = e;
	l->first = e;
	l->n++;
}

/* e, in no list, goes last. */
static inline void dlist_push_back(struct dlist *l, struct dlink *e)
{
	e->next = NULL;
	e->prev = l->last;
	if (l->last)
		l->last->next = e;
	else
		l->first = e;
	l->last = e;
	l->n++;
}

#endif
