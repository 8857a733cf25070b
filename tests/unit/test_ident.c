/* Identities and ledgers (src/model/ident.h): facts make the ledger's
 * numbers, statistics make a leak, a rising held count after the warm-up
 * makes a suspect, failed creates are not held, held never goes below
 * zero, a pid-only block joins its process, an incident's device comes
 * from its lines or its process, a folded process keeps its leak, the
 * table is bounded, devices group processes of jobs and call out an
 * orphan, and the host's evidence (environment, npu-smi) gives the NPU. */
#include "config.h"

#include <stdint.h>

#include "unit.h"

#include "ident.h"
#include "model.h"
#include "npusmi.h"
#include "procenv.h"
#include "xalloc.h"

#define T0 (1700000000LL * 1000000)	/* a log time, microseconds */
#define SEC 1000000LL
#define SPAN ((long long)IDENT_SPAN_MS * 1000)
/* Above any Linux pid (PID_MAX_LIMIT is 4194304): never alive. */
#define DEAD_PID 5000000L

static unsigned long long fake_now;

static unsigned long long fake_clock(void)
{
	return fake_now;
}

static void fact(struct model *m, long pid, const char *name,
		 enum fact_kind k, enum resource r, logtime_t t)
{
	struct fact f = { 0 };

	f.pid = pid;
	f.name = name;
	f.kind = k;
	f.resource = r;
	f.time = t;
	f.file = "/logs/plog-1.log";
	f.line = 1;
	f.device = f.rank = f.dp = f.tp = f.ep = FACT_UNSAID;
	model_fact(m, &f);
}

static void device_fact(struct model *m, long pid, const char *name,
			long device)
{
	struct fact f = { 0 };

	f.pid = pid;
	f.name = name;
	f.kind = FACT_DEVICE;
	f.device = device;
	f.rank = f.dp = f.tp = f.ep = FACT_UNSAID;
	f.file = "/logs/plog-1.log";
	model_fact(m, &f);
}

static void statistics(struct model *m, long pid, const char *name,
		       enum resource r, unsigned long long succ,
		       unsigned long long released)
{
	struct fact f = { 0 };

	f.pid = pid;
	f.name = name;
	f.kind = FACT_STATISTICS;
	f.resource = r;
	f.time = T0;
	f.apply_total = f.apply_succ = succ;
	f.release_total = f.release_succ = released;
	f.device = f.rank = f.dp = f.tp = f.ep = FACT_UNSAID;
	model_fact(m, &f);
}

static struct incident *make(long pid, const char *name, enum resource r,
			     logtime_t t, const char *file)
{
	struct incident *inc = xcalloc(1, sizeof *inc);

	inc->pid = pid;
	inc->name = xstrdup(name);
	inc->code = r == RES_MEMCPY ? CODE_EE1001 : CODE_EE1023;
	inc->resource = r;
	inc->cause = CAUSE_UNKNOWN;
	inc->first = inc->last = t;
	inc->file = file ? file : "/logs/plog-1.log";
	inc->line = 1;
	inc->nlines = 1;
	return inc;
}

static void field(struct incident *inc, const char *k, const char *v)
{
	incident_set_field(inc, k, v, strlen(v));
}

static const struct ident *find(const struct model *m, long pid,
				const char *name)
{
	const struct ident *const *v;
	size_t n = model_idents(m, &v);

	for (size_t i = 0; i < n; i++)
		if (v[i]->pid == pid && strcmp(v[i]->name, name) == 0)
			return v[i];
	return NULL;
}

