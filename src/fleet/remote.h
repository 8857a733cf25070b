/* One child process whose output plogtop reads: ssh to a host running
 * plogtop there.  It is started from an argument vector (no shell), in
 * its own process group, with standard input from /dev/null (or a
 * few bytes given to it: a cursor to resume from); its
 * standard output is read line by line, a bounded amount at a time, and
 * the last line of its standard error is kept as the reason it failed. */
#ifndef PLOGTOP_REMOTE_H
#define PLOGTOP_REMOTE_H

#include <stddef.h>
#include <sys/types.h>

#include "strbuf.h"

#define REMOTE_LINE_MAX (1u << 20)	/* longer lines are dropped */
#define REMOTE_READ_BUDGET 65536	/* bytes read per call */
#define REMOTE_ERR_MAX 512		/* the reason kept from stderr */

struct remote {
	pid_t pid;		/* 0: not running */
	int out, err;		/* -1 when closed */
	struct strbuf line;	/* a line not complete yet */
	int skipping;		/* dropping the rest of a too-long line */
	size_t dropped;		/* lines dropped as too long */
	struct strbuf errline, lasterr;
	int status;		/* wait status, once reaped */
	int reaped;
};

void remote_init(struct remote *r);
/* Starts argv[0] (looked up in PATH).  -1 with why in err. */
int remote_start(struct remote *r, char *const argv[], struct strbuf *err);
/* The same, with standard input holding the len bytes at in (in NULL:
 * /dev/null).  They are written to an anonymous file first, so that the
 * child reads them at its pace and plogtop never blocks on it. */
int remote_start_input(struct remote *r, char *const argv[], const char *in,
		       size_t len, struct strbuf *err);

typedef int (*remote_line_fn)(void *ctx, const char *line, size_t len);
/* Reads at most REMOTE_READ_BUDGET bytes of standard output and calls
 * on_line for each complete line (without its newline); stops early when
 * on_line returns non-zero, and returns that.  Returns 0 otherwise; the
 * output's end closes r->out. */
int remote_read(struct remote *r, remote_line_fn on_line, void *ctx);
/* Reads what standard error holds; keeps its last line. */
void remote_read_err(struct remote *r);
/* Whether the child has ended (reaps it without waiting). */
int remote_reap(struct remote *r);
/* Ends the child (SIGTERM to its group, SIGKILL after grace_ms), reaps
 * it and closes everything. */
void remote_stop(struct remote *r, unsigned grace_ms);
/* Why a child that ended failed, for people: exit 127 is a command not
 * found on the remote side, 255 an ssh failure (with ssh's message). */
void remote_reason(const struct remote *r, struct strbuf *out);
/* The last line of standard error ("" if none). */
const char *remote_lasterr(const struct remote *r);

#endif
