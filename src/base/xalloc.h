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

#endif