static void test_calls_make_the_ledger(void **state)
{
	struct model m;

	(void)state;
	model_init(&m);
	device_fact(&m, 10, "python3", 0);
	for (int i = 0; i < 5; i++)
		fact(&m, 10, "python3", FACT_CREATE, RES_STREAM, T0 + i);
	for (int i = 0; i < 2; i++)
		fact(&m, 10, "python3", FACT_DESTROYED, RES_STREAM, T0 + 9);
	for (int i = 0; i < 3; i++)
		fact(&m, 10, "python3", FACT_CREATE, RES_NOTIFY, T0 + 10);
	for (int i = 0; i < 2; i++)
		fact(&m, 10, "python3", FACT_CREATED, RES_NOTIFY, T0 + 11);
	const struct ident *id = find(&m, 10, "python3");
	assert_non_null(id);
	const struct ledger *s = &id->ledger[LEDGER_STREAM];
	assert_int_equal(s->from, LEDGER_CALLS);
	assert_int_equal(s->created, 5);
	assert_int_equal(s->destroyed, 2);
	assert_int_equal(ledger_held(s), 3);
	assert_true(s->complete);
	const struct ledger *n = &id->ledger[LEDGER_NOTIFY];
	assert_int_equal(n->attempts, 3);
	assert_int_equal(n->created, 2);
	assert_int_equal(id->ledger[LEDGER_EVENT].from, LEDGER_NONE);
	assert_int_equal(id->device, 0);
	model_free(&m);
}

static void test_never_below_zero(void **state)
{
	struct model m;

	(void)state;
	model_init(&m);
	/* No device set first: the ledger began mid-process. */
	fact(&m, 11, "a", FACT_DESTROYED, RES_STREAM, T0);
	fact(&m, 11, "a", FACT_CREATE, RES_STREAM, T0 + 1);
	fact(&m, 11, "a", FACT_CREATE, RES_STREAM, T0 + 2);
	const struct ledger *l = &find(&m, 11, "a")->ledger[LEDGER_STREAM];
	assert_int_equal(l->destroyed, 1);
	assert_int_equal(l->unmatched, 1);
	assert_int_equal(ledger_held(l), 2);
	assert_false(l->complete);
	/* Complete until a destroy of what it never saw created. */
	device_fact(&m, 12, "b", 1);
	fact(&m, 12, "b", FACT_CREATE, RES_EVENT, T0);
	const struct ledger *e = &find(&m, 12, "b")->ledger[LEDGER_EVENT];
	assert_true(e->complete);
	fact(&m, 12, "b", FACT_DESTROYED, RES_EVENT, T0 + 1);
	assert_true(e->complete);
	fact(&m, 12, "b", FACT_DESTROYED, RES_EVENT, T0 + 2);
	assert_false(e->complete);
	assert_int_equal(ledger_held(e), 0);
	model_free(&m);
}

static void test_statistics_leak(void **state)
{
	struct model m;

	(void)state;
	model_init(&m);
	fact(&m, 13, "x", FACT_CREATE, RES_STREAM, T0);
	statistics(&m, 13, "x", RES_STREAM, 10, 7);
	statistics(&m, 13, "x", RES_EVENT, 5, 5);
	const struct ident *id = find(&m, 13, "x");
	const struct ledger *s = &id->ledger[LEDGER_STREAM];
	assert_int_equal(s->from, LEDGER_STATISTICS);
	assert_int_equal(s->created, 10);
	assert_int_equal(s->destroyed, 7);
	assert_true(s->complete);
	assert_int_equal(s->leak, LEAK_ENDED);
	assert_int_equal(id->ledger[LEDGER_EVENT].leak, LEAK_NO);
	/* Statistics win over later calls. */
	fact(&m, 13, "x", FACT_CREATE, RES_STREAM, T0 + 1);
	assert_int_equal(s->created, 10);
	model_free(&m);
}

