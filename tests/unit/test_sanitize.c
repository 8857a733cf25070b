/* sanitize(): whatever a log holds, what reaches a terminal or a report is
 * printable UTF-8 with every control, escape and broken byte spelt out;
 * text_width()/text_fit(): columns on a terminal, CJK counting two. */
#include "config.h"

#include "unit.h"

#include "sanitize.h"
#include "textfit.h"

/* Sanitises n bytes and checks the result is exactly want. */
static void check(const char *in, size_t n, const char *want)
{
	struct strbuf out = STRBUF_INIT;

	sanitize(&out, in, n);
	assert_string_equal(sb_str(&out), want);
	assert_int_equal(out.len, strlen(want));
	sb_free(&out);
}

#define CHECK(lit, want) check((lit), sizeof(lit) - 1, (want))

static void test_printable_ascii_unchanged(void **state)
{
	(void)state;
	CHECK("[ERROR] RUNTIME(11803,rtstest_host):2026-07-09-21:52:24.482.342 "
	      "[stream.cc:728]11803 Setup:Alloc sq cq failed, stream_id=2047",
	      "[ERROR] RUNTIME(11803,rtstest_host):2026-07-09-21:52:24.482.342 "
	      "[stream.cc:728]11803 Setup:Alloc sq cq failed, stream_id=2047");
	CHECK(" !~{}", " !~{}");
}

/* A literal backslash is doubled: the text \x1b in a name must not look
 * like an escaped ESC. */
static void test_backslash_escaped(void **state)
{
	(void)state;
	CHECK("\\", "\\\\");
	CHECK("name\\x1b[2J", "name\\\\x1b[2J");
	CHECK("a\\\x1b", "a\\\\\\x1b");
	CHECK("C:\\logs\\plog", "C:\\\\logs\\\\plog");
}

/* Invisible and bidirectional formatting characters are spelt out. */
static void test_invisible_characters(void **state)
{
	(void)state;
	CHECK("a\xd8\x9c" "b", "a\\u061cb");		/* ARABIC LETTER MARK */
	CHECK("a\xe2\x80\x8b" "b", "a\\u200bb");	/* ZERO WIDTH SPACE */
	CHECK("a\xe2\x80\x8c\xe2\x80\x8d", "a\\u200c\\u200d");
	CHECK("\xe2\x81\xa0\xe2\x81\xa4", "\\u2060\\u2064");
	CHECK("\xef\xbb\xbfx", "\\ufeffx");
	CHECK("\xe1\xa0\x8e", "\\u180e");
	CHECK("soft\xc2\xad" "hyphen", "soft\\u00adhyphen");
	CHECK("\xf3\xa0\x80\x81", "\\ue0001");		/* LANGUAGE TAG */
	/* Visible neighbours pass. */
	CHECK("\xe2\x80\x90", "\xe2\x80\x90");		/* HYPHEN */
	CHECK("\xd8\xa8", "\xd8\xa8");			/* ARABIC BEH */
}

/* For a terminal whose charset is not UTF-8: no byte >= 0x80 at all. */
static void test_escape_8bit(void **state)
{
	struct strbuf clean = STRBUF_INIT, out = STRBUF_INIT;
	(void)state;

	static const char in[] = "csi\x9b" "2J \xe9t\xc3\xa9 \\x9b";
	sanitize(&clean, in, sizeof in - 1);
	escape_8bit(&out, clean.buf, clean.len);
	assert_string_equal(sb_str(&out),
			    "csi\\x9b2J \\xe9t\\xc3\\xa9 \\\\x9b");
	for (size_t i = 0; i < out.len; i++)
		assert_true((unsigned char)out.buf[i] < 0x80);
	sb_free(&clean);
	sb_free(&out);
}

