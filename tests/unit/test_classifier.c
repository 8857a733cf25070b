/* Chains and incidents: lines go through the feeder and the classifier
 * with the shipped rules, as plogtop reads them, and the incidents that
 * come out are checked.  The fixtures are written in the grammar of the
 * CANN seed documents (other pids and times). */
#include "config.h"

#include "feed_harness.h"
#include "lineprefix.h"

#define PLOG_A "run/plog/plog-42017_20260709215200000.log"
#define PLOG_B "run/plog/plog-42017_20260709215224482.log"
#define STDOUT_LOG "job-1234.out"

/* The end of the input: every chain closes. */
static void finish(struct harness *h)
{
	feeder_flush(h->f);
	classifier_flush(h->c);
	assert_int_equal(classifier_open_chains(h->c), 0);
}

/* Reads a whole text as one file and returns how many incidents it
 * gave (they are the last ones in h->inc). */
static size_t read_all(struct harness *h, const char *file,
		       enum file_kind kind, const char *text)
{
	size_t before = h->n;

	open_file(h, file, kind);
	feed(h, text);
	finish(h);
	return h->n - before;
}

static void assert_field(const struct incident *inc, const char *key,
			 const char *want)
{
	const char *v = incident_field(inc, key);

	if (!v)
		fail_msg("no field %s", key);
	assert_string_equal(v, want);
}

static void assert_class(const struct incident *inc, enum code code,
			 enum resource res, enum cause cause)
{
	assert_string_equal(code_name(inc->code), code_name(code));
	assert_string_equal(resource_name(inc->resource), resource_name(res));
	assert_string_equal(cause_name(inc->cause), cause_name(cause));
}

static void assert_process(const struct incident *inc, long pid,
			   const char *name, long tid)
{
	assert_int_equal(inc->pid, pid);
	assert_string_equal(inc->name, name);
	assert_int_equal(inc->tid, tid);
}

/* Text repeated n times back to back. */
static char *repeat(const char *text, int n)
{
	struct strbuf sb = STRBUF_INIT;

	for (int i = 0; i < n; i++)
		sb_adds(&sb, text);
	return sb_detach(&sb);
}

/* The lines of a and b taken in turn, one of each. */
static char *interleave(const char *a, const char *b)
{
	struct strbuf sb = STRBUF_INIT;

	while (*a || *b) {
		size_t n = strcspn(a, "\n"), m = strcspn(b, "\n");
		if (n)
			sb_add(&sb, a, n + 1);
		if (m)
			sb_add(&sb, b, m + 1);
		a += n + (a[n] == '\n');
		b += m + (b[m] == '\n');
	}
	return sb_detach(&sb);
}

/* Text with prefix put before every line. */
static char *prefixed(const char *prefix, const char *text)
{
	struct strbuf sb = STRBUF_INIT;

	while (*text) {
		size_t n = strcspn(text, "\n");
		sb_adds(&sb, prefix);
		sb_add(&sb, text, n);
		sb_addc(&sb, '\n');
		text += n + (text[n] == '\n');
	}
	return sb_detach(&sb);
}

/* ---- the seed incidents (plog) ------------------------------------------ */

/* Too many streams captured into one ACL graph. */
static const char GRAPH_STREAMS[] =
	"[ERROR] RUNTIME(31001,rtstest_host):2026-07-13-11:39:20.982.549 [capture_model.cc:1078]31001 AllocSqCqProc:sq cq res alloc failed, model_id=63, alloc num=1, total res num=0, retCode=0x7020023.\n"
	"[ERROR] RUNTIME(31001,rtstest_host):2026-07-13-11:39:20.982.556 [capture_model.cc:1799]31001 AllocSqCqAndBindInternal:alloc sq resource failed, model_id=63, required number=1, current available number=0, maximum number=0, retCode=0x7020023.\n"
	"[ERROR] RUNTIME(31001,rtstest_host):2026-07-13-11:39:20.982.566 [capture_model.cc:1802]31001 AllocSqCqAndBindInternal:Alloc Stream resource failed. Reason: Too many streams are captured to the ACL Graph. ErrorCode=EE1023.\n"
	"[ERROR] RUNTIME(31001,rtstest_host):2026-07-13-11:39:20.982.619 [capture_model.cc:1158]31001 BuildSqCq:alloc all sqcq failed, stream_id=61, model_id=63, retCode=0x7020023.\n"
	"[ERROR] RUNTIME(31001,rtstest_host):2026-07-13-11:39:20.982.624 [capture_model.cc:352]31001 PrepareModelExecute:Build SQ/CQ failed, stream_id=61, model_id=63, retCode=0x7020023.\n"
	"[ERROR] RUNTIME(31001,rtstest_host):2026-07-13-11:39:20.982.640 [api_error.cc:3388]31001 ModelExecute:Execute model failed.\n"
	"[ERROR] RUNTIME(31001,rtstest_host):2026-07-13-11:39:20.982.674 [api_c.cc:1713]31001 rtModelExecute:ErrCode=207005, desc=[driver error:resource alloc fail], InnerCode=0x7020023\n"
	"[ERROR] RUNTIME(31001,rtstest_host):2026-07-13-11:39:20.982.681 [error_message_manage.cc:69]31001 FuncErrorReason:rtModelExecute execution failed, reason=driver error:resource alloc fail\n";

/* Too many streams created. */
static const char STREAMS_CREATED[] =
	"[ERROR] RUNTIME(42017,rtstest_host):2026-07-09-21:52:24.482.342 [stream.cc:728]42017 Setup:Alloc sq cq failed, stream_id=2047, retCode=0x7020023.\n"
	"[ERROR] RUNTIME(42017,rtstest_host):2026-07-09-21:52:24.482.347 [stream.cc:731]42017 Setup:Alloc Stream resource failed. Reason: Too many streams are created. ErrorCode=EE1023.\n"
	"[ERROR] RUNTIME(42017,rtstest_host):2026-07-09-21:52:24.482.377 [context.cc:1572]42017 StreamCreate:Setup stream failed, retCode=0x7020023.\n"
	"[ERROR] RUNTIME(42017,rtstest_host):2026-07-09-21:52:24.482.388 [api_impl.cc:1487]42017 StreamCreate:Create stream failed, priority=0, flags=0.\n"
	"[ERROR] RUNTIME(42017,rtstest_host):2026-07-09-21:52:24.482.402 [api_c_stream.cc:85]42017 rtStreamCreateWithFlags:ErrCode=207005, desc=[driver error:resource alloc fail], InnerCode=0x7020023\n"
	"[ERROR] RUNTIME(42017,rtstest_host):2026-07-09-21:52:24.482.405 [error_message_manage.cc:69]42017 FuncErrorReason:rtStreamCreateWithFlags execution failed, reason=driver error:resource alloc fail\n";

/* Too many ACL graphs executing at once: only the notify of the capture
 * stream says so. */
static const char GRAPH_CONCURRENCY[] =
	"[ERROR] RUNTIME(50210,rtstest_host):2026-07-05-18:26:40.664.341 [context_aclgraph.cc:385]50210 CreateNotify:Notify create failed, setup failed, device_id=0, retCode=0x702001b. ErrorCode=EE1023.\n"
	"[ERROR] RUNTIME(50210,rtstest_host):2026-07-05-18:26:40.664.393 [context_aclgraph.cc:532]50210 StreamEndCapture:set notify for add capture stream failed, device_id=0, origin stream_id=61, capture model_id=21845, stream_id=43694, retCode=0x702001b.\n"
	"[ERROR] RUNTIME(50210,rtstest_host):2026-07-05-18:26:40.665.908 [api_c_standard_soc.cc:726]50210 rtStreamEndCapture:ErrCode=207009, desc=[driver error:no notify resource], InnerCode=0x702001b\n"
	"[ERROR] RUNTIME(50210,rtstest_host):2026-07-05-18:26:40.665.917 [error_message_manage.cc:69]50210 FuncErrorReason:rtStreamEndCapture execution failed, reason=no notify resource. ErrorCode=EE1023.\n";

/* Too many Notify objects; then a device task error that another thread
 * reports. */
