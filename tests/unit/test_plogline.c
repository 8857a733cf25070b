/* plog_parse(): the header "[LEVEL] MODULE(PID,PNAME):TIMESTAMP" and the
 * RUNTIME "[file.cc:LINE]TID " that follows it, in every shape seen in
 * real logs; and the lines that only look like plog. */
#include "config.h"

#include "unit.h"

#include "plogline.h"

struct want {
	enum plog_level level;
	const char *module;
	long pid;
	const char *name;
	const char *stamp;
	const char *srcloc;	/* "" when absent */
	long tid;
	const char *msg;	/* the text from the message offset on */
};

static void assert_span(const char *line, struct span sp, const char *want)
{
	assert_int_equal(sp.len, strlen(want));
	assert_memory_equal(line + sp.off, want, sp.len);
}

static void check(const char *line, const struct want *w)
{
	struct plog_header h;
	size_t len = strlen(line);

	if (!plog_parse(line, len, &h))
		fail_msg("not parsed: %s", line);
	assert_int_equal(h.level, w->level);
	assert_span(line, h.module, w->module);
	assert_int_equal(h.pid, w->pid);
	assert_span(line, h.name, w->name);
	assert_span(line, h.stamp, w->stamp);
	assert_span(line, h.srcloc, w->srcloc);
	assert_int_equal(h.tid, w->tid);
	assert_true(h.msg <= len);
	assert_string_equal(line + h.msg, w->msg);
	assert_int_equal(h.time, logtime_parse(w->stamp, strlen(w->stamp)));
}

static void test_runtime_error_shape(void **state)
{
	(void)state;
	/* ERROR lines: no space between "]" and the TID. */
	check("[ERROR] RUNTIME(31001,rtstest_host):2026-07-13-11:39:20.982.549 "
	      "[capture_model.cc:1078]31001 AllocSqCqProc:sq cq res alloc "
	      "failed, model_id=63, alloc num=1, total res num=0, "
	      "retCode=0x7020023.",
	      &(struct want){
		      LEVEL_ERROR, "RUNTIME", 31001, "rtstest_host",
		      "2026-07-13-11:39:20.982.549", "capture_model.cc:1078",
		      31001, "AllocSqCqProc:sq cq res alloc failed, model_id=63, "
		      "alloc num=1, total res num=0, retCode=0x7020023." });
	/* Another thread than the pid, and stage tags after the function. */
	check("[ERROR] RUNTIME(291088,python3):2024-01-29-19:28:56.519.911 "
	      "[api_c.cc:1428]291577 rtMemcpyAsync:[EXEC][EXEC]ErrCode=107000, "
	      "desc=[invalid value], InnertCode=0x7110001",
	      &(struct want){
		      LEVEL_ERROR, "RUNTIME", 291088, "python3",
		      "2024-01-29-19:28:56.519.911", "api_c.cc:1428", 291577,
		      "rtMemcpyAsync:[EXEC][EXEC]ErrCode=107000, "
		      "desc=[invalid value], InnertCode=0x7110001" });
	/* The ASCENDCL layer uses the same shape. */
	check("[ERROR] ASCENDCL(291088,python3):2024-01-29-19:28:56.519.952 "
	      "[memory.cc:336]291577 aclrtMemcpyAsync:[EXEC][EXEC]asynchronized "
	      "memcpy failed, kind = 1, runtime result = 107000",
	      &(struct want){
		      LEVEL_ERROR, "ASCENDCL", 291088, "python3",
		      "2024-01-29-19:28:56.519.952", "memory.cc:336", 291577,
		      "aclrtMemcpyAsync:[EXEC][EXEC]asynchronized memcpy failed, "
		      "kind = 1, runtime result = 107000" });
}

static void test_runtime_non_error_shape(void **state)
{
	(void)state;
	/* Non-error lines: a space before the TID. */
	check("[INFO] RUNTIME(11803,rtstest_host):2026-07-09-21:52:24.400.001 "
	      "[stream.cc:310] 11804 Setup:[INIT][DEFAULT]stream_id=12 created",
	      &(struct want){
		      LEVEL_INFO, "RUNTIME", 11803, "rtstest_host",
		      "2026-07-09-21:52:24.400.001", "stream.cc:310", 11804,
		      "Setup:[INIT][DEFAULT]stream_id=12 created" });
	check("[DEBUG] GE(370,python3):2023-07-13-07:41:09.574.919 "
	      "[error_manager.cc:512] 370 ParseJsonFile:add error_code EE1001 "
	      "success",
	      &(struct want){
		      LEVEL_DEBUG, "GE", 370, "python3",
		      "2023-07-13-07:41:09.574.919", "error_manager.cc:512", 370,
		      "ParseJsonFile:add error_code EE1001 success" });
	check("[WARNING] RUNTIME(77,a.out):2026-07-09-21:52:24.400.001 "
	      "[api.cc:9] 78 F:almost out of streams",
	      &(struct want){
		      LEVEL_WARNING, "RUNTIME", 77, "a.out",
		      "2026-07-09-21:52:24.400.001", "api.cc:9", 78,
		      "F:almost out of streams" });
}

