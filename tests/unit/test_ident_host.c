/* Identities and the host's evidence (src/model/ident.h): devices group
 * processes of jobs and call out an orphan, a live process's environment
 * gives its rank, job and visible-device map (procenv read through a
 * function the test gives), npu-smi's table gives the physical NPU and
 * the tenants, a container's pid is never matched to the host's, and a
 * host's job comes with its report's roots. */
#include "config.h"

#include <stdint.h>

#include "unit.h"

#include "ident_test.h"
#include "npusmi.h"
#include "procenv.h"

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
	assert_true(ident_env(id)->has_map);
	assert_int_equal(id->phys, 5);
	assert_int_equal(id->phys_from, PHYS_ENVIRON);
	assert_int_equal(ident_env(id)->host_pid, getpid());
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
	assert_int_equal(ident_env(id)->host_pid, IDENT_UNKNOWN);
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
	assert_false(ident_env(id)->has_map);
	assert_int_equal(ident_env(id)->host_pid, getpid());
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_devices_jobs_and_orphan),
		cmocka_unit_test(test_npu_gives_the_phys),
		cmocka_unit_test(test_container_pid_not_matched),
		cmocka_unit_test(test_host_jobs_and_gone),
		cmocka_unit_test(test_status_without_environ),
		cmocka_unit_test(test_devices_by_host),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return unit_run_tap("ident_host", tests, sizeof tests / sizeof tests[0]);
}
