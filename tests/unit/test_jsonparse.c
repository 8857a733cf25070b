/* The strict JSON parser for what remote plogtops send: valid documents
 * read exactly, every malformed, huge or nested one refused with where. */
#include "config.h"

#include "unit.h"

#include "jsonparse.h"

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

int main(void)
{
	cmocka_set_message_output(CM_OUTPUT_TAP);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_nested),
		cmocka_unit_test(test_limits),
	};
	return UNIT_RUN("jsonparse", tests);
}
