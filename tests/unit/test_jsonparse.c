/* The strict JSON parser for what remote plogtops send: valid documents
 * read exactly, every malformed, huge or nested one refused with where. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "unit.h"

#include "json_reader.h"
#include "jsonparse.h"
#include "xalloc.h"

static int parses(const char *text)
{
	struct jval v;
	struct strbuf err = STRBUF_INIT;
	int rc = json_parse(text, strlen(text), NULL, &v, &err);

	if (rc == 0)
		jval_free(&v);
	else
		assert_non_null(strstr(sb_str(&err), "offset "));
	sb_free(&err);
	return rc == 0;
}

static void test_valid(void **state)
{
	struct jval v;
	struct strbuf err = STRBUF_INIT;
	const char *t = " {\"a\": [1, -2, 3.5e1, true, false, null], "
			"\"s\": \"x\\u00e9\\ud83d\\ude00\\n\\\"\", \"o\": {}} ";

	(void)state;
	assert_int_equal(json_parse(t, strlen(t), NULL, &v, &err), 0);
	const struct jval *a = json_get(&v, "a");
	assert_non_null(a);
	assert_int_equal(a->type, J_ARRAY);
	assert_int_equal(a->n, 6);
	assert_true(a->items[0].is_int && a->items[0].integer == 1);
	assert_true(a->items[1].is_int && a->items[1].integer == -2);
	assert_false(a->items[2].is_int);
	assert_true(a->items[2].number > 34.9 && a->items[2].number < 35.1);
	assert_int_equal(a->items[3].type, J_BOOL);
	assert_int_equal(a->items[5].type, J_NULL);
	assert_string_equal(json_get_str(&v, "s"),
			    "x\xc3\xa9\xf0\x9f\x98\x80\n\"");
	assert_null(json_get_str(&v, "o"));
	assert_null(json_get(&v, "missing"));
	jval_free(&v);
	sb_free(&err);
	assert_true(parses("0"));
	assert_true(parses("\"\""));
	assert_true(parses("[]"));
	assert_true(parses("9223372036854775807"));
}

static void test_malformed(void **state)
{
	static const char *const bad[] = {
		"", " ", "{", "[1,]", "{\"a\":1,}", "{'a':1}", "{a:1}",
		"01", "-", "1.", ".5", "1e", "+1", "NaN", "Infinity", "tru",
		"nul", "[1 2]", "{\"a\" 1}", "\"abc", "\"a\\x\"", "\"\\u12\"",
		"\"\\ud800\"", "\"\\udc00\"", "\"\\ud800\\u0041\"",
		"\"\\u0000\"", "\"tab\there\"", "\"\xff\"", "\"\xc0\xaf\"",
		"\"\xed\xa0\x80\"", "\"\xf4\x90\x80\x80\"", "{} {}", "[] x",
		"{\"a\":1,\"a\":2}", "\x00",
	};

	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		if (parses(bad[i]))
			fail_msg("accepted: %s", bad[i]);
	}
	/* A NUL inside the bytes ends nothing: it is not JSON. */
	struct jval v;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(json_parse("[1]\0", 4, NULL, &v, &err), -1);
	sb_free(&err);
}

static void test_nested(void **state)
{
	struct strbuf deep = STRBUF_INIT;

	(void)state;
	for (int i = 0; i < JSON_MAX_DEPTH; i++)
		sb_addc(&deep, '[');
	for (int i = 0; i < JSON_MAX_DEPTH; i++)
		sb_addc(&deep, ']');
	assert_true(parses(deep.buf));
	sb_reset(&deep);
	/* Far deeper than the stack would take if it recursed blindly. */
	for (int i = 0; i < 1000000; i++)
		sb_addc(&deep, '[');
	assert_false(parses(deep.buf));
	sb_free(&deep);
}

