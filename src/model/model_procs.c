/* The model's process records, from blocks of PROC_BLOCK: --once keeps
 * hundreds of thousands of them, and a malloc of each costs a header of
 * 8 bytes and a chunk rounded to 16 (136 bytes in 144).  The live modes
 * fold records and make new ones: a record let go is kept for the next
 * (the blocks go with the model), so they stay within max_procs. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model_int.h"
#include "xalloc.h"

/* Records per block: a block is some 64 KiB, below malloc's mmap
 * threshold, and a model of a few processes takes one. */
#define PROC_BLOCK 480

struct proc_block {
	struct proc_block *next;
	size_t used;
	struct process v[PROC_BLOCK];
};

/* A zeroed record: one let go before, else the next of the last block. */
struct process *model_proc_new(struct model *m)
{
	struct process *p = m->proc_free;

	if (p) {
		m->proc_free = (struct process *)p->node.next;
	} else {
		struct proc_block *b = m->proc_blocks;
		if (!b || b->used == PROC_BLOCK) {
			b = xmalloc(sizeof *b);
			b->next = m->proc_blocks;
			b->used = 0;
			m->proc_blocks = b;
		}
		p = &b->v[b->used++];
	}
	memset(p, 0, sizeof *p);
	return p;
}

/* The free list runs through the records' index links (node is the
 * record's first member). */
void model_proc_release(struct model *m, struct process *p)
{
	p->node.next = (struct hnode *)m->proc_free;
	m->proc_free = p;
}

void model_proc_blocks_free(struct model *m)
{
	while (m->proc_blocks) {
		struct proc_block *b = m->proc_blocks;
		m->proc_blocks = b->next;
		free(b);
	}
	m->proc_free = NULL;
}
