/* Facts and identity fields: the fact rules of the shipped rules on
 * lines in the logs' grammar (plog-facts.md sections 9 and 10), as the
 * feeder and classifier read them; the line splitter letting exactly
 * their lines through; the rank and device fields incidents take from
 * screen prefixes and tags; and the loader's checks of the fact keys.
 * The fixtures are ours, in the forms the reference gives. */
#include "config.h"

#include "feed_harness.h"
#include "follow.h"
#include "linesplit.h"

#define PLOG "run/plog/plog-28980_20240221060831000.log"
#define OUT "job-1234.out"

static const char *field(const struct incident *inc, const char *key)
{
	const char *v = incident_field(inc, key);

	return v ? v : "(none)";
}

/* ---- plog lines: ACL's INFO and EVENT forms ---- */

static const char SET_DEVICE[] =
	"[INFO] ASCENDCL(28980,python3):2024-02-21-06:08:31.254.432 [device.cpp:148]28980 aclrtSetDevice: start to execute aclrtSetDevice, deviceId = 3\n";

static void test_set_device(void **state)
{
	struct harness *h = *state;

	read_text(h, PLOG, FILE_PLOG, SET_DEVICE);
	assert_int_equal(h->nfacts, 1);
	const struct fact *f = h->facts[0];
	assert_int_equal(f->kind, FACT_DEVICE);
	assert_int_equal(f->device, 3);
	assert_int_equal(f->pid, 28980);
	assert_int_equal(f->tid, 28980);
	assert_string_equal(f->name, "python3");
	assert_string_equal(f->file, PLOG);
	assert_int_equal(f->line, 1);
	assert_null(f->host);
	assert_int_equal(h->n, 0);
}

/* The same words from another module, or at another level, are no
 * fact: the rule names ASCENDCL's INFO records. */
static void test_set_device_other_module_or_level(void **state)
{
	struct harness *h = *state;

	read_text(h, PLOG, FILE_PLOG,
		  "[INFO] RUNTIME(28980,python3):2024-02-21-06:08:31.254.432 [device.cpp:148]28980 aclrtSetDevice: start to execute aclrtSetDevice, deviceId = 3\n"
		  "[DEBUG] ASCENDCL(28980,python3):2024-02-21-06:08:31.254.432 [device.cpp:148]28980 aclrtSetDevice: start to execute aclrtSetDevice, deviceId = 3\n");
	assert_int_equal(h->nfacts, 0);
	assert_int_equal(h->n, 0);
}

/* The line after an ERROR record comes to the feeder whatever it starts
 * with: one of a module no fact rule takes is passed over by its start,
 * one spelt otherwise than the rules' starts ("[INFO]  ASCENDCL(", two
 * spaces) is still read as plog_parse reads it. */
static void test_fact_after_error_line(void **state)
{
	struct harness *h = *state;

	read_text(h, PLOG, FILE_PLOG,
		  "[ERROR] RUNTIME(28980,python3):2024-02-21-06:08:31.254.400 [stream.cc:412]28980 x\n"
		  "[INFO] RUNTIME(28980,python3):2024-02-21-06:08:31.254.432 [device.cpp:148]28980 aclrtSetDevice: start to execute aclrtSetDevice, deviceId = 3\n"
		  "[ERROR] RUNTIME(28980,python3):2024-02-21-06:08:31.254.500 [stream.cc:412]28980 x\n"
		  "[INFO]  ASCENDCL(28980,python3):2024-02-21-06:08:31.254.532 [device.cpp:148]28980 aclrtSetDevice: start to execute aclrtSetDevice, deviceId = 5\n");
	assert_int_equal(h->nfacts, 1);
	assert_int_equal(h->facts[0]->device, 5);
	assert_int_equal(h->facts[0]->line, 4);
}

