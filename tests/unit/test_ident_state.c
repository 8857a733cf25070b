/* An identity whole as JSON (src/views/ident_state.c) and back into a
 * model (src/model/ident_restore.c): a round trip keeps every field the
 * ledger goes on from (trend, span, warm-up, leak), a restore given
 * twice changes nothing, hostile values are refused, and a --hello
 * stream writes an identity line only when the identity changed. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"

#include "ident_state.h"
#include "ident_test.h"
#include "stream.h"

/* A process that leaks: a device, then a rise in every span. */
static void leaker(struct model *m)
{
	device_fact(m, 42, "python3", 3);
	for (int s = 0; s < 6; s++)
		for (int i = 0; i < 20; i++)
			fact(m, 42, "python3", FACT_CREATE, RES_STREAM,
			     T0 + s * SPAN + i * SEC);
	fact(m, 42, "python3", FACT_DESTROYED, RES_STREAM, T0 + 5 * SPAN);
}

static const struct ident *hfind(const struct model *m, const char *host,
				long pid, const char *name)
{
	return model_ident_find(m, host, pid, name);
}

static void parse(const char *text, struct jval *v)
{
	struct strbuf err = STRBUF_INIT;

	if (json_parse(text, strlen(text), NULL, v, &err) < 0)
		fail_msg("%s: %s", text, err.buf);
	sb_free(&err);
}

static void test_round_trip(void **state)
{
	struct model m, m2;
	struct strbuf sb = STRBUF_INIT, why = STRBUF_INIT;
	struct jval v;

	(void)state;
	model_init(&m);
	model_init(&m2);
	leaker(&m);
	const struct ident *a = hfind(&m, NULL, 42, "python3");
	assert_non_null(a);
	assert_int_equal(ident_ledger(a, LEDGER_STREAM)->leak, LEAK_RISING);
	ident_state_write(&sb, a, 1);
	parse(sb.buf, &v);
	struct ident snap;
	const char *host;
	assert_int_equal(ident_state_read(&v, &snap, &host, &why), 0);
	assert_null(host);
	/* Twice: absolute values, the second changes nothing. */
	model_ident_restore(&m2, "h1", &snap, 1);
	model_ident_restore(&m2, "h1", &snap, 1);
	const struct ident *b = hfind(&m2, "h1", 42, "python3");
	assert_non_null(b);
	assert_null(hfind(&m2, NULL, 42, "python3"));
	for (int r = 0; r < LEDGER_COUNT; r++)
		assert_memory_equal(ident_ledger(a, (enum ledger_res)r),
				    ident_ledger(b, (enum ledger_res)r),
				    sizeof (struct ledger));
	assert_int_equal(b->device, 3);
	assert_int_equal(b->ndevices, 1);
	assert_int_equal(b->dev_seen, 1);
	assert_int_equal(b->first, a->first);
	assert_int_equal(b->last, a->last);
	/* Restored locally (a restart), it goes on counting: complete. */
	unsigned long long had = ident_ledger(a, LEDGER_STREAM)->created;
	model_ident_restore(&m2, NULL, &snap, 0);
	fact(&m2, 42, "python3", FACT_CREATE, RES_STREAM, T0 + 6 * SPAN);
	const struct ident *c = hfind(&m2, NULL, 42, "python3");
	assert_non_null(c);
	assert_int_equal(ident_ledger(c, LEDGER_STREAM)->created, had + 1);
	assert_true(ident_ledger(c, LEDGER_STREAM)->complete);
	assert_int_equal(ident_ledger(c, LEDGER_STREAM)->leak, LEAK_RISING);
	ident_state_clear(&snap);
	jval_free(&v);
	sb_free(&sb);
	sb_free(&why);
	model_free(&m);
	model_free(&m2);
}

/* Each hostile change of a good identity is refused. */
static void test_hostile(void **state)
{
	static const char *const bad[][2] = {
		{ "\"pid\": 42", "\"pid\": -1" },
		{ "\"nspans\": ", "\"nspans\": 9, \"x\": " },
		{ "\"leak\": \"rising\"", "\"leak\": \"yes\"" },
		{ "\"from\": \"calls\"", "\"from\": \"guess\"" },
		{ "\"devices\": [3]", "\"devices\": [3, 4]" },
		{ "\"device\": 3", "\"device\": 70000" },
		{ "\"trend\": [", "\"trend\": [1, " },
		{ "\"dev_seen\": true", "\"dev_seen\": 1" },
		{ "\"ledger\": {", "\"ledger\": {\"memcpy\": {}, " },
		{ "\"host\": null", "\"host\": \"\"" },
		{ "\"npu_from\": null", "\"npu_from\": \"guess\"" },
	};
	struct model m;
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	model_init(&m);
	leaker(&m);
	ident_state_write(&sb, hfind(&m, NULL, 42, "python3"), 1);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		const char *at = strstr(sb.buf, bad[i][0]);
		assert_non_null(at);
		struct strbuf t = STRBUF_INIT, why = STRBUF_INIT;
		sb_add(&t, sb.buf, (size_t)(at - sb.buf));
		sb_adds(&t, bad[i][1]);
		sb_adds(&t, at + strlen(bad[i][0]));
		struct jval v;
		struct strbuf err = STRBUF_INIT;
		if (json_parse(t.buf, t.len, NULL, &v, &err) == 0) {
			struct ident snap;
			const char *host;
			if (ident_state_read(&v, &snap, &host, &why) == 0)
				fail_msg("taken: %s", t.buf);
			jval_free(&v);
		}
		sb_free(&err);
		sb_free(&t);
		sb_free(&why);
	}
	sb_free(&sb);
	model_free(&m);
}

static size_t lines_of(const char *s)
{
	size_t n = 0;

	for (; s && *s; s++)
		n += *s == '\n';
	return n;
}

static void test_stream_lines(void **state)
{
	struct model m;
	struct stream_sent sent = { 0 };
	char *buf = NULL;
	size_t len = 0;

	(void)state;
	model_init(&m);
	leaker(&m);
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(stream_identities(f, &m, &sent), 0);
	fflush(f);
	assert_int_equal(lines_of(buf), 1);
	/* Nothing changed: nothing sent. */
	assert_int_equal(stream_identities(f, &m, &sent), 0);
	fflush(f);
	assert_int_equal(lines_of(buf), 1);
	fact(&m, 42, "python3", FACT_DESTROYED, RES_STREAM, T0 + 5 * SPAN);
	device_fact(&m, 43, "python3", 1);
	assert_int_equal(stream_identities(f, &m, &sent), 0);
	fclose(f);
	assert_int_equal(lines_of(buf), 3);
	struct jval v;
	const struct jval *o;
	char *last = strrchr(buf, '\n');
	*last = '\0';
	parse(strrchr(buf, '\n') + 1, &v);
	assert_int_equal(stream_identity_read(&v, &o), 1);
	assert_non_null(o);
	assert_true(json_get(o, "host")->type == J_NULL);
	jval_free(&v);
	free(buf);
	stream_sent_free(&sent);
	model_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_stream_lines),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return unit_run_tap("ident_state", tests,
			    sizeof tests / sizeof tests[0]);
}