static const char NOTIFIES_CREATED[] =
	"[ERROR] RUNTIME(9630,rtstest_host):2026-07-16-19:24:34.804.811 [api_impl.cc:4631]9630 NotifyCreate:Alloc Notify resource failed. Reason: Too many Notify objects are created. ErrorCode=EE1023.\n"
	"[ERROR] RUNTIME(9630,rtstest_host):2026-07-16-19:24:34.804.850 [api_impl.cc:4634]9630 NotifyCreate:Notify create failed, setup failed, drv devId=0, retCode=0x702001b\n"
	"[ERROR] RUNTIME(9630,rtstest_host):2026-07-16-19:24:34.804.861 [api_error.cc:3681]9630 NotifyCreate:Create notify failed, device id=0.\n"
	"[ERROR] RUNTIME(9630,rtstest_host):2026-07-16-19:24:34.804.875 [api_c.cc:1936]9630 rtNotifyCreateWithFlag:ErrCode=207009, desc=[driver error:no notify resource], InnerCode=0x702001b\n"
	"[ERROR] RUNTIME(9630,rtstest_host):2026-07-16-19:24:34.804.879 [error_message_manage.cc:69]9630 FuncErrorReason:rtNotifyCreateWithFlag execution failed, reason=driver error:no notify resource\n"
	"[ERROR] RUNTIME(9630,rtstest_host):2026-07-16-19:24:34.809.302 [stars_engine.cc:1569]9649 ProcLogicCqReport:Task run failed, device_id=0, stream_id=60, task_id=0, sqe_type=63(unknown), errType=0x8(sqe error), sqSwStatus=0\n"
	"[ERROR] RUNTIME(9630,rtstest_host):2026-07-16-19:24:34.818.379 [device_error_proc.cc:1454]9649 ProcessStarsSqeErrorInfo:The error from device(chipId:0, dieId:0), serial number is 7, sqe error occurred during task execution, stream_id:60, task_id:0, sq_id:3, sq_head:0.\n";

/* Too many events. */
static const char EVENTS_CREATED[] =
	"[ERROR] RUNTIME(27700,rtstest_host):2026-07-13-12:23:44.070.908 [event_david.cc:101]27700 GenEventId:Alloc Event resource failed. Reason: Too many events are created. ErrorCode=EE1023.\n"
	"[ERROR] RUNTIME(27700,rtstest_host):2026-07-13-12:23:44.071.023 [event_david.cc:104]27700 GenEventId:Failed to allocate event id, device_id=0, tsId=0, retCode=0x7020019.\n"
	"[ERROR] RUNTIME(27700,rtstest_host):2026-07-13-12:23:44.071.041 [api_impl_david.cc:405]27700 EventCreate:Gen event id failed, device_id=0, tsId=0, retCode=0x7020019\n"
	"[ERROR] RUNTIME(27700,rtstest_host):2026-07-13-12:23:44.071.053 [api_error.cc:1343]27700 EventCreate:Create event failed.\n"
	"[ERROR] RUNTIME(27700,rtstest_host):2026-07-13-12:23:44.071.110 [api_c.cc:661]27700 rtEventCreateWithFlag:ErrCode=207007, desc=[driver error:no event resource], InnerCode=0x7020019\n"
	"[ERROR] RUNTIME(27700,rtstest_host):2026-07-13-12:23:44.071.122 [error_message_manage.cc:69]27700 FuncErrorReason:rtEventCreateWithFlag execution failed, reason=driver error:no event resource\n";

/* Too many async copy tasks in an ACL graph. */
static const char GRAPH_COPY_TASKS[] =
	"[ERROR] RUNTIME(83037,rtstest_host):2026-07-22-18:23:32.741.683 [stream_jetty_context.cc:69]83037 ExpandCapacity:Expanding the capacity failed. Reason: There are too many asynchronous copy tasks in the ACL Graph. 1. If the value of numBatches for aclrtMemcpyBatchAsync in the ACL Graph is too large, reduce the value of numBatches. 2. If the value of height for aclrtMemcpy2dAsync in the ACL Graph is too large, reduce the value of height. ErrorCode=EE1023.\n"
	"[ERROR] RUNTIME(83037,rtstest_host):2026-07-22-18:23:32.741.712 [stream_jetty_handler.cc:115]83037 CreateAndAppendWqe:ExpandCapacity failed, capacity=32768, max_depth=32768, stream_id=59, device_id=7, retCode=0x7110019.\n"
	"[ERROR] RUNTIME(83037,rtstest_host):2026-07-22-18:23:32.741.714 [stream_jetty_handler.cc:163]83037 HandleUbDmaTask:Append wqe failed, stream_id=59, retCode=0x7110019.\n"
	"[ERROR] RUNTIME(83037,rtstest_host):2026-07-22-18:23:32.741.717 [memory_task.cc:60]83037 ConvertAsyncDma2DForSoftWareSq:HandleUbDmaTask failed, device_id=7, stream_id=59, retCode=0x7110019.\n"
	"[ERROR] RUNTIME(83037,rtstest_host):2026-07-22-18:23:32.741.719 [memory_memcpy_async_task.cc:496]83037 MemcpyAsyncTaskInitV2:ConvertAsyncDma2D failed, retCode=0x7110019.\n"
	"[ERROR] RUNTIME(83037,rtstest_host):2026-07-22-18:23:32.741.721 [memcpy_starsv2.cc:108]83037 Memcpy2DAsync:Init MemcpyAsyncTask failed, stream_id=60, retCode=0x7110019\n"
	"[ERROR] RUNTIME(83037,rtstest_host):2026-07-22-18:23:32.741.726 [api_error.cc:3051]83037 MemCopy2DAsync:Memcpy2d async failed, dstPitch=1024, srcPitch=1024, width=1024, height=100, kind=1, isInvolvePageableMemory=0\n"
	"[ERROR] RUNTIME(83037,rtstest_host):2026-07-22-18:23:32.741.740 [api_c.cc:1324]83037 rtMemcpy2dAsync:ErrCode=207008, desc=[driver error:no stream resource], InnerCode=0x7110019\n"
	"[ERROR] RUNTIME(83037,rtstest_host):2026-07-22-18:23:32.741.743 [error_message_manage.cc:69]83037 FuncErrorReason:rtMemcpy2dAsync execution failed, reason=driver error:no stream resource\n";

/* EE1001: memcpy kind and locations disagree.  The stamp has lost a
 * colon, a message goes on on a header-less line, and INFO lines of the
 * same thread come in between. */
static const char MEMCPY_MISMATCH[] =
	"[ERROR] RUNTIME(29108,python3):2024-01-29-19:2856.519.792 [api_error.cc:963]29157 MemcpyAsyncCheckKindAndLocation:[EXEC][EXEC]report error module_name=EE1001\n"
	"[ERROR] RUNTIME(29108,python3):2024-01-29-19:2856.519.799 [api_error.cc:963]29157 MemcpyAsyncCheckKindAndLocation:[EXEC][EXEC]\n"
	"Memory async failed, src loc type=2, dst loc type=2, kind=1 is invalid!\n"
	"[INFO] GE(29108,python3):2024-01-29-19:2856.519.818 [error_manager.cc:301]29157 ReportErrMessage:report error_message, error_code:EE1001, work_stream_id:11.\n"
	"[ERROR] RUNTIME(29108,python3):2024-01-29-19:2856.519.868 [api_error.cc:881]29157 MemcpyAsync:[EXEC][EXEC]report error module_type=3, module_name=EE8888\n"
	"[ERROR] RUNTIME(29108,python3):2024-01-29-19:2856.519.877 [api_error.cc:881]29157 MemcpyAsync:[EXEC][EXEC]Memory async failed, check kind and loc,retCode=0x7110001\n"
	"[INFO] GE(29108,python3):2024-01-29-19:2856.519.887 [error_manager.cc:2551]29157 ReportInterErrMessage:report error_message, error_code:EE8888, work_stream_id:11\n"
	"[ERROR] RUNTIME(29108,python3):2024-01-29-19:2856.519.911 [api_c.cc:1428]29157 rtMemcpyAsync:[EXEC][EXEC]ErrCode=107000, desc=[invalid value], InnertCode=0x7110001\n"
	"[ERROR] RUNTIME(29108,python3):2024-01-29-19:2856.519.920 [error_message_manage.cc:48]29157 FuncErrorReason:[EXEC][EXEC]report error module_name=EE1001\n"
	"[ERROR] RUNTIME(29108,python3):2024-01-29-19:2856.519.929 [error_message_manage.cc:48]29157 FuncErrorReason:[EXEC][EXEC]rtMemcpyAsync execute failed, reason=[invalid value]\n"
	"[INFO] GE(29108,python3):2024-01-29-19:2856.519.938 [error_manager.cc:301]29157 ReportErrMessage:report error_message, error_code:EE1001, work_stream_id:11\n"
	"[ERROR] ASCENDCL(29108,python3):2024-01-29-19:2856.519.952 [memory.cc:336]29157 aclrtMemcpyAsync:[EXEC][EXEC]asynchronized memcpy failed, kind = 1, runtime result = 107000\n";

