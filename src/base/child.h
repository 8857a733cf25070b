/* Starting a child program: ssh for a host, npu-smi (and, later, what
 * the user asks plogtop to run). */
#ifndef PLOGTOP_CHILD_H
#define PLOGTOP_CHILD_H

#include <stddef.h>
#include <sys/types.h>

struct strbuf;

/* Starts argv (argv[0] looked up on PATH) with the given descriptors as
 * its stdin (in < 0: /dev/null), stdout and stderr, in a process group
 * of its own (a Ctrl-C meant for plogtop is not the child's, and killing
 * the group reaches whatever it started), with the signals plogtop
 * blocks or ignores given back as they were by default.  Returns 0 with
 * *pid set, or an errno value (*pid then 0). */
int child_spawn(pid_t *pid, char *const argv[], int in, int out, int err);
/* The same with envp as its environment (--exec's). */
int child_spawn_env(pid_t *pid, char *const argv[], char *const envp[],
		    int in, int out, int err);
/* What there is to read on a child's non-blocking *fd, kept up to max
 * bytes in sb (the rest read and let go, so that the child never blocks
 * on a full pipe); at its end *fd is closed and set to -1. */
void child_drain(int *fd, struct strbuf *sb, size_t max);

#endif