static void test_limits(void **state)
{
	struct json_limits lim = { 16, 10 };
	struct strbuf big = STRBUF_INIT, err = STRBUF_INIT;
	struct jval v;

	(void)state;
	assert_int_equal(json_parse("\"0123456789abcdef\"", 18, &lim, &v,
				    &err), 0);
	jval_free(&v);
	assert_int_equal(json_parse("\"0123456789abcdefg\"", 19, &lim, &v,
				    &err), -1);
	assert_non_null(strstr(err.buf, "size limit"));
	sb_reset(&err);
	assert_int_equal(json_parse("[1,2,3,4,5,6,7,8,9]", 19, &lim, &v,
				    &err), 0);
	jval_free(&v);
	assert_int_equal(json_parse("[1,2,3,4,5,6,7,8,9,10]", 22, &lim, &v,
				    &err), -1);
	/* An object with more keys than any plogtop writes. */
	sb_reset(&err);
	sb_addc(&big, '{');
	for (int i = 0; i <= JSON_MAX_MEMBERS; i++)
		sb_addf(&big, "%s\"k%d\": 1", i ? ", " : "", i);
	sb_addc(&big, '}');
	assert_int_equal(json_parse(big.buf, big.len, NULL, &v, &err), -1);
	/* A long number is a number, not an integer. */
	assert_int_equal(json_parse("123456789012345678901234567890", 30,
				    NULL, &v, &err), 0);
	assert_false(v.is_int);
	jval_free(&v);
	sb_free(&big);
	sb_free(&err);
}

/* ---- json_reader: a document read as it arrives ---- */

struct seen_items {
	struct strbuf log;
};

static int note(void *ctx, const char *key, int in_array,
		const struct jval *v, struct strbuf *err)
{
	struct seen_items *si = ctx;

	(void)err;
	sb_addf(&si->log, "%s%s:", key, in_array ? "[]" : "");
	if (!v)
		sb_adds(&si->log, "begin");
	else if (v->type == J_NUMBER)
		sb_addf(&si->log, "%.0f", v->number);
	else if (v->type == J_STRING)
		sb_addf(&si->log, "'%s'", v->str);
	else
		sb_addf(&si->log, "t%d/%zu", (int)v->type, v->n);
	sb_adds(&si->log, " ");
	return 0;
}

/* Reads text fed step bytes at a time; returns what was handed over,
 * or "refused: why". */
static char *read_doc(const char *text, size_t step, size_t item_max)
{
	static const struct json_limits lim = { 1024, 1000 };
	struct json_reader r;
	struct seen_items si = { STRBUF_INIT };
	size_t len = strlen(text);
	int rc = 0;

	json_reader_init(&r, &lim, item_max, note, &si);
	for (size_t i = 0; i < len && rc == 0; i += step)
		rc = json_reader_feed(&r, text + i,
				      len - i < step ? len - i : step);
	if (rc == 0)
		rc = json_reader_end(&r);
	if (rc < 0) {
		sb_reset(&si.log);
		sb_addf(&si.log, "refused: %s", sb_str(&r.err));
	}
	json_reader_free(&r);
	return si.log.buf ? sb_detach(&si.log) : xstrdup("");
}

static void test_reader(void **state)
{
	const char *doc = " {\"a\": 1, \"s\": \"x,]}\\\"\", \"l\": [1, {\"k\": "
			  "[2]}, \"y\", -3e2, true], \"e\": [], \"o\": {\"p\": "
			  "[]}, \"n\": null}\n";
	const char *want = "a:1 s:'x,]}\"' l[]:begin l[]:1 l[]:t5/1 "
			   "l[]:'y' l[]:-300 l[]:t1/0 e[]:begin o:t5/1 n:t0/0 ";

	(void)state;
	for (size_t step = 1; step <= strlen(doc); step++) {
		char *got = read_doc(doc, step, 100);
		if (strcmp(got, want) != 0)
			fail_msg("step %zu: %s", step, got);
		free(got);
	}
	static const char *const bad[] = {
		"", "[1]", "{", "{\"a\" 1}", "{\"a\": 1,}", "{\"a\": [1,]}",
		"{\"a\": [1 2]}", "{\"a\": tru}", "{\"a\": 1} x", "{\"a\": 1, "
		"\"a\": 2}", "{\"a\": 01}", "{a: 1}", "{\"a\": [1}",
		"{\"a\": \"1234567890123456789012345678901234567890123456789"
		"012345678901234567890123456789012345678901234567890\"}",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char *got = read_doc(bad[i], 1, 100);
		if (strncmp(got, "refused: offset ", 16) != 0)
			fail_msg("%s: %s", bad[i], got);
		free(got);
	}
}

int main(void)
{
	cmocka_set_message_output(CM_OUTPUT_TAP);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_nested),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_reader),
	};
	return UNIT_RUN("jsonparse", tests);
}
