/* linesplit: bytes in pieces of any size become the same lines, whatever
 * the endings, NULs and lengths. */
#include "config.h"

#include "unit.h"

#include "linesplit.h"
#include "xalloc.h"

struct line {
	char *text;
	size_t len;
	unsigned long lineno;
};

struct lines {
	struct line *v;
	size_t n;
};

static void collect(void *ctx, const char *line, size_t len,
		    unsigned long lineno)
{
	struct lines *ls = ctx;

	ls->v = xrealloc(ls->v, (ls->n + 1) * sizeof *ls->v);
	ls->v[ls->n++] = (struct line){ xmemdup(line, len), len, lineno };
}

static void lines_free(struct lines *ls)
{
	for (size_t i = 0; i < ls->n; i++)
		free(ls->v[i].text);
	free(ls->v);
	ls->v = NULL;
	ls->n = 0;
}

/* Splits the n bytes at buf, fed in pieces of the given size (0: all at
 * once), then finishes. */
static void split(const char *buf, size_t n, size_t piece, struct lines *out,
		  unsigned long *truncated)
{
	struct linesplit ls;

	linesplit_init(&ls, collect, out);
	if (piece == 0)
		piece = n ? n : 1;
	for (size_t off = 0; off < n; off += piece)
		linesplit_feed(&ls, buf + off, n - off < piece ? n - off : piece);
	linesplit_finish(&ls);
	if (truncated)
		*truncated = ls.truncated;
	linesplit_free(&ls);
}

static void assert_line(const struct lines *ls, size_t i, const char *text,
			size_t len, unsigned long lineno)
{
	assert_true(i < ls->n);
	assert_int_equal(ls->v[i].len, len);
	assert_memory_equal(ls->v[i].text, text, len);
	assert_int_equal(ls->v[i].lineno, lineno);
}

static void assert_same_lines(const struct lines *a, const struct lines *b)
{
	assert_int_equal(a->n, b->n);
	for (size_t i = 0; i < a->n; i++)
		assert_line(b, i, a->v[i].text, a->v[i].len, a->v[i].lineno);
}

static const char sample[] =
	"[ERROR] RUNTIME(11803,rtstest_host):2026-07-09-21:52:24.482.342 "
	"[stream.cc:728]11803 Setup:Alloc sq cq failed, stream_id=2047\n"
	"\n"
	"crlf line\r\n"
	"\r\n"
	"inner\rreturn\n"
	"nul\0inside\0\n"
	"Memory async failed, src loc type=2, dst loc type=2, kind=1\n"
	"last line without newline";

static void test_every_piece_size_gives_the_same_lines(void **state)
{
	struct lines whole = { 0 };
	(void)state;

	split(sample, sizeof sample - 1, 0, &whole, NULL);
	assert_int_equal(whole.n, 8);
	for (size_t piece = 1; piece <= sizeof sample; piece++) {
		struct lines pieces = { 0 };
		split(sample, sizeof sample - 1, piece, &pieces, NULL);
		assert_same_lines(&whole, &pieces);
		lines_free(&pieces);
	}
	lines_free(&whole);
}

