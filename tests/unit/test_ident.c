/* Identities and ledgers (src/model/ident.h): facts make the ledger's
 * numbers, statistics make a leak, a rising held count after the warm-up
 * makes a suspect, failed creates are not held, held never goes below
 * zero, a pid-only block joins its process, an incident's device comes
 * from its lines or its process, a folded process keeps its leak, the
 * table is bounded.  (Devices and the host's evidence: test_ident_host.c.) */
#include "config.h"

#include <stdint.h>

#include "unit.h"

#include "ident_test.h"

static unsigned long long fake_now;

static unsigned long long fake_clock(void)
{
	return fake_now;
}

/* A live model on the fake clock, at 1 s. */
static void clocked_model(struct model *m)
{
	model_init(m);
	model_set_live(m, 10);
	fake_now = 1000;
	m->clock_ms = fake_clock;
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
	const struct ledger *s = ident_ledger(id, LEDGER_STREAM);
	assert_int_equal(s->from, LEDGER_CALLS);
	assert_int_equal(s->created, 5);
	assert_int_equal(s->destroyed, 2);
	assert_int_equal(ledger_held(s), 3);
	assert_true(s->complete);
	const struct ledger *n = ident_ledger(id, LEDGER_NOTIFY);
	assert_int_equal(n->attempts, 3);
	assert_int_equal(n->created, 2);
	assert_int_equal(ident_ledger(id, LEDGER_EVENT)->from, LEDGER_NONE);
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
	const struct ledger *l = ident_ledger(find(&m, 11, "a"), LEDGER_STREAM);
	assert_int_equal(l->destroyed, 1);
	assert_int_equal(l->unmatched, 1);
	assert_int_equal(ledger_held(l), 2);
	assert_false(l->complete);
	/* Complete until a destroy of what it never saw created. */
	device_fact(&m, 12, "b", 1);
	fact(&m, 12, "b", FACT_CREATE, RES_EVENT, T0);
	const struct ledger *e = ident_ledger(find(&m, 12, "b"), LEDGER_EVENT);
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
	const struct ledger *s = ident_ledger(id, LEDGER_STREAM);
	assert_int_equal(s->from, LEDGER_STATISTICS);
	assert_int_equal(s->created, 10);
	assert_int_equal(s->destroyed, 7);
	assert_true(s->complete);
	assert_int_equal(s->leak, LEAK_ENDED);
	assert_int_equal(ident_ledger(id, LEDGER_EVENT)->leak, LEAK_NO);
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
	const struct ledger *a = ident_ledger(find(&m, 20, "a"), LEDGER_STREAM);
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
	const struct ledger *b = ident_ledger(find(&m, 21, "b"), LEDGER_STREAM);
	assert_int_equal(b->leak, LEAK_NO);
	/* c: steady after the warm-up: creates matched by destroys. */
	device_fact(&m, 22, "c", 0);
	for (int i = 0; i < IDENT_WARMUP; i++)
		fact(&m, 22, "c", FACT_CREATE, RES_STREAM, T0);
	for (int s = 1; s <= 5; s++) {
		fact(&m, 22, "c", FACT_CREATE, RES_STREAM, T0 + s * SPAN);
		fact(&m, 22, "c", FACT_DESTROYED, RES_STREAM, T0 + s * SPAN);
	}
	assert_int_equal(ident_ledger(find(&m, 22, "c"), LEDGER_STREAM)->leak,
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
	const struct ledger *l = ident_ledger(find(&m, 30, "p"), LEDGER_STREAM);
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
	/* Counted without a ledger (a failure and no call line makes none:
	 * ident.failed_only), and the whole of it read back. */
	const struct ident *rid = find(&m, 32, "r");
	struct ledger q;
	assert_null(ident_ledger_made(rid, LEDGER_NOTIFY));
	ident_ledger_get(rid, LEDGER_NOTIFY, &q);
	assert_int_equal(q.failed, 1);
	assert_int_equal(q.from, LEDGER_NONE);
	assert_int_equal(ident_ledger(rid, LEDGER_NOTIFY)->failed, 0);
	/* A call line makes its ledger, which takes the failure. */
	fact(&m, 32, "r", FACT_CREATE, RES_NOTIFY, T0 + 1);
	assert_non_null(ident_ledger_made(rid, LEDGER_NOTIFY));
	assert_int_equal(rid->failed_only[LEDGER_NOTIFY], 0);
	assert_int_equal(ident_ledger(rid, LEDGER_NOTIFY)->failed, 1);
	assert_int_equal(ident_ledger(rid, LEDGER_NOTIFY)->attempts, 1);
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
	assert_int_equal(process_total(m.procs[0]), 2);
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
	assert_int_equal(z->dev[0].device, 2);
	assert_int_equal(z->dev[IDENT_DEVICES - 1].device, IDENT_DEVICES + 1);
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
	clocked_model(&m);
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
	assert_int_equal(ident_ledger(id, LEDGER_STREAM)->leak, LEAK_ENDED);
	assert_true(id->alive_known);
	assert_false(id->alive);
	model_free(&m);
}

/* A rank learnt after the incident (the launcher's captured output read
 * after the plog files): the kept incident takes it from its process, as
 * a later one does, so that the two never disagree. */
static void test_rank_learnt_later(void **state)
{
	struct model m;

	(void)state;
	clocked_model(&m);
	struct incident *inc = make(DEAD_PID, "python3", RES_STREAM, T0, NULL);
	model_add(&m, inc, READ_BEFORE);
	assert_int_equal(inc->rank_from, FROM_NONE);
	struct fact f = { 0 };
	f.pid = DEAD_PID;
	f.name = "";
	f.kind = FACT_RANK;
	f.time = T0 + SEC;
	f.file = "/logs/torchrun.log";
	f.line = 1;
	f.device = f.dp = f.tp = f.ep = FACT_UNSAID;
	f.rank = 3;
	model_fact(&m, &f);
	assert_int_equal(find(&m, DEAD_PID, "python3")->rank, 3);
	assert_int_equal(inc->rank, 3);
	assert_int_equal(inc->rank_from, FROM_PROCESS);
	model_free(&m);
}

/* Screen prints that name neither pid nor program share one row, which
 * is no process: one naming device 0 and rank 2 gives them to none of
 * the others (the seed's EE1023 examples, one after another). */
static void test_no_process_gives_nothing(void **state)
{
	struct model m;

	(void)state;
	clocked_model(&m);
	struct incident *inc = make(0, "", RES_STREAM, T0, NULL);
	model_add(&m, inc, READ_BEFORE);
	struct incident *said = make(0, "", RES_NOTIFY, T0 + 1, NULL);
	field(said, "device_id", "0");
	field(said, "rank", "2");
	model_add(&m, said, READ_BEFORE);
	assert_int_equal(said->device_from, FROM_LINES);
	assert_int_equal(said->rank_from, FROM_LINES);
	struct incident *later = make(0, "", RES_EVENT, T0 + 2, NULL);
	model_add(&m, later, READ_BEFORE);
	assert_int_equal(later->device_from, FROM_NONE);
	assert_int_equal(later->rank_from, FROM_NONE);
	assert_int_equal(inc->rank_from, FROM_NONE);
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
		cmocka_unit_test(test_rank_learnt_later),
		cmocka_unit_test(test_no_process_gives_nothing),
		cmocka_unit_test(test_bounded),
		cmocka_unit_test(test_block_before_its_process),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return unit_run_tap("ident", tests, sizeof tests / sizeof tests[0]);
}
