/* The fingerprint table of copies (model_dedupe.c): the same chain from
 * another file of the same name is dropped and listed, from the same file
 * it is counted; --once keeps fingerprints only of names the plan found
 * twice; the live modes keep them over a window of log time, bounded. */
#include "config.h"

#include "unit.h"

#include "model_test.h"

#define HOUR_USEC 3600000000LL
/* 2026-03-01, in the past of any clock that runs these tests. */
#define T0 (1772323200LL * 1000000)

static unsigned long long fake_now;

static unsigned long long fake_clock(void)
{
	return fake_now;
}

/* A chain of pid 100 starting at t in file (line 1), its first line
 * text. */
static struct incident *chain(logtime_t t, const char *file,
			      const char *text)
{
	struct incident *inc = make(100, "python3", RES_STREAM, t, file);

	inc->tid = 101;
	inc->raw = xcalloc(1, sizeof *inc->raw);
	inc->raw[0] = (struct rawline){ file, 1, xstrdup(text) };
	inc->nraw = 1;
	return inc;
}

static const char *L1 = "[ERROR] RUNTIME(100,python3):2026-03-01-00:00:00.000100 [stream.cc:731]101 Setup:Alloc Stream resource failed.";

static void test_once_keeps_only_expected_names(void **state)
{
	struct model m;

	(void)state;
	model_init(&m);
	/* Nothing expected: a tree without copies keeps no fingerprint. */
	assert_int_equal(model_add(&m, chain(T0, "/a/plog-1.log", L1),
				   READ_BEFORE), 1);
	assert_int_equal(model_add(&m, chain(T0, "/b/plog-1.log", L1),
				   READ_BEFORE), 1);
	assert_int_equal(model_dedupe_size(&m), 0);
	assert_int_equal(m.n, 2);
	model_free(&m);

	model_init(&m);
	model_dedupe_expect(&m, "/b/plog-1.log");
	assert_int_equal(model_add(&m, chain(T0, "/a/plog-1.log", L1),
				   READ_BEFORE), 1);
	/* A copy (another directory, or compressed): dropped, listed. */
	assert_int_equal(model_add(&m, chain(T0, "/b/plog-1.log", L1),
				   READ_BEFORE), 0);
	assert_int_equal(model_add(&m, chain(T0, "/c/plog-1.log.gz", L1),
				   READ_BEFORE), 0);
	assert_int_equal(m.n, 1);
	assert_int_equal(m.duplicates_total, 2);
	assert_string_equal(m.duplicates[0].file, "/b/plog-1.log");
	assert_string_equal(m.duplicates[0].kept_file, "/a/plog-1.log");
	assert_int_equal(m.duplicates[0].kept_line, 1);
	/* The same file again: another failure (a retry loop). */
	assert_int_equal(model_add(&m, chain(T0, "/a/plog-1.log", L1),
				   READ_BEFORE), 1);
	/* Another text, thread or time: another chain. */
	assert_int_equal(model_add(&m, chain(T0, "/b/plog-1.log", "other"),
				   READ_BEFORE), 1);
	assert_int_equal(model_add(&m, chain(T0 + 1, "/b/plog-1.log", L1),
				   READ_BEFORE), 1);
	struct incident *t = chain(T0, "/b/plog-1.log", L1);
	t->tid = 102;
	assert_int_equal(model_add(&m, t, READ_BEFORE), 1);
	assert_int_equal(m.n, 5);
	assert_int_equal(m.duplicates_total, 2);
	model_free(&m);
}

static void test_archive_expects_every_name(void **state)
{
	struct model m;

	(void)state;
	model_init(&m);
	model_dedupe_expect(&m, NULL);
	model_add(&m, chain(T0, "/a/plog-1.log", L1), READ_BEFORE);
	model_add(&m, chain(T0, "/x.tar.gz:debug/plog/plog-1.log", L1),
		  READ_BEFORE);
	assert_int_equal(m.n, 1);
	assert_int_equal(m.duplicates_total, 1);
	/* Another name is not a copy. */
	model_add(&m, chain(T0, "/a/plog-2.log", L1), READ_BEFORE);
	assert_int_equal(m.n, 2);
	model_free(&m);
}