/* A deterministic generator, so a failure can be replayed. */
static uint32_t next_rand(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static void test_random_pieces(void **state)
{
	uint32_t seed = 12345;
	struct lines whole = { 0 };
	(void)state;

	split(sample, sizeof sample - 1, 0, &whole, NULL);
	for (int round = 0; round < 500; round++) {
		struct lines got = { 0 };
		struct linesplit ls;
		linesplit_init(&ls, collect, &got);
		size_t off = 0, n = sizeof sample - 1;
		while (off < n) {
			size_t k = next_rand(&seed) % 24;
			if (k > n - off)
				k = n - off;
			linesplit_feed(&ls, sample + off, k);	/* k may be 0 */
			off += k;
		}
		linesplit_finish(&ls);
		linesplit_free(&ls);
		assert_same_lines(&whole, &got);
		lines_free(&got);
	}
	lines_free(&whole);
}

static void test_endings_and_nul(void **state)
{
	struct lines got = { 0 };
	(void)state;

	split(sample, sizeof sample - 1, 0, &got, NULL);
	const char *first = "[ERROR] RUNTIME(11803,rtstest_host):2026-07-09-"
			    "21:52:24.482.342 [stream.cc:728]11803 Setup:Alloc "
			    "sq cq failed, stream_id=2047";
	assert_line(&got, 0, first, strlen(first), 1);
	assert_line(&got, 1, "", 0, 2);
	assert_line(&got, 2, "crlf line", 9, 3);	/* CR of CRLF dropped */
	assert_line(&got, 3, "", 0, 4);
	assert_line(&got, 4, "inner\rreturn", 12, 5);	/* a lone CR stays */
	assert_line(&got, 5, "nul\0inside\0", 11, 6);	/* NULs kept */
	assert_line(&got, 7, "last line without newline", 25, 8);
	lines_free(&got);
}

static void test_final_line_only_on_finish(void **state)
{
	struct lines got = { 0 };
	struct linesplit ls;
	(void)state;

	linesplit_init(&ls, collect, &got);
	linesplit_feed(&ls, "one\ntw", 6);
	assert_int_equal(got.n, 1);
	assert_true(linesplit_pending(&ls));
	linesplit_feed(&ls, "o", 1);
	assert_int_equal(got.n, 1);
	linesplit_finish(&ls);
	assert_int_equal(got.n, 2);
	assert_line(&got, 1, "two", 3, 2);
	assert_false(linesplit_pending(&ls));
	/* Nothing pending: finishing again gives nothing. */
	linesplit_finish(&ls);
	assert_int_equal(got.n, 2);
	/* A file ending in a newline has no extra empty line. */
	linesplit_feed(&ls, "three\n", 6);
	linesplit_finish(&ls);
	assert_int_equal(got.n, 3);
	assert_line(&got, 2, "three", 5, 3);
	linesplit_free(&ls);
	lines_free(&got);
}

static void test_reset_forgets_partial_line(void **state)
{
	struct lines got = { 0 };
	struct linesplit ls;
	(void)state;

	linesplit_init(&ls, collect, &got);
	linesplit_feed(&ls, "a\nb\nhalf a li", 13);
	linesplit_reset(&ls);		/* the file was truncated */
	assert_false(linesplit_pending(&ls));
	linesplit_feed(&ls, "new\n", 4);
	linesplit_finish(&ls);
	assert_int_equal(got.n, 3);
	assert_line(&got, 2, "new", 3, 1);	/* numbering starts again */
	linesplit_free(&ls);
	lines_free(&got);
}

/* "before", a 3 MB line, "after": the long line is cut to LINESPLIT_MAX
 * bytes and counted, the lines around it are whole and numbered right. */
static void check_long_line(size_t piece)
{
	const size_t big = 3 * 1024 * 1024;
	const char *head = "before\n", *tail = "\r\nafter\nend";
	size_t n = strlen(head) + big + strlen(tail);
	char *buf = xmalloc(n);
	struct lines got = { 0 };
	unsigned long truncated = 0;

	memcpy(buf, head, strlen(head));
	for (size_t i = 0; i < big; i++)
		buf[strlen(head) + i] = (char)('a' + i % 26);
	memcpy(buf + strlen(head) + big, tail, strlen(tail));
	split(buf, n, piece, &got, &truncated);
	assert_int_equal(got.n, 4);
	assert_line(&got, 0, "before", 6, 1);
	assert_line(&got, 1, buf + strlen(head), LINESPLIT_MAX, 2);
	assert_line(&got, 2, "after", 5, 3);
	assert_line(&got, 3, "end", 3, 4);
	assert_int_equal(truncated, 1);
	lines_free(&got);
	free(buf);
}

static void test_long_line_whole(void **state)
{
	(void)state;
	check_long_line(0);
}

static void test_long_line_in_read_sized_pieces(void **state)
{
	(void)state;
	check_long_line(256 * 1024);
	check_long_line(4093);
}

static void test_long_line_byte_by_byte(void **state)
{
	(void)state;
	check_long_line(1);
}

static void test_line_of_exactly_max_is_kept_whole(void **state)
{
	size_t n = LINESPLIT_MAX + 1;
	char *buf = xmalloc(n);
	(void)state;

	memset(buf, 'x', LINESPLIT_MAX);
	buf[LINESPLIT_MAX] = '\n';
	for (size_t piece = 0; piece <= 2; piece++) {
		struct lines got = { 0 };
		unsigned long truncated = 99;
		split(buf, n, piece ? LINESPLIT_MAX + 1 - piece : 0, &got,
		      &truncated);
		assert_int_equal(got.n, 1);
		assert_int_equal(got.v[0].len, LINESPLIT_MAX);
		assert_int_equal(truncated, 0);
		lines_free(&got);
	}
	free(buf);
}

static void test_long_last_line_without_newline(void **state)
{
	size_t n = LINESPLIT_MAX * 2;
	char *buf = xmalloc(n);
	struct lines got = { 0 };
	unsigned long truncated = 0;
	(void)state;

	memset(buf, 'y', n);
	split(buf, n, 1000, &got, &truncated);
	assert_int_equal(got.n, 1);
	assert_int_equal(got.v[0].len, LINESPLIT_MAX);
	assert_int_equal(truncated, 1);
	lines_free(&got);
	free(buf);
}

static void test_many_lines_numbered(void **state)
{
	struct strbuf in = STRBUF_INIT;
	struct lines got = { 0 };
	(void)state;

	for (int i = 1; i <= 1000; i++)
		sb_addf(&in, "%d\n", i);
	split(in.buf, in.len, 7, &got, NULL);
	assert_int_equal(got.n, 1000);
	for (size_t i = 0; i < got.n; i++) {
		char want[24];
		snprintf(want, sizeof want, "%zu", i + 1);
		assert_line(&got, i, want, strlen(want), i + 1);
	}
	lines_free(&got);
	sb_free(&in);
}

/* With want_all set, lines that cannot matter are counted but not given
 * out: while the flag is 0 only lines starting "[ERR" are.  The flag is
 * the reader's: here, as in the feeder, it is 1 right after an ERROR
 * line (the lines continuing it matter) and 0 after any other. */
struct filtered {
	struct lines lines;
	int want_all;
};

static void collect_filtered(void *ctx, const char *line, size_t len,
			     unsigned long lineno)
{
	struct filtered *f = ctx;

	collect(&f->lines, line, len, lineno);
	f->want_all = len >= 7 && memcmp(line, "[ERROR]", 7) == 0;
}

/* What the lines of text give when read one by one with that flag. */
static void expected_filtered(const char *text, size_t n, struct lines *out)
{
	int want_all = 0;
	unsigned long lineno = 0;
	const char *p = text, *end = text + n;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
		lineno++;
		if (want_all || (len >= 4 && memcmp(p, "[ERR", 4) == 0)) {
			size_t keep = len && p[len - 1] == '\r' ? len - 1 : len;
			collect(out, p, keep, lineno);
			want_all = keep >= 7 && memcmp(p, "[ERROR]", 7) == 0;
		}
		p += len + (nl != NULL);
	}
}

