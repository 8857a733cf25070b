/* What every unit test program shares: cmocka, the path of the data files
 * in the source tree, and a runner whose TAP the Automake driver reads
 * right. */
#ifndef PLOGTOP_TESTS_UNIT_H
#define PLOGTOP_TESTS_UNIT_H

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "strbuf.h"

#ifndef TOP_SRCDIR
#define TOP_SRCDIR "."
#endif

/* The path of a data file (e.g. "rules/plogtop.rules"): under
 * $PLOGTOP_DATADIR, which the test harness sets to the source tree, else
 * under the source tree this test was built from. */
static inline void unit_data_path(struct strbuf *out, const char *rel)
{
	const char *dir = getenv("PLOGTOP_DATADIR");

	if (!dir || !*dir)
		dir = TOP_SRCDIR;
	sb_reset(out);
	sb_addf(out, "%s/%s", dir, rel);
}

/* main() calls cmocka_set_message_output(CM_OUTPUT_TAP) first.
 * cmocka 1.1.5 prints a skipped test as "not ok N # SKIP", which TAP
 * (and Automake's tap-driver.sh) counts as a failure; later cmocka
 * releases print "ok N # SKIP".  The tests run in a child whose output
 * is copied with that one line corrected; everything else passes as is. */
static inline int unit_run_tap(const char *name, const struct CMUnitTest *t,
			       size_t n)
{
	int fds[2];

	fflush(stdout);
	if (pipe(fds) < 0) {
		perror("pipe");
		return 99;
	}
	pid_t pid = fork();
	if (pid < 0) {
		perror("fork");
		return 99;
	}
	if (pid == 0) {
		close(fds[0]);
		dup2(fds[1], STDOUT_FILENO);
		close(fds[1]);
		int failed = _cmocka_run_group_tests(name, t, n, NULL, NULL);
		fflush(stdout);
		_exit(failed ? 1 : 0);
	}
	close(fds[1]);
	FILE *in = fdopen(fds[0], "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	while ((len = getline(&line, &cap, in)) > 0) {
		if (strncmp(line, "not ok ", 7) == 0 && strstr(line, " # SKIP"))
			fputs(line + 4, stdout);
		else
			fwrite(line, 1, (size_t)len, stdout);
		fflush(stdout);
	}
	free(line);
	fclose(in);
	int status;
	pid_t w;
	do
		w = waitpid(pid, &status, 0);
	while (w < 0 && errno == EINTR);
	if (w < 0) {
		perror("waitpid");
		return 99;
	}
	if (WIFSIGNALED(status)) {
		printf("Bail out! %s: killed by signal %d\n", name,
		       WTERMSIG(status));
		return 1;
	}
	return WEXITSTATUS(status);
}

/* Runs a group of tests, printing TAP on standard output. */
#define UNIT_RUN(name, tests) \
	unit_run_tap((name), (tests), sizeof(tests) / sizeof((tests)[0]))

#endif
