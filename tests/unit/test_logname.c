/* File names as data: the [file NAME] sections of a rules file say which
 * names are of the plog family and where their stamp is; a bad section is
 * refused at its line; the shipped rules give the names of the CANN log
 * library the meaning they had when they were code. */
#include "config.h"

#include "unit.h"

#include "logname.h"
#include "rules_test.h"

#define PLOG_FILE							\
	"[file plog]\n"							\
	"match = plog-\\d+_(?<stamp>\\d+)\\.log\n"			\
	"sample = plog-4711_20260713113900000.log\n"

static void assert_refused(const char *text, unsigned long line,
			   const char *what)
{
	struct ruleset *rs = ruleset_new();

	assert_load_refused(rs, text, line, what);
	/* A refused file adds no name. */
	assert_int_equal(file_kind_of(ruleset_lognames(rs),
				      "plog-1_2.log"), FILE_MIXED);
	ruleset_free(rs);
}

static void test_bad_sections(void **state)
{
	(void)state;
	assert_refused("[file a]\nmatch = a(\nsample = a1.log\n", 2,
		       "bad pattern in rule");
	assert_refused("[file a]\nmatch = a\\d+\\.log\nsample = a1.log\n", 2,
		       "needs a group named stamp");
	assert_refused("[file a]\nmatch = a(?<stamp>\\d+)\\.log\n", 1,
		       "has no sample");
	assert_refused("[file a]\nsample = a1.log\n", 1, "has no match");
	assert_refused(PLOG_FILE "sample = plog-1_2.log.gz\n", 4,
		       "does not match its sample");
	assert_refused(PLOG_FILE "reject = plog-1_2.log\n", 4,
		       "matches a name it must reject");
	assert_refused(PLOG_FILE "code = EE1023\n", 4,
		       "cannot be used in a [file NAME] section");
	assert_refused(PLOG_FILE PLOG_FILE, 4, "defined twice");
	/* A stamp with nothing before it gives no family to group by. */
	assert_refused("[file a]\nmatch = (?<stamp>\\d+)\\.log\n"
		       "sample = 1.log\n", 3, "does not match its sample");
	assert_refused("[file a\nmatch = x\n", 1, "expected [file NAME]");
	/* A [file] section's error stops the file even when rules follow. */
	assert_refused("[file a]\nmatch = a(?<stamp>\\d+)\\.log\n"
		       "[rule b]\nmatch = x\nsample = x\n", 1, "has no sample");
}

/* What a name gives: kind, stamp and the stream it belongs to. */
static void test_names(void **state)
{
	(void)state;
	struct ruleset *rs = ruleset_new();
	struct strbuf err = STRBUF_INIT, key = STRBUF_INIT;
	struct logname ln;

	assert_int_equal(load(rs, PLOG_FILE, &err), 0);
	/* Names only: no rules, and none counted. */
	assert_int_equal(ruleset_count(rs), 0);
	const struct lognames *names = ruleset_lognames(rs);
	logname_parse(names, "/x/debug/plog/plog-4711_20260713113900000.log",
		      &ln);
	assert_int_equal(ln.kind, FILE_PLOG);
	assert_true(ln.stamp == 20260713113900000ull);
	logname_stream(names, &key, "/x/debug/plog/plog-4711_20260713113900000.log");
	assert_string_equal(sb_str(&key), "/x/debug/plog/plog-4711_");
	/* The whole name must match. */
	logname_parse(names, "plog-4711_2026.log.1", &ln);
	assert_int_equal(ln.kind, FILE_MIXED);
	assert_true(ln.stamp == 0);
	assert_int_equal(file_kind_of(names, "xplog-1_2.log"), FILE_MIXED);
	assert_int_equal(file_kind_of(names, "plog-1_2.log\n"), FILE_MIXED);
	/* Any other name is a stream of its own: the whole path. */
	sb_reset(&key);
	logname_stream(names, &key, "run/job.out");
	assert_string_equal(sb_str(&key), "run/job.out");
	/* No names at all (no rules): every file is captured output. */
	assert_int_equal(file_kind_of(NULL, "plog-1_2.log"), FILE_MIXED);
	sb_free(&key);
	sb_free(&err);
	ruleset_free(rs);
}

/* A later file replaces a section of the same name in place and adds
 * the others. */
static void test_replace(void **state)
{
	(void)state;
	struct ruleset *rs = ruleset_new();
	struct strbuf err = STRBUF_INIT;

	assert_int_equal(load(rs, PLOG_FILE, &err), 0);
	assert_int_equal(load(rs, "[file plog]\n"
			      "match = plog~\\d+~(?<stamp>\\d+)\\.txt\n"
			      "sample = plog~1~2.txt\n"
			      "[file job]\n"
			      "match = job-(?<stamp>\\d+)\\.log\n"
			      "sample = job-7.log\n", &err), 0);
	const struct lognames *names = ruleset_lognames(rs);
	assert_int_equal(lognames_count(names), 2);
	assert_int_equal(file_kind_of(names, "plog-1_2.log"), FILE_MIXED);
	assert_int_equal(file_kind_of(names, "plog~1~2.txt"), FILE_PLOG);
	assert_int_equal(file_kind_of(names, "job-7.log"), FILE_PLOG);
	sb_free(&err);
	ruleset_free(rs);
}