static void test_rising_after_warmup(void **state)
{
	struct model m;

	(void)state;
	model_init(&m);
	/* a: warm-up in span 0, then one more held in each of 3 spans. */
	device_fact(&m, 20, "a", 0);
	for (int i = 0; i < IDENT_WARMUP; i++)
		fact(&m, 20, "a", FACT_CREATE, RES_STREAM, T0 + i);
	const struct ledger *a = &find(&m, 20, "a")->ledger[LEDGER_STREAM];
	for (int s = 1; s <= IDENT_LEAK_SPANS; s++) {
		assert_int_equal(a->leak, LEAK_NO);
		fact(&m, 20, "a", FACT_CREATE, RES_STREAM, T0 + s * SPAN);
	}
	assert_int_equal(a->leak, LEAK_RISING);
	/* A span that ends without a rise ends the suspicion. */
	fact(&m, 20, "a", FACT_DESTROYED, RES_STREAM,
	     T0 + (IDENT_LEAK_SPANS + 1) * SPAN);
	fact(&m, 20, "a", FACT_DESTROYED, RES_STREAM,
	     T0 + (IDENT_LEAK_SPANS + 2) * SPAN);
	assert_int_equal(a->leak, LEAK_NO);
	/* b: created only during its warm-up, spread over spans. */
	device_fact(&m, 21, "b", 0);
	for (int s = 0; s < IDENT_WARMUP; s++)
		fact(&m, 21, "b", FACT_CREATE, RES_STREAM, T0 + s * SPAN);
	const struct ledger *b = &find(&m, 21, "b")->ledger[LEDGER_STREAM];
	assert_int_equal(b->leak, LEAK_NO);
	/* c: steady after the warm-up: creates matched by destroys. */
	device_fact(&m, 22, "c", 0);
	for (int i = 0; i < IDENT_WARMUP; i++)
		fact(&m, 22, "c", FACT_CREATE, RES_STREAM, T0);
	for (int s = 1; s <= 5; s++) {
		fact(&m, 22, "c", FACT_CREATE, RES_STREAM, T0 + s * SPAN);
		fact(&m, 22, "c", FACT_DESTROYED, RES_STREAM, T0 + s * SPAN);
	}
	assert_int_equal(find(&m, 22, "c")->ledger[LEDGER_STREAM].leak,
			 LEAK_NO);
	model_free(&m);
}

static void test_failed_creates_not_held(void **state)
{
	struct model m;

	(void)state;
	model_init(&m);
	device_fact(&m, 30, "p", 0);
	for (int i = 0; i < 3; i++)
		fact(&m, 30, "p", FACT_CREATE, RES_STREAM, T0);
	struct incident *inc = make(30, "p", RES_STREAM, T0 + 1, NULL);
	field(inc, "api", "rtStreamCreateWithFlags");
	model_add(&m, inc, READ_BEFORE);
	/* Not a create: a copy that found no stream. */
	inc = make(30, "p", RES_STREAM, T0 + 2, NULL);
	field(inc, "api", "rtMemcpy2dAsync");
	model_add(&m, inc, READ_BEFORE);
	/* The captured output's copy of the same failure: one failure. */
	inc = make(30, "", RES_STREAM, LOGTIME_UNKNOWN, "/job/stdout.log");
	field(inc, "api", "aclrtCreateStream");
	model_add(&m, inc, READ_BEFORE);
	assert_string_equal(inc->name, "p");
	const struct ledger *l = &find(&m, 30, "p")->ledger[LEDGER_STREAM];
	assert_int_equal(l->attempts, 3);
	assert_int_equal(l->failed, 1);
	assert_int_equal(l->created, 2);
	assert_int_equal(ledger_held(l), 2);
	/* A new attempt that fails is a second one. */
	fact(&m, 30, "p", FACT_CREATE, RES_STREAM, T0 + 3);
	inc = make(30, "p", RES_STREAM, T0 + 4, NULL);
	field(inc, "api", "rtStreamCreate");
	model_add(&m, inc, READ_BEFORE);
	assert_int_equal(l->failed, 2);
	assert_int_equal(l->created, 2);
	/* A failure of a process that taught nothing makes no identity
	 * (a flood of one-off pids costs none each)... */
	inc = make(31, "q", RES_NOTIFY, T0, NULL);
	field(inc, "api", "aclrtCreateNotify");
	model_add(&m, inc, READ_BEFORE);
	assert_null(find(&m, 31, "q"));
	/* ...and with no call lines it changes no created count. */
	device_fact(&m, 32, "r", 0);
	inc = make(32, "r", RES_NOTIFY, T0, NULL);
	field(inc, "api", "aclrtCreateNotify");
	model_add(&m, inc, READ_BEFORE);
	const struct ledger *q = &find(&m, 32, "r")->ledger[LEDGER_NOTIFY];
	assert_int_equal(q->failed, 1);
	assert_int_equal(q->from, LEDGER_NONE);
	assert_ptr_equal(find(&m, 32, "r")->proc, m.procs[m.nprocs - 1]);
	model_free(&m);
}

