/* The --follow stream, written and read back as a pair (stream.c): its
 * header, its cursor lines and its incident lines, text and ndjson. */
#include "config.h"

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
			    "\"schema_version\": 3, \"tool_version\": \"9.9\", "
			    "\"host\": \"node-1\", \"resume\": true}\n");
	parse(buf, len, &v);
	assert_int_equal(stream_header_read(&v, &resumes, &why), 0);
	assert_int_equal(resumes, 1);
	jval_free(&v);
	free(buf);

	const char *old = "{\"schema\": \"plogtop.stream\", "
			  "\"schema_version\": 4}";
	parse(old, strlen(old), &v);
	assert_int_equal(stream_header_read(&v, &resumes, &why), -1);
	assert_string_equal(why.buf, "plogtop there writes stream version 4, "
			    "this one reads 3: install the same version there");
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
	struct stream_opts text = { 0, 1, NULL, "here" };
	struct stream_opts ndjson = { 1, 0, NULL, "here" };

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
	assert_string_equal(json_get_str(&v, "host"), "here");
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

int main(void)
{
	cmocka_set_message_output(CM_OUTPUT_TAP);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header),
		cmocka_unit_test(test_cursor),
		cmocka_unit_test(test_incident_lines),
	};
	return UNIT_RUN("stream", tests);
}