/* A caseless pattern matches names in either case: the first-byte
 * shortcut does not turn them away. */
static void test_caseless(void **state)
{
	(void)state;
	struct ruleset *rs = ruleset_new();
	struct strbuf err = STRBUF_INIT;

	assert_int_equal(load(rs, "[file a]\n"
			      "match = (?i)plog-\\d+_(?<stamp>\\d+)\\.log\n"
			      "sample = PLOG-1_2.LOG\n"
			      "[file b]\n"
			      "match = (?:job|Job)-(?<stamp>\\d+)\\.out\n"
			      "sample = job-1.out\n"
			      "[file c]\n"
			      "match = (?i)kernel-(?<stamp>\\d+)\\.log\n"
			      "sample = \xe2\x84\xaa" "ernel-1.log\n", &err), 0);
	const struct lognames *names = ruleset_lognames(rs);
	assert_int_equal(file_kind_of(names, "Plog-1_2.log"), FILE_PLOG);
	assert_int_equal(file_kind_of(names, "plog-1_2.log"), FILE_PLOG);
	assert_int_equal(file_kind_of(names, "job-1.out"), FILE_PLOG);
	assert_int_equal(file_kind_of(names, "Job-1.out"), FILE_PLOG);
	assert_int_equal(file_kind_of(names, "\xe2\x84\xaa" "ernel-1.log"),
			 FILE_PLOG);
	assert_int_equal(file_kind_of(names, "xjob-1.out"), FILE_MIXED);
	sb_free(&err);
	ruleset_free(rs);
}

/* The shipped names are those the C parser knew: plog-, device- and
 * host-<n>_<stamp>.log and the old plog_<stamp>.log, nothing else. */
static void test_shipped_names(void **state)
{
	(void)state;
	static const struct {
		const char *path, *stream;
		unsigned long long stamp;
	} plog[] = {
		{ "d/plog-4711_20260713113900000.log", "d/plog-4711_",
		  20260713113900000ull },
		{ "d/device-7000_20260902100000000.log", "d/device-7000_",
		  20260902100000000ull },
		{ "slog/host-0/host-0_20241102081300000.log",
		  "slog/host-0/host-0_", 20241102081300000ull },
		{ "slog/plog/plog_20241102081240116.log", "slog/plog/plog_",
		  20241102081240116ull },
		/* A compressed file's name without its suffix; an archive
		 * member's own name (follow_packed.c). */
		{ "d/plog-4711_2026.log.gz", "d/plog-4711_", 2026ull },
		{ "d/plog-4711_2027.log.zst", "d/plog-4711_", 2027ull },
		{ "b.tar.gz:debug/plog/plog-9_5.log", "b.tar.gz:debug/plog/plog-9_",
		  5ull },
		{ "x/b.tgz:plog-9_6.log", "x/b.tgz:plog-9_", 6ull },
		/* A stamp too long for 64 bits is clamped, as strtoull. */
		{ "plog-1_99999999999999999999999.log", "plog-1_",
		  18446744073709551615ull },
	};
	static const char *const other[] = {
		"plog-4711-1720000000.log", "plog-4711_2026.log.gz.1",
		"plog-4711_2026.log.bz2", "a:plog-9_6.log", "b.tar.gz",
		"plog-_2026.log", "plog-1_.log", "plog_.log", "plog-a_1.log",
		"device-0", "host-x_1.log", "notes.txt", "plog-1_2_3.log",
		"PLOG-1_2.log", "plog-\xd9\xa1_2.log",
	};
	struct ruleset *rs = ruleset_new();
	struct strbuf err = STRBUF_INIT, path = STRBUF_INIT,
		      key = STRBUF_INIT;

	unit_data_path(&path, "rules/plogtop.rules");
	if (ruleset_load(rs, sb_str(&path), &err) != 0)
		fail_msg("%s", sb_str(&err));
	const struct lognames *names = ruleset_lognames(rs);
	for (size_t i = 0; i < sizeof plog / sizeof plog[0]; i++) {
		struct logname ln;
		logname_parse(names, plog[i].path, &ln);
		if (ln.kind != FILE_PLOG || ln.stamp != plog[i].stamp)
			fail_msg("%s: kind %d stamp %llu", plog[i].path,
				 (int)ln.kind, ln.stamp);
		sb_reset(&key);
		logname_stream(names, &key, plog[i].path);
		assert_string_equal(sb_str(&key), plog[i].stream);
	}
	for (size_t i = 0; i < sizeof other / sizeof other[0]; i++)
		if (file_kind_of(names, other[i]) != FILE_MIXED)
			fail_msg("%s: read as plog", other[i]);
	sb_free(&key);
	sb_free(&path);
	sb_free(&err);
	ruleset_free(rs);
}

int main(void)
{
	cmocka_set_message_output(CM_OUTPUT_TAP);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_sections),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_replace),
		cmocka_unit_test(test_caseless),
		cmocka_unit_test(test_shipped_names),
	};
	return UNIT_RUN("logname", tests);
}