static void test_pid_only_joins(void **state)
{
	struct model m;

	(void)state;
	model_init(&m);
	model_add(&m, make(100, "python3", RES_STREAM, T0, NULL), READ_BEFORE);
	struct incident *inc = make(100, "", RES_STREAM, LOGTIME_UNKNOWN, NULL);
	model_add(&m, inc, READ_BEFORE);
	assert_string_equal(inc->name, "python3");
	assert_int_equal(m.nprocs, 1);
	/* It taught nothing: the join found its row, not an identity. */
	assert_null(find(&m, 100, "python3"));
	assert_int_equal(m.procs[0]->total, 2);
	/* Several programs had the pid: the nearest in time. */
	model_add(&m, make(200, "a", RES_STREAM, T0, NULL), READ_BEFORE);
	model_add(&m, make(200, "b", RES_STREAM, T0 + 3600 * SEC, NULL),
		  READ_BEFORE);
	inc = make(200, "", RES_STREAM, T0 + 3000 * SEC, NULL);
	model_add(&m, inc, READ_BEFORE);
	assert_string_equal(inc->name, "b");
	inc = make(200, "", RES_STREAM, T0 + 300 * SEC, NULL);
	model_add(&m, inc, READ_BEFORE);
	assert_string_equal(inc->name, "a");
	/* None: a row of its own. */
	inc = make(300, "", RES_STREAM, T0, NULL);
	model_add(&m, inc, READ_BEFORE);
	assert_string_equal(inc->name, "");
	assert_int_equal(m.nprocs, 4);
	model_free(&m);
}

static void test_device_from(void **state)
{
	struct model m;

	(void)state;
	model_init(&m);
	device_fact(&m, 40, "x", 3);
	struct incident *inc = make(40, "x", RES_NOTIFY, T0, NULL);
	field(inc, "device_id", "5");
	field(inc, "rank", "4");
	model_add(&m, inc, READ_BEFORE);
	assert_int_equal(inc->device_from, FROM_LINES);
	assert_int_equal(inc->device, 5);
	assert_int_equal(inc->rank_from, FROM_LINES);
	assert_int_equal(inc->rank, 4);
	const struct ident *id = find(&m, 40, "x");
	assert_int_equal(id->device, 5);
	assert_int_equal(id->ndevices, 2);
	assert_int_equal(id->rank, 4);
	inc = make(40, "x", RES_STREAM, T0 + 1, NULL);
	model_add(&m, inc, READ_BEFORE);
	assert_int_equal(inc->device_from, FROM_PROCESS);
	assert_int_equal(inc->device, 5);
	assert_int_equal(inc->rank_from, FROM_PROCESS);
	/* At most IDENT_DEVICES kept, the latest. */
	for (long d = 0; d < IDENT_DEVICES + 2; d++)
		device_fact(&m, 42, "z", d);
	const struct ident *z = find(&m, 42, "z");
	assert_int_equal(z->ndevices, IDENT_DEVICES);
	assert_int_equal(z->devices[0], 2);
	assert_int_equal(z->devices[IDENT_DEVICES - 1], IDENT_DEVICES + 1);
	assert_int_equal(z->device, IDENT_DEVICES + 1);
	/* Never guessed. */
	inc = make(41, "y", RES_STREAM, T0, NULL);
	field(inc, "device_id", "-1");
	model_add(&m, inc, READ_BEFORE);
	assert_int_equal(inc->device_from, FROM_NONE);
	assert_int_equal(inc->rank_from, FROM_NONE);
	/* A host's report said them: kept. */
	inc = make(40, "x", RES_STREAM, T0, NULL);
	inc->host = "h1";
	inc->device = 7;
	inc->device_from = FROM_LINES;
	model_add(&m, inc, READ_BEFORE);
	assert_int_equal(inc->device, 7);
	assert_int_equal(inc->device_from, FROM_LINES);
	model_free(&m);
}

