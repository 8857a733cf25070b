/* npusmi: npu-smi's info text (the layouts of tests/fake-npu-smi/, and
 * hostile bytes) becomes chips, processes and idle NPUs, bounded; each
 * chip family gets the documents' limits. */
#include "config.h"

#include "unit.h"

#include "npusmi.h"
#include "xalloc.h"

static struct npu_table t;

static void read_fixture(const char *name, struct strbuf *out)
{
	struct strbuf path = STRBUF_INIT;
	char buf[4096];
	size_t n;

	sb_addf(&path, "%s/tests/fake-npu-smi/%s", TOP_SRCDIR, name);
	FILE *f = fopen(path.buf, "r");
	assert_non_null(f);
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		sb_add(out, buf, n);
	fclose(f);
	sb_free(&path);
}

static int parse_str(const char *s)
{
	return npusmi_parse(s, strlen(s), &t);
}

static void test_several_chips_and_processes(void **state)
{
	struct strbuf in = STRBUF_INIT;

	(void)state;
	read_fixture("info-910b.txt", &in);
	assert_int_equal(npusmi_parse(in.buf, in.len, &t), 0);
	assert_int_equal(t.nchips, 3);
	assert_int_equal(t.chips[0].npu, 0);
	assert_int_equal(t.chips[0].chip, 0);
	assert_string_equal(t.chips[0].name, "910B3");
	assert_int_equal(t.chips[2].npu, 3);
	assert_string_equal(t.chips[2].name, "910B3");
	assert_int_equal(t.nprocs, 3);
	assert_int_equal(t.procs[0].npu, 0);
	assert_int_equal(t.procs[0].pid, 124528);
	assert_string_equal(t.procs[0].name, "python3.8");
	assert_int_equal(t.procs[0].mem_mb, 17400);
	assert_int_equal(t.procs[1].npu, 3);
	assert_int_equal(t.procs[1].pid, 200104);
	assert_int_equal(t.procs[2].pid, 200999);
	assert_int_equal(t.procs[2].mem_mb, 16950);
	assert_int_equal(t.nidle, 1);
	assert_int_equal(t.idle[0], 1);
	sb_free(&in);
}

/* A 310P Duo card: one NPU row, two chip rows ("chip device"). */
static void test_two_chips_of_one_card_no_processes(void **state)
{
	struct strbuf in = STRBUF_INIT;

	(void)state;
	read_fixture("info-310p.txt", &in);
	assert_int_equal(npusmi_parse(in.buf, in.len, &t), 0);
	assert_int_equal(t.nchips, 2);
	assert_int_equal(t.chips[0].npu, 8);
	assert_int_equal(t.chips[0].chip, 0);
	assert_int_equal(t.chips[1].npu, 8);
	assert_int_equal(t.chips[1].chip, 1);
	assert_string_equal(t.chips[1].name, "310P3");
	assert_int_equal(t.nprocs, 0);
	assert_int_equal(t.nidle, 1);
	assert_int_equal(t.idle[0], 8);
	sb_free(&in);
}

static void test_garbage_is_not_a_table(void **state)
{
	(void)state;
	assert_int_equal(parse_str(""), -1);
	assert_int_equal(parse_str("npu-smi: command not found\n"), -1);
	assert_int_equal(parse_str("|||\n| a | b |\n\377\001|\n"), -1);
	assert_int_equal(t.nchips, 0);
	assert_int_equal(t.nprocs, 0);
	/* NUL bytes and no newline at the end. */
	static const char nul[] = "| NPU Name | Health |\0| 0 910B3 | OK |";
	assert_int_equal(npusmi_parse(nul, sizeof nul - 1, &t), -1);
}

/* Rows that look like ours but are not: bad numbers, pids out of
 * range, missing cells; names with escapes are cleaned. */
static void test_hostile_rows(void **state)
{
	(void)state;
	assert_int_equal(parse_str(
		"| NPU Name | Health | Power(W) |\n"
		"| Chip | Bus-Id | AICore(%) |\n"
		"| 0  910B3\033[31m | OK | 1 |\n"
		"| 0 | 0000:C1:00.0 | 0 |\n"
		"| x  910B3 | OK | 1 |\n"
		"| 99999999999 910B3 | OK | 1 |\n"
		"| NPU Chip | Process id | Process name | Process memory(MB) |\n"
		"| 0 0 | -5 | evil | 1 |\n"
		"| 0 0 | 99999999 | evil | 1 |\n"
		"| 0 0 0 | 77 | evil | 1 |\n"
		"| 0 0 | 78 | |\n"
		"| 0 0 | 79 | a\033]0;t\007b\xff | x |\n"
		"| No running processes found in NPU x |\n"), 0);
	assert_int_equal(t.nchips, 1);
	assert_string_equal(t.chips[0].name, "910B3?[31m");
	assert_int_equal(t.nprocs, 1);
	assert_int_equal(t.procs[0].pid, 79);
	assert_string_equal(t.procs[0].name, "a?]0;t?b?");
	assert_int_equal(t.procs[0].mem_mb, -1);
	assert_int_equal(t.nidle, 0);
}

