/* Who each process was, in the text report and the prom file (issue
 * 16): DEV and RANK columns that hold 80 columns with HOST, the
 * Devices: and Leaks: sections, the ledger's sentences, the gauges per
 * device.  The identities are filled by hand (struct ident), as the
 * model will fill them. */
#include "config.h"

#include "unit.h"

#include <stdlib.h>
#include <string.h>

#include "ledger_text.h"
#include "prom.h"
#include "report.h"
#include "report_devices.h"
#include "sanitize.h"
#include "xalloc.h"

static struct incident *make(const char *host, long pid, const char *name,
			     enum resource r)
{
	struct incident *inc = xcalloc(1, sizeof *inc);

	inc->host = host;
	inc->pid = pid;
	inc->name = xstrdup(name);
	inc->code = CODE_EE1023;
	inc->resource = r;
	inc->cause = CAUSE_UNKNOWN;
	inc->first = inc->last = logtime_make(2026, 7, 13, 11, 39, 0, 0);
	inc->file = "f.log";
	inc->line = 1;
	inc->nlines = 1;
	return inc;
}

struct fixture {
	struct model m;
	struct ident id[3];	/* by hand */
	struct ledger led[2];	/* id[0]'s and id[1]'s stream ledgers */
	struct ident_more more[3];	/* id[i].more */
	struct ident *v[3];
	struct ident *row[3];	/* what the model answers for its rows */
	int by_hand;		/* the model keeps no identities itself */
};

/* Three processes, one a host's, each with a device and a rank; the
 * first leaked streams. */
static void setup(struct fixture *f)
{
	memset(f, 0, sizeof *f);
	model_init(&f->m);
	model_host_add(&f->m, "node01.example.com");
	model_add(&f->m, make(NULL, 200104, "python3", RES_STREAM),
		  READ_BEFORE);
	model_add(&f->m, make(NULL, 200300, "python3", RES_EVENT),
		  READ_BEFORE);
	model_add(&f->m, make("node01.example.com", 1234567,
			      "trainer_worker", RES_STREAM), READ_BEFORE);
	assert_int_equal(f->m.nprocs, 3);
	for (size_t i = 0; i < 3; i++) {
		struct process *p = f->m.procs[i];
		struct ident *id = &f->id[i];
		*id = (struct ident){
			.host = p->host, .pid = p->pid, .name = (char *)p->name,
			.device = (long)(i == 2 ? 12 : 3), .phys = -1,
			.rank = (long)(i * 3 + 3), .local_rank = -1,
			.proc = p, .alive = i == 1, .more = &f->more[i],
		};
		f->v[i] = id;
	}
	f->led[0] = (struct ledger){
		.from = LEDGER_STATISTICS, .created = 1983, .destroyed = 3,
		.complete = 1, .leak = LEAK_ENDED,
	};
	f->led[1] = (struct ledger){
		.from = LEDGER_CALLS, .created = 12, .destroyed = 2,
		.complete = 1,
	};
	f->more[0].ledger[LEDGER_STREAM] = &f->led[0];
	f->more[1].ledger[LEDGER_STREAM] = &f->led[1];
	/* The model's identities, as model_idents gives them: its own,
	 * given these values, when it keeps them; else these. */
	f->by_hand = !model_ident(&f->m, f->m.procs[0]);
	for (size_t i = 0; i < 3; i++) {
		struct ident *own = (struct ident *)
			model_ident(&f->m, f->m.procs[i]);
		f->row[i] = own ? own : &f->id[i];
		if (!own)
			continue;
		own->device = f->id[i].device;
		own->rank = f->id[i].rank;
		own->alive = f->id[i].alive;
		for (int r = 0; r < LEDGER_COUNT; r++)
			if (f->more[i].ledger[r])
				*ident_ledger_mut(own, (enum ledger_res)r) =
					*f->more[i].ledger[r];
	}
	if (f->by_hand) {
		f->m.idents.v = f->v;
		f->m.idents.n = 3;
	}
}