static void test_fold_keeps_the_leak(void **state)
{
	struct model m;

	(void)state;
	model_init(&m);
	model_set_live(&m, 10);
	fake_now = 1000;
	m.clock_ms = fake_clock;
	statistics(&m, DEAD_PID, "gone", RES_STREAM, 9, 1);
	model_add(&m, make(DEAD_PID, "gone", RES_STREAM, T0, NULL),
		  READ_AS_WRITTEN);
	model_add(&m, make(DEAD_PID + 1, "other", RES_STREAM, T0, NULL),
		  READ_AS_WRITTEN);
	model_add(&m, make(DEAD_PID + 2, "last", RES_STREAM, T0, NULL),
		  READ_AS_WRITTEN);
	assert_non_null(find(&m, DEAD_PID, "gone")->proc);
	fake_now += MODEL_FOLD_QUIET_MS + 5000;
	model_maintain(&m);
	/* The last one added is lent to its caller: it stays. */
	assert_int_equal(m.nprocs, 1);
	/* Blocks of the folded pids: one joins the identity that stayed,
	 * the other (its row gone, nothing learnt) is a row of its own. */
	struct incident *inc = make(DEAD_PID, "", RES_STREAM, T0, NULL);
	model_add(&m, inc, READ_AS_WRITTEN);
	assert_string_equal(inc->name, "gone");
	inc = make(DEAD_PID + 1, "", RES_STREAM, T0, NULL);
	model_add(&m, inc, READ_AS_WRITTEN);
	assert_string_equal(inc->name, "");
	fake_now += MODEL_FOLD_QUIET_MS + 5000;
	model_maintain(&m);
	const struct ident *id = find(&m, DEAD_PID, "gone");
	assert_non_null(id);
	assert_null(id->proc);
	assert_int_equal(id->ledger[LEDGER_STREAM].leak, LEAK_ENDED);
	assert_true(id->alive_known);
	assert_false(id->alive);
	model_free(&m);
}

static void test_bounded(void **state)
{
	struct model m;

	(void)state;
	model_init(&m);
	statistics(&m, DEAD_PID, "leaky", RES_STREAM, 3, 0);
	for (long i = 1; i < IDENT_MAX + 10; i++)
		device_fact(&m, DEAD_PID + i, "q", 0);
	const struct ident *const *v;
	assert_int_equal(model_idents(&m, &v), IDENT_MAX);
	assert_int_equal(m.idents.dropped, 10);
	/* The oldest without a finding went; the leak stays. */
	assert_non_null(find(&m, DEAD_PID, "leaky"));
	assert_null(find(&m, DEAD_PID + 1, "q"));
	assert_non_null(find(&m, DEAD_PID + 11, "q"));
	model_free(&m);
}

/* ---- the host's evidence ---- */

static struct procenv fake_env;
static long fake_env_pid;
static int fake_env_denied;	/* environ not readable, status is */

static int fake_read_env(const char *root, long pid, struct procenv *out)
{
	(void)root;
	if (pid != fake_env_pid)
		return -1;
	*out = fake_env;
	if (fake_env_denied) {
		memset(out, 0, sizeof *out);
		out->rank = out->local_rank = out->world_size = -1;
		out->ns_pid = fake_env.ns_pid;
		out->host_pid = fake_env.host_pid;
		return -1;
	}
	return 0;
}

/* This test's own name as /proc/self/comm says it: a process alive. */
static void self_name(char *buf, size_t n)
{
	FILE *f = fopen("/proc/self/comm", "r");

	assert_non_null(f);
	assert_non_null(fgets(buf, (int)n, f));
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
}

