/* The --follow stream, written and read back as a pair (stream.c): its
 * header, its cursor lines and its incident lines, text and ndjson. */
#include "config.h"

#include <time.h>

#include "unit.h"

#include "incident_json.h"
#include "report.h"
#include "stream.h"
#include "xalloc.h"

/* What fn wrote to a stream, as a string the caller frees. */
#define WRITTEN(buf, len, call)                                         \
	do {                                                            \
		FILE *f_ = open_memstream(&(buf), &(len));              \
		assert_non_null(f_);                                    \
		FILE *out = f_;                                         \
		assert_int_equal((call), 0);                            \
		assert_int_equal(fclose(f_), 0);                        \
	} while (0)

static void parse(const char *text, size_t len, struct jval *v)
{
	struct strbuf err = STRBUF_INIT;

	if (json_parse(text, len, NULL, v, &err) < 0)
		fail_msg("%s: %s", text, err.buf);
	sb_free(&err);
}

static void test_header(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	struct jval v;
	struct strbuf why = STRBUF_INIT;
	int resumes = 0;

	(void)state;
	WRITTEN(buf, len, stream_header(out, "9.9", "node-1"));
	assert_string_equal(buf, "{\"schema\": \"plogtop.stream\", "
			    "\"schema_version\": 4, \"tool_version\": \"9.9\", "
			    "\"host\": \"node-1\", \"resume\": true}\n");
	parse(buf, len, &v);
	assert_int_equal(stream_header_read(&v, &resumes, &why), 0);
	assert_int_equal(resumes, 1);
	jval_free(&v);
	free(buf);

	const char *newer = "{\"schema\": \"plogtop.stream\", "
			    "\"schema_version\": 5}";
	parse(newer, strlen(newer), &v);
	assert_int_equal(stream_header_read(&v, &resumes, &why), -1);
	assert_string_equal(why.buf, "plogtop there writes stream version 5, "
			    "this one reads 3 to 4: install the same version "
			    "there");
	jval_free(&v);
	sb_reset(&why);
	/* A host of version 3 (fields as strings, no offsets) is read. */
	const char *v3 = "{\"schema\": \"plogtop.stream\", "
			 "\"schema_version\": 3}";
	parse(v3, strlen(v3), &v);
	assert_int_equal(stream_header_read(&v, &resumes, &why), 0);
	jval_free(&v);
	const char *v2 = "{\"schema\": \"plogtop.stream\", "
			 "\"schema_version\": 2}";
	parse(v2, strlen(v2), &v);
	assert_int_equal(stream_header_read(&v, &resumes, &why), -1);
	jval_free(&v);
	sb_reset(&why);
	parse("{\"pid\": 1}", 10, &v);
	assert_int_equal(stream_header_read(&v, &resumes, &why), -1);
	assert_string_equal(why.buf, "protocol error: no stream header (is "
			    "--remote-command a plogtop?)");
	jval_free(&v);
	sb_free(&why);
}

static void test_cursor(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	struct jval v;
	struct stream_cursor_line c;

	(void)state;
	WRITTEN(buf, len, stream_cursor(out, "{\"files\": []}", 13, 1, 0, NULL));
	assert_string_equal(buf, "{\"type\": \"cursor\", \"cursor\": "
			    "{\"files\": []}, \"partial\": true}\n");
	parse(buf, len, &v);
	assert_int_equal(stream_cursor_read(&v, &c), 1);
	assert_non_null(c.cursor);
	assert_int_equal(c.cursor->type, J_OBJECT);
	assert_int_equal(c.partial, 1);
	assert_int_equal(c.settled, 0);
	jval_free(&v);
	free(buf);

	WRITTEN(buf, len, stream_cursor(out, "{}", 2, 0, 1, NULL));
	parse(buf, len, &v);
	assert_int_equal(stream_cursor_read(&v, &c), 1);
	assert_int_equal(c.partial, 0);
	assert_int_equal(c.settled, 1);
	assert_int_equal(c.has_read, 0);	/* as an older plogtop's */
	jval_free(&v);
	free(buf);

	/* What the host read, for a fleet's header; a bad count is none. */
	struct stream_read rd = { 34, 1200, 99000 };
	WRITTEN(buf, len, stream_cursor(out, "{}", 2, 0, 0, &rd));
	assert_string_equal(buf, "{\"type\": \"cursor\", \"cursor\": {}, "
			    "\"read\": {\"files\": 34, \"lines\": 1200, "
			    "\"bytes\": 99000}}\n");
	parse(buf, len, &v);
	assert_int_equal(stream_cursor_read(&v, &c), 1);
	assert_int_equal(c.has_read, 1);
	assert_int_equal(c.read.files, 34);
	assert_int_equal(c.read.lines, 1200);
	assert_int_equal(c.read.bytes, 99000);
	jval_free(&v);
	free(buf);
	static const char bad[] = "{\"type\": \"cursor\", \"cursor\": {}, "
		"\"read\": {\"files\": -1, \"lines\": 1, \"bytes\": 1}}";
	parse(bad, sizeof bad - 1, &v);
	assert_int_equal(stream_cursor_read(&v, &c), 1);
	assert_int_equal(c.has_read, 0);
	jval_free(&v);

	parse("{\"pid\": 1}", 10, &v);
	assert_int_equal(stream_cursor_read(&v, &c), 0);	/* an incident */
	jval_free(&v);
}