static void test_empty_input(void **state)
{
	struct strbuf out = STRBUF_INIT;
	(void)state;

	/* Into a buffer that holds something: nothing is added. */
	sb_adds(&out, "x");
	sanitize(&out, "", 0);
	assert_string_equal(sb_str(&out), "x");
	sb_free(&out);

	/* Regression: into a fresh buffer, sb_grow() allocated without the
	 * terminator strbuf.h promises, so sb_str() read garbage. */
	struct strbuf fresh = STRBUF_INIT;
	sanitize(&fresh, "", 0);
	assert_string_equal(sb_str(&fresh), "");
	sb_free(&fresh);
}

static void test_utf8_chinese_unchanged(void **state)
{
	(void)state;
	CHECK("EE1023资源不足问题", "EE1023资源不足问题");
	/* 4-byte characters (an emoji, a CJK extension B ideograph) too. */
	CHECK("\xf0\x9f\x98\x80 \xf0\xa0\x80\x80", "\xf0\x9f\x98\x80 \xf0\xa0\x80\x80");
}

static void test_escape_sequences(void **state)
{
	(void)state;
	CHECK("\x1b[31mred\x1b[0m", "\\x1b[31mred\\x1b[0m");
	CHECK("\x1b]0;title\x07rest", "\\x1b]0;title\\x07rest");
	/* Clear screen and cursor home: harmless once spelt out. */
	CHECK("\x1b[2J\x1b[H", "\\x1b[2J\\x1b[H");
}

static void test_c0_controls_del_tab_nul(void **state)
{
	(void)state;
	CHECK("a\tb", "a\\tb");
	CHECK("a\nb\rc", "a\\x0ab\\x0dc");
	CHECK("\x01\x08\x1f", "\\x01\\x08\\x1f");
	CHECK("x\x7fy", "x\\x7fy");
	/* NUL is a byte like any other: it does not end the input. */
	CHECK("a\0b", "a\\x00b");
	CHECK("\0", "\\x00");
}

static void test_c1_and_bidi_become_u_escapes(void **state)
{
	(void)state;
	CHECK("a\xc2\x85z", "a\\u0085z");		/* NEL */
	CHECK("\xc2\x9b" "31m", "\\u009b31m");		/* CSI */
	CHECK("\xc2\x80\xc2\x9f", "\\u0080\\u009f");
	CHECK("abc\xe2\x80\xaetxt.exe", "abc\\u202etxt.exe");	/* RLO */
	CHECK("\xe2\x80\xa8\xe2\x80\xa9", "\\u2028\\u2029");
	CHECK("\xe2\x81\xa6x\xe2\x81\xa9", "\\u2066x\\u2069");
	/* Just outside C1: U+00A0 and U+00E9 are ordinary characters. */
	CHECK("\xc2\xa0\xc3\xa9", "\xc2\xa0\xc3\xa9");
}

static void test_invalid_utf8_bytes(void **state)
{
	(void)state;
	CHECK("a\x80z", "a\\x80z");			/* lone continuation */
	CHECK("\xff", "\\xff");
	CHECK("\xfe\xff", "\\xfe\\xff");
	CHECK("\xe4\xb8", "\\xe4\\xb8");		/* truncated at the end */
	CHECK("\xe4\xb8" "A", "\\xe4\\xb8" "A");	/* cut by ASCII */
	CHECK("\xf0\x9f\x98", "\\xf0\\x9f\\x98");
	CHECK("\xc0\xaf", "\\xc0\\xaf");		/* overlong '/' */
	CHECK("\xe0\x80\xaf", "\\xe0\\x80\\xaf");	/* overlong, 3 bytes */
	CHECK("\xed\xa0\x80", "\\xed\\xa0\\x80");	/* surrogate D800 */
	CHECK("\xed\xbf\xbf", "\\xed\\xbf\\xbf");	/* surrogate DFFF */
	CHECK("\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80"); /* U+110000 */
	/* A broken sequence does not swallow the valid character after it. */
	CHECK("\xe4\xb8中", "\\xe4\\xb8中");
	/* The highest valid code point passes. */
	CHECK("\xf4\x8f\xbf\xbf", "\xf4\x8f\xbf\xbf");
}