static void test_graph_streams(void **state)
{
	struct harness *h = *state;

	assert_int_equal(read_all(h, PLOG_A, FILE_PLOG, GRAPH_STREAMS), 1);
	const struct incident *inc = h->inc[0];
	assert_class(inc, CODE_EE1023, RES_STREAM, CAUSE_GRAPH_STREAMS);
	assert_process(inc, 31001, "rtstest_host", 31001);
	assert_string_equal(inc->reported_code, "EE1023");
	assert_field(inc, "model_id", "63");
	assert_field(inc, "stream_id", "61");
	assert_field(inc, "inner_code", "0x7020023");
	assert_field(inc, "external_code", "207005");
	assert_field(inc, "api", "rtModelExecute");
	assert_string_equal(inc->file, PLOG_A);
	assert_int_equal(inc->line, 1);
	assert_int_equal(inc->nlines, 8);
	assert_int_equal(inc->nraw, 8);
	assert_int_equal(inc->first, logtime_make(2026, 7, 13, 11, 39, 20, 982549));
	assert_int_equal(inc->last, logtime_make(2026, 7, 13, 11, 39, 20, 982681));
}

static void test_streams_created(void **state)
{
	struct harness *h = *state;

	assert_int_equal(read_all(h, PLOG_A, FILE_PLOG, STREAMS_CREATED), 1);
	const struct incident *inc = h->inc[0];
	assert_class(inc, CODE_EE1023, RES_STREAM, CAUSE_STREAMS_CREATED);
	assert_process(inc, 42017, "rtstest_host", 42017);
	assert_string_equal(inc->reported_code, "EE1023");
	assert_field(inc, "stream_id", "2047");
	/* 2047 is the last id of a 2048-stream device. */
	assert_field(inc, "stream_limit", "2048");
	assert_field(inc, "inner_code", "0x7020023");
	assert_field(inc, "api", "rtStreamCreateWithFlags");
	assert_int_equal(inc->nlines, 6);
}

static void test_graph_concurrency(void **state)
{
	struct harness *h = *state;

	assert_int_equal(read_all(h, PLOG_A, FILE_PLOG, GRAPH_CONCURRENCY), 1);
	const struct incident *inc = h->inc[0];
	assert_class(inc, CODE_EE1023, RES_NOTIFY, CAUSE_GRAPH_CONCURRENCY);
	assert_process(inc, 50210, "rtstest_host", 50210);
	assert_field(inc, "device_id", "0");
	assert_field(inc, "model_id", "21845");
	assert_field(inc, "inner_code", "0x702001b");
	assert_field(inc, "external_code", "207009");
	assert_field(inc, "api", "rtStreamEndCapture");
	assert_int_equal(inc->nlines, 4);
}

static void test_notifies_created(void **state)
{
	struct harness *h = *state;

	/* The device task error of thread 9649 is no incident of its own
	 * and no part of the notify chain. */
	assert_int_equal(read_all(h, PLOG_A, FILE_PLOG, NOTIFIES_CREATED), 1);
	const struct incident *inc = h->inc[0];
	assert_class(inc, CODE_EE1023, RES_NOTIFY, CAUSE_NOTIFIES_CREATED);
	assert_process(inc, 9630, "rtstest_host", 9630);
	assert_field(inc, "device_id", "0");
	assert_field(inc, "inner_code", "0x702001b");
	assert_field(inc, "api", "rtNotifyCreateWithFlag");
	assert_int_equal(inc->nlines, 5);
}

static void test_events_created(void **state)
{
	struct harness *h = *state;

	assert_int_equal(read_all(h, PLOG_A, FILE_PLOG, EVENTS_CREATED), 1);
	const struct incident *inc = h->inc[0];
	assert_class(inc, CODE_EE1023, RES_EVENT, CAUSE_EVENTS_CREATED);
	assert_process(inc, 27700, "rtstest_host", 27700);
	assert_field(inc, "device_id", "0");
	assert_field(inc, "inner_code", "0x7020019");
	assert_field(inc, "external_code", "207007");
	assert_field(inc, "api", "rtEventCreateWithFlag");
	assert_int_equal(inc->nlines, 6);
}

static void test_graph_copy_tasks(void **state)
{
	struct harness *h = *state;

	assert_int_equal(read_all(h, PLOG_A, FILE_PLOG, GRAPH_COPY_TASKS), 1);
	const struct incident *inc = h->inc[0];
	assert_class(inc, CODE_EE1023, RES_ASYNC_COPY, CAUSE_GRAPH_COPY_TASKS);
	assert_process(inc, 83037, "rtstest_host", 83037);
	assert_field(inc, "capacity", "32768");
	assert_field(inc, "max_depth", "32768");
	assert_field(inc, "stream_id", "59");
	assert_field(inc, "device_id", "7");
	assert_field(inc, "height", "100");
	assert_field(inc, "inner_code", "0x7110019");
	assert_field(inc, "external_code", "207008");
	assert_field(inc, "api", "rtMemcpy2dAsync");
	assert_int_equal(inc->nlines, 9);
}

static void test_memcpy_mismatch(void **state)
{
	struct harness *h = *state;

	assert_int_equal(read_all(h, PLOG_A, FILE_PLOG, MEMCPY_MISMATCH), 1);
	const struct incident *inc = h->inc[0];
	assert_class(inc, CODE_EE1001, RES_MEMCPY,
		     CAUSE_KIND_LOCATION_MISMATCH);
	assert_process(inc, 29108, "python3", 29157);
	assert_string_equal(inc->reported_code, "EE1001");
	assert_field(inc, "kind", "1");
	assert_field(inc, "src_loc", "2");
	assert_field(inc, "dst_loc", "2");
	assert_field(inc, "kind_name", "host to device");
	/* Loc type 2 is device memory in the numbering of that release. */
	assert_field(inc, "src_loc_name", "device");
	assert_field(inc, "dst_loc_name", "device");
	assert_field(inc, "loc_numbering", "cann-2024-doc");
	assert_field(inc, "src_mismatch", "yes");
	assert_null(incident_field(inc, "dst_mismatch"));
	assert_field(inc, "inner_code", "0x7110001");
	assert_field(inc, "external_code", "107000");
	assert_field(inc, "api", "rtMemcpyAsync");
	/* 8 ERROR records, one with a continuation line; no INFO line. */
	assert_int_equal(inc->nlines, 9);
	assert_int_equal(inc->nraw, 8);
	assert_int_equal(inc->line, 1);
	assert_non_null(strstr(inc->raw[1].text, "\nMemory async failed"));
	assert_int_equal(inc->first, logtime_make(2024, 1, 29, 19, 28, 56, 519792));
	assert_int_equal(inc->last, logtime_make(2024, 1, 29, 19, 28, 56, 519952));
}

/* ---- chains: retries, threads, rotation -------------------------------- */

static void test_retry_loop_gives_one_incident_per_call(void **state)
{
	static const char *const blocks[] = {
		GRAPH_STREAMS, STREAMS_CREATED, GRAPH_CONCURRENCY,
		NOTIFIES_CREATED, EVENTS_CREATED, GRAPH_COPY_TASKS,
		MEMCPY_MISMATCH,
	};
	struct harness *h = *state;

	for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; b++) {
		char *text = repeat(blocks[b], 3);
		size_t before = h->n;
		open_file(h, PLOG_A, FILE_PLOG);
		feed(h, text);
		finish(h);
		if (h->n - before != 3)
			fail_msg("block %zu repeated 3 times gave %zu", b,
				 h->n - before);
		/* The same class, one call's lines each, in order. */
		for (size_t i = before; i < h->n; i++) {
			assert_int_equal(h->inc[i]->code, h->inc[before]->code);
			assert_int_equal(h->inc[i]->resource,
					 h->inc[before]->resource);
			assert_int_equal(h->inc[i]->cause, h->inc[before]->cause);
			assert_int_equal(h->inc[i]->nlines,
					 h->inc[before]->nlines);
			assert_true(h->inc[i]->line > (i > before ?
						       h->inc[i - 1]->line : 0));
		}
		free(text);
	}
}

