/* The shipped data files (rules/plogtop.rules, messages/en.txt,
 * themes/NAME.theme) built into the binary, so that a copy of it runs
 * on a host where nothing of plogtop is installed (src/base/datadir.h
 * says when a file on disk is read instead).  builtin_data.c is made
 * by data/embed-data.sh at build time. */
#ifndef PLOGTOP_BUILTIN_H
#define PLOGTOP_BUILTIN_H

#include <stddef.h>

struct builtin_file {
	const char *name;	/* "rules/plogtop.rules"; NULL ends the table */
	const char *data;	/* len bytes, then a NUL */
	size_t len;
};

extern const struct builtin_file builtin_files[];

#endif
