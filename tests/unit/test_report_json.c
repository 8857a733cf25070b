/* The JSON snapshot and an incident's JSON, written and read back as a
 * pair: what report_json.c and incident_json.c write, report_json_read.c
 * and incident_json_read take, whatever pieces the bytes come in; and
 * what the reader refuses, with the words a host's status shows. */
#include "config.h"

#include "unit.h"

#include "incident_json.h"
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

static const struct snapshot_read_ops ops = {
	on_incident, on_bad_claim, on_scan,
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
		{ "{\"schema\": \"plogtop.snapshot\", \"schema_version\": 4}",
		  "refused: plogtop there writes schema version 4, this one "
		  "reads 1 to 3" },
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
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *got = read_back(cases[i].doc, strlen(cases[i].doc), 1);
		if (strcmp(got, cases[i].want) != 0)
			fail_msg("%s: %s", cases[i].doc, got);
		free(got);
	}
}

int main(void)
{
	cmocka_set_message_output(CM_OUTPUT_TAP);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_refusals),
	};
	return UNIT_RUN("report_json", tests);
}
