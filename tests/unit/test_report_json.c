/* The JSON snapshot and an incident's JSON, written and read back as a
 * pair: what report_json.c and incident_json.c write, report_json_read.c
 * and incident_json_read take, whatever pieces the bytes come in; and
 * what the reader refuses, with the words a host's status shows. */
#include "config.h"

#include "unit.h"

#include "ident_json.h"
#include "incident_json.h"
#include "json.h"
#include "npusmi.h"
#include "report.h"
#include "report_json_read.h"
#include "xalloc.h"

/* Every call the reader makes, in order, as words. */
struct calls {
	struct strbuf log;
	struct model *m;	/* where incidents are read into */
	size_t incidents;
};

static void on_incident(void *ctx, const struct jval *o)
{
	struct calls *c = ctx;
	struct strbuf err = STRBUF_INIT;
	struct incident *inc = incident_json_read(c->m, o, "h1", &err);

	if (!inc) {
		sb_addf(&c->log, "refused(%s) ", err.buf);
	} else {
		sb_addf(&c->log, "incident(%s %ld %s %s %s %s:%lu %s=%s) ",
			inc->host, inc->pid, inc->name, code_name(inc->code),
			resource_name(inc->resource), inc->file, inc->line,
			inc->nfields ? inc->fields[0].key : "-",
			inc->nfields ? inc->fields[0].value : "-");
		model_release_path(c->m, inc->file);
		incident_free(inc);
	}
	c->incidents++;
	sb_free(&err);
}

static void on_bad_claim(void *ctx, const char *key)
{
	sb_addf(&((struct calls *)ctx)->log, "bad(%s) ", key);
}

static void on_scan(void *ctx, const struct scan_part *sp)
{
	struct strbuf *log = &((struct calls *)ctx)->log;

	sb_addf(log, "scan(%zu %zu %llu %zu %zu", sp->stats.files,
		sp->stats.lines, sp->stats.bytes, sp->stats.truncated_lines,
		sp->filtered);
	for (size_t i = 0; i < sp->nroots; i++)
		sb_addf(log, " root:%s=%zu", sp->roots[i], sp->root_files[i]);
	for (size_t i = 0; i < sp->nproblems; i++)
		sb_addf(log, " problem:%s=%s", sp->problems[i].path,
			sp->problems[i].error);
	for (size_t i = 0; i < sp->nskipped_listed; i++)
		sb_addf(log, " skipped:%s", sp->skipped[i].path);
	sb_addf(log, " %zu %zu) ", sp->problems_total, sp->nskipped);
}

static void on_fact(void *ctx, const struct fact *f)
{
	sb_addf(&((struct calls *)ctx)->log, "fact(%ld %s %s %llu/%llu) ",
		f->pid, f->name, resource_name(f->resource), f->apply_succ,
		f->release_succ);
}

static const struct snapshot_read_ops ops = {
	on_incident, on_bad_claim, on_scan, on_fact, NULL,
};

/* Reads text fed step bytes at a time: the calls, then "ok" or "refused:
 * why". */
static char *read_back(const char *text, size_t len, size_t step)
{
	struct model m;
	struct calls c = { STRBUF_INIT, &m, 0 };
	struct snapshot_reader r;
	struct strbuf why = STRBUF_INIT;
	int rc = 0;

	model_init(&m);
	snapshot_read_init(&r, 1u << 20, &ops, &c);
	for (size_t i = 0; i < len && rc == 0; i += step)
		rc = snapshot_read_feed(&r, text + i,
					len - i < step ? len - i : step);
	if (snapshot_read_failed(&r, &why) || snapshot_read_end(&r, &why) < 0)
		sb_addf(&c.log, "refused: %s", why.buf);
	else
		sb_adds(&c.log, "ok");
	snapshot_read_free(&r);
	model_free(&m);
	sb_free(&why);
	return sb_detach(&c.log);
}