static void env_model(struct model *m, const char *self)
{
	model_init(m);
	m->idents.read_env = fake_read_env;
	memset(&fake_env, 0, sizeof fake_env);
	fake_env_denied = 0;
	fake_env.rank = fake_env.local_rank = fake_env.world_size = -1;
	fake_env_pid = getpid();
	fake_env.ns_pid = fake_env.host_pid = getpid();
	(void)self;
}

static void test_devices_jobs_and_orphan(void **state)
{
	struct model m;
	char self[64];

	(void)state;
	self_name(self, sizeof self);
	env_model(&m, self);
	snprintf(fake_env.task_id, sizeof fake_env.task_id, "job-b");
	fake_env.rank = 6;
	model_add_root(&m, "/logs/jobA");
	/* a: gone, of job A, on device 0; its last line at T0. */
	device_fact(&m, DEAD_PID, "a", 0);
	model_add(&m, make(DEAD_PID, "a", RES_STREAM, T0,
			   "/logs/jobA/plog/plog-1.log"), READ_BEFORE);
	/* b: alive (this test), of job B (MINDX_TASK_ID), on device 0,
	 * failing later. */
	for (int i = 0; i < 5; i++)
		fact(&m, DEAD_PID, "a", FACT_CREATE, RES_STREAM, T0);
	device_fact(&m, getpid(), self, 0);
	fact(&m, getpid(), self, FACT_CREATE, RES_STREAM, T0 + 50 * SEC);
	fact(&m, getpid(), self, FACT_CREATE, RES_STREAM, T0 + 50 * SEC);
	model_add(&m, make(getpid(), self, RES_STREAM, T0 + 100 * SEC,
			   "/elsewhere/plog-2.log"), READ_BEFORE);
	for (size_t i = 0; i < m.nprocs; i++)
		model_alive(&m, m.procs[i]);
	const struct ident *b = find(&m, getpid(), self);
	assert_true(b->alive);
	assert_string_equal(b->job, "job-b");
	assert_int_equal(b->rank, 6);
	assert_string_equal(find(&m, DEAD_PID, "a")->job, "/logs/jobA");
	struct device_row *rows;
	size_t n = model_devices(&m, &rows);
	assert_int_equal(n, 1);
	assert_int_equal(rows[0].device, 0);
	assert_false(rows[0].by_phys);
	assert_int_equal(rows[0].nprocs, 2);
	assert_int_equal(rows[0].incidents, 2);
	assert_int_equal(rows[0].by_resource[RES_STREAM], 2);
	assert_int_equal(rows[0].failing, 2);
	assert_int_equal(rows[0].jobs, 2);
	assert_true(rows[0].orphan);
	assert_true(rows[0].no_map);
	assert_int_equal(rows[0].phys, IDENT_UNKNOWN);
	/* What the live one holds; the gone one holds nothing. */
	assert_true(rows[0].held_known[LEDGER_STREAM]);
	assert_int_equal(rows[0].held[LEDGER_STREAM], 2);
	assert_false(rows[0].held_known[LEDGER_EVENT]);
	model_devices_free(rows, n);
	model_free(&m);
}