/* The same thread, one call after another, a few milliseconds apart. */
static const char STREAMS_RETRIED[] =
	"[ERROR] RUNTIME(42017,rtstest_host):2026-07-09-21:52:24.482.342 [stream.cc:728]42017 Setup:Alloc sq cq failed, stream_id=2047, retCode=0x7020023.\n"
	"[ERROR] RUNTIME(42017,rtstest_host):2026-07-09-21:52:24.482.347 [stream.cc:731]42017 Setup:Alloc Stream resource failed. Reason: Too many streams are created. ErrorCode=EE1023.\n"
	"[ERROR] RUNTIME(42017,rtstest_host):2026-07-09-21:52:24.482.402 [api_c_stream.cc:85]42017 rtStreamCreateWithFlags:ErrCode=207005, desc=[driver error:resource alloc fail], InnerCode=0x7020023\n"
	"[INFO] RUNTIME(42017,rtstest_host):2026-07-09-21:52:24.485.000 [stream.cc:120] 42017 Setup:retrying stream creation\n"
	"[ERROR] RUNTIME(42017,rtstest_host):2026-07-09-21:52:24.487.342 [stream.cc:728]42017 Setup:Alloc sq cq failed, stream_id=2046, retCode=0x7020023.\n"
	"[ERROR] RUNTIME(42017,rtstest_host):2026-07-09-21:52:24.487.347 [stream.cc:731]42017 Setup:Alloc Stream resource failed. Reason: Too many streams are created. ErrorCode=EE1023.\n"
	"[ERROR] RUNTIME(42017,rtstest_host):2026-07-09-21:52:24.487.402 [api_c_stream.cc:85]42017 rtStreamCreateWithFlags:ErrCode=207005, desc=[driver error:resource alloc fail], InnerCode=0x7020023\n";

static void test_retry_with_changing_fields(void **state)
{
	struct harness *h = *state;

	assert_int_equal(read_all(h, PLOG_A, FILE_PLOG, STREAMS_RETRIED), 2);
	assert_field(h->inc[0], "stream_id", "2047");
	assert_field(h->inc[1], "stream_id", "2046");
	assert_int_equal(h->inc[0]->line, 1);
	assert_int_equal(h->inc[1]->line, 5);
	assert_int_equal(h->inc[1]->nlines, 3);
}

/* The events block on another thread of the same process, in the same
 * milliseconds as STREAMS_CREATED. */
static const char EVENTS_OTHER_THREAD[] =
	"[ERROR] RUNTIME(42017,rtstest_host):2026-07-09-21:52:24.482.343 [event_david.cc:101]42030 GenEventId:Alloc Event resource failed. Reason: Too many events are created. ErrorCode=EE1023.\n"
	"[ERROR] RUNTIME(42017,rtstest_host):2026-07-09-21:52:24.482.350 [event_david.cc:104]42030 GenEventId:Failed to allocate event id, device_id=1, tsId=0, retCode=0x7020019.\n"
	"[ERROR] RUNTIME(42017,rtstest_host):2026-07-09-21:52:24.482.380 [api_impl_david.cc:405]42030 EventCreate:Gen event id failed, device_id=1, tsId=0, retCode=0x7020019\n"
	"[ERROR] RUNTIME(42017,rtstest_host):2026-07-09-21:52:24.482.390 [api_error.cc:1343]42030 EventCreate:Create event failed.\n"
	"[ERROR] RUNTIME(42017,rtstest_host):2026-07-09-21:52:24.482.403 [api_c.cc:661]42030 rtEventCreateWithFlag:ErrCode=207007, desc=[driver error:no event resource], InnerCode=0x7020019\n"
	"[ERROR] RUNTIME(42017,rtstest_host):2026-07-09-21:52:24.482.406 [error_message_manage.cc:69]42030 FuncErrorReason:rtEventCreateWithFlag execution failed, reason=driver error:no event resource\n";

static const struct incident *by_tid(const struct harness *h, long tid)
{
	for (size_t i = 0; i < h->n; i++)
		if (h->inc[i]->tid == tid)
			return h->inc[i];
	fail_msg("no incident of thread %ld", tid);
	return NULL;
}

static void test_interleaved_threads(void **state)
{
	struct harness *h = *state;
	char *text = interleave(STREAMS_CREATED, EVENTS_OTHER_THREAD);

	assert_int_equal(read_all(h, PLOG_A, FILE_PLOG, text), 2);
	free(text);
	assert_int_equal(h->n, 2);
	const struct incident *s = by_tid(h, 42017), *e = by_tid(h, 42030);
	assert_class(s, CODE_EE1023, RES_STREAM, CAUSE_STREAMS_CREATED);
	assert_class(e, CODE_EE1023, RES_EVENT, CAUSE_EVENTS_CREATED);
	assert_int_equal(s->nlines, 6);
	assert_int_equal(e->nlines, 6);
	/* Fields do not leak from one thread's chain to the other's. */
	assert_field(s, "stream_id", "2047");
	assert_null(incident_field(s, "device_id"));
	assert_field(e, "device_id", "1");
	assert_null(incident_field(e, "stream_id"));
	assert_int_equal(s->line, 1);
	assert_int_equal(e->line, 2);
}

/* One line of a stream chain of pid (and tid) p: 0 and 1 before the API
 * boundary, 2 the boundary, 3 the trailer. */
static void stream_line(struct harness *h, long p, int k)
{
	static const char *const loc[] = {
		"stream.cc:728", "stream.cc:731", "api_c_stream.cc:85",
		"error_message_manage.cc:69",
	};
	static const char *const msg[] = {
		"Setup:Alloc sq cq failed, stream_id=2047, retCode=0x7020023.",
		"Setup:Alloc Stream resource failed. Reason: Too many streams "
		"are created. ErrorCode=EE1023.",
		"rtStreamCreateWithFlags:ErrCode=207005, desc=[driver "
		"error:resource alloc fail], InnerCode=0x7020023",
		"FuncErrorReason:rtStreamCreateWithFlags execution failed, "
		"reason=driver error:resource alloc fail",
	};
	struct strbuf sb = STRBUF_INIT;

	sb_addf(&sb, "[ERROR] RUNTIME(%ld,python3):2026-07-09-21:52:24.482.401 "
		"[%s]%ld %s", p, loc[k], p, msg[k]);
	feed(h, sb.buf);
	sb_free(&sb);
}

/* At the cap of open chains, ended chains go before one still being
 * written: files are read a budget at a time, so a chain cut at the end
 * of one file's turn waits while other files give thousands of whole
 * chains.  Closing it would make two incidents of one call. */
static void test_cap_closes_ended_chains_first(void **state)
{
	struct harness *h = *state;

	open_file(h, PLOG_A, FILE_PLOG);
	stream_line(h, 7, 0);
	stream_line(h, 7, 1);
	for (long p = 1000; p < 1000 + 9000; p++)
		for (int k = 0; k < 4; k++)
			stream_line(h, p, k);
	stream_line(h, 7, 2);
	stream_line(h, 7, 3);
	finish(h);
	assert_int_equal(h->n, 9001);
	const struct incident *cut = by_tid(h, 7);
	assert_non_null(cut);
	assert_int_equal(cut->nlines, 4);
	assert_class(cut, CODE_EE1023, RES_STREAM, CAUSE_STREAMS_CREATED);
}

static void test_other_threads_inside_a_chain(void **state)
{
	struct harness *h = *state;

	open_file(h, PLOG_A, FILE_PLOG);
	feed(h,
	     "[ERROR] RUNTIME(42017,rtstest_host):2026-07-09-21:52:24.482.342 [stream.cc:728]42017 Setup:Alloc sq cq failed, stream_id=2047, retCode=0x7020023.\n"
	     "[ERROR] RUNTIME(42017,rtstest_host):2026-07-09-21:52:24.482.344 [stars_engine.cc:1569]42099 ProcLogicCqReport:Task run failed, device_id=0, stream_id=60, task_id=0\n"
	     "[INFO] RUNTIME(42017,rtstest_host):2026-07-09-21:52:24.482.345 [stream.cc:300] 42050 Setup:stream_id=12 created\n"
	     "[ERROR] RUNTIME(42017,rtstest_host):2026-07-09-21:52:24.482.347 [stream.cc:731]42017 Setup:Alloc Stream resource failed. Reason: Too many streams are created. ErrorCode=EE1023.\n"
	     "[INFO] RUNTIME(42017,rtstest_host):2026-07-09-21:52:24.482.350 [context.cc:900] 42017 StreamCreate:releasing sq\n"
	     "[ERROR] RUNTIME(42017,rtstest_host):2026-07-09-21:52:24.482.377 [context.cc:1572]42017 StreamCreate:Setup stream failed, retCode=0x7020023.\n"
	     "[ERROR] RUNTIME(42017,rtstest_host):2026-07-09-21:52:24.482.380 [device_error_proc.cc:1454]42099 ProcessStarsSqeErrorInfo:sqe error occurred during task execution, stream_id:60\n"
	     "[ERROR] RUNTIME(42017,rtstest_host):2026-07-09-21:52:24.482.388 [api_impl.cc:1487]42017 StreamCreate:Create stream failed, priority=0, flags=0.\n"
	     "[ERROR] RUNTIME(42017,rtstest_host):2026-07-09-21:52:24.482.402 [api_c_stream.cc:85]42017 rtStreamCreateWithFlags:ErrCode=207005, desc=[driver error:resource alloc fail], InnerCode=0x7020023\n"
	     "[ERROR] RUNTIME(42017,rtstest_host):2026-07-09-21:52:24.482.405 [error_message_manage.cc:69]42017 FuncErrorReason:rtStreamCreateWithFlags execution failed, reason=driver error:resource alloc fail\n");
	finish(h);
	assert_int_equal(h->n, 1);
	assert_class(h->inc[0], CODE_EE1023, RES_STREAM, CAUSE_STREAMS_CREATED);
	assert_int_equal(h->inc[0]->tid, 42017);
	assert_int_equal(h->inc[0]->nlines, 6);
	assert_field(h->inc[0], "stream_id", "2047");
}