static void test_hccl_no_spaces(void **state)
{
	(void)state;
	/* "[ERROR]HCCL(": no space after the level, none after the stamp;
	 * "[tid]" is not the RUNTIME shape, so no tid and the text starts
	 * after the source location. */
	check("[ERROR]HCCL(8350,all_reduce_test):2025-10-23-17:28:06.049.385"
	      "[task_exception_handler.cc:610][8350][TaskExecStage]Heartbeat "
	      "lost",
	      &(struct want){
		      LEVEL_ERROR, "HCCL", 8350, "all_reduce_test",
		      "2025-10-23-17:28:06.049.385",
		      "task_exception_handler.cc:610", 0,
		      "[8350][TaskExecStage]Heartbeat lost" });
	check("[ERROR] HCCL(4242,python3):2026-03-01-10:00:00.000.001 "
	      "[op_base.cc:100][4242]report error module_name=EI0007",
	      &(struct want){
		      LEVEL_ERROR, "HCCL", 4242, "python3",
		      "2026-03-01-10:00:00.000.001", "op_base.cc:100", 0,
		      "[4242]report error module_name=EI0007" });
}

static void test_odd_process_names(void **state)
{
	(void)state;
	check("[ERROR] RUNTIME(6651,):2026-07-09-21:52:24.482.342 "
	      "[stream.cc:728]6651 Setup:Alloc sq cq failed",
	      &(struct want){
		      LEVEL_ERROR, "RUNTIME", 6651, "",
		      "2026-07-09-21:52:24.482.342", "stream.cc:728", 6651,
		      "Setup:Alloc sq cq failed" });
	check("[EVENT] PROFILING(8953,None):2020-12-24-01:10:51.563.058 "
	      "[msprof_callback_handler.cpp:136] >>> (tid:8953) Started",
	      &(struct want){
		      LEVEL_EVENT, "PROFILING", 8953, "None",
		      "2020-12-24-01:10:51.563.058",
		      "msprof_callback_handler.cpp:136", 0,
		      /* no tid: the text keeps the space after "]" */
		      " >>> (tid:8953) Started" });
	/* A digit, a cut name with spaces and dots. */
	check("[INFO] APP(12,7):2025-01-01-00:00:00.000.000 hello",
	      &(struct want){
		      LEVEL_INFO, "APP", 12, "7", "2025-01-01-00:00:00.000.000",
		      "", 0, "hello" });
	check("[INFO] APP(12,my job v1.2):2025-01-01-00:00:00.000.000 hi",
	      &(struct want){
		      LEVEL_INFO, "APP", 12, "my job v1.2",
		      "2025-01-01-00:00:00.000.000", "", 0, "hi" });
}

static void test_levels(void **state)
{
	(void)state;
	check("[2400] RUNTIME(5,x):2025-01-01-00:00:00.000.000 [a.cc:1]5 odd",
	      &(struct want){
		      LEVEL_OTHER, "RUNTIME", 5, "x",
		      "2025-01-01-00:00:00.000.000", "a.cc:1", 5, "odd" });
	check("[TRACE] HCCL(12337,python):2023-07-04-21:46:57.092.002 "
	      "[status:init] [hcom.cc:194][hccl-world][76]hcom init",
	      &(struct want){
		      LEVEL_TRACE, "HCCL", 12337, "python",
		      "2023-07-04-21:46:57.092.002", "", 0,
		      "[status:init] [hcom.cc:194][hccl-world][76]hcom init" });
	check("[EVENT] TDT(8953,None):2020-12-24-01:10:51.593.696 "
	      "[log.cpp:148][TsdClient] enter into open process",
	      &(struct want){
		      LEVEL_EVENT, "TDT", 8953, "None",
		      "2020-12-24-01:10:51.593.696", "log.cpp:148", 0,
		      "[TsdClient] enter into open process" });
	/* An unknown word is a level too, of no known kind. */
	check("[OPLOG] GE(1,x):2025-01-01-00:00:00.000.000 op",
	      &(struct want){
		      LEVEL_OTHER, "GE", 1, "x", "2025-01-01-00:00:00.000.000",
		      "", 0, "op" });
}

