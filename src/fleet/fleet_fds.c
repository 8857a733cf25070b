/* Open files: each connected host takes two (its ssh's pipes), and a
 * job's many hosts can pass the soft limit. */
#include "config.h"

#include <dirent.h>
#include <sys/resource.h>

#include "fleet_int.h"

/* Open files kept for all but the hosts' pipes: log files, inotify,
 * the prom file, a child's pipes while it starts. */
#define FLEET_FD_RESERVE 64

void fleet_raise_fd_limit(void)
{
	struct rlimit rl;

	/* As far as the hard limit allows: a failure leaves the limit as
	 * it was, and the fleet says what that allows. */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		(void)setrlimit(RLIMIT_NOFILE, &rl);
	}
}

/* Descriptors open now (the directory's own not counted). */
static size_t fds_open(void)
{
	DIR *d = opendir("/proc/self/fd");
	size_t n = 0;

	if (!d)
		return 16;	/* no /proc: a guess, the reserve covers it */
	while (readdir(d))
		n++;
	closedir(d);
	return n > 3 ? n - 3 : 0;	/* ".", ".." and d's own */
}

/* The soft limit on open files (0: none). */
unsigned long long fleet_fd_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur == RLIM_INFINITY)
		return 0;
	return rl.rlim_cur;
}

/* How many hosts may be connected at once: each holds two pipes. */
size_t fleet_host_slots(size_t nhosts)
{
	unsigned long long lim = fleet_fd_limit(), used = fds_open() +
							FLEET_FD_RESERVE;

	if (!lim)
		return nhosts;
	size_t slots = lim > used ? (size_t)((lim - used) / 2) : 0;
	if (!slots)
		slots = 1;	/* one at a time, rather than none */
	return slots < nhosts ? slots : nhosts;
}