static struct incident *example(void)
{
	struct incident *inc = xcalloc(1, sizeof *inc);

	inc->pid = 42;
	inc->name = xstrdup("py worker");
	inc->code = code_from_name("EE1023");
	inc->resource = resource_from_name("stream");
	inc->cause = cause_from_name("streams_created");
	inc->reported_code = xstrdup("EE1023");
	inc->first = inc->last = LOGTIME_UNKNOWN;
	inc->file = "/r/plog-42.log";
	inc->line = 12;
	inc->nlines = 3;
	incident_set_field(inc, "streams", "2048", 4);
	return inc;
}

static void test_incident_lines(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	struct incident *inc = example();
	struct stream_opts text = { 0, 1, NULL, "here", 0 };
	struct stream_opts ndjson = { 1, 0, NULL, "here", 0 };

	(void)state;
	/* The reported code is left out when it is the code. */
	WRITTEN(buf, len, stream_incident(out, inc, &text));
	assert_string_equal(buf, "- - 42 \"py worker\" EE1023 stream "
			    "streams_created streams=2048\n");
	free(buf);

	WRITTEN(buf, len, stream_incident(out, inc, &ndjson));
	assert_int_equal(buf[len - 1], '\n');
	struct jval v;
	struct model m;
	struct strbuf err = STRBUF_INIT;
	parse(buf, len, &v);
	/* One host rule: null for local input, as in the snapshot. */
	assert_int_equal(json_get(&v, "host")->type, J_NULL);
	/* A decimal integer is a number, read back as its text. */
	assert_int_equal(json_get(json_get(&v, "fields"), "streams")->type,
			 J_NUMBER);
	model_init(&m);
	struct incident *back = incident_json_read(&m, &v, "h1", &err);
	assert_non_null(back);
	assert_string_equal(back->name, "py worker");
	assert_int_equal(back->pid, 42);
	assert_int_equal(back->code, inc->code);
	assert_int_equal(back->resource, inc->resource);
	assert_int_equal(back->cause, inc->cause);
	assert_string_equal(back->file, "/r/plog-42.log");
	assert_int_equal(back->line, 12);
	assert_int_equal(back->nfields, 1);
	assert_string_equal(back->fields[0].value, "2048");
	assert_int_equal(back->device_from, FROM_NONE);
	model_release_path(&m, back->file);
	incident_free(back);
	jval_free(&v);
	free(buf);

	/* Who it was: "dev N" and "rank N" after the cause, in the text
	 * line; device and rank with their sources in the ndjson one. */
	inc->device = 3;
	inc->device_from = FROM_PROCESS;
	inc->rank = 6;
	inc->rank_from = FROM_LINES;
	WRITTEN(buf, len, stream_incident(out, inc, &text));
	assert_string_equal(buf, "- - 42 \"py worker\" EE1023 stream "
			    "streams_created dev 3 rank 6 streams=2048\n");
	free(buf);
	WRITTEN(buf, len, stream_incident(out, inc, &ndjson));
	parse(buf, len, &v);
	back = incident_json_read(&m, &v, "h1", &err);
	assert_non_null(back);
	assert_int_equal(back->device, 3);
	assert_int_equal(back->device_from, FROM_PROCESS);
	assert_int_equal(back->rank, 6);
	assert_int_equal(back->rank_from, FROM_LINES);
	model_release_path(&m, back->file);
	incident_free(back);
	jval_free(&v);
	free(buf);
	/* Only the rank known. */
	inc->device_from = FROM_NONE;
	WRITTEN(buf, len, stream_incident(out, inc, &text));
	assert_string_equal(buf, "- - 42 \"py worker\" EE1023 stream "
			    "streams_created rank 6 streams=2048\n");
	free(buf);
	model_free(&m);
	sb_free(&err);
	inc->file = NULL;
	incident_free(inc);
}