static void test_amct_stamp(void **state)
{
	(void)state;
	/* No fraction and no space before the source location. */
	check("[ERROR] AMCT(21177,atc.bin):2023-04-14-14:43:17"
	      "[utils_acl.cpp:133]input image size[1579014] is not equal",
	      &(struct want){
		      LEVEL_ERROR, "AMCT", 21177, "atc.bin",
		      "2023-04-14-14:43:17", "utils_acl.cpp:133", 0,
		      "input image size[1579014] is not equal" });
	struct plog_header h;
	const char *l = "[ERROR] AMCT(21177,atc.bin):2023-04-14-14:43:17[a.cpp:1]x";
	assert_int_equal(plog_parse(l, strlen(l), &h), 1);
	assert_int_equal(h.time, logtime_make(2023, 4, 14, 14, 43, 17, 0));
}

static void test_lost_colon_stamp(void **state)
{
	(void)state;
	check("[ERROR] RUNTIME(291088,python3):2024-01-29-19:2856.519.792 "
	      "[api_error.cc:963]291577 MemcpyAsyncCheckKindAndLocation:"
	      "[EXEC][EXEC]report error module_name=EE1001",
	      &(struct want){
		      LEVEL_ERROR, "RUNTIME", 291088, "python3",
		      "2024-01-29-19:2856.519.792", "api_error.cc:963", 291577,
		      "MemcpyAsyncCheckKindAndLocation:[EXEC][EXEC]report error "
		      "module_name=EE1001" });
}

static void test_unparseable_stamp_keeps_line(void **state)
{
	struct plog_header h;
	const char *l = "[ERROR] RUNTIME(9,x):2026-99-99-99:99:99.000.000 "
			"[a.cc:1]9 F:still a line";
	(void)state;

	assert_int_equal(plog_parse(l, strlen(l), &h), 1);
	assert_int_equal(h.time, LOGTIME_UNKNOWN);
	assert_int_equal(h.tid, 9);
	assert_string_equal(l + h.msg, "F:still a line");
}

static void test_message_offset_without_srcloc(void **state)
{
	(void)state;
	/* A "[...]" after the stamp that is no source location stays text. */
	check("[ERROR] TDT(7,x):2025-01-01-00:00:00.000.000 [TsdClient] failed",
	      &(struct want){
		      LEVEL_ERROR, "TDT", 7, "x", "2025-01-01-00:00:00.000.000",
		      "", 0, "[TsdClient] failed" });
	check("[ERROR] TDT(7,x):2025-01-01-00:00:00.000.000 (tid:8) failed",
	      &(struct want){
		      LEVEL_ERROR, "TDT", 7, "x", "2025-01-01-00:00:00.000.000",
		      "", 0, "(tid:8) failed" });
	/* A header and nothing else. */
	check("[ERROR] RUNTIME(7,x):2025-01-01-00:00:00.000.000",
	      &(struct want){
		      LEVEL_ERROR, "RUNTIME", 7, "x",
		      "2025-01-01-00:00:00.000.000", "", 0, "" });
}

static void test_not_plog(void **state)
{
	static const char *const lines[] = {
		"",
		"[",
		"[]",
		/* MindSpore's own grammar: DEVICE(pid,tid,name). */
		"[ERROR] DEVICE(177513,fffeb3fff1e0,python):2024-06-04-10:17:18"
		".891.861 [mindspore/ccsrc/plugin/device/ascend/hal/device/"
		"ascend_kernel_runtime.cc:1120] failed",
		"[WARNING] ME(1,2,name):2024-06-04-10:17:18.891.861 [a.cc:1] x",
		"[rank0]: Resource_Error(EE1023): Alloc Stream resource failed.",
		"[PID: 1] 2026-06-04-10:17:18.891.861 Invalid_Argument(EE1001): x",
		"[ERROR] 2024-06-04-10:17:18 (PID:46706, Device:0, RankID:-1) "
		"ERR00100 PTA call acl api failed",
		"[Error]: The stream resources are insufficient.",
		"[ERROR] RUNTIME(abc,x):2025-01-01-00:00:00.000.000 x",
		"[ERROR] RUNTIME(,x):2025-01-01-00:00:00.000.000 x",
		"[ERROR] RUNTIME(12):2025-01-01-00:00:00.000.000 x",
		"[ERROR] RUNTIME(12,x)2025-01-01-00:00:00.000.000 x",
		"[ERROR] RUNTIME(12,x): 2025-01-01-00:00:00.000.000 x",
		"[ERROR] RUNTIME(12,x):",
		"[ERROR] RUNTIME(12,x",
		"[ERROR] (12,x):2025-01-01-00:00:00.000.000 x",
		"        Solution: For details, search for the keyword \"EE1023\".",
		"Memory async failed, src loc type=2, dst loc type=2, kind=1 is "
		"invalid!",
	};
	(void)state;

	for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
		struct plog_header h;
		if (plog_parse(lines[i], strlen(lines[i]), &h))
			fail_msg("taken for plog: '%s'", lines[i]);
	}
}