static void teardown(struct fixture *f)
{
	if (f->by_hand) {
		f->m.idents.v = NULL;	/* ours, not the model's */
		f->m.idents.n = 0;
	}
	model_free(&f->m);
}

static char *text_report(const struct model *m)
{
	struct report_opts o = { .version = "9", .width = 80 };
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(report_text(m, &o, f), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void test_columns_fit(void **state)
{
	struct fixture f;

	(void)state;
	setup(&f);
	char *out = text_report(&f.m);
	const char *head = strstr(out, "HOST ");
	assert_non_null(head);
	/* The head: HOST PID NAME DEV RANK TOTAL ... LAST, no FIRST; HOST
	 * keeps 12 columns (the last to shrink): node01.example.com is
	 * node01 there. */
	assert_true(strncmp(head, "HOST         PID     NAME     DEV RANK "
			    "TOTAL", 44) == 0);
	assert_null(strstr(out, "FIRST"));
	for (char *line = out, *end; *line; line = end + 1) {
		end = strchr(line, '\n');
		assert_non_null(end);
		*end = '\0';
		if (text_width(line) > 80)
			fail_msg("over 80 columns: %s", line);
		*end = '\n';
	}
	assert_non_null(strstr(out, "\n-            200104  python3    3    3     1"));
	assert_non_null(strstr(out, "\nnode01       1234567 trainer_  12    9"));
	assert_non_null(strstr(out, " Arg LAST\n"));
	assert_non_null(strstr(out, " 11:39\n"));
	assert_non_null(strstr(out, "\nLeaks:\n  pid 200104 (python3) created "
			       "1,983 streams and destroyed 3 (statistics)\n"));
	free(out);

	/* Nothing known: no DEV or RANK, the table as it was. */
	for (size_t i = 0; i < 3; i++)
		f.row[i]->device = f.row[i]->rank = -1;
	out = text_report(&f.m);
	assert_null(strstr(out, " DEV "));
	assert_null(strstr(out, "RANK"));
	free(out);
	teardown(&f);
}

static void test_devices_section(void **state)
{
	struct fixture f;
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	setup(&f);
	f.id[0].job = "job-a";
	f.m.procs[0]->alive_asked = 1;	/* asked: it does not run */
	f.id[1].job = "job-b";
	const struct ident *procs[] = { &f.id[0], &f.id[1] };
	struct device_row row = {
		.device = 3, .phys = -1, .procs = procs, .nprocs = 2,
		.incidents = 2, .failing = 2, .jobs = 2, .orphan = 1,
		.orphan_id = &f.id[0], .orphan_gone = 1, .no_map = 1,
	};
	row.by_resource[RES_STREAM] = 1;
	row.by_resource[RES_EVENT] = 1;
	report_devices(&sb, &row, 1, NULL, 0, 80);
	assert_string_equal(sb.buf,
		"\nDevices:\n"
		"  device 3: 2 incidents (1 stream, 1 event)\n"
		"    pid 200104 python3, rank 3, gone, job job-a\n"
		"    pid 200300 python3, rank 6, alive, job job-b, holds 10 "
		"streams\n"
		"    shared by processes of 2 jobs: run fewer processes per "
		"device\n"
		"    orphan: pid 200104 (python3) used device 3 until its log "
		"ended, and the\n"
		"      device failed after it; it is gone, but a process killed "
		"hard can leave\n"
		"      what it held to the driver until the NPU is reset "
		"(npu-smi info shows what\n"
		"      runs there)\n"
		"    same logical id, no device map: these processes may be on "
		"different NPUs\n");
	sb_reset(&sb);
	report_devices(&sb, &row, 0, NULL, 0, 80);
	assert_int_equal(sb.len, 0);
	/* One that still runs: end it. */
	row.orphan_id = &f.id[1];
	row.orphan_gone = 0;
	report_devices(&sb, &row, 1, NULL, 0, 80);
	assert_non_null(strstr(sb.buf, "    orphan: pid 200300 (python3) held "
			       "10 streams on device 3 when its log"));
	assert_non_null(strstr(sb.buf, "end it (kill 200300)"));
	sb_reset(&sb);
	row.incidents = 0;
	memset(row.by_resource, 0, sizeof row.by_resource);
	report_devices(&sb, &row, 1, NULL, 0, 80);
	assert_non_null(strstr(sb.buf, "  device 3: no incident\n"));
	sb_reset(&sb);

	/* Leaks: the first REPORT_LEAKS_SHOWN, the rest counted. */
	struct ident many[REPORT_LEAKS_SHOWN + 3];
	const struct ident *mv[REPORT_LEAKS_SHOWN + 3];
	for (size_t i = 0; i < REPORT_LEAKS_SHOWN + 3; i++) {
		many[i] = f.id[0];
		many[i].pid = (long)(1000 + i);
		mv[i] = &many[i];
	}
	assert_int_equal(report_leaks(&sb, mv, REPORT_LEAKS_SHOWN + 3, 0, 80),
			 REPORT_LEAKS_SHOWN + 3);
	assert_non_null(strstr(sb.buf, "  pid 1019 (python3) created"));
	assert_null(strstr(sb.buf, "pid 1020 "));
	assert_non_null(strstr(sb.buf, "\n  and 3 more (all in "
			       "--format=json)\n"));
	sb_free(&sb);
	teardown(&f);
}

/* An orphan from a killed run wrote only facts (no incident, no row):
 * the model asked it (model_ask_alive) and found it gone before device
 * 3's latest incident; the view names it, not the failing rank that is
 * also gone now, and marks both gone as the model sees them. */
static void test_orphan_without_row(void **state)
{
	struct fixture f;
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	setup(&f);
	struct ident orphan = {
		.pid = 242638, .name = "python3", .device = 3, .phys = -1,
		.rank = -1, .local_rank = -1, .alive_known = 1,
		.last = 1000,
	};
	f.id[0].alive_known = 1;
	f.id[0].last = 5000;
	const struct ident *procs[] = { &f.id[0], &orphan };
	struct device_row row = {
		.device = 3, .phys = -1, .procs = procs, .nprocs = 2,
		.incidents = 1, .failing = 1, .jobs = 1, .orphan = 1,
		.orphan_id = &orphan, .orphan_gone = 1, .last = 5000,
	};
	row.by_resource[RES_STREAM] = 1;
	report_devices(&sb, &row, 1, NULL, 0, 80);
	assert_non_null(strstr(sb.buf, "    pid 242638 python3, gone\n"));
	assert_non_null(strstr(sb.buf, "    pid 200104 python3, rank 3, gone"));
	assert_non_null(strstr(sb.buf, "    orphan: pid 242638 (python3) used "
			       "device 3 until its log ended"));
	sb_free(&sb);
	teardown(&f);
}

static void test_ledger_sentences(void **state)
{
	struct fixture f;
	struct strbuf sb = STRBUF_INIT;
	struct incident *inc = make(NULL, 1, "p", RES_STREAM);

	(void)state;
	setup(&f);
	assert_int_equal(ledger_fix_sentence(&sb, &f.id[0], RES_STREAM), 1);
	assert_string_equal(sb.buf, "This process created 1,983 streams and "
			    "destroyed 3 (the aclFinalize statistics). It "
			    "ended holding what it did not destroy: a leak.");
	sb_reset(&sb);
	assert_int_equal(ledger_fix_sentence(&sb, &f.id[2], RES_STREAM), 0);
	assert_non_null(strstr(sb.buf, "The ledger is empty: turn on INFO "
			       "logging with ASCEND_GLOBAL_LOG_LEVEL=1 (or "
			       "ASCEND_MODULE_LOG_LEVEL=ASCENDCL=1)"));
	sb_reset(&sb);
	assert_int_equal(ledger_fix_sentence(&sb, NULL, RES_MEMCPY), -1);
	assert_int_equal(sb.len, 0);
	f.more[1].ledger[LEDGER_STREAM]->complete = 0;
	assert_int_equal(ledger_fix_sentence(&sb, &f.id[1], RES_STREAM), 1);
	assert_string_equal(sb.buf, "This process created 12 streams and "
			    "destroyed 2 (counted from its INFO-level calls); "
			    "its earlier lines were not read, so it may have "
			    "created more.");
	sb_reset(&sb);
	ledger_count(&sb, 1234567);
	assert_string_equal(sb.buf, "1,234,567");

	/* The limit: npu-smi's chip model wins over stream_limit. */
	sb_reset(&sb);
	assert_int_equal(limit_sentence(&sb, inc, NULL, NULL), 0);
	incident_set_field(inc, "stream_limit", "2048", 4);
	assert_int_equal(limit_sentence(&sb, inc, NULL, NULL), 1);
	assert_string_equal(sb.buf, "Limit: 2,048 streams per device, inferred "
			    "from stream_id (no chip model from npu-smi).");
	static struct npu_table npu = { .nchips = 1 };
	strcpy(npu.chips[0].name, "910B3");
	int about;
	const char *family;
	unsigned long lim = npu_limit("910B3", RES_STREAM, &about, &family);
	sb_reset(&sb);
	limit_sentence(&sb, inc, NULL, &npu);
	if (lim)	/* the chips' table is there */
		assert_non_null(strstr(sb.buf, "from npu-smi), used instead "
				       "of the 2,048 inferred from stream_id"));
	else
		assert_non_null(strstr(sb.buf, "inferred from stream_id"));
	/* A host's process: this host's npu-smi says nothing of it. */
	assert_null(ledger_chip(&f.id[2], &npu));
	assert_string_equal(ledger_chip(&f.id[0], &npu), "910B3");
	incident_free(inc);
	sb_free(&sb);
	teardown(&f);
}

static size_t count_of(const char *s, const char *what)
{
	size_t n = 0;

	for (const char *p = s; (p = strstr(p, what)) != NULL; p++)
		n++;
	return n;
}

static void test_prom_gauges(void **state)
{
	struct fixture f;
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	setup(&f);
	f.row[1]->phys = 7;
	f.row[1]->phys_from = PHYS_ENVIRON;
	prom_render_devices(&sb, &f.m);
	/* Only the live process holds: 200104 is gone, its leak is a
	 * finding, not a gauge. */
	assert_non_null(strstr(sb.buf,
		"# HELP plogtop_device_resources_held Resources (streams, "
		"events, notifies) that the live processes on the device "
		"created and did not destroy, by their ledgers; device is the "
		"logged id, id the NPU when known.\n"
		"# TYPE plogtop_device_resources_held gauge\n"
		"plogtop_device_resources_held{device=\"3\",id=\"7\","
		"resource=\"stream\"} 10\n"));
	assert_int_equal(count_of(sb.buf, "plogtop_device_resources_held{"), 1);
	assert_null(strstr(sb.buf, "pid"));
	sb_reset(&sb);
	f.row[1]->phys_from = PHYS_NONE;
	prom_render_devices(&sb, &f.m);
	assert_non_null(strstr(sb.buf, "plogtop_device_resources_held{"
			       "device=\"3\",resource=\"stream\"} 10\n"));
	assert_null(strstr(sb.buf, "id_kind"));
	/* Not asked yet: not known gone, it holds; found gone: nothing. */
	f.row[1]->alive = 0;
	f.m.procs[1]->alive = 0;
	sb_reset(&sb);
	prom_render_devices(&sb, &f.m);
	assert_non_null(strstr(sb.buf, "{device=\"3\","
			       "resource=\"stream\"} 10\n"));
	f.m.procs[1]->alive_asked = 1;
	sb_reset(&sb);
	prom_render_devices(&sb, &f.m);
	assert_int_equal(count_of(sb.buf, "plogtop_device_resources_held{"), 0);
	sb_free(&sb);
	teardown(&f);
}

int main(void)
{
	cmocka_set_message_output(CM_OUTPUT_TAP);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_columns_fit),
		cmocka_unit_test(test_devices_section),
		cmocka_unit_test(test_orphan_without_row),
		cmocka_unit_test(test_ledger_sentences),
		cmocka_unit_test(test_prom_gauges),
	};
	return UNIT_RUN("report_who", tests);
}
