/* Running "npu-smi info" off the drawing path: a child in its own
 * process group, its output read through pipes the caller's poll loop
 * watches, at most every interval, killed (with its group) at the
 * timeout; each table it prints that parses goes to model_set_npu
 * (and NULL when a run after a good one goes wrong: no stale tenants).
 * What goes wrong is said to the log once per kind of trouble (missing,
 * failing, too slow, unparsable), and again when it works again.
 *
 * The command is --npu-smi's, split at spaces (no shell), run with the
 * word "info" after it; "none" turns it off.  Not documented for users,
 * for tests: PLOGTOP_NPU_SMI_TIMEOUT_MS and PLOGTOP_NPU_SMI_INTERVAL_MS. */
#ifndef PLOGTOP_NPUSMI_RUN_H
#define PLOGTOP_NPUSMI_RUN_H

#include <poll.h>
#include <stddef.h>

struct model;
struct msglog;
struct npusmi_run;

#define NPUSMI_POLLFDS 2		/* its stdout and stderr */
#define NPUSMI_TIMEOUT_MS 5000		/* a run at most */
#define NPUSMI_INTERVAL_MS 10000	/* from the start of one to the next */
#define NPUSMI_OUTPUT_MAX (1u << 20)	/* stdout bytes kept */

/* cmd: --npu-smi's value (NULL: "npu-smi"); NULL for "none".  log may be
 * NULL (said on stderr at once).  The default command that is not there
 * is said only where the NPU driver's /dev/davinci_manager is (else this
 * is no NPU host: logs read elsewhere); one that was named, always. */
struct npusmi_run *npusmi_run_new(const char *cmd, struct model *m,
				  struct msglog *log);
void npusmi_run_free(struct npusmi_run *r);	/* kills a child, reaps it */

/* The descriptors to poll while a child runs (none otherwise): fills
 * p[0..max) and returns how many. r may be NULL. */
size_t npusmi_run_pollfds(const struct npusmi_run *r, struct pollfd *p,
			  size_t max);
/* Milliseconds until npusmi_run_step has something to do; -1: never. */
int npusmi_run_timeout(const struct npusmi_run *r, unsigned long long now);
/* Reads what the child wrote (never blocks), ends a run that is done
 * or too slow, starts one when due. r may be NULL. */
void npusmi_run_step(struct npusmi_run *r, unsigned long long now);
/* --once: a run from start to end (at most the timeout), if none has
 * ended yet. */
void npusmi_run_wait(struct npusmi_run *r);

/* How the last run went: "ok", "missing", "failing", "slow",
 * "unparsable", NULL before the first; "off" for r NULL. */
const char *npusmi_run_state(const struct npusmi_run *r);

#endif