static void test_statistics(void **state)
{
	struct harness *h = *state;

	read_text(h, PLOG, FILE_PLOG,
		  "[EVENT] ASCENDCL(14534,app):2021-12-17-13:12:33.283.060 [resource_statistics.cpp:104]14534 TraverseStatistics: The ResourceType:ACL_STATISTICS_CREATE_DESTROY_STREAM, applyTotal = 40, applySucc = 39, releaseTotal = 12, releaseSucc = 11\n"
		  "[EVENT] ASCENDCL(14534,app):2021-12-17-13:12:33.283.061 [resource_statistics.cpp:104]14534 TraverseStatistics: The ResourceType:ACL_STATISTICS_CREATE_DESTROY_HANDLE, applyTotal = 1, applySucc = 1, releaseTotal = 0, releaseSucc = 0\n"
		  "[EVENT] ASCENDCL(14534,app):2021-12-17-13:12:33.283.062 [resource_statistics.cpp:104]14534 TraverseStatistics: The ResourceType:ACL_STATISTICS_CREATE_DESTROY_EVENT, applyTotal = 7, applySucc = 7, releaseTotal = 7, releaseSucc = 7\n"
		  "[EVENT] ASCENDCL(14534,app):2021-12-17-13:12:33.283.063 [resource_statistics.cpp:104]14534 TraverseStatistics: The ResourceType:ACL_STATISTICS_RECORD_RESET_EVENT, applyTotal = 3, applySucc = 3, releaseTotal = 3, releaseSucc = 3\n");
	/* HANDLE and RECORD_RESET_EVENT: no ledger keeps them. */
	assert_int_equal(h->nfacts, 2);
	const struct fact *f = h->facts[0];
	assert_int_equal(f->kind, FACT_STATISTICS);
	assert_int_equal(f->resource, RES_STREAM);
	assert_int_equal(f->apply_total, 40);
	assert_int_equal(f->apply_succ, 39);
	assert_int_equal(f->release_total, 12);
	assert_int_equal(f->release_succ, 11);
	assert_int_equal(f->pid, 14534);
	assert_string_equal(f->name, "app");
	assert_int_equal(h->facts[1]->resource, RES_EVENT);
	assert_int_equal(h->facts[1]->apply_succ, 7);
	assert_int_equal(h->facts[1]->line, 3);
}

static void test_creates_and_destroys(void **state)
{
	struct harness *h = *state;

	read_text(h, PLOG, FILE_PLOG,
		  "[INFO] ASCENDCL(28980,python3):2024-02-21-06:08:31.301.118 [stream.cpp:42]28980 aclrtCreateStream: start to execute aclrtCreateStream\n"
		  "[INFO] ASCENDCL(28980,python3):2024-02-21-06:08:31.301.200 [stream.cpp:42]28980 aclrtCreateStreamWithConfig: start to execute aclrtCreateStreamWithConfig\n"
		  "[INFO] ASCENDCL(28980,python3):2024-02-21-06:08:31.402.007 [notify.cpp:31]28980 aclrtCreateNotify: start to execute aclrtCreateNotify, flag is [0]\n"
		  "[INFO] ASCENDCL(28980,python3):2024-02-21-06:08:31.402.090 [notify.cpp:45]28980 aclrtCreateNotify: successfully execute aclrtCreateNotify\n"
		  "[INFO] ASCENDCL(28980,python3):2024-02-21-06:08:39.020.502 [stream.cpp:80]28980 aclrtDestroyStream: start to execute aclrtDestroyStream\n"
		  "[INFO] ASCENDCL(28980,python3):2024-02-21-06:08:39.020.511 [stream.cpp:96]28980 aclrtDestroyStream: aclrtDestroyStream success\n"
		  "[INFO] RUNTIME(28980,python3):2024-02-21-06:08:39.020.530 [stream.cc:900] 28980 FreeStreamId: Free stream_id=1600.\n");
	assert_int_equal(h->nfacts, 4);
	assert_int_equal(h->facts[0]->kind, FACT_CREATE);
	assert_int_equal(h->facts[0]->resource, RES_STREAM);
	assert_int_equal(h->facts[0]->line, 1);
	assert_int_equal(h->facts[1]->kind, FACT_CREATE);
	assert_int_equal(h->facts[1]->resource, RES_NOTIFY);
	assert_int_equal(h->facts[2]->kind, FACT_CREATED);
	assert_int_equal(h->facts[2]->resource, RES_NOTIFY);
	assert_int_equal(h->facts[3]->kind, FACT_DESTROYED);
	assert_int_equal(h->facts[3]->resource, RES_STREAM);
	assert_int_equal(h->facts[3]->line, 6);
	assert_true(h->facts[3]->time != LOGTIME_UNKNOWN);
	assert_int_equal(h->n, 0);
}