/* A snapshot of one incident, as --once --format=json writes it. */
static char *write_snapshot(size_t *len)
{
	struct model m;
	struct report_opts ro = { .host = "here", .version = "9" };
	struct snapshot s;
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	struct process proc;
	struct incident inc = {
		.pid = 42, .name = "python3", .tid = 7,
		.code = code_from_name("EE1023"),
		.resource = resource_from_name("stream"),
		.cause = cause_from_name("streams_created"),
		.first = LOGTIME_UNKNOWN, .last = LOGTIME_UNKNOWN,
		.file = "/r/plog-42.log", .line = 12, .nlines = 3,
		.proc = &proc,
	};

	assert_non_null(f);
	incident_set_field(&inc, "streams", "2048", 4);
	model_init(&m);
	model_add_root(&m, "/r");
	m.root_files[0] = 3;
	m.stats.files = 3;
	m.stats.lines = 10;
	m.stats.bytes = 100;
	model_problem(&m, "/r/x", "%s", "boom");
	model_skip(&m, "/r/bin", "binary");
	snapshot_begin(&s, f, &ro);
	snapshot_on_incident(&s, &inc);
	inc.proc = NULL;		/* not counted (--since): left out */
	snapshot_on_incident(&s, &inc);
	assert_int_equal(snapshot_end(&s, &m), 0);
	snapshot_free(&s);
	assert_int_equal(fclose(f), 0);
	incident_drop_fields(&inc);
	model_free(&m);
	return buf;
}

static void test_round_trip(void **state)
{
	const char *want =
		"incident(h1 42 python3 EE1023 stream /r/plog-42.log:12 "
		"streams=2048) scan(3 10 100 0 0 root:/r=3 problem:/r/x=boom "
		"skipped:/r/bin 1 1) ok";
	size_t len;
	char *doc = write_snapshot(&len);

	(void)state;
	for (size_t step = 1; step <= len; step += step < 64 ? 1 : 97) {
		char *got = read_back(doc, len, step);
		if (strcmp(got, want) != 0)
			fail_msg("step %zu: %s", step, got);
		free(got);
	}
	free(doc);
}

