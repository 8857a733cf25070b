/* Reading ahead on a thread of its own: a producer (decompressing an
 * archive) fills a ring of a few fixed records while the reader splits
 * and classifies what came before, so that a compressed bundle is read in
 * the time of the slower of the two, not of both (as `zcat | grep` is on
 * two processors).  The ring is bounded (slots x chunk bytes), whatever the
 * archive holds; the records come out in the order they were made, so the
 * report is the same with or without the thread.  Without a thread (one
 * processor, PLOGTOP_THREADS=1, or pthread_create failing) the producer is
 * called in place, on the reader's thread. */
#ifndef PLOGTOP_READAHEAD_H
#define PLOGTOP_READAHEAD_H

#include <stddef.h>

#include "strbuf.h"

enum ra_kind {
	RA_DATA,	/* len bytes of buf (and what text says of them) */
	RA_END,		/* the last record: nothing follows */
	RA_ERROR,	/* the last record: text says why */
};

struct ra_record {
	enum ra_kind kind;
	char *buf;		/* chunk bytes, the producer's to fill */
	size_t len;		/* RA_DATA: bytes in buf */
	size_t off;		/* bytes of buf the reader has taken */
	struct strbuf text;	/* RA_ERROR's reason; RA_DATA: the producer's */
};

/* Fills r (whose buf holds chunk bytes; text is empty): kind and what it
 * needs.  Called until it makes an RA_END or RA_ERROR record. */
typedef void (*ra_produce_fn)(void *ctx, struct ra_record *r, size_t chunk);

struct readahead;

/* Whether reading ahead is worth a thread: a second processor, and
 * PLOGTOP_THREADS not 1. */
int readahead_wanted(void);

/* A ring of slots records of chunk bytes each, filled by fn(ctx) on a
 * thread when threaded (else in place).  Never NULL. */
struct readahead *readahead_start(ra_produce_fn fn, void *ctx, size_t slots,
				  size_t chunk, int threaded);
/* The oldest record not yet taken, waiting for it when needed; after
 * RA_END or RA_ERROR it stays that record. */
struct ra_record *readahead_peek(struct readahead *ra);
/* The record peek gave is done with: its slot goes back to the producer
 * (not after the last record, which stays). */
void readahead_pop(struct readahead *ra);
/* Stops the producer (waiting for its current record) and frees all. */
void readahead_stop(struct readahead *ra);

#endif
