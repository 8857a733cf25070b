/* msglog, the sink: what reaches stderr and what a dashboard keeps, each
 * message sanitised once. */
#include "config.h"

#include "unit.h"

#include "msglog.h"

/* Runs say(l) with stderr into a file; returns what it wrote (freed by
 * the caller). */
static char *captured(void (*say)(struct msglog *), struct msglog *l)
{
	FILE *f = tmpfile();
	int saved = dup(2);

	assert_non_null(f);
	fflush(stderr);
	assert_true(dup2(fileno(f), 2) >= 0);
	say(l);
	fflush(stderr);
	assert_true(dup2(saved, 2) >= 0);
	close(saved);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	long n = ftell(f);
	assert_true(n >= 0);
	char *buf = calloc(1, (size_t)n + 1);
	rewind(f);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	return buf;
}

static void say_raw(struct msglog *l)
{
	msglog_add(l, "/logs/\x1b[2Jx\\y: gone");
}

static void say_about(struct msglog *l)
{
	msglog_about(l, "node\t1", "down: \x07");
}

static void say_clean(struct msglog *l)
{
	msglog_add_clean(l, "TERM=\\x1b is not known");
}

static void say_usage(struct msglog *l)
{
	(void)l;
	msglog_usage("plogtop: bad '--x'\nTry 'plogtop --help'.\n");
}

/* No log (--once, a usage error): stderr at once, "plogtop: ",
 * sanitised once. */
static void test_no_log_goes_to_stderr(void **state)
{
	(void)state;
	char *s = captured(say_raw, NULL);
	assert_string_equal(s, "plogtop: /logs/\\x1b[2Jx\\\\y: gone\n");
	free(s);
	s = captured(say_about, NULL);
	assert_string_equal(s, "plogtop: node\\t1: down: \\x07\n");
	free(s);
	s = captured(say_clean, NULL);
	assert_string_equal(s, "plogtop: TERM=\\x1b is not known\n");
	free(s);
	s = captured(say_usage, NULL);
	assert_string_equal(s, "plogtop: bad '--x'\nTry 'plogtop --help'.\n");
	free(s);
}

static void say_twice_and_error(struct msglog *l)
{
	msglog_add(l, "a");
	msglog_add(l, "a");
	msglog_error(l, "poll: broken");
}

static void detach(struct msglog *l)
{
	msglog_attach(l, 0);
}

/* With a dashboard: kept, nothing on stderr; a repeat is a count; an
 * error is said on stderr once the dashboard has gone. */
static void test_dashboard_keeps(void **state)
{
	struct msglog l;

	(void)state;
	msglog_init(&l);
	msglog_attach(&l, 1);
	char *s = captured(say_twice_and_error, &l);
	assert_string_equal(s, "");
	free(s);
	assert_int_equal(l.n, 2);
	assert_int_equal(l.total, 3);
	assert_string_equal(msglog_get(&l, 0)->text, "a");
	assert_int_equal(msglog_get(&l, 0)->repeats, 1);
	assert_string_equal(msglog_get(&l, 1)->text, "poll: broken");
	assert_null(msglog_get(&l, 2));
	s = captured(detach, &l);
	assert_string_equal(s, "plogtop: poll: broken\n");
	free(s);
	s = captured(detach, &l);	/* said once */
	assert_string_equal(s, "");
	free(s);
	msglog_free(&l);
}

/* The dashboard's note: sanitised, cut to fit, not kept in the log. */
static void test_note(void **state)
{
	struct msglog l;
	char long_text[600];

	(void)state;
	msglog_init(&l);
	msglog_attach(&l, 1);
	assert_string_equal(msglog_note_text(&l), "");
	msglog_note(&l, "theme: \x1b[31mred");
	assert_string_equal(msglog_note_text(&l), "theme: \\x1b[31mred");
	assert_int_equal(l.n, 0);
	memset(long_text, 'x', sizeof long_text - 1);
	long_text[sizeof long_text - 1] = '\0';
	msglog_note(&l, long_text);
	assert_int_equal(strlen(msglog_note_text(&l)), MSGLOG_NOTE - 1);
	msglog_note_clear(&l);
	assert_string_equal(msglog_note_text(&l), "");
	msglog_free(&l);
}

int main(void)
{
	cmocka_set_message_output(CM_OUTPUT_TAP);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_log_goes_to_stderr),
		cmocka_unit_test(test_dashboard_keeps),
		cmocka_unit_test(test_note),
	};
	return UNIT_RUN("msglog", tests);
}
