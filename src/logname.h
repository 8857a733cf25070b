/* The one rule for log file names: which names are of the plog family,
 * what a name says of its process, and which files are one stream (the
 * rotations of one writer), read one after another in stamp order. */
#ifndef PLOGTOP_LOGNAME_H
#define PLOGTOP_LOGNAME_H

#include "feeder.h"
#include "strbuf.h"

struct logname {
	enum file_kind kind;	/* FILE_PLOG for plog family names */
	long pid;		/* from the name, 0 when it has none */
	unsigned long long stamp;	/* from the name, 0 when none */
};

void logname_parse(const char *path, struct logname *ln);

/* Appends the key of the stream a file belongs to: a plog family file's
 * directory, family and pid (plog-<pid>_*.log files of one directory are
 * one stream, device-<pid>_*.log another); any other file is a stream of
 * its own. */
void logname_stream(struct strbuf *key, const char *path);

/* Shorthands: the kind a name gives; the pid and stamp (0 when absent). */
enum file_kind file_kind_of(const char *path);
void plog_name_parts(const char *path, long *pid, unsigned long long *stamp);

#endif