static void test_same_pid_other_program(void **state)
{
	struct harness *h = *state;

	/* A pid reused by another program is another process: the chains
	 * of the two names do not mix. */
	open_file(h, PLOG_A, FILE_PLOG);
	feed(h,
	     "[ERROR] RUNTIME(42017,rtstest_host):2026-07-09-21:52:24.482.342 [stream.cc:728]42017 Setup:Alloc sq cq failed, stream_id=2047, retCode=0x7020023.\n"
	     "[ERROR] RUNTIME(42017,python3):2026-07-09-21:52:24.482.343 [event_david.cc:101]42017 GenEventId:Alloc Event resource failed. Reason: Too many events are created. ErrorCode=EE1023.\n"
	     "[ERROR] RUNTIME(42017,rtstest_host):2026-07-09-21:52:24.482.347 [stream.cc:731]42017 Setup:Alloc Stream resource failed. Reason: Too many streams are created. ErrorCode=EE1023.\n");
	finish(h);
	assert_int_equal(h->n, 2);
	for (size_t i = 0; i < 2; i++) {
		const struct incident *inc = h->inc[i];
		if (strcmp(inc->name, "python3") == 0)
			assert_int_equal(inc->resource, RES_EVENT);
		else
			assert_int_equal(inc->resource, RES_STREAM);
	}
}

static void test_chain_across_rotation(void **state)
{
	struct harness *h = *state;
	const char *cut = STREAMS_CREATED;

	/* The first three lines end one file, the rest start the next. */
	for (int i = 0; i < 3; i++)
		cut = strchr(cut, '\n') + 1;
	char *head = xstrndup(STREAMS_CREATED, (size_t)(cut - STREAMS_CREATED));
	open_file(h, PLOG_A, FILE_PLOG);
	feed(h, head);
	open_file(h, PLOG_B, FILE_PLOG);
	feed(h, cut);
	finish(h);
	free(head);

	assert_int_equal(h->n, 1);
	const struct incident *inc = h->inc[0];
	assert_class(inc, CODE_EE1023, RES_STREAM, CAUSE_STREAMS_CREATED);
	assert_int_equal(inc->nlines, 6);
	assert_string_equal(inc->file, PLOG_A);
	assert_int_equal(inc->line, 1);
	assert_int_equal(inc->nraw, 6);
	assert_string_equal(inc->raw[2].file, PLOG_A);
	assert_int_equal(inc->raw[2].line, 3);
	assert_string_equal(inc->raw[3].file, PLOG_B);
	assert_int_equal(inc->raw[3].line, 1);
}

static void test_decimal_inner_code(void **state)
{
	struct harness *h = *state;

	/* An older release: the inner code in decimal, no code, no reason. */
	assert_int_equal(read_all(h, PLOG_A, FILE_PLOG,
		"[ERROR] RUNTIME(4242,python3):2019-03-01-10:00:00.000.001 [stream.cc:300]4242 Setup:alloc stream failed, error=117571619\n"
		"[ERROR] RUNTIME(4242,python3):2019-03-01-10:00:00.000.009 [context.cc:900]4242 StreamCreate:create stream failed, error=117571619\n"), 1);
	assert_class(h->inc[0], CODE_EE1023, RES_STREAM, CAUSE_UNKNOWN);
	assert_field(h->inc[0], "inner_code", "0x7020023");
}

/* ---- look-alikes (plog) ------------------------------------------------- */

static void assert_no_incident(struct harness *h, enum file_kind kind,
			       const char *text)
{
	size_t n = read_all(h, kind == FILE_PLOG ? PLOG_A : STDOUT_LOG, kind,
			    text);

	if (n) {
		const struct incident *inc = h->inc[h->n - n];
		fail_msg("%zu incident(s), the first %s/%s/%s at line %lu", n,
			 code_name(inc->code), resource_name(inc->resource),
			 cause_name(inc->cause), inc->line);
	}
}

static const char STARTUP_INFO[] =
	"[INFO] GE(3701,python3):2023-07-13-07:41:09.574.919 [error_manager.cc:512]3701 ParseJsonFile:add error_code EE1001 success\n"
	"[INFO] GE(3701,python3):2023-07-13-07:41:09.574.925 [error_manager.cc:512]3701 ParseJsonFile:add error_code EE1023 success\n";

static void test_lookalike_info_and_warning(void **state)
{
	struct harness *h = *state;

	assert_no_incident(h, FILE_PLOG, STARTUP_INFO);
	assert_no_incident(h, FILE_MIXED, STARTUP_INFO);
	assert_no_incident(h, FILE_PLOG,
		"[WARNING] RUNTIME(7001,python3):2026-03-01-10:00:00.000.001 [stream.cc:700] 7001 Setup:stream pool nearly exhausted, the next one may fail with EE1023 (Too many streams are created), retCode=0x7020023\n"
		"[DEBUG] RUNTIME(7001,python3):2026-03-01-10:00:00.000.002 [stream.cc:701] 7001 Setup:ErrorCode=EE1023 is Resource_Error\n");
}

static void test_lookalike_longer_code(void **state)
{
	struct harness *h = *state;

	assert_no_incident(h, FILE_PLOG,
		"[ERROR] RUNTIME(7001,python3):2026-03-01-10:00:00.000.001 [api.cc:10]7001 Check:unexpected code EE10230 in the table\n"
		"[ERROR] RUNTIME(7001,python3):2026-03-01-10:00:00.000.002 [api.cc:12]7001 Check:and XEE1001 is not a code either\n");
}

static void test_lookalike_capture_mode(void **state)
{
	struct harness *h = *state;

	assert_no_incident(h, FILE_PLOG,
		"[ERROR] RUNTIME(5001,python3):2026-03-01-10:00:00.000.001 [api_error.cc:881]5001 MemcpyAsync:[EXEC][EXEC]report error module_name=EE1001\n"
		"[ERROR] RUNTIME(5001,python3):2026-03-01-10:00:00.000.010 [api_c.cc:1428]5001 rtMemcpyAsync:[EXEC][EXEC]ErrCode=107030, desc=[the current capture mode does not support this operation], InnerCode=0x703001c\n"
		"[ERROR] RUNTIME(5001,python3):2026-03-01-10:00:00.000.015 [error_message_manage.cc:48]5001 FuncErrorReason:[EXEC][EXEC]rtMemcpyAsync execute failed, reason=[the current capture mode does not support this operation]\n"
		"[ERROR] ASCENDCL(5001,python3):2026-03-01-10:00:00.000.020 [memory.cc:336]5001 aclrtMemcpyAsync:[EXEC][EXEC]asynchronized memcpy failed, kind = 1, runtime result = 107030\n");
}

static void test_lookalike_driver_internal_error(void **state)
{
	struct harness *h = *state;

	assert_no_incident(h, FILE_PLOG,
		"[ERROR] RUNTIME(6100,python3):2026-03-01-10:00:00.000.001 [stream.cc:728]6100 Setup:Alloc sq cq failed, stream_id=5, retCode=0x7020010.\n"
		"[ERROR] RUNTIME(6100,python3):2026-03-01-10:00:00.000.005 [stream.cc:731]6100 Setup:stream setup failed, retCode=0x7020010.\n"
		"[ERROR] RUNTIME(6100,python3):2026-03-01-10:00:00.000.020 [context.cc:1572]6100 StreamCreate:Setup stream failed, retCode=0x7020010.\n"
		"[ERROR] RUNTIME(6100,python3):2026-03-01-10:00:00.000.040 [api_c_stream.cc:85]6100 rtStreamCreateWithFlags:ErrCode=207005, desc=[driver error:resource alloc fail], InnerCode=0x7020010\n"
		"[ERROR] RUNTIME(6100,python3):2026-03-01-10:00:00.000.044 [error_message_manage.cc:69]6100 FuncErrorReason:rtStreamCreateWithFlags execution failed, reason=driver error:resource alloc fail\n");
}

