/* The plog line header: [LEVEL] MODULE(PID,PNAME):TIMESTAMP then text. */
#ifndef PLOGTOP_PLOGLINE_H
#define PLOGTOP_PLOGLINE_H

#include <stddef.h>

#include "logtime.h"

enum plog_level {
	LEVEL_OTHER,	/* a numeric or unknown level */
	LEVEL_DEBUG,
	LEVEL_INFO,
	LEVEL_WARNING,
	LEVEL_ERROR,
	LEVEL_EVENT,
	LEVEL_TRACE,
	LEVEL_SCREEN,	/* not plog: a line of a job's captured stdout/stderr */
};

struct span {
	size_t off, len;
};

struct plog_header {
	enum plog_level level;
	struct span module;
	long pid;		/* 0: none the system could have (see
				 * plogline.c's parse_pid) */
	struct span name;	/* may be empty */
	struct span stamp;
	logtime_t time;		/* LOGTIME_UNKNOWN when the stamp is odd */
	struct span srcloc;	/* "file.cc:123", empty if absent */
	long tid;		/* 0 when the line's shape does not give one */
	size_t msg;		/* offset of the message text */
};

/* Only the level of a line, cheaply: returns 1 and stores it when the line
 * starts like a plog header, 0 otherwise. */
int plog_peek_level(const char *line, size_t len, enum plog_level *level);

/* Parses the header strictly.  Returns 1 on success, 0 if the line is not
 * a plog line (it then continues the record above, or is screen output). */
int plog_parse(const char *line, size_t len, struct plog_header *h);

const char *plog_level_name(enum plog_level level);

#endif
