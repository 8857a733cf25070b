#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

static void oom(size_t n)
{
	fprintf(stderr, "plogtop: out of memory (%zu bytes)\n", n);
	exit(2);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		oom(n);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		oom(n * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		oom(n);
	return q;
}

void *xgrow_pow2(void *p, size_t n, size_t first, size_t size)
{
	if (n && (n < first || (n & (n - 1)) != 0))
		return p;	/* room is left */
	size_t room = n ? 2 * n : first;
	if (room > (size_t)-1 / size)
		oom((size_t)-1);
	return xrealloc(p, room * size);
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

void *xmemdup(const void *p, size_t n)
{
	void *q = xmalloc(n);

	memcpy(q, p, n);
	return q;
}