static void test_hosts_by_name(void **state)
{
	struct model m;
	char h1[] = "10.0.0.5", h1again[] = "10.0.0.5", h2[] = "10.0.0.6";

	(void)state;
	model_init(&m);
	model_dedupe_expect(&m, "/a/plog-1.log");
	struct incident *a = chain(T0, "/a/plog-1.log", L1);
	a->host = h1;
	model_add(&m, a, READ_BEFORE);
	/* Another node's chain of the same pid and time: another failure. */
	struct incident *b = chain(T0, "/b/plog-1.log", L1);
	b->host = h2;
	assert_int_equal(model_add(&m, b, READ_BEFORE), 1);
	/* The first node's again, its name in another string: a copy. */
	struct incident *c = chain(T0, "/c/plog-1.log", L1);
	c->host = h1again;
	assert_int_equal(model_add(&m, c, READ_BEFORE), 0);
	/* The same chain read locally (no host) is not the node's. */
	assert_int_equal(model_add(&m, chain(T0, "/d/plog-1.log", L1),
				   READ_BEFORE), 1);
	assert_int_equal(m.duplicates_total, 1);
	model_free(&m);
}

static void test_live_window(void **state)
{
	struct model m;

	(void)state;
	model_init(&m);
	model_set_live(&m, 10);
	fake_now = 1000;
	m.clock_ms = fake_clock;
	/* The history: every fingerprint kept while it is read. */
	for (int i = 0; i < 100; i++)
		model_add(&m, chain(T0 + i * 1000000LL, "/a/plog-1.log", L1),
			  READ_BEFORE);
	assert_int_equal(model_dedupe_size(&m), 100);
	/* Two hours later, as written: what is an hour behind goes. */
	model_add(&m, chain(T0 + 2 * HOUR_USEC, "/a/plog-1.log", L1),
		  READ_AS_WRITTEN);
	assert_int_equal(model_dedupe_size(&m), 1);
	/* A copy of an old chain is counted again (documented); one of a
	 * recent chain is not. */
	assert_int_equal(model_add(&m, chain(T0, "/b/plog-1.log", L1),
				   READ_AS_WRITTEN), 1);
	assert_int_equal(model_add(&m, chain(T0 + 2 * HOUR_USEC,
					     "/b/plog-1.log", L1),
				   READ_AS_WRITTEN), 0);
	assert_int_equal(m.duplicates_total, 1);
	model_free(&m);
}

static void test_listed_bounded_and_merged(void **state)
{
	struct model m, h;
	struct scan_part part;

	(void)state;
	model_init(&m);
	model_init(&h);
	for (int i = 0; i < MODEL_LISTED + 5; i++)
		model_duplicate(&h, "/b/plog-1.log", (unsigned long)i + 1,
				"/a/plog-1.log", (unsigned long)i + 1);
	assert_int_equal(h.nduplicates, MODEL_LISTED);
	assert_int_equal(h.duplicates_total, MODEL_LISTED + 5);
	model_scan_part(&h, &part);
	model_merge_scan(&m, &part, "node1");
	assert_int_equal(m.duplicates_total, MODEL_LISTED + 5);
	assert_int_equal(m.nduplicates, MODEL_LISTED);
	assert_string_equal(m.duplicates[0].file, "node1:/b/plog-1.log");
	assert_string_equal(m.duplicates[0].kept_file, "node1:/a/plog-1.log");
	model_free(&h);
	model_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_once_keeps_only_expected_names),
		cmocka_unit_test(test_archive_expects_every_name),
		cmocka_unit_test(test_hosts_by_name),
		cmocka_unit_test(test_live_window),
		cmocka_unit_test(test_listed_bounded_and_merged),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return unit_run_tap("dedupe", tests, sizeof tests / sizeof tests[0]);
}
