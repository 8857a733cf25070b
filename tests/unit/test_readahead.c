/* Reading ahead (src/read/readahead.h): records come out in the order they
 * were made, with and without the thread; the last one stays; the ring is
 * bounded, so the producer is never more than its slots ahead; stopping
 * in the middle ends the thread. */
#include "config.h"

#include <stdlib.h>

#include "unit.h"

#include "readahead.h"

struct counter {
	int made;	/* records made */
	int total;	/* DATA records before the last */
	int fail;	/* the last is RA_ERROR, not RA_END */
};

static void produce(void *ctx, struct ra_record *r, size_t chunk)
{
	struct counter *c = ctx;

	if (c->made == c->total) {
		r->kind = c->fail ? RA_ERROR : RA_END;
		if (c->fail)
			sb_adds(&r->text, "broken");
	} else {
		r->kind = RA_DATA;
		r->len = (size_t)c->made % chunk + 1;
		memset(r->buf, 'a' + c->made % 26, r->len);
	}
	c->made++;
}

static void read_all(int threaded, int fail)
{
	struct counter c = { 0, 500, fail };
	struct readahead *ra = readahead_start(produce, &c, 3, 7, threaded);

	for (int i = 0; i < 500; i++) {
		struct ra_record *r = readahead_peek(ra);
		assert_int_equal(r->kind, RA_DATA);
		assert_int_equal(r->len, (size_t)i % 7 + 1);
		assert_int_equal(r->buf[r->len - 1], 'a' + i % 26);
		readahead_pop(ra);
	}
	struct ra_record *r = readahead_peek(ra);
	assert_int_equal(r->kind, fail ? RA_ERROR : RA_END);
	if (fail)
		assert_string_equal(sb_str(&r->text), "broken");
	readahead_pop(ra);	/* the last record stays */
	assert_ptr_equal(readahead_peek(ra), r);
	readahead_stop(ra);
	assert_int_equal(c.made, 501);
}

static void test_order(void **state)
{
	(void)state;
	read_all(0, 0);
	read_all(1, 0);
	read_all(0, 1);
	read_all(1, 1);
}

/* The reader stops after two records of a long archive: the producer had
 * made at most the ring's worth beyond them, and the thread ends. */
static void test_stop(void **state)
{
	(void)state;
	struct counter c = { 0, 1000000, 0 };
	struct readahead *ra = readahead_start(produce, &c, 4, 16, 1);

	readahead_peek(ra);
	readahead_pop(ra);
	readahead_peek(ra);
	readahead_pop(ra);
	readahead_stop(ra);
	assert_true(c.made >= 2);
	assert_true(c.made <= 2 + 4);

	/* Stopped before anything was taken, and unthreaded: nothing lost. */
	c.made = 0;
	readahead_stop(readahead_start(produce, &c, 4, 16, 1));
	assert_true(c.made <= 4);
	c.made = 0;
	readahead_stop(readahead_start(produce, &c, 4, 16, 0));
	assert_int_equal(c.made, 0);
}

static void test_wanted(void **state)
{
	(void)state;
	setenv("PLOGTOP_THREADS", "1", 1);
	assert_false(readahead_wanted());
	setenv("PLOGTOP_THREADS", "2", 1);
	assert_true(readahead_wanted());
	unsetenv("PLOGTOP_THREADS");
}

int main(void)
{
	cmocka_set_message_output(CM_OUTPUT_TAP);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_stop),
		cmocka_unit_test(test_wanted),
	};
	return UNIT_RUN("readahead", tests);
}