/* A failed stream create: its chain is one incident, as without the INFO
 * lines around and inside it; the attempt is a fact of its own. */
static const char CHAIN[] =
	"[ERROR] RUNTIME(28980,python3):2024-02-21-06:08:40.482.342 [stream.cc:728]28980 Setup:Alloc sq cq failed, stream_id=2047, retCode=0x7020023.\n"
	"[ERROR] RUNTIME(28980,python3):2024-02-21-06:08:40.482.347 [stream.cc:731]28980 Setup:Alloc Stream resource failed. Reason: Too many streams are created. ErrorCode=EE1023.\n"
	"[ERROR] RUNTIME(28980,python3):2024-02-21-06:08:40.482.377 [context.cc:1572]28980 StreamCreate:Setup stream failed, retCode=0x7020023.\n"
	"[ERROR] RUNTIME(28980,python3):2024-02-21-06:08:40.482.402 [api_c_stream.cc:85]28980 rtStreamCreateWithFlags:ErrCode=207005, desc=[driver error:resource alloc fail], InnerCode=0x7020023\n"
	"[ERROR] RUNTIME(28980,python3):2024-02-21-06:08:40.482.405 [error_message_manage.cc:69]28980 FuncErrorReason:rtStreamCreateWithFlags execution failed, reason=driver error:resource alloc fail\n";

static void test_fact_lines_change_no_chain(void **state)
{
	struct harness *h = *state;
	const char *create = "[INFO] ASCENDCL(28980,python3):2024-02-21-06:08:40.482.300 [stream.cpp:42]28980 aclrtCreateStream: start to execute aclrtCreateStream\n";
	struct strbuf mixed = STRBUF_INIT;

	read_text(h, PLOG, FILE_PLOG, CHAIN);
	assert_int_equal(h->n, 1);
	assert_int_equal(h->nfacts, 0);
	/* The attempt before, a set device and a create inside the chain,
	 * between its second and third lines. */
	const char *third = strstr(CHAIN, "[ERROR] RUNTIME(28980,python3):2024-02-21-06:08:40.482.377");
	sb_adds(&mixed, create);
	sb_add(&mixed, CHAIN, (size_t)(third - CHAIN));
	sb_adds(&mixed, SET_DEVICE);
	sb_adds(&mixed, create);
	sb_adds(&mixed, third);
	read_text(h, PLOG, FILE_PLOG, mixed.buf);
	sb_free(&mixed);
	assert_int_equal(h->n, 2);
	const struct incident *a = h->inc[0], *b = h->inc[1];
	assert_int_equal(b->code, a->code);
	assert_int_equal(b->resource, a->resource);
	assert_int_equal(b->cause, a->cause);
	assert_int_equal(b->nlines, a->nlines);
	assert_int_equal(b->nraw, a->nraw);
	assert_string_equal(field(b, "api"), field(a, "api"));
	assert_int_equal(h->nfacts, 3);
	assert_int_equal(h->facts[0]->kind, FACT_CREATE);
	assert_int_equal(h->facts[1]->kind, FACT_DEVICE);
	assert_int_equal(h->facts[2]->kind, FACT_CREATE);
}

/* Driver and TDT lines name the device in their own forms. */
static void on_cap(void *ctx, const char *name, const char *value, size_t len)
{
	struct strbuf *sb = ctx;

	sb_addf(sb, "%s=%.*s;", name, (int)len, value);
}