static void test_length_is_respected(void **state)
{
	struct plog_header h;
	/* A NUL inside the name and bytes past len are not looked at. */
	const char l[] = "[ERROR] RUNTIME(12,a\0b):2025-01-01-00:00:00.000.000 "
			 "[a.cc:1]12 F:x";
	(void)state;

	assert_int_equal(plog_parse(l, sizeof l - 1, &h), 1);
	assert_int_equal(h.name.len, 3);
	assert_string_equal(l + h.msg, "F:x");
	/* Cut inside the header: not a line. */
	assert_int_equal(plog_parse(l, 20, &h), 0);
	/* Cut right after the stamp: a header with an empty message. */
	assert_int_equal(plog_parse(l, 51, &h), 1);
	assert_int_equal(h.msg, 51);
}

static void test_peek_level(void **state)
{
	enum plog_level level = LEVEL_SCREEN;
	(void)state;

	assert_int_equal(plog_peek_level("[ERROR] x", 9, &level), 1);
	assert_int_equal(level, LEVEL_ERROR);
	assert_int_equal(plog_peek_level("[INFO] x", 8, &level), 1);
	assert_int_equal(level, LEVEL_INFO);
	assert_int_equal(plog_peek_level("[WARNING]x", 10, &level), 1);
	assert_int_equal(level, LEVEL_WARNING);
	assert_int_equal(plog_peek_level("[2400] x", 8, &level), 1);
	assert_int_equal(level, LEVEL_OTHER);
	assert_int_equal(plog_peek_level("[rank0]: x", 10, &level), 0);
	assert_int_equal(plog_peek_level("ERROR x", 7, &level), 0);
	assert_int_equal(plog_peek_level("[ERROR", 6, &level), 0);
	assert_string_equal(plog_level_name(LEVEL_ERROR), "ERROR");
	assert_string_equal(plog_level_name(LEVEL_SCREEN), "SCREEN");
	assert_string_equal(plog_level_name(LEVEL_OTHER), "OTHER");
}

/* A pid no system could have (above LONG_MAX, negative) still makes a
 * header: the chain is counted with its pid unknown (0), never taken
 * for the text of the line before.  The largest long is a pid. */
static void test_pid_out_of_range(void **state)
{
	static const char *const pids[] = {
		"9223372036854775808", "99999999999999999999999999", "-1",
		"-4711",
	};
	char line[256];

	(void)state;
	for (size_t i = 0; i < sizeof pids / sizeof pids[0]; i++) {
		snprintf(line, sizeof line, "[ERROR] RUNTIME(%s,train):"
			 "2026-07-13-11:39:20.982.549 [a.cc:1]7 text", pids[i]);
		check(line, &(struct want){
			LEVEL_ERROR, "RUNTIME", 0, "train",
			"2026-07-13-11:39:20.982.549", "a.cc:1", 7, "text" });
	}
	check("[ERROR] RUNTIME(9223372036854775807,train):"
	      "2026-07-13-11:39:20.982.549 [a.cc:1]7 text",
	      &(struct want){
		      LEVEL_ERROR, "RUNTIME", 9223372036854775807L, "train",
		      "2026-07-13-11:39:20.982.549", "a.cc:1", 7, "text" });
	/* No digits: not a pid, not a header. */
	struct plog_header h;
	const char *bad = "[ERROR] RUNTIME(-,train):2026-07-13-11:39:20.982.549 x";
	assert_false(plog_parse(bad, strlen(bad), &h));
}

int main(void)
{
	cmocka_set_message_output(CM_OUTPUT_TAP);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_runtime_error_shape),
		cmocka_unit_test(test_runtime_non_error_shape),
		cmocka_unit_test(test_hccl_no_spaces),
		cmocka_unit_test(test_odd_process_names),
		cmocka_unit_test(test_levels),
		cmocka_unit_test(test_amct_stamp),
		cmocka_unit_test(test_lost_colon_stamp),
		cmocka_unit_test(test_unparseable_stamp_keeps_line),
		cmocka_unit_test(test_message_offset_without_srcloc),
		cmocka_unit_test(test_not_plog),
		cmocka_unit_test(test_length_is_respected),
		cmocka_unit_test(test_peek_level),
		cmocka_unit_test(test_pid_out_of_range),
	};
	return UNIT_RUN("plogline", tests);
}
