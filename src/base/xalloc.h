/* Allocation that cannot fail: running out of memory ends the program
 * with a message, since no caller could do anything better. */
#ifndef PLOGTOP_XALLOC_H
#define PLOGTOP_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
void *xmemdup(const void *p, size_t n);
/* p, an array of n items of size bytes whose room is not kept (it is
 * known from n): room for first (a power of two) at first, doubled each
 * time n reaches a power of two past it.  Returns p with room for n + 1:
 * a realloc at each doubling, not one per item. */
void *xgrow_pow2(void *p, size_t n, size_t first, size_t size);

#endif