static void test_npu_gives_the_phys(void **state)
{
	struct model m;
	char self[64];

	(void)state;
	self_name(self, sizeof self);
	env_model(&m, self);
	fake_env.map[0] = 4;
	fake_env.map[1] = 5;
	fake_env.nmap = 2;
	device_fact(&m, getpid(), self, 1);
	model_add(&m, make(getpid(), self, RES_STREAM, T0, NULL), READ_BEFORE);
	model_alive(&m, m.procs[0]);
	const struct ident *id = find(&m, getpid(), self);
	assert_true(id->has_map);
	assert_int_equal(id->phys, 5);
	assert_int_equal(id->phys_from, PHYS_ENVIRON);
	assert_int_equal(id->host_pid, getpid());
	static struct npu_table t;
	memset(&t, 0, sizeof t);
	t.chips[0] = (struct npu_chip){ 6, 0, "910B3" };
	t.nchips = 1;
	t.procs[0] = (struct npu_proc){ 6, 0, getpid(), "python3", 100 };
	t.procs[1] = (struct npu_proc){ 6, 0, 999999, "stranger", 200 };
	t.procs[2] = (struct npu_proc){ 7, 0, 888888, "elsewhere", 300 };
	t.nprocs = 3;
	model_set_npu(&m, &t, 5000);
	assert_int_equal(id->phys, 6);
	assert_int_equal(id->phys_from, PHYS_NPU_SMI);
	struct device_row *rows;
	size_t n = model_devices(&m, &rows);
	assert_int_equal(n, 1);
	assert_true(rows[0].by_phys);
	assert_int_equal(rows[0].phys, 6);
	assert_int_equal(rows[0].device, 1);
	assert_int_equal(rows[0].ntenants, 2);
	assert_int_equal(rows[0].tenants[1].pid, 999999);
	assert_string_equal(rows[0].chip, "910B3");
	assert_false(rows[0].no_map);
	model_devices_free(rows, n);
	/* Out of the table: the map's NPU again. */
	t.nprocs = 0;
	model_set_npu(&m, &t, 6000);
	assert_int_equal(id->phys, 5);
	assert_int_equal(id->phys_from, PHYS_ENVIRON);
	model_free(&m);
}

static void test_container_pid_not_matched(void **state)
{
	struct model m;
	char self[64];

	(void)state;
	self_name(self, sizeof self);
	env_model(&m, self);
	/* /proc/PID is a process whose innermost pid is another: the log's
	 * process is not it. */
	fake_env.ns_pid = 7;
	fake_env.rank = 2;
	model_add(&m, make(getpid(), self, RES_STREAM, T0, NULL), READ_BEFORE);
	model_alive(&m, m.procs[0]);
	const struct ident *id = find(&m, getpid(), self);
	assert_int_equal(id->rank, IDENT_UNKNOWN);
	assert_int_equal(id->host_pid, IDENT_UNKNOWN);
	model_free(&m);
}

static void test_host_jobs_and_gone(void **state)
{
	struct model m;
	struct scan_part part = { 0 };
	const char *roots[] = { "/data/jobX" };
	size_t files[] = { 1 };

	(void)state;
	model_init(&m);
	struct incident *inc = make(50, "w", RES_EVENT, T0,
				    "/data/jobX/plog/plog-50.log");
	inc->host = "n1";
	field(inc, "rank", "3");
	model_add(&m, inc, READ_BEFORE);
	const struct ident *id = find(&m, 50, "w");
	assert_null(id->job);
	/* Its report's roots come last. */
	part.roots = roots;
	part.root_files = files;
	part.nroots = 1;
	model_merge_scan(&m, &part, "n1");
	assert_string_equal(id->job, "n1:/data/jobX");
	assert_ptr_equal(model_ident_find(&m, "n1", 50, "w"), id);
	assert_null(model_ident_find(&m, NULL, 50, "w"));
	assert_null(model_ident_find(&m, "n2", 50, "w"));
	/* A local process that only wrote facts is gone once asked. */
	device_fact(&m, DEAD_PID, "f", 2);
	const struct ident *f = find(&m, DEAD_PID, "f");
	assert_false(f->alive_known);
	model_ask_alive(&m);
	assert_true(f->alive_known);
	assert_false(f->alive);
	assert_false(id->alive_known);	/* remote: never asked */
	model_free(&m);
}

static void test_status_without_environ(void **state)
{
	struct model m;
	char self[64];

	(void)state;
	self_name(self, sizeof self);
	env_model(&m, self);
	fake_env_denied = 1;
	fake_env.rank = 5;
	device_fact(&m, getpid(), self, 0);
	model_add(&m, make(getpid(), self, RES_STREAM, T0, NULL), READ_BEFORE);
	static struct npu_table t;
	memset(&t, 0, sizeof t);
	t.procs[0] = (struct npu_proc){ 3, 0, getpid(), "python3", 100 };
	t.nprocs = 1;
	model_set_npu(&m, &t, 5000);
	model_alive(&m, m.procs[0]);
	const struct ident *id = find(&m, getpid(), self);
	/* Nothing of its environment, but its host pid and so its NPU. */
	assert_int_equal(id->rank, IDENT_UNKNOWN);
	assert_false(id->has_map);
	assert_int_equal(id->host_pid, getpid());
	assert_int_equal(id->phys, 3);
	assert_int_equal(id->phys_from, PHYS_NPU_SMI);
	model_free(&m);
}

