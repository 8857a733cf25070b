/* Small file helpers that report errors through errno. */
#ifndef PLOGTOP_FILEIO_H
#define PLOGTOP_FILEIO_H

#include <stddef.h>

#include "strbuf.h"

/* Reads a whole file of at most max bytes into out.  Returns 0, or -1
 * with errno set (EFBIG when the file is larger than max). */
int read_small_file(const char *path, struct strbuf *out, size_t max);

#endif
