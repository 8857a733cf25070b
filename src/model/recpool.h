/* Records of one size from blocks of many: --once keeps hundreds of
 * thousands of processes and identities, and a malloc of each costs a
 * header of 8 bytes and a chunk rounded to 16.  The live modes let
 * records go and make new ones: one let go is kept for the next (the
 * blocks go with the pool), so a pool holds at most as many as were
 * ever live at once. */
#ifndef PLOGTOP_RECPOOL_H
#define PLOGTOP_RECPOOL_H

#include <stddef.h>

struct recpool {
	size_t size;		/* of a record, at least a pointer's */
	size_t per_block;
	void *blocks;		/* the newest first, linked by their head */
	size_t used;		/* records handed out of the newest block */
	void *free;		/* let go, linked by their first bytes */
};

/* A pool of records of size bytes, per_block of them a block. */
void recpool_init(struct recpool *p, size_t size, size_t per_block);
/* A zeroed record. */
void *recpool_get(struct recpool *p);
/* r back to the pool, for the next recpool_get. */
void recpool_put(struct recpool *p, void *r);
/* Every block (and every record) freed; the pool is empty again. */
void recpool_free(struct recpool *p);
/* The next capacity of an array of pointers (the model's processes, its
 * identities) that holds cap and is full: first when empty, doubled while
 * small, then a quarter more.  A table of 300,000 pointers doubled to
 * 524,288 held 1.8 MiB it never used; a large block grows in place
 * (mremap), so growing it more often costs no copy. */
size_t recpool_next_cap(size_t cap, size_t first);
/* Blocks allocated (tests). */
size_t recpool_blocks(const struct recpool *p);

#endif
