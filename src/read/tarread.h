/* A tar archive (plain, or compressed with gzip, xz or zstd) read member
 * by member with libarchive, loaded at run time (codec.h): one pass,
 * a buffer at a time, never a member whole in memory, decompressed ahead
 * on a thread of its own (readahead.h). */
#ifndef PLOGTOP_TARREAD_H
#define PLOGTOP_TARREAD_H

#include <sys/types.h>

#include "strbuf.h"

struct tarread;

/* Reads the archive on fd (which it then owns and closes).  NULL with
 * *why (static) when libarchive is missing. */
struct tarread *tarread_open(int fd, const char **why);
/* The next member: 1 with its name (valid until the next call) for a
 * regular file, 2 for anything else (a directory, a link: no data), 0
 * after the last, -1 with err told why (a damaged archive). */
int tarread_next(struct tarread *tr, const char **name, struct strbuf *err);
/* The member's next bytes: their number, with *buf pointing at them
 * until the next call; 0 at its end, or -1. */
ssize_t tarread_data(struct tarread *tr, const char **buf, struct strbuf *err);
void tarread_close(struct tarread *tr);

#endif
