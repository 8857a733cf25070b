/* The message catalogue: its file format and errors, template rendering
 * (fields, conditionals, nesting, sanitised values), the fallback from a
 * class to its wider sections, and the completeness of messages/en.txt. */
#include "config.h"

#include "unit.h"

#include "catalog.h"
#include "xalloc.h"

static struct catalog *load(const char *text, struct strbuf *err)
{
	sb_reset(err);
	return catalog_load_text("en.txt", text, strlen(text), err);
}

static void assert_refused(const char *text, const char *want)
{
	struct strbuf err = STRBUF_INIT;
	struct catalog *cat = load(text, &err);

	if (cat)
		fail_msg("accepted:\n%s", text);
	assert_string_equal(sb_str(&err), want);
	sb_free(&err);
}

static struct incident *incident(enum code code, enum resource res,
				 enum cause cause)
{
	struct incident *inc = xcalloc(1, sizeof *inc);

	inc->code = code;
	inc->resource = res;
	inc->cause = cause;
	return inc;
}

static void set(struct incident *inc, const char *key, const char *value)
{
	incident_set_field(inc, key, value, strlen(value));
}

/* Renders key for the incident; NULL when the catalogue has no text. */
static char *render(const struct catalog *cat, const char *key,
		    const struct incident *inc)
{
	struct strbuf out = STRBUF_INIT;

	if (catalog_render(cat, key, inc, &out) != 0) {
		sb_free(&out);
		return NULL;
	}
	return sb_detach(&out);
}

static void assert_render(const struct catalog *cat, const char *key,
			  const struct incident *inc, const char *want)
{
	char *got = render(cat, key, inc);

	if (!got)
		fail_msg("no '%s' text", key);
	assert_string_equal(got, want);
	free(got);
}

static void test_parse_errors(void **state)
{
	(void)state;
	assert_refused("# messages\n\n[EE1023/*/*\ntitle: x\n",
		       "en.txt:3: expected [section]");
	assert_refused("[]\n", "en.txt:1: expected [section]");
	assert_refused("[ui]\nok: fine\n[ui] trailing\n",
		       "en.txt:3: expected [section]");
	assert_refused("title: before any section\n",
		       "en.txt:1: expected 'key: text' inside a [section]");
	assert_refused("[ui]\nheading: Processes\nno colon here\n",
		       "en.txt:3: expected 'key: text' inside a [section]");
	assert_refused("[ui]\n: no key\n",
		       "en.txt:2: expected 'key: text' inside a [section]");
	assert_refused("# header\n  indented before any key\n",
		       "en.txt:2: indented text outside a key");
	assert_refused("[ui]\na: one\n\n  stray after a blank line\n",
		       "en.txt:4: indented text outside a key");
	/* CRLF line endings do not hide the line number. */
	assert_refused("[ui]\r\na: b\r\nbad\r\n",
		       "en.txt:3: expected 'key: text' inside a [section]");
}

static const char *const CATALOG =
	"# test catalogue\n"
	"[ui]\n"
	"processes: Processes\n"
	"\n"
	"[EE1023/stream/streams_created]\n"
	"title: too many streams created\n"
	"summary: {?api:{api} failed: }{?pid:process {pid}"
	"{?name: ({name})} }{!pid:a process }could not create a stream"
	"{?stream_id: (stream_id {stream_id})}.\n"
	"\n"
	"[EE1023/stream/*]\n"
	"title: out of device streams\n"
	"summary: stream, {cause}\n"
	"fix:\n"
	"  Meaning: the device has no free stream.\n"
	"  Check:\n"
	"  - that aclrtCreateStream and aclrtDestroyStream pair up;\n"
	"\t- npu-smi info{?stream_limit: (limit {stream_limit})}.\n"
	"\n"
	"[EE1023/*/*]\n"
	"title: device resource exhausted\n"
	"summary: {code}/{resource}/{cause} reported as {reported_code}\n"
	"fix: release what you no longer use\n";