static void test_refusals(void **state)
{
	static const struct {
		const char *doc, *want;
	} cases[] = {
		{ "[1]", "refused: protocol error: offset 0: not a JSON "
			 "object" },
		{ "{\"schema\": \"other\"}", "refused: protocol error: not a "
					     "plogtop report" },
		{ "{\"incidents\": []}", "refused: protocol error: not a "
					 "plogtop report" },
		{ "{\"schema\": \"plogtop.snapshot\", \"schema_version\": 5}",
		  "refused: plogtop there writes schema version 5, this one "
		  "reads 1 to 4" },
		{ "{\"schema\": \"plogtop.snapshot\", \"schema_version\": 2, "
		  "\"incidents\": []}",
		  "refused: protocol error: no incidents or scan" },
		{ "{\"schema\": \"plogtop.snapshot\", \"schema_version\": 2, "
		  "\"incidents\": [], \"scan\": {\"files\": ",
		  "refused: protocol error: offset 87: the document ends "
		  "early" },
		{ "{\"schema\": \"plogtop.snapshot\", \"schema_version\": 2, "
		  "\"incidents\": [{\"pid\": 1}], \"scan\": {\"files\": -1, "
		  "\"skipped_total\": 5, \"problems_total\": 1e300}}",
		  "refused(incident \"tid\": missing) bad(files) "
		  "bad(problems_total) scan(0 0 0 0 0 0 5) ok" },
		/* Version 3's devices are let be; a leak of the statistics
		 * is its fact, one of calls none, a hostile one refused. */
		{ "{\"schema\": \"plogtop.snapshot\", \"schema_version\": 3, "
		  "\"incidents\": [], \"scan\": {}, \"devices\": [{\"host\": "
		  "null, \"device\": 3, \"processes\": [1]}], \"leaks\": ["
		  "{\"pid\": 200104, \"name\": \"py\\\\x1b\", \"resource\": "
		  "\"stream\", \"created\": 1983, \"destroyed\": 3, \"from\": "
		  "\"statistics\"}, "
		  "{\"pid\": 5, \"name\": \"a\", \"resource\": \"event\", "
		  "\"created\": 9, \"destroyed\": 1, \"from\": \"calls\"}, "
		  "{\"pid\": -5, \"name\": \"a\", \"resource\": \"event\", "
		  "\"created\": 9, \"destroyed\": 1, \"from\": \"statistics\"}, "
		  "{\"pid\": 5, \"name\": \"a\", \"resource\": \"memcpy\", "
		  "\"created\": 9, \"destroyed\": 1, \"from\": \"statistics\"}, "
		  "{\"pid\": 5, \"name\": \"a\", \"resource\": \"event\", "
		  "\"created\": \"9\", \"destroyed\": 1, \"from\": "
		  "\"statistics\"}]}",
		  "scan(0 0 0 0 0 0 0) fact(200104 py\x1b stream 1983/3) "
		  "bad(leaks) bad(leaks) bad(leaks) ok" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *got = read_back(cases[i].doc, strlen(cases[i].doc), 1);
		if (strcmp(got, cases[i].want) != 0)
			fail_msg("%s: %s", cases[i].doc, got);
		free(got);
	}
}

/* An incident's JSON read back: its device and rank as they were, each
 * with its source; what a hostile host sends instead is refused. */
static struct incident *read_one(struct model *m, const char *text,
				 struct strbuf *err)
{
	struct jval v;
	struct strbuf perr = STRBUF_INIT;

	if (json_parse(text, strlen(text), NULL, &v, &perr) < 0)
		fail_msg("%s: %s", text, perr.buf);
	sb_free(&perr);
	struct incident *inc = incident_json_read(m, &v, "h1", err);
	jval_free(&v);
	return inc;
}

static struct incident sample(void)
{
	return (struct incident){
		.pid = 200104, .name = "python3", .tid = 7,
		.code = code_from_name("EE1023"),
		.resource = resource_from_name("stream"),
		.cause = cause_from_name("streams_created"),
		.first = LOGTIME_UNKNOWN, .last = LOGTIME_UNKNOWN,
		.file = "/r/plog-1.log", .line = 3, .nlines = 2,
	};
}

static void test_incident_who(void **state)
{
	struct model m;
	struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT;
	struct incident inc = sample();

	(void)state;
	model_init(&m);
	inc.device = 3;
	inc.device_from = FROM_PROCESS;
	inc.rank = 6;
	inc.rank_from = FROM_LINES;
	incident_json(&sb, &inc, NULL, NULL);
	assert_non_null(strstr(sb.buf, "\"device\": 3, \"device_from\": "
			       "\"process\", \"rank\": 6, \"rank_from\": "
			       "\"lines\""));
	struct incident *back = read_one(&m, sb.buf, &err);
	assert_non_null(back);
	assert_int_equal(back->device, 3);
	assert_int_equal(back->device_from, FROM_PROCESS);
	assert_int_equal(back->rank, 6);
	assert_int_equal(back->rank_from, FROM_LINES);
	model_release_path(&m, back->file);
	incident_free(back);

	/* Not known: null, and read back as not known. */
	sb_reset(&sb);
	inc.device_from = inc.rank_from = FROM_NONE;
	incident_json(&sb, &inc, NULL, NULL);
	assert_non_null(strstr(sb.buf, "\"device\": null, \"device_from\": "
			       "null, \"rank\": null, \"rank_from\": null"));
	back = read_one(&m, sb.buf, &err);
	assert_non_null(back);
	assert_int_equal(back->device_from, FROM_NONE);
	assert_int_equal(back->rank_from, FROM_NONE);
	model_release_path(&m, back->file);
	incident_free(back);

	/* Its own line's device_id when the model was not asked yet. */
	sb_reset(&sb);
	incident_set_field(&inc, "device_id", "5", 1);
	incident_json(&sb, &inc, NULL, NULL);
	assert_non_null(strstr(sb.buf, "\"device\": 5, \"device_from\": "
			       "\"lines\""));
	incident_drop_fields(&inc);
	sb_free(&sb);
	sb_free(&err);
	model_free(&m);
}

static void test_incident_who_refused(void **state)
{
	static const char *const hostile[][2] = {
		{ "\"device\": -1", "incident \"device\": not an integer in "
				    "range" },
		{ "\"device\": 99999999999", "incident \"device\": not an "
					     "integer in range" },
		{ "\"device\": \"3\"", "incident \"device\": not an integer "
				       "in range" },
		{ "\"device\": 1.5", "incident \"device\": not an integer in "
				     "range" },
		{ "\"rank\": -6", "incident \"rank\": not an integer in "
				  "range" },
		{ "\"rank\": 1e30", "incident \"rank\": not an integer in "
				    "range" },
		{ "\"device\": 3, \"device_from\": \"guess\"",
		  "incident \"device_from\": not \"lines\" or \"process\"" },
		{ "\"rank\": 2, \"rank_from\": 1",
		  "incident \"rank_from\": not \"lines\" or \"process\"" },
	};
	struct model m;

	(void)state;
	model_init(&m);
	for (size_t i = 0; i < sizeof hostile / sizeof hostile[0]; i++) {
		struct strbuf doc = STRBUF_INIT, err = STRBUF_INIT;
		sb_addf(&doc, "{\"pid\": 1, \"tid\": 2, \"name\": \"p\", "
			"\"reported_code\": null, \"file\": \"f\", \"line\": 1, "
			"\"lines\": 1, \"first_seen\": null, \"last_seen\": "
			"null, \"code\": \"EE1023\", \"resource\": \"stream\", "
			"\"cause\": \"unknown\", %s}", hostile[i][0]);
		struct incident *inc = read_one(&m, doc.buf, &err);
		if (inc)
			fail_msg("%s: taken", hostile[i][0]);
		assert_string_equal(err.buf, hostile[i][1]);
		sb_free(&doc);
		sb_free(&err);
	}
	model_free(&m);
}

/* A process's identity, devices and leaks as the snapshot writes them,
 * from identities filled by hand. */
static void test_identity_json(void **state)
{
	struct ident id = {
		.pid = 200104, .name = "python3", .device = 3,
		.dev = (struct ident_dev[]){ { .device = 0 }, { .device = 3 } },
		.ndevices = 2, .phys = 7,
		.phys_from = PHYS_ENVIRON, .rank = 3, .job = "job-a",
		.job_rule = IDENT_JOB_PATH,
	};
	struct ident other = {
		.pid = 200300, .name = "python3", .device = -1, .rank = -1,
		.phys = -1, .alive = 1,
	};
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	struct ledger streams = {
		.from = LEDGER_STATISTICS, .created = 1983, .destroyed = 3,
		.complete = 1, .leak = LEAK_ENDED,
	};
	struct ledger events = {
		.from = LEDGER_CALLS, .created = 40, .destroyed = 40,
	};
	struct ident_more more = { .ledger = {
		[LEDGER_STREAM] = &streams, [LEDGER_EVENT] = &events,
	} };
	id.more = &more;
	ident_json_process(&sb, &id);
	assert_string_equal(sb.buf,
		", \"device\": 3, \"devices\": [0, 3], \"rank\": 3, "
		"\"job\": \"job-a\", \"job_rule\": \"path\", \"npu\": 7, "
		"\"npu_from\": \"environ\", "
		"\"ledger\": {\"stream\": {\"created\": 1983, \"destroyed\": 3, "
		"\"held\": 1980, \"from\": \"statistics\", \"complete\": true, "
		"\"leak\": \"ended\"}, \"event\": {\"created\": 40, "
		"\"destroyed\": 40, \"held\": 0, \"from\": \"calls\", "
		"\"complete\": false}}");
	sb_reset(&sb);
	ident_json_process(&sb, &other);
	assert_string_equal(sb.buf,
		", \"device\": null, \"devices\": [], \"rank\": null, "
		"\"job\": null, \"job_rule\": null, \"npu\": null, "
		"\"npu_from\": null, \"ledger\": {}");
	sb_reset(&sb);
	ident_json_process(&sb, NULL);
	assert_non_null(strstr(sb.buf, "\"device\": null"));

	const struct ident *procs[] = { &id, &other };
	struct device_row row = {
		.device = 3, .phys = 7, .phys_from = PHYS_ENVIRON,
		.procs = procs, .nprocs = 2, .incidents = 5, .failing = 1,
		.jobs = 2, .orphan = 1, .orphan_id = &id, .orphan_gone = 1,
	};
	row.by_resource[resource_from_name("stream")] = 5;
	static struct npu_table npu = { .nprocs = 2 };
	npu.procs[0] = (struct npu_proc){ .npu = 7, .pid = 9001,
					  .name = "python3", .mem_mb = 1024 };
	npu.procs[1] = (struct npu_proc){ .npu = 2, .pid = 9002,
					  .name = "other", .mem_mb = -1 };
	sb_reset(&sb);
	ident_json_devices(&sb, &row, 1, &npu);
	assert_string_equal(sb.buf,
		"  \"devices\": [\n    {\"host\": null, \"device\": 3, "
		"\"npu\": 7, \"npu_from\": \"environ\", \"processes\": "
		"[200104, 200300], \"processes_total\": 2, \"alive\": [200300], "
		"\"incidents\": 5, \"counts\": [{\"resource\": \"stream\", "
		"\"incidents\": 5}], \"failing\": 1, \"jobs\": 2, "
		"\"shared\": true, \"orphan\": true, \"no_map\": false, "
		"\"orphan_pid\": 200104, \"tenants\": [{\"pid\": 9001, \"name\": \"python3\", "
		"\"memory_mb\": 1024}]}\n  ]");
	sb_reset(&sb);
	ident_json_leaks(&sb, procs, 2);
	assert_string_equal(sb.buf,
		"  \"leaks\": [\n    {\"host\": null, \"pid\": 200104, "
		"\"name\": \"python3\", \"resource\": \"stream\", "
		"\"created\": 1983, \"destroyed\": 3, \"held\": 1980, "
		"\"from\": \"statistics\", \"kind\": \"ended\", "
		"\"complete\": true, \"device\": 3, \"rank\": 3}\n  ]");
	sb_reset(&sb);
	ident_json_leaks(&sb, procs + 1, 1);
	assert_string_equal(sb.buf, "  \"leaks\": []");
	/* A hostile name from the logs is sanitised. */
	struct ident bad = id;
	bad.name = "py\x1b[31m";
	const struct ident *badv[] = { &bad };
	sb_reset(&sb);
	ident_json_leaks(&sb, badv, 1);
	assert_non_null(strstr(sb.buf, "\"name\": \"py\\\\x1b[31m\""));
	sb_free(&sb);
}

/* A byte of a summary or fix: mostly plain, some of every kind the
 * escaper treats apart (quotes, backslashes, newlines, other control
 * bytes, UTF-8 lead and trail bytes). */
static char text_byte(unsigned *seed)
{
	*seed = *seed * 1103515245u + 12345u;
	unsigned r = *seed >> 16;
	static const char special[] = "\"\\\n\t\x01\x1f\xe2\x80\xa6";

	return r % 4 ? (char)('a' + r % 26)
		     : special[r / 4 % (sizeof special - 1)];
}

/* json_text_tail, escaping text where it was rendered, writes what
 * json_text_max writes from a copy: with no escape, a few, more than it
 * keeps places for, and cut at the bound. */
static void test_text_in_place(void **state)
{
	(void)state;
	unsigned seed = 1;

	for (int it = 0; it < 20000; it++) {
		char s[400];
		size_t n = (size_t)it % 7 == 0 ? 0 : (seed >> 8) % 399;
		for (size_t i = 0; i < n; i++)
			s[i] = it % 3 ? text_byte(&seed) : 'x';
		s[n] = '\0';
		size_t max = it % 5 ? SIZE_MAX : (seed >> 4) % 420;
		struct strbuf want = STRBUF_INIT, got = STRBUF_INIT;
		sb_adds(&want, "{\"k\": ");
		sb_adds(&got, "{\"k\": ");
		json_text_max(&want, s, max);
		size_t from = got.len;
		sb_add(&got, s, n);
		json_text_tail(&got, from, max);
		assert_int_equal(got.len, want.len);
		assert_string_equal(got.buf, want.buf);
		sb_free(&want);
		sb_free(&got);
	}
}

int main(void)
{
	cmocka_set_message_output(CM_OUTPUT_TAP);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_incident_who),
		cmocka_unit_test(test_incident_who_refused),
		cmocka_unit_test(test_identity_json),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_text_in_place),
	};
	return UNIT_RUN("report_json", tests);
}
