/* A compressed file (gzip, xz, zstd) read as the bytes it holds: a
 * stream, a buffer at a time, never the whole file in memory; and the
 * bound every decompressed file and archive stops at, so that a zip bomb
 * is a clear error about its file, never an exhausted machine.
 *
 * The bound: DECOMPRESS_MAX (4 GiB) a file, or, once past
 * DECOMPRESS_FLOOR (64 MiB), DECOMPRESS_RATIO (1000) times the size of the
 * compressed file, whichever comes first.  Logs compress 5 to 50 times;
 * 1000 is what only a made file (zeros, one line repeated) reaches.  The
 * tests set a smaller DECOMPRESS_MAX with PLOGTOP_DECOMPRESS_MAX (bytes);
 * the floor is never above it. */
#ifndef PLOGTOP_DECOMPRESS_H
#define PLOGTOP_DECOMPRESS_H

#include <sys/types.h>

#include "codec.h"
#include "strbuf.h"

#define DECOMPRESS_MAX (4ULL << 30)
#define DECOMPRESS_FLOOR (64ULL << 20)
#define DECOMPRESS_RATIO 1000ULL

struct bound {
	unsigned long long limit;	/* bytes it stops at */
	unsigned long long out;		/* bytes given so far */
	int by_ratio;			/* the limit is the ratio's */
};

/* The bound for a file of csize compressed bytes. */
void bound_init(struct bound *b, unsigned long long csize);
/* Cuts *n to what may still be given, and counts it: -1 when nothing
 * may (the bound is reached: bound_say says so). */
int bound_take(struct bound *b, size_t *n);
/* "stops at 4 GiB decompressed: skipped the rest" (appended). */
void bound_say(const struct bound *b, struct strbuf *sb);

struct dstream;

/* Reads fd (which it then owns and closes) as kind (PACK_GZ, PACK_XZ,
 * PACK_ZST).  NULL with *why (static) when kind's library is missing. */
struct dstream *dstream_open(enum packed kind, int fd, const char **why);
/* Up to n decompressed bytes into buf: their number, 0 at the end, or -1
 * with err told why (a read error, corrupt or cut data).  Concatenated
 * streams (gzip members, xz streams, zstd frames) are read as one. */
ssize_t dstream_read(struct dstream *d, char *buf, size_t n,
		     struct strbuf *err);
/* As dstream_read, with *data pointing at the bytes, valid until the next
 * call: in buf (n bytes) when they are decoded on this call, or, read
 * ahead, where the thread put them (more than n may come then). */
ssize_t dstream_data(struct dstream *d, char *buf, size_t n,
		     const char **data, struct strbuf *err);
void dstream_close(struct dstream *d);

#endif