static void test_render_fields_and_conditionals(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct catalog *cat = load(CATALOG, &err);
	struct incident *inc = incident(CODE_EE1023, RES_STREAM,
					CAUSE_STREAMS_CREATED);
	(void)state;

	assert_non_null(cat);
	assert_string_equal(sb_str(&err), "");
	/* Nothing known: the {!pid:...} text and no optional parts. */
	assert_render(cat, "summary", inc,
		      "a process could not create a stream.");
	/* Every part, nested conditionals included. */
	inc->pid = 11803;
	inc->name = xstrdup("rtstest_host");
	set(inc, "api", "rtStreamCreateWithFlags");
	set(inc, "stream_id", "2047");
	assert_render(cat, "summary", inc,
		      "rtStreamCreateWithFlags failed: process 11803 "
		      "(rtstest_host) could not create a stream "
		      "(stream_id 2047).");
	/* An empty name is no name. */
	free(inc->name);
	inc->name = xstrdup("");
	set(inc, "stream_id", "");
	assert_render(cat, "summary", inc,
		      "rtStreamCreateWithFlags failed: process 11803 could "
		      "not create a stream.");
	incident_free(inc);
	catalog_free(cat);
	sb_free(&err);
}

static void test_render_missing_field_and_odd_braces(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct catalog *cat = load(
		"[EE1001/*/*]\n"
		"summary: a={absent} b={?absent:x}{!absent:y} c={unclosed\n"
		"fix: {pid}|{}\n", &err);
	struct incident *inc = incident(CODE_EE1001, RES_ARGUMENT,
					CAUSE_UNKNOWN);
	(void)state;

	assert_non_null(cat);
	assert_render(cat, "summary", inc, "a=? b=y c={unclosed");
	/* pid 0 is "not known"; an empty name is no field. */
	assert_render(cat, "fix", inc, "?|?");
	incident_free(inc);
	catalog_free(cat);
	sb_free(&err);
}

static void test_values_are_sanitised(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct catalog *cat = load(CATALOG, &err);
	struct incident *inc = incident(CODE_EE1023, RES_STREAM,
					CAUSE_STREAMS_CREATED);
	(void)state;

	inc->pid = 7;
	inc->name = xstrdup("evil\x1b[2J\x1b]0;pwned\x07");
	set(inc, "api", "rtX\nrtY\xc2\x9b" "31m");
	char *got = render(cat, "summary", inc);
	assert_non_null(got);
	assert_string_equal(got,
			    "rtX\\x0artY\\u009b31m failed: process 7 "
			    "(evil\\x1b[2J\\x1b]0;pwned\\x07) could not create "
			    "a stream.");
	for (const char *p = got; *p; p++)
		assert_true((unsigned char)*p >= 0x20 && *p != 0x7f);
	free(got);
	/* A value that looks like a template stays text. */
	set(inc, "api", "{pid}{?pid:x}");
	got = render(cat, "summary", inc);
	assert_non_null(strstr(got, "{pid}{?pid:x} failed: process 7"));
	free(got);
	incident_free(inc);
	catalog_free(cat);
	sb_free(&err);
}

static void test_fallback(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct catalog *cat = load(CATALOG, &err);
	(void)state;

	/* The exact section. */
	struct incident *inc = incident(CODE_EE1023, RES_STREAM,
					CAUSE_STREAMS_CREATED);
	assert_render(cat, "title", inc, "too many streams created");
	/* A key the exact section lacks comes from CODE/resource/(any). */
	assert_render(cat, "fix", inc,
		      "Meaning: the device has no free stream.\n"
		      "Check:\n"
		      "- that aclrtCreateStream and aclrtDestroyStream pair "
		      "up;\n"
		      "- npu-smi info.");
	set(inc, "stream_limit", "2048");
	char *fix = render(cat, "fix", inc);
	assert_non_null(strstr(fix, "- npu-smi info (limit 2048)."));
	free(fix);
	incident_free(inc);

	/* Another cause of the same resource: CODE/resource/(any). */
	inc = incident(CODE_EE1023, RES_STREAM, CAUSE_GRAPH_STREAMS);
	assert_render(cat, "title", inc, "out of device streams");
	assert_render(cat, "summary", inc, "stream, graph_streams");
	incident_free(inc);

	/* Another resource: CODE/(any)/(any). */
	inc = incident(CODE_EE1023, RES_NOTIFY, CAUSE_UNKNOWN);
	inc->reported_code = xstrdup("EL0010");
	assert_render(cat, "title", inc, "device resource exhausted");
	assert_render(cat, "summary", inc,
		      "EE1023/notify/unknown reported as EL0010");
	assert_render(cat, "fix", inc, "release what you no longer use");
	incident_free(inc);

	/* Another code: nothing at all. */
	inc = incident(CODE_EE1001, RES_MEMCPY, CAUSE_KIND_LOCATION_MISMATCH);
	char *none = render(cat, "title", inc);
	assert_null(none);
	assert_null(render(cat, "no-such-key", inc));
	incident_free(inc);
	catalog_free(cat);
	sb_free(&err);
}

