/* The bounded runner of --exec (runq.c): its bounds, with the clock the
 * caller gives (4 at once, 60 in a minute, 64 waiting, the rest held
 * back and counted), a command that fails and one that cannot start. */
#include "config.h"

#include "unit.h"

#include <signal.h>
#include <time.h>

#include "msglog.h"
#include "runq.h"
#include "xalloc.h"

static char **env_of(void)
{
	char **env = xcalloc(2, sizeof *env);

	env[0] = xstrdup("PATH=/usr/bin:/bin");
	return env;
}

static void add_jobs(struct runq *q, int n, unsigned long long now)
{
	for (int i = 0; i < n; i++)
		runq_add(q, xstrdup("{}\n"), 3, env_of(), xstrdup("job"), now);
}

/* Steps at the clock now until nothing runs (real time: the children
 * are real), at most 10 s. */
static void run_out(struct runq *q, unsigned long long now)
{
	struct timespec pause = { 0, 5000000 };

	for (int i = 0; i < 2000; i++) {
		runq_step(q, now);
		int t = runq_timeout(q, now);
		if (t < 0 || t > 1000)
			return;	/* idle, or waiting for the minute */
		nanosleep(&pause, NULL);
	}
	struct runq_counts c = runq_counts(q);
	fail_msg("the children did not end: started %llu failed %llu held %llu "
		 "timeout %d", c.started, c.failed, c.held_back,
		 runq_timeout(q, now));
}

static void test_bounds(void **state)
{
	struct msglog log;

	(void)state;
	signal(SIGPIPE, SIG_IGN);
	msglog_init(&log);
	msglog_attach(&log, 1);	/* kept, not written */
	assert_null(runq_new(" \t ", "--exec", &log));
	struct runq *q = runq_new("  cat  ", "--exec", &log);
	assert_non_null(q);
	/* 70 at once: 64 wait, 6 are held back at once. */
	add_jobs(q, 70, 1000);
	struct runq_counts c = runq_counts(q);
	assert_int_equal(c.held_back, 6);
	assert_int_equal(c.started, 0);
	/* Within the minute: 60 start, 4 wait for the next one. */
	run_out(q, 1000);
	c = runq_counts(q);
	assert_int_equal(c.started, 60);
	assert_int_equal(c.failed, 0);
	/* Next due: the "held back" message (at most every 10 s), then the
	 * minute. */
	assert_int_equal(runq_timeout(q, 1000), 10000);
	runq_step(q, 11000);
	assert_int_equal(runq_timeout(q, 11000), 50000);
	/* A minute later the rest start. */
	run_out(q, 61000);
	c = runq_counts(q);
	assert_int_equal(c.started, 64);
	assert_int_equal(runq_timeout(q, 61000), -1);
	runq_finish(q, 0);
	assert_int_equal(runq_counts(q).held_back, 6);
	runq_free(q);
	msglog_free(&log);
}

static void test_failures(void **state)
{
	struct msglog log;

	(void)state;
	msglog_init(&log);
	msglog_attach(&log, 1);
	struct runq *q = runq_new("false", "--exec", &log);
	add_jobs(q, 2, 0);
	run_out(q, 0);
	assert_int_equal(runq_counts(q).failed, 2);
	runq_free(q);
	q = runq_new("/nonexistent/command x", "--exec", &log);
	add_jobs(q, 1, 0);
	run_out(q, 0);
	assert_int_equal(runq_counts(q).failed, 1);
	runq_free(q);
	int said = 0;
	for (size_t i = 0; msglog_get(&log, i); i++) {
		const char *t = msglog_get(&log, i)->text;
		said += strstr(t, "false exited with status 1") != NULL;
		said += strstr(t, "cannot run /nonexistent/command: No such "
			       "file or directory") != NULL;
	}
	assert_true(said >= 2);
	msglog_free(&log);
}

int main(void)
{
	cmocka_set_message_output(CM_OUTPUT_TAP);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bounds),
		cmocka_unit_test(test_failures),
	};
	return UNIT_RUN("runq", tests);
}
