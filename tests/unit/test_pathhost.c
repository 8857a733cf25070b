/* The node and the job from a file's path (classify/pathhost.c): the
 * built-in layouts of MindCluster's shared storage, the look-alikes they
 * must not take, and a user's pattern. */
#include "config.h"

#include <string.h>

#include "unit.h"

#include "pathhost.h"

/* path names host and job ("" for none) by rule, or nothing (host
 * NULL). */
static void expect(const struct pathhost *ph, const char *path,
		   const char *host, const char *job, const char *rule,
		   const char *origin)
{
	struct pathhost_match pm;
	int got = pathhost_match(ph, path, &pm);

	if (!host) {
		if (got)
			fail_msg("%s: named host %s", path, pm.host);
		return;
	}
	if (!got)
		fail_msg("%s: named no host", path);
	assert_string_equal(pm.host, host);
	assert_string_equal(pm.job, job);
	assert_string_equal(pm.rule, rule);
	if (origin && (strlen(origin) != pm.origin_len ||
		       strncmp(path, origin, pm.origin_len) != 0))
		fail_msg("%s: origin %.*s, not %s", path, (int)pm.origin_len,
			 path, origin);
}

static void test_layouts(void **state)
{
	(void)state;
	struct strbuf err = STRBUF_INIT;
	struct pathhost *ph = pathhost_new(NULL, &err);

	expect(ph, "/s/job/logs/task-42/plogs/10.0.0.5/run/plog/plog-1_2.log",
	       "10.0.0.5", "task-42", "layout:TASK/plogs/IP",
	       "/s/job/logs/task-42/plogs/10.0.0.5");
	expect(ph, "/s/logs/10.0.0.6/plogs/task-42/debug/plog/plog-1_2.log",
	       "10.0.0.6", "task-42", "layout:IP/plogs/TASK",
	       "/s/logs/10.0.0.6");
	expect(ph, "/s/logs/plogs/10.0.0.7/security/plog/plog-1_2.log",
	       "10.0.0.7", "", "layout:plogs/IP", NULL);
	/* A job-name directory under the IP. */
	expect(ph, "/s/task-7/plogs/10.0.0.8/llama/run/plog/plog-1_2.log",
	       "10.0.0.8", "task-7", "layout:TASK/plogs/IP", NULL);
	/* The top-level copy beside run/ and debug/. */
	expect(ph, "/s/task-7/plogs/10.0.0.8/plog-1_2.log", "10.0.0.8",
	       "task-7", "layout:TASK/plogs/IP", NULL);
	/* IPv6, and plog (not plogs) as the word. */
	expect(ph, "/s/plog/fd00::5/plog-1_2.log", "fd00::5", "",
	       "layout:plog/IP", NULL);
	/* Relative paths as given on the command line. */
	expect(ph, "logs/10.0.0.9/plogs/run/plog/plog-1_2.log", "10.0.0.9",
	       "", "layout:IP/plogs", NULL);
	/* An archive's member (ARCHIVE:MEMBER). */
	expect(ph, "/b/job.tar.gz:task-9/plogs/10.0.0.1/run/plog/plog-1_2.log",
	       "10.0.0.1", "task-9", "layout:TASK/plogs/IP",
	       "/b/job.tar.gz:task-9/plogs/10.0.0.1");
	/* Look-alikes: an NFS mount point, an address not beside the word,
	 * the word as a file's name, a number that is no address. */
	expect(ph, "/mnt/10.0.0.9/run/plog/plog-1_2.log", NULL, NULL, NULL,
	       NULL);
	expect(ph, "/mnt/10.0.0.9/x/plogs/y/plog-1_2.log", NULL, NULL, NULL,
	       NULL);
	expect(ph, "/mnt/plogs/10.0.0.9", NULL, NULL, NULL, NULL);
	expect(ph, "/s/plogs/10.0.0.300/plog-1_2.log", NULL, NULL, NULL, NULL);
	expect(ph, "/s/plogs/10.0.0/plog-1_2.log", NULL, NULL, NULL, NULL);
	/* Plain directories are no task: no digit, or a word of the
	 * layout's own. */
	expect(ph, "/s/shared/plogs/10.1.0.1/run/plog/plog-1_2.log",
	       "10.1.0.1", "", "layout:plogs/IP", NULL);
	expect(ph, "/s/10.1.0.2/plogs/device-3/plog-1_2.log", "10.1.0.2", "",
	       "layout:IP/plogs", NULL);
	expect(ph, "/s/10.1.0.3/plogs/10.1.0.4/plog-1_2.log", "10.1.0.4", "",
	       "layout:plogs/IP", NULL);
	pathhost_free(ph);
	sb_free(&err);
}

static void test_pattern(void **state)
{
	(void)state;
	struct strbuf err = STRBUF_INIT;
	struct pathhost *ph = pathhost_new(
		"/nodes/(?<host>[^/]+)/(?<job>j[0-9]+)/", &err);

	assert_non_null(ph);
	expect(ph, "/nodes/worker-1/j9/plog-1_2.log", "worker-1", "j9",
	       PATHHOST_PATTERN_RULE, "/nodes/worker-1");
	/* The pattern replaces the layouts. */
	expect(ph, "/s/task-42/plogs/10.0.0.5/plog-1_2.log", NULL, NULL, NULL,
	       NULL);
	pathhost_free(ph);
	ph = pathhost_new("/n/(?<host>[a-z]*)x", &err);
	expect(ph, "/n/x/plog-1_2.log", NULL, NULL, NULL, NULL);	/* empty */
	expect(ph, "/n/ax/plog-1_2.log", "a", "", PATHHOST_PATTERN_RULE,
	       NULL);
	pathhost_free(ph);
	ph = pathhost_new("none", &err);
	expect(ph, "/s/task-42/plogs/10.0.0.5/plog-1_2.log", NULL, NULL, NULL,
	       NULL);
	pathhost_free(ph);
	assert_int_equal(err.len, 0);
	assert_null(pathhost_new("(?<host>", &err));
	assert_non_null(strstr(err.buf, "bad --host-from-path pattern"));
	sb_reset(&err);
	assert_null(pathhost_new("/n/(?<node>[^/]+)/", &err));
	assert_non_null(strstr(err.buf, "no group named host"));
	sb_free(&err);
}

int main(void)
{
	cmocka_set_message_output(CM_OUTPUT_TAP);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layouts),
		cmocka_unit_test(test_pattern),
	};
	return UNIT_RUN("pathhost", tests);
}