static void test_device_field_forms(void **state)
{
	struct harness *h = *state;
	static const char *const lines[][2] = {
		{ "[ERROR] DRV(6651,):2026-07-09-21:52:24.482.300 Alloc chan failed. (devid=3; tsid=0; type=0; cur_sq_num=150; cur_cq_num=150; ret=-28)", "3" },
		{ "[ERROR] RUNTIME(9521,rtstest_host):2026-07-16-19:24:34.804.850 [api_impl.cc:4634]9521 NotifyCreate:Notify create failed, setup failed, drv devId=0, retCode=0x702001b", "0" },
		{ "[ERROR] TDT(6651,python3):2026-07-09-21:52:24.482.300 TsdOpen failed. devId=1, tdt error=1", "1" },
	};

	for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
		struct strbuf sb = STRBUF_INIT, want = STRBUF_INIT;
		size_t off;
		enum plog_level level;
		const char *l = lines[i][0];
		line_message(l, strlen(l), &off, &level);
		assert_int_equal(level, LEVEL_ERROR);
		ruleset_match_fields(h->rs, level, l + off, strlen(l) - off,
				     on_cap, &sb);
		sb_addf(&want, "device_id=%s;", lines[i][1]);
		assert_non_null(strstr(sb_str(&sb), want.buf));
		sb_free(&sb);
		sb_free(&want);
	}
}

/* ---- captured output ---- */

static const char TORCH[] =
	"[rank3]: RuntimeError: NPU function error: c10_npu::acl::AclrtCreateStreamWithConfig(&stream, 0, flags), error code is 207008\n"
	"[rank3]: [ERROR] 2025-12-03-06:21:44 (PID:9988, Device:4, RankID:3) ERR00100 PTA call acl api failed\n"
	"[rank3]: [Error]: The stream resources are insufficient.\n"
	"[rank3]: EL0009: [PID: 9988] 2025-12-03-06:21:44.891.861 Insufficient_Stream_Resources(EL0009): The stream resources are insufficient.\n"
	"[rank3]:         Solution: Destroy the streams you no longer use and try again.\n"
	"[rank3]:         TraceBack (most recent call last):\n"
	"[rank3]:         rtStreamCreate execution failed, reason=driver error:no stream resource[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:69]\n";

static void test_torch_tag(void **state)
{
	struct harness *h = *state;

	read_text(h, OUT, FILE_MIXED, TORCH);
	assert_int_equal(h->nfacts, 2);
	assert_int_equal(h->facts[0]->kind, FACT_DEVICE);
	assert_int_equal(h->facts[0]->device, 4);
	assert_int_equal(h->facts[0]->pid, 9988);
	assert_int_equal(h->facts[1]->kind, FACT_RANK);
	assert_int_equal(h->facts[1]->rank, 3);
	assert_int_equal(h->facts[1]->dp, FACT_UNSAID);
	assert_int_equal(h->facts[1]->pid, 9988);
	assert_string_equal(h->facts[1]->file, OUT);
	assert_int_equal(h->facts[1]->line, 2);
	assert_int_equal(h->n, 1);
	assert_int_equal(h->inc[0]->pid, 9988);
	assert_string_equal(field(h->inc[0], "device_id"), "4");
	assert_string_equal(field(h->inc[0], "rank"), "3");
}

/* RankID:-1 is not known: no rank fact, no rank field (but the device). */
static void test_torch_rank_unknown(void **state)
{
	struct harness *h = *state;

	read_text(h, OUT, FILE_MIXED,
		  "RuntimeError: NPU function error: c10_npu::acl::AclrtCreateStreamWithConfig(&stream, 0, flags), error code is 207008\n"
		  "[ERROR] 2025-12-03-06:21:44 (PID:1110, Device:2, RankID:-1) ERR00100 PTA call acl api failed\n"
		  "[Error]: The stream resources are insufficient.\n"
		  "EL0009: [PID: 1110] 2025-12-03-06:21:44.891.861 Insufficient_Stream_Resources(EL0009): The stream resources are insufficient.\n"
		  "        Solution: Destroy the streams you no longer use and try again.\n");
	assert_int_equal(h->nfacts, 1);
	assert_int_equal(h->facts[0]->kind, FACT_DEVICE);
	assert_int_equal(h->facts[0]->device, 2);
	assert_int_equal(h->n, 1);
	assert_string_equal(field(h->inc[0], "device_id"), "2");
	assert_string_equal(field(h->inc[0], "rank"), "(none)");
}

