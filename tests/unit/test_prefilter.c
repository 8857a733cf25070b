/* The literal tests against a plain search: anylit_scan (the fact
 * rules' quick test, by pairs of first bytes or literal by literal) and
 * prefilter_scan (the ERROR rules'), on random texts with the literals
 * planted at every place, the first and last bytes included. */
#include "config.h"

#include "unit.h"

#include "prefilter.h"

/* Literals anylit_add keeps whole: a capital first, no common byte at
 * either end. */
static const char *const lits[] = {
	"SetDevice, deviceId", "CreateStream", "DestroyStream success",
	"CreateNotify, flag is", "TraverseStatistics: The ResourceType",
};
/* Eight more pairs than ANYLIT_FIRST allows: the literal-by-literal way. */
static const char *const many[] = {
	"Abcd", "Bcde", "Cdef", "Defg", "Efgh", "Fghi", "Ghij", "Hijk",
	"Ijkl", "Jklm",
};

static unsigned long next_rand(unsigned long *s)
{
	*s = *s * 6364136223846793005ul + 1442695040888963407ul;
	return *s >> 33;
}

static int plain(const char *const *v, size_t nv, const char *t, size_t n)
{
	for (size_t i = 0; i < nv; i++)
		if (memmem(t, n, v[i], strlen(v[i])))
			return 1;
	return 0;
}

/* Random text of bytes the literals are made of (near misses are
 * common), sometimes with one literal, or its start, planted. */
static size_t random_text(char *t, size_t cap, const char *const *v,
			  size_t nv, unsigned long *seed)
{
	static const char alpha[] = "SCDTAeratmcnis ,:=Rfyxg";
	size_t n = next_rand(seed) % cap;

	for (size_t i = 0; i < n; i++)
		t[i] = alpha[next_rand(seed) % (sizeof alpha - 1)];
	if (n && next_rand(seed) % 2) {
		const char *l = v[next_rand(seed) % nv];
		size_t len = strlen(l);
		if (next_rand(seed) % 3 == 0)
			len -= 1 + next_rand(seed) % (len - 1);
		if (len <= n) {
			size_t at = next_rand(seed) % 3 == 0 ? n - len :
				    next_rand(seed) % (n - len + 1);
			memcpy(t + at, l, len);
		}
	}
	return n;
}

static void check_anylit(const char *const *v, size_t nv)
{
	struct anylit *a = anylit_new();
	char buf[300];
	unsigned long seed = 7;

	for (size_t i = 0; i < nv; i++)
		anylit_add(a, v[i]);
	assert_int_equal(anylit_count(a), nv);
	for (int round = 0; round < 200000; round++) {
		size_t n = random_text(buf, sizeof buf, v, nv, &seed);
		/* A copy that ends where the text does: no byte after it. */
		char *t = malloc(n ? n : 1);
		memcpy(t, buf, n);
		if (anylit_scan(a, t, n) != plain(v, nv, t, n)) {
			fprintf(stderr, "text: %.*s\n", (int)n, t);
			fail();
		}
		free(t);
	}
	anylit_free(a);
}

static void test_anylit_pairs(void **state)
{
	(void)state;
	check_anylit(lits, sizeof lits / sizeof lits[0]);
}

static void test_anylit_many(void **state)
{
	(void)state;
	check_anylit(many, sizeof many / sizeof many[0]);
}

/* prefilter_scan lists a rule exactly when prefilter_lists_pattern (a
 * search of each literal, case folded) does: with a literal of four
 * bytes (every place looked at) and without (every other place), over
 * texts of several chunks. */
static void check_prefilter(const char *short_pattern)
{
	const char *pats[] = {
		"Alloc Stream resource failed", "(?i)too many streams",
		"retCode=0x7020023", "rtStreamCreate|rtsCreateStream",
		"stream_id=(?<stream_id>\\d+)", "x*", short_pattern,
	};
	const size_t np = sizeof pats / sizeof pats[0];
	static const char *const plant[] = {
		"Alloc Stream resource failed", "TOO MANY STREAMS",
		"retCode=0x7020023", "rtsCreateStream", "stream_id=",
		"rtStreamCreate", "Rfyx", "Rfyxg",
	};
	struct prefilter *pf = prefilter_new(np);
	unsigned char cand[8];
	unsigned long seed = 11;
	char buf[3000];

	for (size_t i = 0; i < np; i++)
		prefilter_add(pf, i, pats[i]);
	for (int round = 0; round < 20000; round++) {
		size_t n = random_text(buf, sizeof buf, plant,
				       sizeof plant / sizeof plant[0], &seed);
		char *t = malloc(n ? n : 1);
		memcpy(t, buf, n);
		prefilter_scan(pf, t, n, cand);
		for (size_t i = 0; i < np; i++)
			assert_int_equal(cand[i],
					 prefilter_lists_pattern(pats[i], t, n));
		free(t);
	}
	prefilter_free(pf);
}

static void test_prefilter_scan(void **state)
{
	(void)state;
	check_prefilter("Rfyx");
	check_prefilter("Rfyxg");
}

int main(void)
{
	cmocka_set_message_output(CM_OUTPUT_TAP);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_anylit_pairs),
		cmocka_unit_test(test_anylit_many),
		cmocka_unit_test(test_prefilter_scan),
	};
	return UNIT_RUN("prefilter", tests);
}