/* A line longer than any table row is not parsed; a long name is cut. */
static void test_overlong_lines_and_names(void **state)
{
	struct strbuf in = STRBUF_INIT;

	(void)state;
	sb_adds(&in, "| NPU Chip | Process id | Process name | Process memory(MB) |\n");
	sb_adds(&in, "| 0 0 | 100 | ");
	for (int i = 0; i < 10000; i++)
		sb_addc(&in, 'x');
	sb_adds(&in, " | 1 |\n| 0 0 | 101 | ");
	for (int i = 0; i < 200; i++)
		sb_addc(&in, 'y');
	sb_adds(&in, " | 1 |\n");
	assert_int_equal(npusmi_parse(in.buf, in.len, &t), 0);
	assert_int_equal(t.nprocs, 1);
	assert_int_equal(t.procs[0].pid, 101);
	assert_int_equal(strlen(t.procs[0].name), sizeof t.procs[0].name - 1);
	sb_free(&in);
}

/* More rows than kept: the first NPU_MAX and NPU_PROCS_MAX. */
static void test_bounded(void **state)
{
	struct strbuf in = STRBUF_INIT;

	(void)state;
	sb_adds(&in, "| NPU Name | Health | Power(W) |\n");
	for (int i = 0; i < NPU_MAX + 10; i++)
		sb_addf(&in, "| %d 910B4 | OK | 1 |\n| 0 | 0000:01:00.0 | 0 |\n",
			i);
	sb_adds(&in, "| NPU Chip | Process id | Process name | Process memory(MB) |\n");
	for (int i = 0; i < NPU_PROCS_MAX + 10; i++)
		sb_addf(&in, "| 0 0 | %d | p | 1 |\n", 1000 + i);
	for (int i = 0; i < NPU_MAX + 10; i++)
		sb_addf(&in, "| No running processes found in NPU %d |\n", i);
	assert_int_equal(npusmi_parse(in.buf, in.len, &t), 0);
	assert_int_equal(t.nchips, NPU_MAX);
	assert_int_equal(t.chips[NPU_MAX - 1].npu, NPU_MAX - 1);
	assert_int_equal(t.nprocs, NPU_PROCS_MAX);
	assert_int_equal(t.procs[NPU_PROCS_MAX - 1].pid,
			 1000 + NPU_PROCS_MAX - 1);
	assert_int_equal(t.nidle, NPU_MAX);
	sb_free(&in);
}

static void limit_is(const char *name, enum resource r, unsigned long want,
		     int want_about, const char *want_family)
{
	int about = -1;
	const char *family = "x";

	assert_int_equal(npu_limit(name, r, &about, &family), want);
	assert_int_equal(about, want_about);
	if (want_family)
		assert_string_equal(family, want_family);
	else
		assert_null(family);
}

static void test_limits_per_family(void **state)
{
	(void)state;
	limit_is("910B3", RES_STREAM, 1984, 0, "Atlas A2/A3");
	limit_is("910B1", RES_NOTIFY, 8192, 0, "Atlas A2/A3");
	limit_is("Ascend910B4", RES_EVENT, 65536, 0, "Atlas A2/A3");
	limit_is("910_9391", RES_STREAM, 1984, 0, "Atlas A2/A3");
	limit_is("910A", RES_STREAM, 2048, 0, "Atlas training");
	limit_is("910ProB", RES_NOTIFY, 1024, 0, "Atlas training");
	limit_is("910PremiumA", RES_EVENT, 65535, 0, "Atlas training");
	limit_is("910B", RES_STREAM, 2048, 1, "Atlas training");
	limit_is("310P3", RES_STREAM, 1024, 0, "Atlas inference");
	limit_is("310P1", RES_NOTIFY, 1024, 0, "Atlas inference");
	limit_is("310P3", RES_EVENT, 1023, 0, "Atlas inference");
	limit_is("310B1", RES_STREAM, 512, 0, "Atlas 200I/500 A2");
	limit_is("310B4", RES_NOTIFY, 2048, 0, "Atlas 200I/500 A2");
	limit_is("310B1", RES_EVENT, 65536, 0, "Atlas 200I/500 A2");
	limit_is("350", RES_STREAM, 1984, 1, "Atlas 350");
	limit_is("350", RES_NOTIFY, 65535, 1, "Atlas 350");
	limit_is("350", RES_EVENT, 65536, 1, "Atlas 350");
	/* No document: no limit. */
	limit_is("310", RES_STREAM, 0, 0, NULL);
	limit_is("", RES_STREAM, 0, 0, NULL);
	limit_is("A100", RES_STREAM, 0, 0, NULL);
	limit_is("910B3", RES_MEMCPY, 0, 0, "Atlas A2/A3");
}

int main(void)
{
	cmocka_set_message_output(CM_OUTPUT_TAP);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_several_chips_and_processes),
		cmocka_unit_test(test_two_chips_of_one_card_no_processes),
		cmocka_unit_test(test_garbage_is_not_a_table),
		cmocka_unit_test(test_hostile_rows),
		cmocka_unit_test(test_overlong_lines_and_names),
		cmocka_unit_test(test_bounded),
		cmocka_unit_test(test_limits_per_family),
	};
	return UNIT_RUN("npusmi", tests);
}