/* llama.cpp: "current device: N" names no process; the file's later
 * incidents that name no device take it, another file's do not. */
static const char LLAMA_EVENTS[] =
	"CANN error: EE1023: [PID: 7] 2026-07-09-21:52:24.482.347 Alloc Event resource failed. Reason: Too many events are created.\n"
	"        Solution: For details about the troubleshooting method, search for the keyword \"EE1023\" on https://www.hiascend.com/document/.\n"
	"        TraceBack (most recent call last):\n"
	"        rtEventCreateWithFlag execution failed, reason=driver error:no event resource[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:69]\n"
	"\n";

static void test_llama_current_device(void **state)
{
	struct harness *h = *state;
	struct strbuf sb = STRBUF_INIT;

	sb_adds(&sb, "llama_model_load: loading model from /models/qwen2-7b.gguf\n");
	sb_adds(&sb, LLAMA_EVENTS);
	sb_adds(&sb, "  current device: 3, in function ggml_cann_async_memcpy at /llama.cpp/ggml/src/ggml-cann/ggml-cann.cpp:1453\n");
	sb_adds(&sb, "\n");
	sb_adds(&sb, LLAMA_EVENTS);
	read_text(h, "llama.log", FILE_MIXED, sb.buf);
	read_text(h, "other.log", FILE_MIXED, LLAMA_EVENTS);
	sb_free(&sb);
	assert_int_equal(h->nfacts, 0);	/* no pid: no fact */
	assert_int_equal(h->n, 3);
	assert_string_equal(field(h->inc[0], "device_id"), "(none)");
	assert_string_equal(field(h->inc[1], "device_id"), "3");
	assert_string_equal(field(h->inc[2], "device_id"), "(none)");
}

/* Behind a prefix that names the process, "current device" is a fact of
 * that process. */
static void test_current_device_with_pid(void **state)
{
	struct harness *h = *state;

	read_text(h, OUT, FILE_MIXED, "(VllmWorker rank=0 pid=1110) INFO 05-09 08:06:34 [worker.py:80]   current device: 6, in function ggml_cann_async_memcpy at /llama.cpp/ggml/src/ggml-cann/ggml-cann.cpp:1453\n");
	assert_int_equal(h->nfacts, 1);
	assert_int_equal(h->facts[0]->kind, FACT_DEVICE);
	assert_int_equal(h->facts[0]->device, 6);
	assert_int_equal(h->facts[0]->pid, 1110);
	assert_string_equal(h->facts[0]->name, "VllmWorker");
}

/* Launchers' prefixes and tags: the rank and a worker's indices. */
static const char *block(const char *prefix, struct strbuf *sb)
{
	sb_reset(sb);
	sb_addf(sb, "%sResource_Error(EE1023): Alloc Stream resource failed. Reason: Too many streams are created.\n", prefix);
	sb_addf(sb, "%s        Solution: For details about the troubleshooting method, search for the keyword \"EE1023\" on https://www.hiascend.com/document/.\n", prefix);
	sb_addf(sb, "%s        TraceBack (most recent call last):\n", prefix);
	sb_addf(sb, "%s        rtStreamCreate execution failed, reason=driver error:resource alloc fail[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:69]\n", prefix);
	return sb->buf;
}

