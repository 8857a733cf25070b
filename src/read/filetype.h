/* Whether the first bytes of a file are text that plogtop can read, or
 * what else they are (compressed, binary), so that a file skipped is
 * named with its reason rather than read as garbage. */
#ifndef PLOGTOP_FILETYPE_H
#define PLOGTOP_FILETYPE_H

#include <stddef.h>
#include <sys/stat.h>

/* NULL for text; else why the file is skipped (a static string).  buf
 * holds the file's first n bytes. */
const char *filetype_not_text(const char *buf, size_t n);

/* NULL for a regular file; else why such a node is skipped. */
const char *filetype_not_regular(const struct stat *st);

#endif