static void test_ui_texts(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct catalog *cat = load(CATALOG, &err);
	(void)state;

	assert_string_equal(catalog_text(cat, "processes"), "Processes");
	assert_string_equal(catalog_text(cat, "incidents"), "incidents");
	assert_string_equal(catalog_text(NULL, "incidents"), "incidents");
	catalog_free(cat);
	sb_free(&err);
}

static void test_incomplete_catalog(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct catalog *cat = load(CATALOG, &err);
	(void)state;

	/* No EE1001 texts at all. */
	assert_int_equal(catalog_check_complete(cat, &err), -1);
	assert_non_null(strstr(sb_str(&err), "EE1001/memcpy/"));
	catalog_free(cat);

	/* A summary but no fix or title. */
	cat = load("[EE1023/*/*]\nsummary: x\n[EE1001/*/*]\nsummary: y\n"
		   "title: t\nfix: f\n", &err);
	sb_reset(&err);
	assert_int_equal(catalog_check_complete(cat, &err), -1);
	assert_non_null(strstr(sb_str(&err), "EE1023/stream/"));
	catalog_free(cat);
	sb_free(&err);
}

/* messages/en.txt loads, has every class plogtop can report, and renders
 * without a stray brace or an unknown field for a full incident. */
static void test_shipped_catalog(void **state)
{
	struct strbuf path = STRBUF_INIT, err = STRBUF_INIT;
	(void)state;

	unit_data_path(&path, "messages/en.txt");
	struct catalog *cat = catalog_load(path.buf, &err);
	if (!cat)
		fail_msg("%s", sb_str(&err));
	if (catalog_check_complete(cat, &err) != 0)
		fail_msg("%s", sb_str(&err));

	struct incident *inc = incident(CODE_EE1023, RES_STREAM,
					CAUSE_STREAMS_CREATED);
	inc->pid = 11803;
	inc->name = xstrdup("rtstest_host");
	set(inc, "api", "rtStreamCreateWithFlags");
	set(inc, "stream_id", "2047");
	set(inc, "stream_limit", "2048");
	char *summary = render(cat, "summary", inc);
	char *fix = render(cat, "fix", inc);
	assert_non_null(summary);
	assert_non_null(fix);
	assert_non_null(strstr(summary, "process 11803 (rtstest_host)"));
	assert_non_null(strstr(summary, "2047"));
	assert_non_null(strstr(fix, "2048"));
	assert_non_null(strstr(fix, "aclrtDestroyStream"));
	assert_null(strchr(summary, '{'));
	assert_null(strchr(fix, '{'));
	free(summary);
	free(fix);
	incident_free(inc);
	catalog_free(cat);
	sb_free(&path);
	sb_free(&err);
}

static void test_missing_file(void **state)
{
	struct strbuf err = STRBUF_INIT;
	(void)state;

	assert_null(catalog_load("/nonexistent/xx.txt", &err));
	assert_string_equal(sb_str(&err),
			    "/nonexistent/xx.txt: No such file or directory");
	sb_free(&err);
}

int main(void)
{
	cmocka_set_message_output(CM_OUTPUT_TAP);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_render_fields_and_conditionals),
		cmocka_unit_test(test_render_missing_field_and_odd_braces),
		cmocka_unit_test(test_values_are_sanitised),
		cmocka_unit_test(test_fallback),
		cmocka_unit_test(test_ui_texts),
		cmocka_unit_test(test_incomplete_catalog),
		cmocka_unit_test(test_shipped_catalog),
		cmocka_unit_test(test_missing_file),
	};
	return UNIT_RUN("catalog", tests);
}
