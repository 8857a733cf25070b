#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "recpool.h"
#include "xalloc.h"

/* A block is its link to the next, then the records, each aligned as a
 * pointer or a 64-bit number is (the records' widest members). */
#define HEAD 16

void recpool_init(struct recpool *p, size_t size, size_t per_block)
{
	memset(p, 0, sizeof *p);
	p->size = (size + 7) / 8 * 8;
	p->per_block = per_block;
}

void *recpool_get(struct recpool *p)
{
	char *r = p->free;

	if (r) {
		memcpy(&p->free, r, sizeof p->free);
	} else {
		if (!p->blocks || p->used == p->per_block) {
			char *b = xmalloc(HEAD + p->size * p->per_block);
			memcpy(b, &p->blocks, sizeof p->blocks);
			p->blocks = b;
			p->used = 0;
		}
		r = (char *)p->blocks + HEAD + p->size * p->used++;
	}
	memset(r, 0, p->size);
	return r;
}

void recpool_put(struct recpool *p, void *r)
{
	memcpy(r, &p->free, sizeof p->free);
	p->free = r;
}

void recpool_free(struct recpool *p)
{
	while (p->blocks) {
		void *b = p->blocks;
		memcpy(&p->blocks, b, sizeof p->blocks);
		free(b);
	}
	p->used = 0;
	p->free = NULL;
}

size_t recpool_next_cap(size_t cap, size_t first)
{
	if (!cap)
		return first;
	return cap < (64u << 10) ? 2 * cap : cap + cap / 4;
}

size_t recpool_blocks(const struct recpool *p)
{
	size_t n = 0;

	for (void *b = p->blocks; b; memcpy(&b, b, sizeof b))
		n++;
	return n;
}