static void test_skipping_lines_that_cannot_matter(void **state)
{
	struct strbuf in = STRBUF_INIT;
	struct lines want = { 0 };
	(void)state;

	for (int i = 0; i < 40; i++) {
		sb_addf(&in, "[INFO] RUNTIME(42017,rtstest_host):2026-07-09-"
			"21:52:24.%03d.000 [stream.cc:120] 42017 Setup:stream "
			"%d created\n", i, i);
		if (i % 7 == 3)
			sb_addf(&in, "[ERROR] RUNTIME(42017,rtstest_host):2026-"
				"07-09-21:52:24.%03d.001 [stream.cc:728]42017 "
				"Setup:Alloc sq cq failed, stream_id=%d\r\n"
				"continued on a line without a header\n", i, i);
		if (i % 11 == 5)
			sb_adds(&in, "header-less line after INFO\n\n[EVENT] x\n"
				     "[ERR]\n[ER\n");
	}
	sb_adds(&in, "[ERROR] last, without a newline");
	expected_filtered(in.buf, in.len, &want);
	assert_true(want.n > 10);

	for (size_t piece = 0; piece <= 300; piece += piece < 80 ? 1 : 37) {
		struct filtered got = { { 0 }, 0 };
		struct linesplit ls;
		linesplit_init(&ls, collect_filtered, &got);
		ls.want_all = &got.want_all;
		size_t step = piece ? piece : in.len;
		for (size_t off = 0; off < in.len; off += step)
			linesplit_feed(&ls, in.buf + off,
				       in.len - off < step ? in.len - off : step);
		linesplit_finish(&ls);
		linesplit_free(&ls);
		assert_same_lines(&want, &got.lines);
		lines_free(&got.lines);
	}
	lines_free(&want);
	sb_free(&in);
}

int main(void)
{
	cmocka_set_message_output(CM_OUTPUT_TAP);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_piece_size_gives_the_same_lines),
		cmocka_unit_test(test_random_pieces),
		cmocka_unit_test(test_endings_and_nul),
		cmocka_unit_test(test_final_line_only_on_finish),
		cmocka_unit_test(test_reset_forgets_partial_line),
		cmocka_unit_test(test_long_line_whole),
		cmocka_unit_test(test_long_line_in_read_sized_pieces),
		cmocka_unit_test(test_long_line_byte_by_byte),
		cmocka_unit_test(test_line_of_exactly_max_is_kept_whole),
		cmocka_unit_test(test_long_last_line_without_newline),
		cmocka_unit_test(test_many_lines_numbered),
		cmocka_unit_test(test_skipping_lines_that_cannot_matter),
	};
	return UNIT_RUN("linesplit", tests);
}
