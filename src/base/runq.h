/* A bounded runner of one program (--exec): each job runs it with its own
 * input on standard input and its own environment, at most RUNQ_RUNNING
 * at once and RUNQ_PER_MINUTE started in any minute; up to RUNQ_WAITING
 * wait for their turn, and what comes beyond that is held back: not run,
 * counted and said (never dropped silently).  Nothing blocks: the input
 * is written and the children reaped (waitpid WNOHANG) in runq_step,
 * called by the loop at the time runq_timeout asks.  What goes wrong
 * (cannot start, an exit status, a signal, a child that ran too long and
 * was ended) is said to the log, with the first line of what it
 * printed. */
#ifndef PLOGTOP_RUNQ_H
#define PLOGTOP_RUNQ_H

#include <stddef.h>

#include "msglog.h"

#define RUNQ_RUNNING 4
#define RUNQ_PER_MINUTE 60
#define RUNQ_WAITING 64
/* A child still running after this long is sent SIGTERM (its group). */
#define RUNQ_TIMEOUT_MS 60000

struct runq;

/* cmd split at spaces and tabs (no shell, no quoting), as --ssh; NULL
 * when it holds no word.  name: how messages call it ("--exec"). */
struct runq *runq_new(const char *cmd, const char *name, struct msglog *log);
/* A job: input (len bytes) for its standard input, env (a NULL-ended
 * list of "NAME=value", taken) its environment, what (taken) how the
 * messages name the job ("EE1023 stream pid 4711").  Queued, or held
 * back when RUNQ_WAITING already wait. */
void runq_add(struct runq *q, char *input, size_t len, char **env,
	      char *what, unsigned long long now);
/* When RUNQ_WAITING already wait: the job is counted as held back (and
 * said), 1 is returned, and the caller need not make it; else 0. */
int runq_hold_if_full(struct runq *q, unsigned long long now);
/* Starts, feeds and reaps what is due; never blocks. */
void runq_step(struct runq *q, unsigned long long now);
/* Milliseconds until runq_step is next due, -1 when nothing is. */
int runq_timeout(const struct runq *q, unsigned long long now);
/* At the end: runs what waits and waits for what runs, until
 * deadline_ms (a monotonic time); what is left is said. */
void runq_finish(struct runq *q, unsigned long long deadline_ms);
/* What it did: started, failed (any of the ways above), held back. */
struct runq_counts {
	unsigned long long started, failed, held_back;
};
struct runq_counts runq_counts(const struct runq *q);
void runq_free(struct runq *q);

#endif