static void test_lookalike_hccl_resource_error(void **state)
{
	struct harness *h = *state;

	assert_no_incident(h, FILE_PLOG,
		"[ERROR] HCCL(6200,python3):2026-03-01-10:00:00.000.001 [op_base.cc:100][6200]report error module_name=EI0007\n"
		"[ERROR] HCCL(6200,python3):2026-03-01-10:00:00.000.002 [hccl_comm.cc:312][6200]Notify create failed, no notify resource, devId=0\n");
}

static void test_lookalike_between_incidents(void **state)
{
	struct harness *h = *state;
	struct strbuf text = STRBUF_INIT;

	/* A vetoed chain between two real ones vetoes only itself. */
	sb_adds(&text, EVENTS_CREATED);
	sb_adds(&text,
		"[ERROR] RUNTIME(27700,rtstest_host):2026-07-13-12:23:44.080.001 [stream.cc:728]27700 Setup:Alloc sq cq failed, stream_id=5, retCode=0x7020010.\n"
		"[ERROR] RUNTIME(27700,rtstest_host):2026-07-13-12:23:44.080.040 [api_c_stream.cc:85]27700 rtStreamCreateWithFlags:ErrCode=207005, desc=[driver error:resource alloc fail], InnerCode=0x7020010\n");
	sb_adds(&text, EVENTS_CREATED);
	assert_int_equal(read_all(h, PLOG_A, FILE_PLOG, text.buf), 2);
	assert_int_equal(h->inc[0]->resource, RES_EVENT);
	assert_int_equal(h->inc[1]->resource, RES_EVENT);
	assert_int_equal(h->inc[1]->line, 9);
	sb_free(&text);
}

/* ---- screen prints (captured stdout/stderr) ----------------------------- */

static const char SCREEN_EVENTS[] =
	"Resource_Error(EE1023): Alloc Event resource failed. Reason: Too many events are created.\n"
	"        Solution: For details about the troubleshooting method, search for the keyword \"EE1023\" on https://www.hiascend.com/document/.\n"
	"TraceBack (most recent call last):\n"
	"        rtEventCreateWithFlag execution failed, reason=driver error:no event resource[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:69]\n";

static void assert_screen_events(const struct incident *inc)
{
	assert_class(inc, CODE_EE1023, RES_EVENT, CAUSE_EVENTS_CREATED);
	assert_string_equal(inc->reported_code, "EE1023");
	assert_field(inc, "api", "rtEventCreateWithFlag");
	assert_int_equal(inc->nlines, 4);
	assert_string_equal(inc->file, STDOUT_LOG);
}

static void test_screen_block(void **state)
{
	struct harness *h = *state;
	struct strbuf text = STRBUF_INIT;

	sb_adds(&text, "step 12: loss=0.4312\n");
	sb_adds(&text, SCREEN_EVENTS);
	sb_adds(&text, "Traceback (most recent call last):\n"
		       "  File \"train.py\", line 88, in <module>\n"
		       "RuntimeError: aclrtCreateEventWithFlag failed\n");
	assert_int_equal(read_all(h, STDOUT_LOG, FILE_MIXED, text.buf), 1);
	assert_screen_events(h->inc[0]);
	assert_int_equal(h->inc[0]->line, 2);
	assert_int_equal(h->inc[0]->pid, 0);	/* the print does not say */
	sb_free(&text);
}

static void test_screen_block_without_prefix_is_defined(void **state)
{
	struct harness *h = *state;

	/* Regression: output without a launcher prefix once passed a NULL
	 * prefix to classifier_screen_open(), and memcmp(p, NULL, 0) is
	 * undefined (UBSan stops there under -fno-sanitize-recover). */
	open_file(h, STDOUT_LOG, FILE_MIXED);
	feed(h, "Resource_Error(EE1023): Alloc Event resource failed. Reason: Too many events are created.\n"
		"        Solution: search for the keyword \"EE1023\".\n");
	finish(h);
	assert_int_equal(h->n, 1);
	assert_int_equal(h->inc[0]->nlines, 2);
}

static void test_screen_blocks_repeated(void **state)
{
	struct harness *h = *state;
	char *text = repeat(SCREEN_EVENTS, 4);

	assert_int_equal(read_all(h, STDOUT_LOG, FILE_MIXED, text), 4);
	for (size_t i = 0; i < 4; i++) {
		assert_screen_events(h->inc[i]);
		assert_int_equal(h->inc[i]->line, 1 + 4 * i);
	}
	free(text);
}

static void test_screen_blocks_with_launcher_prefix(void **state)
{
	struct harness *h = *state;
	char *once = prefixed("[rank0]: ", SCREEN_EVENTS);
	char *thrice = repeat(once, 3);

	assert_int_equal(read_all(h, STDOUT_LOG, FILE_MIXED, once), 1);
	assert_screen_events(h->inc[0]);
	assert_int_equal(read_all(h, STDOUT_LOG, FILE_MIXED, thrice), 3);
	for (size_t i = 1; i < 4; i++)
		assert_screen_events(h->inc[i]);
	free(once);
	free(thrice);
}

static void test_screen_blocks_of_two_ranks_interleaved(void **state)
{
	struct harness *h = *state;
	char *r0 = prefixed("[rank0]: ", SCREEN_EVENTS);
	char *r1 = prefixed("[rank1]: ", SCREEN_EVENTS);
	char *text = interleave(r0, r1);

	assert_int_equal(read_all(h, STDOUT_LOG, FILE_MIXED, text), 2);
	assert_screen_events(h->inc[0]);
	assert_screen_events(h->inc[1]);
	free(r0);
	free(r1);
	free(text);
}

static void test_screen_block_with_pid(void **state)
{
	struct harness *h = *state;

	assert_int_equal(read_all(h, STDOUT_LOG, FILE_MIXED,
		"[PID: 46706] 2026-06-04-10:17:18.891.861 Insufficient_Stream_Resources(EL0009): The stream resources are insufficient.\n"
		"        Solution: Stop other processes on the device or create fewer streams.\n"
		"        TraceBack (most recent call last):\n"
		"        rtStreamBeginCapture execution failed, reason=driver error:no stream resource[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:69]\n"),
		1);
	const struct incident *inc = h->inc[0];
	assert_int_equal(inc->code, CODE_EE1023);
	assert_int_equal(inc->resource, RES_STREAM);
	assert_int_equal(inc->pid, 46706);
	assert_string_equal(inc->reported_code, "EL0009");
	assert_field(inc, "api", "rtStreamBeginCapture");
	assert_int_equal(inc->first,
			 logtime_make(2026, 6, 4, 10, 17, 18, 891861));
	assert_int_equal(inc->nlines, 4);
}

static void test_plog_lines_in_captured_output(void **state)
{
	struct harness *h = *state;
	char *text = prefixed("[rank1]: ", STREAMS_CREATED);

	/* ASCEND_LOG_PRINT_TO_STDOUT=1 under a launcher. */
	assert_int_equal(read_all(h, STDOUT_LOG, FILE_MIXED, text), 1);
	assert_class(h->inc[0], CODE_EE1023, RES_STREAM, CAUSE_STREAMS_CREATED);
	assert_process(h->inc[0], 42017, "rtstest_host", 42017);
	assert_int_equal(h->inc[0]->nlines, 6);
	free(text);
}

static void test_screen_prose_is_no_incident(void **state)
{
	struct harness *h = *state;

	assert_no_incident(h, FILE_MIXED,
		"EE1023资源不足问题\n"
		"当Runtime向Driver申请Stream、Event、Notify所涉及的硬件调度资源失败时触发EE1023的报错，表示Device上硬件资源不足。\n"
		"If you see EE1023 in a log, search for the keyword \"EE1023\" on https://www.hiascend.com/document/.\n"
		"$ grep -rc EE1023 $HOME/ascend/log\n"
		"    EE1023 means: Too many streams are created, or Too many events are created\n"
		"retCode=0x7020023 is the inner code of EE1023, error code is 207008\n"
		"\n"
		"Invalid_Argument is EE1001 and Resource_Error is EE1023.\n");
}

/* ---- prefix shapes and block rules (screenblock.c, lineprefix.c) -------- */

