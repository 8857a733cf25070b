/* The column engine the process and host tables share (columns.c):
 * which columns fit and where, what goes first when the terminal is
 * narrow, the growing column, clicks and scrolling. */
#include "config.h"

#include "unit.h"

#include "columns.h"
#include "dash_int.h"

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

/* The process table (dash_table.c's proc_layout) in the order columns.c
 * documents: TREND, ALIVE, HOST shortened to 6, RANK, DEV, then the
 * resource columns from the right. */
static int shown(const struct col_layout *l, enum col_id c)
{
	return l->at[c] >= 0;
}

static void test_process_table_80_with_host_dev_rank(void **state)
{
	(void)state;
	struct col_layout l;

	/* A 6-cell host, 7-digit pids, a device and a rank: all but TREND
	 * and ALIVE hold in 80. */
	proc_layout(&l, 6, 7, 1, 1, 80);
	assert_true(shown(&l, C_HOST) && shown(&l, C_DEV) && shown(&l, C_RANK));
	for (int c = C_RES0; c < C_TOTAL; c++)
		assert_true(shown(&l, (enum col_id)c));
	assert_true(shown(&l, C_PID) && shown(&l, C_NAME) &&
		    shown(&l, C_TOTAL) && shown(&l, C_LAST));
	assert_false(shown(&l, C_TREND));
	assert_false(shown(&l, C_ALIVE));
	assert_true(l.x[l.n - 1] + l.w[l.n - 1] <= 80);
	/* A 12-cell host shortens to 6 rather than lose RANK. */
	proc_layout(&l, 12, 7, 1, 1, 80);
	assert_true(shown(&l, C_DEV) && shown(&l, C_RANK));
	assert_int_equal(l.w[l.at[C_HOST]], 6);
	/* Narrower: RANK goes before DEV, both before a resource column. */
	proc_layout(&l, 6, 7, 1, 1, 79);
	assert_false(shown(&l, C_RANK));
	assert_true(shown(&l, C_DEV));
	assert_true(shown(&l, C_TOTAL - 1));
	proc_layout(&l, 6, 7, 1, 1, 74);
	assert_false(shown(&l, C_DEV));
	assert_true(shown(&l, C_TOTAL - 1));
	proc_layout(&l, 6, 7, 1, 1, 70);
	assert_false(shown(&l, C_TOTAL - 1));	/* the rightmost resource */
	assert_true(shown(&l, C_RES0));
}

static void test_process_table_without_identity(void **state)
{
	(void)state;
	struct col_layout l;

	/* No device, no rank: no DEV, no RANK; local input in 80 keeps
	 * ALIVE and loses only TREND, as before them. */
	proc_layout(&l, -1, 7, -1, -1, 80);
	assert_false(shown(&l, C_DEV) || shown(&l, C_RANK) ||
		     shown(&l, C_HOST));
	assert_true(shown(&l, C_ALIVE));
	assert_false(shown(&l, C_TREND));
	proc_layout(&l, -1, 7, -1, -1, 120);
	assert_true(shown(&l, C_TREND));
	/* With DEV and RANK, local input in 80 still keeps ALIVE. */
	proc_layout(&l, -1, 7, 1, 2, 80);
	assert_true(shown(&l, C_ALIVE) && shown(&l, C_DEV) &&
		    shown(&l, C_RANK));
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
		cmocka_unit_test(test_process_table_80_with_host_dev_rank),
		cmocka_unit_test(test_process_table_without_identity),
	};
	return UNIT_RUN("columns", tests);
}