static void test_prefix_ranks(void **state)
{
	struct harness *h = *state;
	static const struct {
		const char *prefix;
		long pid;
		const char *rank, *dp, *tp, *ep;
	} cases[] = {
		{ "[rank6]: ", 0, "6", "(none)", "(none)", "(none)" },
		{ "[1,0]<stderr>: ", 0, "0", "(none)", "(none)", "(none)" },
		{ "[1,5]<stdout>: ", 0, "5", "(none)", "(none)", "(none)" },
		{ "(VllmWorker rank=0 pid=1110) ERROR 05-09 08:06:34 [engine.py:448] ", 1110, "0", "(none)", "(none)", "(none)" },
		{ "(Worker_DP0_TP4_EP4 pid=9988) ERROR 05-09 08:06:34 [multiproc_executor.py:932] ", 9988, "(none)", "0", "4", "4" },
		{ "(Worker_DP1_TP5 pid=2) ", 2, "(none)", "1", "5", "(none)" },
		{ "(Worker_TP3 pid=78100) ", 78100, "(none)", "(none)", "(none)", "(none)" },
	};
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		size_t before = h->n;
		read_text(h, OUT, FILE_MIXED, block(cases[i].prefix, &sb));
		assert_int_equal(h->n, before + 1);
		const struct incident *inc = h->inc[before];
		assert_int_equal(inc->code, CODE_EE1023);
		assert_int_equal(inc->pid, cases[i].pid);
		assert_string_equal(field(inc, "rank"), cases[i].rank);
		assert_string_equal(field(inc, "dp"), cases[i].dp);
		assert_string_equal(field(inc, "tp"), cases[i].tp);
		assert_string_equal(field(inc, "ep"), cases[i].ep);
	}
	sb_free(&sb);
	assert_int_equal(h->nfacts, 0);
}

/* A plog line behind a launcher's prefix in captured output is read as
 * plog: its facts too. */
static void test_prefixed_plog_fact(void **state)
{
	struct harness *h = *state;

	read_text(h, OUT, FILE_MIXED, "[rank2]: [INFO] ASCENDCL(28980,python3):2024-02-21-06:08:31.254.432 [device.cpp:148]28980 aclrtSetDevice: start to execute aclrtSetDevice, deviceId = 5\n");
	assert_int_equal(h->nfacts, 1);
	assert_int_equal(h->facts[0]->device, 5);
	assert_int_equal(h->facts[0]->pid, 28980);
}

/* ---- the line splitter lets the fact rules' lines through ---- */

struct lines {
	struct strbuf got;
};

static void on_line(void *ctx, const char *line, size_t len,
		    unsigned long lineno)
{
	struct lines *l = ctx;

	sb_addf(&l->got, "%lu:%.5s;", lineno, len >= 5 ? line : "?????");
}

static void test_linesplit_starts(void **state)
{
	struct harness *h = *state;
	struct linesplit ls;
	struct lines l = { STRBUF_INIT };
	int want_all = 0;
	const char text[] =
		"[INFO] RUNTIME(1,a):2024-02-21-06:08:31.254.432 x\n"
		"[INFO] ASCENDCL(1,a):2024-02-21-06:08:31.254.432 x\n"
		"[DEBUG] ASCENDCL(1,a):2024-02-21-06:08:31.254.432 x\n"
		"[EVENT] GE(1,a):2024-02-21-06:08:31.254.432 x\n"
		"[EVENT] ASCENDCL(1,a):2024-02-21-06:08:31.254.432 x\n"
		"[ERROR] RUNTIME(1,a):2024-02-21-06:08:31.254.432 x\n"
		"[INFO] ASCENDC(1,a):2024-02-21-06:08:31.254.432 x\n"
		"[INFO] ASCENDCL(\n";
	const struct line_starts *st = feeder_line_starts(h->f);

	assert_true(st->n >= 2);
	assert_false(st->all);
	/* Fed whole, and a byte at a time (the carry's path). */
	for (int pass = 0; pass < 2; pass++) {
		linesplit_init(&ls, on_line, &l);
		ls.want_all = &want_all;
		ls.starts = st;
		if (pass == 0) {
			linesplit_feed(&ls, text, sizeof text - 1);
		} else {
			for (size_t i = 0; i < sizeof text - 1; i++)
				linesplit_feed(&ls, text + i, 1);
		}
		linesplit_finish(&ls);
		assert_string_equal(sb_str(&l.got),
				    "2:[INFO;5:[EVEN;6:[ERRO;8:[INFO;");
		linesplit_free(&ls);
		sb_reset(&l.got);
	}
	sb_free(&l.got);
}