static void assert_shape(const char *prefix, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	lineprefix_shape(prefix, strlen(prefix), &sb);
	assert_int_equal(sb.len, strlen(want));
	assert_memory_equal(sb.len ? sb.buf : "", want, sb.len);
	sb_free(&sb);
}

static void test_prefix_clock_tokens(void **state)
{
	(void)state;
	assert_int_equal(lineprefix_clock("05-09 x", 7), 5);
	assert_int_equal(lineprefix_clock("08:06:34]", 9), 8);
	assert_int_equal(lineprefix_clock("0.00.476.376 E", 14), 12);
	assert_int_equal(lineprefix_clock("2026-11-30T12:00:01.123Z x", 26), 24);
	/* Names and single numbers are identity, not clocks. */
	assert_int_equal(lineprefix_clock("0-1", 3), 0);
	assert_int_equal(lineprefix_clock("4242]", 5), 0);
	assert_int_equal(lineprefix_clock("1,0]", 4), 0);
	/* Python logging's default time: milliseconds after a comma. */
	assert_int_equal(lineprefix_clock("12:00:01,123 - x", 16), 12);
	assert_int_equal(lineprefix_clock("12,345 x", 8), 0);
}

static void test_prefix_shapes(void **state)
{
	(void)state;
	assert_shape("ERROR 05-09 08:06:34 [engine.py:448] ",
		     "ERROR\002\001\002\001\002[engine.py:448] ");
	assert_shape("(VllmWorker rank=0 pid=1110) ",
		     "(VllmWorker\002rank=0\002pid=1110) ");
	assert_shape("Nov 30 12:00:01 node7 python3[4242]: ",
		     "Nov\00230\002\001\002node7\002python3[4242]: ");
	assert_shape("service-1  | ", "service-1\002| ");
	assert_shape("[rank0]: ", "[rank0]: ");
	assert_shape("E    ", "E    ");
	/* Indentation alone is no prefix. */
	assert_shape("        ", "");
}

static int prefix_matches(const char *prefix, const char *line, size_t *off)
{
	struct strbuf sb = STRBUF_INIT;

	lineprefix_shape(prefix, strlen(prefix), &sb);
	int m = lineprefix_match(sb.buf ? sb.buf : "", sb.len, line,
				 strlen(line), off);
	sb_free(&sb);
	return m;
}

static void test_prefix_matching(void **state)
{
	size_t off = 0;
	(void)state;

	/* Counters and clocks differ line by line. */
	assert_true(prefix_matches("0.00.476.376 E CANN error: ",
		"0.00.477.001 E CANN error:         Solution: x", &off));
	assert_int_equal(off, 27);
	assert_true(prefix_matches("ERROR 05-09 08:06:34 [engine.py:448] ",
		"ERROR 05-09 08:06:35 [engine.py:448]         TraceBack", &off));
	assert_int_equal(off, 37);
	/* Identity does not. */
	assert_false(prefix_matches("[rank0]: ", "[rank1]:         Solution", &off));
	assert_false(prefix_matches("(W rank=0 pid=7) ", "(W rank=1 pid=8) x", &off));
	assert_false(prefix_matches("ERROR 05-09 08:06:34 [engine.py:448] ",
		"INFO 05-09 08:06:34 [engine.py:448] x", &off));
	/* The prefix's own blanks are matched exactly: the body keeps its
	 * indentation; a line that stops in them is blank. */
	assert_true(prefix_matches("E    ", "E           Solution", &off));
	assert_int_equal(off, 5);
	assert_true(prefix_matches("[rank0]: ", "[rank0]:", &off));
	assert_int_equal(off, 8);
}

static const char EI0007_BLOCK[] =
	"EI0007: [PID: 4711] 2026-03-01-10:00:00.000.001 Failed to allocate resource. Reason: the HCCL buffer is too small.\n"
	"        Solution: Set HCCL_BUFFSIZE to a larger value.\n";

static void test_screen_new_heading_starts_a_block(void **state)
{
	struct harness *h = *state;
	struct strbuf text = STRBUF_INIT;

	/* A block with no TraceBack (an HCCL resource error, vetoed) must
	 * not swallow the EE1023 block that follows under the same prefix. */
	sb_adds(&text, EI0007_BLOCK);
	sb_adds(&text, SCREEN_EVENTS);
	char *ranked = prefixed("[rank2]: ", text.buf);
	assert_int_equal(read_all(h, STDOUT_LOG, FILE_MIXED, ranked), 1);
	assert_screen_events(h->inc[0]);
	assert_int_equal(h->inc[0]->line, 3);
	free(ranked);
	sb_free(&text);
}

static void test_screen_double_spaced(void **state)
{
	struct harness *h = *state;
	struct strbuf text = STRBUF_INIT;

	for (const char *p = SCREEN_EVENTS; *p; p++) {
		sb_addc(&text, *p);
		if (*p == '\n')
			sb_addc(&text, '\n');
	}
	sb_adds(&text, "Job failed.\n");
	assert_int_equal(read_all(h, STDOUT_LOG, FILE_MIXED, text.buf), 1);
	assert_screen_events(h->inc[0]);
	sb_free(&text);
}

static void test_screen_blank_line_ends_a_block(void **state)
{
	struct harness *h = *state;
	struct strbuf text = STRBUF_INIT;

	/* Single-spaced: a blank line after the body ends the block, and
	 * the indented text after it is not part of it. */
	sb_adds(&text, SCREEN_EVENTS);
	sb_adds(&text, "\n        retCode=0x7020023 means no stream left\n");
	assert_int_equal(read_all(h, STDOUT_LOG, FILE_MIXED, text.buf), 1);
	assert_screen_events(h->inc[0]);
	sb_free(&text);
}

/* A pid no system could have is no pid: not strtol's LONG_MAX. */
static void test_screen_pid_out_of_range(void **state)
{
	struct harness *h = *state;

	assert_int_equal(read_all(h, STDOUT_LOG, FILE_MIXED,
		"[PID: 4294967297000000000000] 2026-06-04-10:17:18.891.861 Insufficient_Stream_Resources(EL0009): The stream resources are insufficient.\n"
		"        TraceBack (most recent call last):\n"
		"        rtStreamBeginCapture execution failed, reason=driver error:no stream resource[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:69]\n"),
		1);
	assert_int_equal(h->inc[0]->pid, 0);
}

static void test_screen_heading_decides_ee1001(void **state)
{
	struct harness *h = *state;

	assert_int_equal(read_all(h, STDOUT_LOG, FILE_MIXED,
		"[PID: 5150] 2026-08-02-09:14:07.001.220 Invalid_Argument(EE1001): The argument is invalid. Reason: device 9 does not exist.\n"
		"        TraceBack (most recent call last):\n"
		"        Open device failed, device_id=9, retCode=0x7020010.[FUNC:Open][FILE:device.cc][LINE:212]\n"), 1);
	assert_int_equal(h->inc[0]->code, CODE_EE1001);
	assert_int_equal(h->inc[0]->resource, RES_ARGUMENT);
	assert_string_equal(h->inc[0]->reported_code, "EE1001");
	assert_int_equal(h->inc[0]->pid, 5150);
}

static void test_screen_argument_text_under_another_code(void **state)
{
	struct harness *h = *state;

	assert_no_incident(h, FILE_MIXED,
		"EL0003: [PID: 5151] 2026-08-02-09:14:07.001.220 The argument is invalid.Reason: devId=9 is out of range [0, 7].\n"
		"        Solution: Check the device ID.\n"
		"E30006: [PID: 5152] 2026-08-02-09:14:07.001.220 The argument is invalid. Reason: input shape [2, -1] is not supported.\n");
}

static void test_screen_unknown_heading_code_kept(void **state)
{
	struct harness *h = *state;

	assert_int_equal(read_all(h, STDOUT_LOG, FILE_MIXED,
		"EL0006: [PID: 5153] 2026-08-02-09:14:07.001.220 The stream could not be set up.\n"
		"        TraceBack (most recent call last):\n"
		"        Alloc sq cq failed, stream_id=2047, retCode=0x7020023.[FUNC:Setup][FILE:stream.cc][LINE:728]\n"), 1);
	assert_class(h->inc[0], CODE_EE1023, RES_STREAM, CAUSE_UNKNOWN);
	assert_string_equal(h->inc[0]->reported_code, "EL0006");
}

