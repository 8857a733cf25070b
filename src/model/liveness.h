/* Which pids run now: one listing of /proc, at most once a second, so
 * that asking about thousands of processes costs no system call each. */
#ifndef PLOGTOP_LIVENESS_H
#define PLOGTOP_LIVENESS_H

#include <stddef.h>

#define LIVENESS_MS 1000	/* how long a listing is trusted */

struct liveness {
	unsigned long long at_ms;	/* when /proc was listed; 0: never */
	long *pids;			/* sorted */
	size_t n, cap;
};

void liveness_free(struct liveness *l);
/* Lists /proc again when the last listing is older than LIVENESS_MS. */
void liveness_refresh(struct liveness *l, unsigned long long now_ms);
int liveness_has(const struct liveness *l, long pid);
/* /proc/PID/comm names the same program as name (comm is cut at 15
 * characters, plog names may be cut too), so a reused pid is not. */
int liveness_same_program(long pid, const char *name);

#endif
