/* When a live reader's chain closes (classifier_expire): how long it
 * waits after its last line for more, by what it holds (its API
 * boundary, a trailer after it) and by how its file is written
 * (classifier_set_settle), and that a trailer that comes after its chain
 * closed is not a new incident. */
#include "config.h"

#include "feed_harness.h"

#define FILE_A "debug/plog/plog-42017_20260709215200000.log"
#define DONE 50		/* quiet_done */
#define OPEN 2500	/* quiet_open */
#define T0 100000ULL	/* the arrival clock when the lines come */

/* The seed's stream chain, cut into its parts: the lines before the API
 * boundary, the boundary, the runtime's trailer and the ACL line. */
static const char HEAD[] =
	"[ERROR] RUNTIME(42017,rtstest_host):2026-07-09-21:52:24.482.347 [stream.cc:731]42017 Setup:Alloc Stream resource failed. Reason: Too many streams are created. ErrorCode=EE1023.\n"
	"[ERROR] RUNTIME(42017,rtstest_host):2026-07-09-21:52:24.482.377 [context.cc:1572]42017 StreamCreate:Setup stream failed, retCode=0x7020023.\n";
static const char BOUNDARY[] =
	"[ERROR] RUNTIME(42017,rtstest_host):2026-07-09-21:52:24.482.402 [api_c_stream.cc:85]42017 rtStreamCreateWithFlags:ErrCode=207005, desc=[driver error:resource alloc fail], InnerCode=0x7020023\n";
static const char FER[] =
	"[ERROR] RUNTIME(42017,rtstest_host):2026-07-09-21:52:24.482.405 [error_message_manage.cc:69]42017 FuncErrorReason:rtStreamCreateWithFlags execution failed, reason=driver error:resource alloc fail\n";
static const char ACL[] =
	"[ERROR] ASCENDCL(42017,rtstest_host):2026-07-09-21:52:24.482.431 [stream.cpp:120]42017 aclrtCreateStreamWithConfig:create stream failed, runtime result = 207005\n";

/* What the reader says of the file: settle_ms of a writer of whole
 * lines, 0 of one that cuts lines. */
struct pace {
	unsigned settle_ms;
	int asked;
};

static unsigned pace_of(void *ctx, const char *file)
{
	struct pace *p = ctx;

	assert_string_equal(file, FILE_A);
	p->asked++;
	return p->settle_ms;
}

/* Feeds text as having come at `at`, the last record given out for
 * quiet (its file has nothing more for now). */
static void arrive(struct harness *h, const char *text,
		   unsigned long long at)
{
	classifier_set_tick(h->c, at);
	feed(h, text);
	feeder_flush_quiet(h->f);
}

static void live(struct harness *h, struct pace *p)
{
	classifier_set_quiet(h->c, DONE, OPEN);
	if (p)
		classifier_set_settle(h->c, pace_of, p);
	open_file(h, FILE_A, FILE_PLOG);
}

/* Closes what is due at `at`; returns the incidents that came. */
static size_t expire_at(struct harness *h, unsigned long long at)
{
	size_t before = h->n;

	classifier_expire(h->c, at);
	return h->n - before;
}

static void test_whole_lines_trailer_settles(void **state)
{
	struct harness *h = *state;
	struct pace p = { 5, 0 };

	live(h, &p);
	arrive(h, HEAD, T0);
	arrive(h, BOUNDARY, T0);
	arrive(h, FER, T0);
	assert_int_equal(classifier_next_expiry(h->c), T0 + 5);
	assert_int_equal(expire_at(h, T0 + 4), 0);
	assert_int_equal(expire_at(h, T0 + 5), 1);
	assert_true(p.asked > 0);
	assert_int_equal(h->inc[0]->nlines, 4);
	assert_int_equal(classifier_open_chains(h->c), 0);
}

static void test_cut_lines_keep_quiet_done(void **state)
{
	struct harness *h = *state;
	struct pace p = { 0, 0 };

	live(h, &p);
	arrive(h, HEAD, T0);
	arrive(h, BOUNDARY, T0);
	arrive(h, FER, T0);
	assert_int_equal(classifier_next_expiry(h->c), T0 + DONE);
	assert_int_equal(expire_at(h, T0 + DONE - 1), 0);
	assert_int_equal(expire_at(h, T0 + DONE), 1);
}

static void test_without_settle_quiet_done(void **state)
{
	struct harness *h = *state;

	live(h, NULL);
	arrive(h, HEAD, T0);
	arrive(h, BOUNDARY, T0);
	arrive(h, FER, T0);
	assert_int_equal(classifier_next_expiry(h->c), T0 + DONE);
}

/* Still missing its trailer: the runtime writes FuncErrorReason after
 * every boundary, so the longer wait stays, whoever writes. */
static void test_boundary_without_trailer_waits(void **state)
{
	struct harness *h = *state;
	struct pace p = { 5, 0 };

	live(h, &p);
	arrive(h, HEAD, T0);
	arrive(h, BOUNDARY, T0);
	assert_int_equal(classifier_next_expiry(h->c), T0 + DONE);
	assert_int_equal(expire_at(h, T0 + 5), 0);
	/* The trailer in the next write, 20 ms on: the chain is whole. */
	arrive(h, FER, T0 + 20);
	arrive(h, ACL, T0 + 20);
	assert_int_equal(classifier_next_expiry(h->c), T0 + 25);
	assert_int_equal(expire_at(h, T0 + 25), 1);
	assert_int_equal(h->inc[0]->nlines, 5);
}

static void test_without_boundary_waits_open(void **state)
{
	struct harness *h = *state;
	struct pace p = { 5, 0 };

	live(h, &p);
	arrive(h, HEAD, T0);
	assert_int_equal(classifier_next_expiry(h->c), T0 + OPEN);
	assert_int_equal(expire_at(h, T0 + DONE), 0);
}

/* A trailer in the logger's next flush, after its chain closed: the
 * chain was one incident and stays one (the tombstone), the trailer is
 * not a second. */
static void test_late_trailer_after_settle_not_counted(void **state)
{
	struct harness *h = *state;
	struct pace p = { 5, 0 };

	live(h, &p);
	arrive(h, HEAD, T0);
	arrive(h, BOUNDARY, T0);
	arrive(h, FER, T0);
	assert_int_equal(expire_at(h, T0 + 5), 1);
	arrive(h, ACL, T0 + 200);
	assert_int_equal(expire_at(h, T0 + 200 + OPEN), 0);
	feeder_flush(h->f);
	classifier_flush(h->c);
	assert_int_equal(h->n, 1);
	assert_int_equal(h->inc[0]->nlines, 4);
}

int main(void)
{
	cmocka_set_message_output(CM_OUTPUT_TAP);
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_whole_lines_trailer_settles),
		T(test_cut_lines_keep_quiet_done),
		T(test_without_settle_quiet_done),
		T(test_boundary_without_trailer_waits),
		T(test_without_boundary_waits_open),
		T(test_late_trailer_after_settle_not_counted),
	};
#undef T
	return UNIT_RUN("chain_settle", tests);
}