/* ---- the follower hands facts over in the stream's order ---- */

struct handed {
	struct strbuf order;
};

static void handed_incident(void *ctx, struct incident *inc)
{
	struct handed *hd = ctx;

	sb_addf(&hd->order, "I%lu;", inc->line);
	incident_free(inc);
}

static void handed_fact(void *ctx, struct fact *f)
{
	struct handed *hd = ctx;

	sb_addf(&hd->order, "%s%lu;", fact_kind_name(f->kind), f->line);
	fact_free(f);
}

static void handed_end(void *ctx)
{
	struct handed *hd = ctx;

	sb_adds(&hd->order, "end;");
}

static void test_follower_hands_facts_over(void **state)
{
	struct harness *h = *state;
	char dir[] = "/tmp/plogtop-facts.XXXXXX";
	struct strbuf path = STRBUF_INIT, err = STRBUF_INIT;
	struct handed hd = { STRBUF_INIT };
	struct model m;

	assert_non_null(mkdtemp(dir));
	sb_addf(&path, "%s/plog-28980_20240221060831000.log", dir);
	FILE *fp = fopen(path.buf, "w");
	assert_non_null(fp);
	fputs(SET_DEVICE, fp);
	fputs(CHAIN, fp);
	fputs("[EVENT] ASCENDCL(28980,python3):2024-02-21-06:09:33.283.060 [resource_statistics.cpp:104]28980 TraverseStatistics: The ResourceType:ACL_STATISTICS_CREATE_DESTROY_STREAM, applyTotal = 3, applySucc = 2, releaseTotal = 0, releaseSucc = 0\n", fp);
	assert_int_equal(fclose(fp), 0);

	model_init(&m);
	struct follow_opts fo = {
		.once = 1, .hand_over = handed_incident,
		.hand_over_fact = handed_fact, .on_stream_end = handed_end,
		.ctx = &hd,
	};
	struct follower *fw = follower_new(h->rs, &m, &fo, &err);
	assert_non_null(fw);
	assert_int_equal(follower_add(fw, dir, 0, &err), 0);
	follower_start(fw, monotonic_ms());
	while (follower_history_step(fw, 1000))
		;
	follower_flush(fw);
	follower_free(fw);
	model_free(&m);
	/* The device before the chain; the statistics line, after it in
	 * the file, may come before the chain closes (the chain waits for
	 * the end of its stream), never before the device. */
	const char *got = sb_str(&hd.order);
	print_message("# order: %s\n", got);
	assert_non_null(strstr(got, "device1;"));
	assert_non_null(strstr(got, "statistics7;"));
	assert_non_null(strstr(got, "I2;"));
	assert_true(strstr(got, "device1;") < strstr(got, "I2;"));
	assert_true(strstr(got, "device1;") < strstr(got, "statistics7;"));
	unlink(path.buf);
	rmdir(dir);
	sb_free(&path);
	sb_free(&err);
	sb_free(&hd.order);
}

/* ---- the loader's checks of fact rules ---- */

static int load(const char *text, struct strbuf *err)
{
	struct ruleset *rs = ruleset_new();
	int rc = ruleset_load_text(rs, "t.rules", text, strlen(text), err);

	ruleset_free(rs);
	return rc;
}

