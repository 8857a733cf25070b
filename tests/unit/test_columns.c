/* The column engine the process and host tables share (columns.c):
 * which columns fit and where, what goes first when the terminal is
 * narrow, the growing column, clicks and scrolling. */
#include "config.h"

#include "unit.h"

#include "columns.h"

/* Four columns as a table would have them: NAME grows, B goes before
 * C (higher drop), C before nothing else, A never. */
static const struct col_spec spec[] = {
	{ "A", 3, 0, 0, 0 },
	{ "NAME", 4, 0, 0, 10 },
	{ "B", 5, 1, 2, 0 },
	{ "C", 5, 1, 1, 0 },
	{ "LONGHEAD", 2, 0, 0, 0 },
};
#define N ((int)(sizeof spec / sizeof spec[0]))

static void test_all_fit(void **state)
{
	(void)state;
	struct col_layout l;
	int want[N] = { 0 };

	/* 3 4 5 5 8 and four spaces: 29 columns; 34 leave 5 to grow. */
	cols_layout(&l, spec, N, want, 34);
	assert_int_equal(l.n, 5);
	assert_int_equal(l.x[0], 0);
	assert_int_equal(l.w[0], 3);
	assert_int_equal(l.x[1], 4);
	assert_int_equal(l.w[1], 9);		/* 4 + the 5 left */
	assert_int_equal(l.x[2], 14);
	assert_int_equal(l.w[4], 8);		/* as wide as its head */
	assert_int_equal(l.at[3], 3);
}

static void test_growth_stops_at_its_limit(void **state)
{
	(void)state;
	struct col_layout l;
	int want[N] = { 0 };

	cols_layout(&l, spec, N, want, 200);
	assert_int_equal(l.w[1], 10);
}

static void test_narrow_drops_by_priority(void **state)
{
	(void)state;
	struct col_layout l;
	int want[N] = { 0 };

	/* 29 do not fit in 25: B (drop 2) goes first, C stays. */
	cols_layout(&l, spec, N, want, 25);
	assert_int_equal(l.n, 4);
	assert_int_equal(l.at[2], -1);
	assert_int_equal(l.at[3], 2);
	/* In 18 C goes too; A, NAME and LONGHEAD never. */
	cols_layout(&l, spec, N, want, 18);
	assert_int_equal(l.n, 3);
	assert_int_equal(l.shown[0], 0);
	assert_int_equal(l.shown[1], 1);
	assert_int_equal(l.shown[2], 4);
	cols_layout(&l, spec, N, want, 5);
	assert_int_equal(l.n, 3);
}

static void test_data_widths_and_hidden(void **state)
{
	(void)state;
	struct col_layout l;
	int want[N] = { 7, 0, -1, 0, 0 };

	/* A as wide as its data; B left out (a HOST column without hosts). */
	cols_layout(&l, spec, N, want, 200);
	assert_int_equal(l.n, 4);
	assert_int_equal(l.w[0], 7);
	assert_int_equal(l.at[2], -1);
	assert_int_equal(l.x[2], 8 + 11);	/* C after A and NAME */
}

static void test_click_and_scroll(void **state)
{
	(void)state;
	struct col_layout l;
	int want[N] = { 0 };
	size_t top = 0;

	cols_layout(&l, spec, N, want, 34);
	assert_int_equal(cols_at(&l, 0), 0);
	assert_int_equal(cols_at(&l, 3), 0);	/* the space after it */
	assert_int_equal(cols_at(&l, 4), 1);
	assert_int_equal(cols_at(&l, 200), -1);
	cols_scroll(12, &top, 10);
	assert_int_equal(top, 3);
	cols_scroll(1, &top, 10);
	assert_int_equal(top, 1);
	cols_scroll(5, &top, 0);
	assert_int_equal(top, 1);
}

int main(void)
{
	cmocka_set_message_output(CM_OUTPUT_TAP);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_all_fit),
		cmocka_unit_test(test_growth_stops_at_its_limit),
		cmocka_unit_test(test_narrow_drops_by_priority),
		cmocka_unit_test(test_data_widths_and_hidden),
		cmocka_unit_test(test_click_and_scroll),
	};
	return UNIT_RUN("columns", tests);
}