static void test_screen_headless_traceback(void **state)
{
	struct harness *h = *state;
	const char *tb =
		"[rank5]:         TraceBack (most recent call last):\n"
		"[rank5]:         Alloc sq cq failed, stream_id=1983, retCode=0x7020023.[FUNC:Setup][FILE:stream.cc][LINE:702]\n"
		"[rank5]:         rtStreamCreate execution failed, reason=driver error:resource alloc fail[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:69]\n";

	assert_int_equal(read_all(h, STDOUT_LOG, FILE_MIXED, tb), 1);
	assert_class(h->inc[0], CODE_EE1023, RES_STREAM, CAUSE_UNKNOWN);
	assert_field(h->inc[0], "api", "rtStreamCreate");
	assert_int_equal(h->inc[0]->nlines, 3);
	/* Without the failed call, or without the inner code: nothing. */
	assert_no_incident(h, FILE_MIXED,
		"TraceBack (most recent call last):\n"
		"        Alloc sq cq failed, stream_id=1983, retCode=0x7020023.\n");
	assert_no_incident(h, FILE_MIXED,
		"TraceBack (most recent call last):\n"
		"        rtStreamCreate execution failed, reason=driver error:resource alloc fail\n");
}

static void test_screen_nested_tags_name_the_inner_process(void **state)
{
	struct harness *h = *state;
	char *text = prefixed("(Worker pid=1) (Worker_DP0_TP5 pid=2) ERROR 05-09 08:06:34 [multiproc_executor.py:470] ",
			      SCREEN_EVENTS);

	assert_int_equal(read_all(h, STDOUT_LOG, FILE_MIXED, text), 1);
	assert_screen_events(h->inc[0]);
	assert_process(h->inc[0], 2, "Worker_DP0_TP5", 0);
	free(text);
}

static void test_screen_prefix_on_first_line_only(void **state)
{
	struct harness *h = *state;
	struct strbuf text = STRBUF_INIT;

	/* llama.cpp: "CANN error: " before the heading, the body bare. */
	sb_adds(&text, "CANN error: ");
	sb_adds(&text, SCREEN_EVENTS);
	sb_adds(&text, "/llama.cpp/ggml/src/ggml-cann/ggml-cann.cpp:61: CANN error\n");
	assert_int_equal(read_all(h, STDOUT_LOG, FILE_MIXED, text.buf), 1);
	assert_screen_events(h->inc[0]);
	sb_free(&text);
}

/* RUNTIME's stream.cc:412 and ASCENDCL's are two places: the ASCENDCL
 * line that ends the chain is no repeat of the call. */
static const char SAME_PLACE_OTHER_MODULE[] =
	"[ERROR] RUNTIME(42017,rtstest_host):2026-07-09-21:52:24.482.342 [stream.cc:412]42017 Setup:Alloc stream id failed, retCode=0x7020023.\n"
	"[ERROR] RUNTIME(42017,rtstest_host):2026-07-09-21:52:24.482.347 [stream.cc:731]42017 Setup:Alloc Stream resource failed. Reason: Too many streams are created. ErrorCode=EE1023.\n"
	"[ERROR] RUNTIME(42017,rtstest_host):2026-07-09-21:52:24.482.402 [api_c_stream.cc:85]42017 rtStreamCreateWithFlags:ErrCode=207005, desc=[driver error:resource alloc fail], InnerCode=0x7020023\n"
	"[ERROR] RUNTIME(42017,rtstest_host):2026-07-09-21:52:24.482.405 [error_message_manage.cc:69]42017 FuncErrorReason:rtStreamCreateWithFlags execution failed, reason=driver error:resource alloc fail\n"
	"[ERROR] ASCENDCL(42017,rtstest_host):2026-07-09-21:52:24.482.430 [stream.cc:412]42017 aclrtCreateStreamWithConfig:create stream failed, runtime result = 207005\n";

static void test_module_is_part_of_the_place(void **state)
{
	struct harness *h = *state;

	assert_int_equal(read_all(h, PLOG_A, FILE_PLOG, SAME_PLACE_OTHER_MODULE), 1);
	assert_int_equal(h->inc[0]->nlines, 5);
}

/* One line again and again from one place, only a number changing: each
 * is the call made again. */
static void test_retry_of_one_line(void **state)
{
	struct harness *h = *state;
	struct strbuf sb = STRBUF_INIT;

	for (int i = 0; i < 300; i++)
		sb_addf(&sb, "[ERROR] RUNTIME(42017,rtstest_host):2026-07-09-21:52:%02d.%03d.000 [stream.cc:731]42017 Setup:Alloc Stream resource failed, attempt %d. Reason: Too many streams are created. ErrorCode=EE1023, ErrCode=207005\n",
			24 + i / 200, i % 200 * 5, i);
	assert_int_equal(read_all(h, PLOG_A, FILE_PLOG, sb.buf), 300);
	for (size_t i = 0; i < h->n; i++)
		assert_int_equal(h->inc[i]->nlines, 1);
	sb_free(&sb);
}

/* Two processes whose clocks are years apart, each calling again and
 * again on its main thread, their calls interleaved line by line in one
 * classifier (as --follow reads them), and a line dated 2099 among them:
 * every call is whole. */
static void test_clocks_of_two_processes(void **state)
{
	static const char *const loc[] = {
		"stream.cc:728", "stream.cc:731", "api_c_stream.cc:85",
	};
	static const char *const text[] = {
		"Setup:Alloc sq cq failed, stream_id=2047, retCode=0x7020023.",
		"Setup:Alloc Stream resource failed. Reason: Too many streams are created. ErrorCode=EE1023.",
		"rtStreamCreateWithFlags:ErrCode=207005, desc=[driver error:resource alloc fail], InnerCode=0x7020023",
	};
	struct harness *h = *state;
	struct strbuf sb = STRBUF_INIT;

	sb_addf(&sb, "[ERROR] GE(100,py):2099-01-01-00:00:00.000.000 [graph.cc:99]100 Init:profiling config not found, using the defaults\n");
	for (int i = 0; i < 200; i++) {
		for (int k = 0; k < 3; k++) {
			for (int p = 0; p < 2; p++) {
				long pid = p ? 200 : 100;
				sb_addf(&sb, "[ERROR] RUNTIME(%ld,py):%s.%03d.%03d ",
					pid, p ? "2023-01-01-00:00:01" : "2026-07-09-21:52:24",
					i * 4, k * 10);
				sb_addf(&sb, "[%s]%ld %s\n", loc[k], pid, text[k]);
			}
		}
	}
	assert_int_equal(read_all(h, PLOG_A, FILE_PLOG, sb.buf), 400);
	for (size_t i = 0; i < h->n; i++) {
		assert_int_equal(h->inc[i]->nlines, 3);
		assert_int_equal(h->inc[i]->cause, CAUSE_STREAMS_CREATED);
	}
	sb_free(&sb);
}

int main(void)
{
	cmocka_set_message_output(CM_OUTPUT_TAP);
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_graph_streams),
		T(test_streams_created),
		T(test_graph_concurrency),
		T(test_notifies_created),
		T(test_events_created),
		T(test_graph_copy_tasks),
		T(test_memcpy_mismatch),
		T(test_retry_loop_gives_one_incident_per_call),
		T(test_retry_with_changing_fields),
		T(test_module_is_part_of_the_place),
		T(test_retry_of_one_line),
		T(test_clocks_of_two_processes),
		T(test_interleaved_threads),
		T(test_cap_closes_ended_chains_first),
		T(test_other_threads_inside_a_chain),
		T(test_same_pid_other_program),
		T(test_chain_across_rotation),
		T(test_decimal_inner_code),
		T(test_lookalike_info_and_warning),
		T(test_lookalike_longer_code),
		T(test_lookalike_capture_mode),
		T(test_lookalike_driver_internal_error),
		T(test_lookalike_hccl_resource_error),
		T(test_lookalike_between_incidents),
		T(test_screen_block),
		T(test_screen_block_without_prefix_is_defined),
		T(test_screen_blocks_repeated),
		T(test_screen_blocks_with_launcher_prefix),
		T(test_screen_blocks_of_two_ranks_interleaved),
		T(test_screen_block_with_pid),
		T(test_plog_lines_in_captured_output),
		T(test_screen_prose_is_no_incident),
		T(test_prefix_clock_tokens),
		T(test_prefix_shapes),
		T(test_prefix_matching),
		T(test_screen_new_heading_starts_a_block),
		T(test_screen_double_spaced),
		T(test_screen_blank_line_ends_a_block),
		T(test_screen_pid_out_of_range),
		T(test_screen_heading_decides_ee1001),
		T(test_screen_argument_text_under_another_code),
		T(test_screen_unknown_heading_code_kept),
		T(test_screen_headless_traceback),
		T(test_screen_nested_tags_name_the_inner_process),
		T(test_screen_prefix_on_first_line_only),
	};
#undef T
	return UNIT_RUN("classifier", tests);
}