static void test_loader(void **state)
{
	(void)state;
	struct strbuf err = STRBUF_INIT;
	static const char *const bad[][2] = {
		/* INFO only for fact rules */
		{ "[rule a]\nlevels = INFO\nmatch = start to execute\nsample = [INFO] ASCENDCL(1,a):2024-02-21-06:08:31.254.432 [d.cpp:1]1 start to execute\n",
		  "t.rules:2: level 'INFO' cannot be used" },
		{ "[rule a]\nfact = devices\nmatch = x\nsample = x\n",
		  "t.rules:2: unknown fact 'devices'" },
		{ "[rule a]\nmodules = ASCENDCL\nmatch = xyzw\nsample = xyzw\n",
		  "modules is for fact rules only" },
		{ "[rule a]\nfact = device\ncode = EE1023\nmatch = (?<device>\\d+)\nsample = 1\n",
		  "fact rule 'a' has no role, code or cause" },
		/* a module the sample is not of */
		{ "[rule a]\nfact = device\nlevels = INFO\nmodules = RUNTIME\nmatch = deviceId = (?<device>\\d+)\nsample = [INFO] ASCENDCL(1,a):2024-02-21-06:08:31.254.432 [d.cpp:1]1 deviceId = 1\n",
		  "does not apply to the level of its sample" },
	};

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		assert_int_equal(load(bad[i][0], &err), -1);
		if (!strstr(sb_str(&err), bad[i][1]))
			fail_msg("%s: got %s", bad[i][1], sb_str(&err));
	}
	assert_int_equal(load("[rule a]\nfact = device\nlevels = INFO EVENT\nmodules = ASCENDCL GE\nmatch = deviceId = (?<device>\\d+)\nsample = [INFO] ASCENDCL(1,a):2024-02-21-06:08:31.254.432 [d.cpp:1]1 deviceId = 1\nsample = [EVENT] GE(1,a):2024-02-21-06:08:31.254.432 [d.cpp:1]1 deviceId = 1\n", &err), 0);
	sb_free(&err);
}

/* The starts the rules make: a rule of every module takes the level's
 * start, and covers the others of that level. */
static void test_starts_from_rules(void **state)
{
	(void)state;
	struct strbuf err = STRBUF_INIT;
	struct ruleset *rs = ruleset_new();
	const char text[] =
		"[rule a]\nfact = device\nlevels = INFO\nmodules = ASCENDCL\nmatch = deviceId = (?<device>\\d+)\nsample = [INFO] ASCENDCL(1,a):2024-02-21-06:08:31.254.432 [d.cpp:1]1 deviceId = 1\n"
		"[rule b]\nfact = device\nlevels = EVENT INFO\nmatch = devIdx (?<device>\\d+)\nsample = [EVENT] GE(1,a):2024-02-21-06:08:31.254.432 [d.cpp:1]1 devIdx 1\n";

	assert_int_equal(ruleset_load_text(rs, "t.rules", text, strlen(text),
					   &err), 0);
	const struct line_starts *st = ruleset_fact_starts(rs);
	assert_int_equal(st->n, 2);
	assert_string_equal(st->s[0], "[INFO]");
	assert_string_equal(st->s[1], "[EVENT]");
	assert_true(ruleset_fact_maybe(rs, LEVEL_INFO, "x devIdx 3", 10));
	assert_false(ruleset_fact_maybe(rs, LEVEL_INFO, "x devId 3 d", 11));
	assert_false(ruleset_fact_maybe(rs, LEVEL_DEBUG, "x devIdx 3", 10));
	ruleset_free(rs);
	sb_free(&err);
}

int main(void)
{
	cmocka_set_message_output(CM_OUTPUT_TAP);
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_set_device),
		T(test_set_device_other_module_or_level),
		T(test_fact_after_error_line),
		T(test_statistics),
		T(test_creates_and_destroys),
		T(test_fact_lines_change_no_chain),
		T(test_device_field_forms),
		T(test_torch_tag),
		T(test_torch_rank_unknown),
		T(test_llama_current_device),
		T(test_current_device_with_pid),
		T(test_prefix_ranks),
		T(test_prefixed_plog_fact),
		T(test_linesplit_starts),
		T(test_follower_hands_facts_over),
		T(test_loader),
		T(test_starts_from_rules),
	};
#undef T
	return UNIT_RUN("facts", tests);
}
