/* Small file helpers that report errors through errno. */
#ifndef PLOGTOP_FILEIO_H
#define PLOGTOP_FILEIO_H

#include <stddef.h>
#include <sys/types.h>

#include "strbuf.h"

/* Reads a whole file of at most max bytes into out.  Returns 0, or -1
 * with errno set (EFBIG when the file is larger than max). */
int read_small_file(const char *path, struct strbuf *out, size_t max);

/* Reads a data file (rules, theme, messages) of at most max bytes.  It
 * must be a regular file: it is opened without blocking, so that a FIFO
 * or a device named as one is refused rather than hanging plogtop.  A
 * file larger than max or holding a NUL byte is refused at the line where
 * that happens.  Returns 0, or -1 with "PATH: what is wrong" or
 * "PATH:LINE: what is wrong" in err; what names the kind of file ("rules
 * file"). */
int read_data_file(const char *path, const char *what, size_t max,
		   struct strbuf *out, struct strbuf *err);

/* Writes len bytes to path atomically: a dot-named temporary file created
 * exclusively (no symlink followed) in the same directory, given mode,
 * synced first when sync is set (after a crash the file is the old one or
 * the new one, never a torn one), then renamed over path.  Returns 0, or
 * -1 with "PATH: why" in err (PATH as given, not the temporary name). */
int write_file_atomic(const char *path, const char *buf, size_t len,
		      mode_t mode, int sync, struct strbuf *err);

#endif