static void test_devices_by_host(void **state)
{
	struct model m;

	(void)state;
	model_init(&m);
	/* The same pid and device on two hosts and here: three rows, the
	 * local one first, then the hosts as named. */
	const char *hosts[] = { "n2", "n1", NULL };
	for (int h = 0; h < 3; h++) {
		struct incident *inc = make(60, "w", RES_EVENT, T0, NULL);
		inc->host = hosts[h];
		field(inc, "device_id", "2");
		model_add(&m, inc, READ_BEFORE);
	}
	static struct npu_table t;
	memset(&t, 0, sizeof t);
	t.chips[0] = (struct npu_chip){ 0, 0, "310P3" };
	t.chips[1] = (struct npu_chip){ 1, 0, "310P3" };
	t.nchips = 2;
	model_set_npu(&m, &t, 1);
	struct device_row *rows;
	size_t n = model_devices(&m, &rows);
	assert_int_equal(n, 3);
	assert_null(rows[0].host);
	assert_string_equal(rows[1].host->name, "n2");
	assert_string_equal(rows[2].host->name, "n1");
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(rows[i].device, 2);
		assert_int_equal(rows[i].nprocs, 1);
		assert_int_equal(rows[i].by_resource[RES_EVENT], 1);
		assert_false(rows[i].no_map);
	}
	/* One chip model here: its limits hold whatever the NPU. */
	assert_string_equal(rows[0].chip, "310P3");
	assert_string_equal(rows[1].chip, "");
	model_devices_free(rows, n);
	model_free(&m);
}

static void test_block_before_its_process(void **state)
{
	struct model m;

	(void)state;
	model_init(&m);
	/* Captured output read first: "[rank3]: EE1023: [PID: 200104]". */
	struct incident *inc = make(200104, "", RES_STREAM, LOGTIME_UNKNOWN,
				    "/job/torchrun.log");
	field(inc, "rank", "3");
	model_add(&m, inc, READ_BEFORE);
	assert_int_equal(find(&m, 200104, "")->rank, 3);
	/* Then its plog chain, which names no rank: the process takes the
	 * block's. */
	inc = make(200104, "python3", RES_STREAM, T0, NULL);
	model_add(&m, inc, READ_BEFORE);
	const struct ident *id = find(&m, 200104, "python3");
	assert_non_null(id);
	assert_int_equal(id->rank, 3);
	assert_int_equal(inc->rank_from, FROM_PROCESS);
	assert_int_equal(inc->rank, 3);
	/* A second program of that pid takes nothing. */
	device_fact(&m, 200104, "other", 1);
	assert_int_equal(find(&m, 200104, "other")->rank, IDENT_UNKNOWN);
	model_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_calls_make_the_ledger),
		cmocka_unit_test(test_never_below_zero),
		cmocka_unit_test(test_statistics_leak),
		cmocka_unit_test(test_rising_after_warmup),
		cmocka_unit_test(test_failed_creates_not_held),
		cmocka_unit_test(test_pid_only_joins),
		cmocka_unit_test(test_device_from),
		cmocka_unit_test(test_fold_keeps_the_leak),
		cmocka_unit_test(test_bounded),
		cmocka_unit_test(test_devices_jobs_and_orphan),
		cmocka_unit_test(test_npu_gives_the_phys),
		cmocka_unit_test(test_container_pid_not_matched),
		cmocka_unit_test(test_host_jobs_and_gone),
		cmocka_unit_test(test_status_without_environ),
		cmocka_unit_test(test_devices_by_host),
		cmocka_unit_test(test_block_before_its_process),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return unit_run_tap("ident", tests, sizeof tests / sizeof tests[0]);
}