/* Which values of fields are written as numbers. */
static void test_field_numbers(void **state)
{
	static const char *const numbers[] = {
		"0", "7", "2047", "-5", "9007199254740992", "-9007199254740992",
	};
	static const char *const strings[] = {
		"", "-", "-0", "007", "+5", "0x7020023", "1e3", "1.5", " 1",
		"1 ", "9007199254740993", "18446744073709551616", "12a",
		"00", "99999999999999999999",
	};

	(void)state;
	for (size_t i = 0; i < sizeof numbers / sizeof *numbers; i++)
		if (!field_is_number(numbers[i]))
			fail_msg("%s: not a number", numbers[i]);
	for (size_t i = 0; i < sizeof strings / sizeof *strings; i++)
		if (field_is_number(strings[i]))
			fail_msg("%s: a number", strings[i]);
}

/* What a host wrote in its zone (+05:30) stays that, read here in
 * another (Asia/Shanghai); an incident of this host's gets this zone's;
 * fields of both forms (schema 3 strings, schema 4 numbers) are read. */
static void test_offsets_travel(void **state)
{
	const char *wire = "{\"host\": null, \"pid\": 7, \"name\": \"p\", "
		"\"tid\": null, \"code\": \"EE1023\", \"reported_code\": null, "
		"\"resource\": \"stream\", \"cause\": \"streams_created\", "
		"\"first_seen\": \"2026-07-13T11:00:05.123000\", "
		"\"last_seen\": \"2026-07-13T11:00:06.000000\", "
		"\"first_seen_utc\": \"2026-07-13T05:30:05Z\", "
		"\"last_seen_utc\": \"2026-07-13T05:30:06Z\", "
		"\"utc_offset\": \"+05:30\", \"file\": \"f\", \"line\": 1, "
		"\"lines\": 2, \"fields\": {\"stream_id\": 2047, "
		"\"inner_code\": \"0x7020023\", \"streams\": \"2048\"}}";
	struct jval v, w;
	struct model m;
	struct strbuf err = STRBUF_INIT, sb = STRBUF_INIT;

	(void)state;
	setenv("TZ", "Asia/Shanghai", 1);
	tzset();
	model_init(&m);
	parse(wire, strlen(wire), &v);
	struct incident *inc = incident_json_read(&m, &v, "h1", &err);
	if (!inc)
		fail_msg("%s", err.buf);
	assert_string_equal(incident_field(inc, "stream_id"), "2047");
	assert_string_equal(incident_field(inc, "streams"), "2048");
	incident_json(&sb, inc, NULL, NULL);
	parse(sb.buf, sb.len, &w);
	assert_string_equal(json_get_str(&w, "utc_offset"), "+05:30");
	assert_string_equal(json_get_str(&w, "first_seen_utc"),
			    "2026-07-13T05:30:05Z");
	assert_string_equal(json_get_str(&w, "last_seen_utc"),
			    "2026-07-13T05:30:06Z");
	assert_int_equal(json_get(json_get(&w, "fields"), "streams")->type,
			 J_NUMBER);
	assert_int_equal(json_get(json_get(&w, "fields"), "inner_code")->type,
			 J_STRING);
	jval_free(&w);
	sb_reset(&sb);
	/* The same incident as this host's own: this zone's offset. */
	inc->has_offsets = 0;
	incident_json(&sb, inc, NULL, NULL);
	parse(sb.buf, sb.len, &w);
	assert_string_equal(json_get_str(&w, "utc_offset"), "+08:00");
	assert_string_equal(json_get_str(&w, "first_seen_utc"),
			    "2026-07-13T03:00:05Z");
	jval_free(&w);
	model_release_path(&m, inc->file);
	incident_free(inc);
	jval_free(&v);
	model_free(&m);
	sb_free(&sb);
	sb_free(&err);
}

int main(void)
{
	cmocka_set_message_output(CM_OUTPUT_TAP);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header),
		cmocka_unit_test(test_cursor),
		cmocka_unit_test(test_incident_lines),
		cmocka_unit_test(test_field_numbers),
		cmocka_unit_test(test_offsets_travel),
	};
	return UNIT_RUN("stream", tests);
}