/* A small deterministic generator, so a failure can be replayed. */
static uint32_t next_rand(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/* For random bytes, biased towards the interesting ones: no control byte
 * and no raw C1 character comes out, and the output is a fixed point
 * (sanitising it again changes nothing: it is printable UTF-8). */
static void test_output_never_holds_controls(void **state)
{
	static const unsigned char pick[] = {
		0x00, 0x07, 0x09, 0x0a, 0x0d, 0x1b, 0x7f, 0x80, 0x85, 0x9b,
		0xbf, 0xc0, 0xc2, 0xe2, 0x80, 0xae, 0xed, 0xa0, 0xf0, 0xf4,
		0x90, 0xff, '[', 'A', '\\'
	};
	uint32_t seed = 0x9e3779b9u;
	(void)state;

	for (int round = 0; round < 2000; round++) {
		unsigned char in[64];
		size_t n = next_rand(&seed) % sizeof in;
		for (size_t i = 0; i < n; i++) {
			uint32_t r = next_rand(&seed);
			in[i] = (r & 1) ? pick[(r >> 1) % sizeof pick]
					: (unsigned char)(r >> 8);
		}
		struct strbuf out = STRBUF_INIT, again = STRBUF_INIT;
		sanitize(&out, (const char *)in, n);
		for (size_t i = 0; i < out.len; i++) {
			unsigned char c = (unsigned char)out.buf[i];
			assert_true(c >= 0x20 && c != 0x7f);
			/* U+0080..U+009F encode as C2 80..C2 9F. */
			if (c == 0xc2 && i + 1 < out.len)
				assert_false((unsigned char)out.buf[i + 1] < 0xa0);
		}
		/* Sanitised text is clean: a second pass only doubles its
		 * backslashes (escapes stay readable as what they were). */
		struct strbuf doubled = STRBUF_INIT;
		for (size_t i = 0; i < out.len; i++) {
			if (out.buf[i] == '\\')
				sb_addc(&doubled, '\\');
			sb_addc(&doubled, out.buf[i]);
		}
		sanitize(&again, out.buf ? out.buf : "", out.len);
		assert_int_equal(again.len, doubled.len);
		assert_memory_equal(sb_str(&again), sb_str(&doubled),
				    doubled.len);
		sb_free(&doubled);
		sb_free(&out);
		sb_free(&again);
	}
}

static void test_appends_to_existing_buffer(void **state)
{
	struct strbuf out = STRBUF_INIT;
	(void)state;

	sb_adds(&out, "name: ");
	sanitize(&out, "py\x1bthon", 7);
	assert_string_equal(sb_str(&out), "name: py\\x1bthon");
	sb_free(&out);
}

static void test_text_width(void **state)
{
	(void)state;
	assert_int_equal(text_width(""), 0);
	assert_int_equal(text_width("plogtop"), 7);
	assert_int_equal(text_width("中文"), 4);
	assert_int_equal(text_width("a中b"), 4);
	assert_int_equal(text_width("资源不足 EE1023"), 8 + 1 + 6);
	/* A combining acute accent takes no column. */
	assert_int_equal(text_width("e\xcc\x81"), 1);
	/* Fullwidth forms and Hangul are wide too. */
	assert_int_equal(text_width("\xef\xbc\xa1"), 2);	/* U+FF21 */
	assert_int_equal(text_width("\xea\xb0\x80"), 2);	/* U+AC00 */
}

static void test_text_fit(void **state)
{
	(void)state;
	assert_int_equal(text_fit("abcdef", 3), 3);
	assert_int_equal(text_fit("abc", 10), 3);
	assert_int_equal(text_fit("abc", 0), 0);
	/* Never half a wide character: 5 columns hold two of them. */
	assert_int_equal(text_fit("中文字", 5), 6);
	assert_int_equal(text_fit("中文字", 6), 9);
	assert_int_equal(text_fit("中", 1), 0);
	assert_int_equal(text_fit("a中", 2), 1);
	/* A combining mark stays with its base character. */
	assert_int_equal(text_fit("e\xcc\x81x", 1), 3);
	/* The prefix it gives fits. */
	const char *s = "进程 227839 (rtstest_host)";
	size_t n = text_fit(s, 9);
	char *cut = strndup(s, n);
	assert_true(text_width(cut) <= 9);
	assert_int_equal(text_width(cut), 9);
	free(cut);
}

/* clean_for: sanitised, then ASCII for a target whose charset is not
 * UTF-8; text sanitised already (CLEAN_DONE) keeps its escapes. */
static void check_for(const char *in, enum clean_target to, const char *want)
{
	struct strbuf out = STRBUF_INIT;

	sb_adds(&out, ">");
	clean_for(&out, in, strlen(in), to);
	assert_string_equal(sb_str(&out), want);
	sb_free(&out);
}

static void test_clean_for(void **state)
{
	(void)state;
	const char raw[] = "a\\\x1b\t\xe8\xbf\x9b";	/* a\ ESC TAB 进 */
	check_for(raw, CLEAN_UTF8, ">a\\\\\\x1b\\t\xe8\xbf\x9b");
	check_for(raw, CLEAN_ASCII, ">a\\\\\\x1b\\t\\xe8\\xbf\\x9b");
	/* The unit tests run in the C locale: not UTF-8. */
	check_for(raw, CLEAN_LOCALE, ">a\\\\\\x1b\\t\\xe8\\xbf\\x9b");
	/* Sanitised already: only the charset. */
	check_for("a\\\\b \xe8\xbf\x9b", CLEAN_UTF8 | CLEAN_DONE,
		  ">a\\\\b \xe8\xbf\x9b");
	check_for("a\\\\b \xe8\xbf\x9b", CLEAN_ASCII | CLEAN_DONE,
		  ">a\\\\b \\xe8\\xbf\\x9b");
	check_for("", CLEAN_ASCII, ">");
}

/* Host names in a narrow column: whole, without a port, the first
 * label of a domain name, else cut in the middle. */
static void assert_host(const char *name, size_t width, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	host_fit(&sb, name, width, "~");
	assert_string_equal(sb_str(&sb), want);
	sb_free(&sb);
}

static void test_host_fit(void **state)
{
	(void)state;
	assert_host("node07", 8, "node07");
	assert_host("10.0.12.41:9466", 12, "10.0.12.41");
	assert_host("node01.example.com", 12, "node01");
	assert_host("node01.example.com:9466", 8, "node01");
	/* An IPv4 address is no domain name: the hosts of a job share
	 * its start, so its end is kept. */
	assert_host("192.168.100.41", 8, "~100.41");
	assert_host("192.168.100.41", 6, "~00.41");
	assert_host("10.0.0.5", 6, "~0.0.5");
	assert_host("10.0.0.5", 8, "10.0.0.5");
	assert_host("node-0041", 6, "n~0041");
	assert_host("node-0041", 9, "node-0041");
}

int main(void)
{
	cmocka_set_message_output(CM_OUTPUT_TAP);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_printable_ascii_unchanged),
		cmocka_unit_test(test_empty_input),
		cmocka_unit_test(test_backslash_escaped),
		cmocka_unit_test(test_invisible_characters),
		cmocka_unit_test(test_escape_8bit),
		cmocka_unit_test(test_utf8_chinese_unchanged),
		cmocka_unit_test(test_escape_sequences),
		cmocka_unit_test(test_c0_controls_del_tab_nul),
		cmocka_unit_test(test_c1_and_bidi_become_u_escapes),
		cmocka_unit_test(test_invalid_utf8_bytes),
		cmocka_unit_test(test_output_never_holds_controls),
		cmocka_unit_test(test_appends_to_existing_buffer),
		cmocka_unit_test(test_text_width),
		cmocka_unit_test(test_text_fit),
		cmocka_unit_test(test_host_fit),
		cmocka_unit_test(test_clean_for),
	};
	return UNIT_RUN("sanitize", tests);
}
