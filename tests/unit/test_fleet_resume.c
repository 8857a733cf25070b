/* What a fleet reconnect keeps (fleet_resume.c): the identities of a
 * host's incidents, each found again however its line orders its members
 * and told apart by any of its five fields; the last cursor, given back
 * exactly as the host sent it. */
#include "config.h"

#include "unit.h"

#include "fleet_int.h"
#include "jsonparse.h"

static void parse(const char *text, struct jval *v)
{
	struct strbuf err = STRBUF_INIT;

	assert_int_equal(json_parse(text, strlen(text), NULL, v, &err), 0);
	sb_free(&err);
}

static uint64_t id_of(const char *text)
{
	struct jval v;

	parse(text, &v);
	uint64_t id = fleet_incident_id(&v);
	jval_free(&v);
	return id;
}

static void test_identity(void **state)
{
	(void)state;
	uint64_t a = id_of("{\"file\": \"/l/p.log\", \"line\": 7, \"pid\": 1, "
			   "\"tid\": 2, \"first_seen\": \"2026-03-01T00:00:00\", "
			   "\"code\": \"EE1023\"}");
	/* Other members and their order do not count. */
	assert_true(a == id_of("{\"tid\": 2, \"code\": \"EE1001\", \"pid\": 1, "
			       "\"first_seen\": \"2026-03-01T00:00:00\", "
			       "\"line\": 7, \"file\": \"/l/p.log\"}"));
	/* Each of the five does. */
	assert_true(a != id_of("{\"file\": \"/l/q.log\", \"line\": 7, \"pid\": 1, "
			       "\"tid\": 2, \"first_seen\": \"2026-03-01T00:00:00\"}"));
	assert_true(a != id_of("{\"file\": \"/l/p.log\", \"line\": 8, \"pid\": 1, "
			       "\"tid\": 2, \"first_seen\": \"2026-03-01T00:00:00\"}"));
	assert_true(a != id_of("{\"file\": \"/l/p.log\", \"line\": 7, \"pid\": 3, "
			       "\"tid\": 2, \"first_seen\": \"2026-03-01T00:00:00\"}"));
	assert_true(a != id_of("{\"file\": \"/l/p.log\", \"line\": 7, \"pid\": 1, "
			       "\"tid\": null, \"first_seen\": \"2026-03-01T00:00:00\"}"));
	assert_true(a != id_of("{\"file\": \"/l/p.log\", \"line\": 7, \"pid\": 1, "
			       "\"tid\": 2, \"first_seen\": \"2026-03-01T00:00:01\"}"));
	/* A string is not the number it spells. */
	assert_true(id_of("{\"line\": 7}") != id_of("{\"line\": \"7\"}"));
}

static void test_seen(void **state)
{
	struct fleet_seen s = { 0 };

	(void)state;
	assert_false(fleet_seen_has(&s, 42));
	for (uint64_t i = 1; i <= 100000; i++)
		assert_int_equal(fleet_seen_add(&s, i * 0x9e3779b97f4a7c15ull), 0);
	assert_int_equal(s.n, 100000);
	/* At most 3/4 full. */
	assert_true(s.n * 4 <= s.cap * 3);
	for (uint64_t i = 1; i <= 100000; i++)
		assert_true(fleet_seen_has(&s, i * 0x9e3779b97f4a7c15ull));
	assert_false(fleet_seen_has(&s, 7));
	assert_int_equal(fleet_seen_add(&s, 0x9e3779b97f4a7c15ull), 1);
	fleet_seen_clear(&s);
	assert_false(fleet_seen_has(&s, 0x9e3779b97f4a7c15ull));
	assert_int_equal(s.n, 0);
}

static void test_cursor(void **state)
{
	struct fleet fl;
	struct fleet_host fh;
	struct jval v, back;
	const char *line = "{\"type\": \"cursor\", \"cursor\": {\"v\": 1, "
			   "\"files\": [{\"id\": \"a\\\"b\\\\c\\u0001\\u00e9\", "
			   "\"offset\": 9007199254740993, \"x\": null, "
			   "\"ok\": true, \"f\": 0.5}]}}";

	(void)state;
	memset(&fl, 0, sizeof fl);
	memset(&fh, 0, sizeof fh);
	parse(line, &v);
	assert_true(fleet_is_cursor(&v));
	/* A host that did not say it resumes keeps no cursor. */
	fleet_take_cursor(&fl, &fh, &v);
	assert_int_equal(fh.cursor.len, 0);
	fh.resume = 1;
	assert_int_equal(fleet_seen_add(&fh.seen, 5), 0);
	fleet_take_cursor(&fl, &fh, &v);
	assert_string_equal(sb_str(&fh.cursor),
			    "{\"v\":1,\"files\":[{\"id\":\"a\\\"b\\\\c\\u0001\xc3\xa9\","
			    "\"offset\":9007199254740993,\"x\":null,\"ok\":true,"
			    "\"f\":0.5}]}");
	/* What the cursor covers is forgotten. */
	assert_false(fleet_seen_has(&fh.seen, 5));
	/* It reads back as the same object. */
	parse(sb_str(&fh.cursor), &back);
	const struct jval *files = json_get(&back, "files");
	assert_non_null(files);
	assert_string_equal(json_get_str(&files->items[0], "id"),
			    "a\"b\\c\x01\xc3\xa9");
	jval_free(&back);
	jval_free(&v);
	/* Not an object: ignored, the last one stays. */
	parse("{\"type\": \"cursor\", \"cursor\": 3}", &v);
	fleet_take_cursor(&fl, &fh, &v);
	assert_true(fh.cursor.len > 10);
	jval_free(&v);
	/* A cursor that left files out: every identity kept from then on. */
	assert_int_equal(fleet_seen_add(&fh.seen, 6), 0);
	parse("{\"type\": \"cursor\", \"partial\": true, "
	      "\"cursor\": {\"v\": 2}}", &v);
	fleet_take_cursor(&fl, &fh, &v);
	jval_free(&v);
	assert_string_equal(sb_str(&fh.cursor), "{\"v\":2}");
	assert_true(fleet_seen_has(&fh.seen, 6));
	parse("{\"type\": \"cursor\", \"cursor\": {\"v\": 3}}", &v);
	fleet_take_cursor(&fl, &fh, &v);
	jval_free(&v);
	assert_true(fleet_seen_has(&fh.seen, 6));
	fleet_resume_free(&fh);
}

int main(void)
{
	cmocka_set_message_output(CM_OUTPUT_TAP);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_identity),
		cmocka_unit_test(test_seen),
		cmocka_unit_test(test_cursor),
	};
	return UNIT_RUN("fleet_resume", tests);
}
