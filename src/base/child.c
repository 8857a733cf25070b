#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <unistd.h>

#include "child.h"
#include "strbuf.h"

extern char **environ;

static int file_actions(posix_spawn_file_actions_t *fa, int in, int out,
			int err)
{
	int rc = in < 0
		 ? posix_spawn_file_actions_addopen(fa, 0, "/dev/null",
						    O_RDONLY, 0)
		 : posix_spawn_file_actions_adddup2(fa, in, 0);

	if (!rc)
		rc = posix_spawn_file_actions_adddup2(fa, out, 1);
	if (!rc)
		rc = posix_spawn_file_actions_adddup2(fa, err, 2);
	return rc;
}

static int attributes(posix_spawnattr_t *at)
{
	sigset_t none, dfl;
	int rc;

	sigemptyset(&none);
	/* plogtop blocks the signals that end it (they come through its
	 * signalfd) and ignores SIGPIPE: the child gets them back. */
	sigemptyset(&dfl);
	sigaddset(&dfl, SIGPIPE);
	sigaddset(&dfl, SIGINT);
	sigaddset(&dfl, SIGTERM);
	sigaddset(&dfl, SIGHUP);
	if (!(rc = posix_spawnattr_setsigmask(at, &none)) &&
	    !(rc = posix_spawnattr_setsigdefault(at, &dfl)) &&
	    !(rc = posix_spawnattr_setpgroup(at, 0)))
		rc = posix_spawnattr_setflags(at, POSIX_SPAWN_SETSIGMASK |
					      POSIX_SPAWN_SETSIGDEF |
					      POSIX_SPAWN_SETPGROUP);
	return rc;
}

int child_spawn(pid_t *pid, char *const argv[], int in, int out, int err)
{
	return child_spawn_env(pid, argv, environ, in, out, err);
}

int child_spawn_env(pid_t *pid, char *const argv[], char *const envp[],
		    int in, int out, int err)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	int rc;

	*pid = 0;
	if ((rc = posix_spawn_file_actions_init(&fa)) != 0)
		return rc;
	if ((rc = posix_spawnattr_init(&at)) != 0) {
		posix_spawn_file_actions_destroy(&fa);
		return rc;
	}
	if (!(rc = file_actions(&fa, in, out, err)) &&
	    !(rc = attributes(&at)))
		rc = posix_spawnp(pid, argv[0], &fa, &at, argv, envp);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	if (rc)
		*pid = 0;
	return rc;
}

void child_drain(int *fd, struct strbuf *sb, size_t max)
{
	char buf[16384];

	while (*fd >= 0) {
		ssize_t n = read(*fd, buf, sizeof buf);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		if (n <= 0) {
			close(*fd);
			*fd = -1;
			return;
		}
		size_t keep = sb->len < max ? max - sb->len : 0;
		sb_add(sb, buf, (size_t)n < keep ? (size_t)n : keep);
	}
}
