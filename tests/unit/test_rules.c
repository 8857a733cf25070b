/* The rules loader: a broken rules file is refused with "FILE:LINE: what
 * is wrong" and leaves the set as it was; a good one loads, replaces
 * rules of the same name, and its rules match with named captures. */
#include "config.h"

#include "unit.h"

#include "rules_test.h"
#include "xalloc.h"

/* One rule that loads: an ERROR plog line is its sample. */
#define GOOD_RULE(name)							\
	"[rule " name "]\n"						\
	"code = EE1023\n"						\
	"match = Alloc Stream resource failed\n"			\
	"sample = [ERROR] RUNTIME(11803,rtstest_host):2026-07-09-"	\
	"21:52:24.482.347 [stream.cc:731]11803 Setup:Alloc Stream "	\
	"resource failed. ErrorCode=EE1023.\n"

static const char *const ERR_LINE =
	"[ERROR] RUNTIME(11803,rtstest_host):2026-07-09-21:52:24.482.342 "
	"[stream.cc:728]11803 Setup:Alloc sq cq failed, stream_id=2047, "
	"retCode=0x7020023.";

/* Loading text into a set that holds one good rule fails with exactly
 * "my.rules:LINE: " and a message containing what; the set keeps its one
 * rule. */
static void assert_refused(const char *text, unsigned long line,
			   const char *what)
{
	struct ruleset *rs = ruleset_new();
	struct strbuf err = STRBUF_INIT;

	assert_int_equal(load(rs, GOOD_RULE("base"), &err), 0);
	assert_int_equal(ruleset_count(rs), 1);
	assert_load_refused(rs, text, line, what);
	assert_int_equal(ruleset_count(rs), 1);
	sb_free(&err);
	ruleset_free(rs);
}

static void test_bad_pattern(void **state)
{
	(void)state;
	assert_refused("# a comment\n"
		       "[rule broken]\n"
		       "code = EE1023\n"
		       "match = Alloc (Stream resource failed\n"
		       "sample = Alloc Stream resource failed\n",
		       4, "at offset");
	assert_refused("[rule broken]\n"
		       "match = (?<stream_id\\d+)\n"
		       "sample = stream_id=1\n",
		       2, "bad pattern in rule 'broken'");
	assert_refused("[rule broken]\n"
		       "match = x{2,1}\n"
		       "sample = xx\n",
		       2, "quantifier at offset 5");
}

static void test_unknown_key(void **state)
{
	(void)state;
	assert_refused(GOOD_RULE("a") "colour = red\n", 5,
		       "unknown key 'colour'");
	assert_refused("[rule a]\n\n\nmtach = x\n", 4, "unknown key 'mtach'");
	assert_refused(GOOD_RULE("a") "sample2 = x\n", 5,
		       "expected 'key = value'");
	assert_refused(GOOD_RULE("a") "just some words\n", 5,
		       "expected 'key = value'");
	assert_refused(GOOD_RULE("a") "weight =\n", 5, "has no value");
}

static void test_unknown_class_names(void **state)
{
	(void)state;
	assert_refused("[rule a]\ncode = EE1024\nmatch = x\nsample = x\n", 2,
		       "unknown code 'EE1024'");
	assert_refused("[rule a]\nmatch = x\nresource = streams\nsample = x\n",
		       3, "unknown resource 'streams'");
	assert_refused("[rule a]\nmatch = x\nsample = x\ncause = leak\n", 4,
		       "unknown cause 'leak'");
	assert_refused("[rule a]\nmatch = x\nsample = x\nrole = boss\n", 4,
		       "unknown role 'boss'");
	assert_refused("[rule a]\nmatch = x\nsample = x\nlevels = ERROR FATAL\n",
		       4, "level 'FATAL'");
	/* A class that contradicts itself: the line of the class key. */
	assert_refused("[rule a]\nmatch = x\ncode = EE1001\n"
		       "resource = stream\nsample = x\n", 4,
		       "resource stream belongs to EE1023");
}

static void test_rule_without_sample(void **state)
{
	(void)state;
	/* Reported at the rule's match line, also when the next rule has
	 * already begun. */
	assert_refused("[rule lonely]\n"
		       "code = EE1023\n"
		       "match = Alloc Stream resource failed\n"
		       "reject = nothing to see\n"
		       "\n" GOOD_RULE("next"),
		       3, "rule 'lonely' has no sample line");
	assert_refused(GOOD_RULE("first") "[rule lonely]\nmatch = x\n", 6,
		       "rule 'lonely' has no sample line");
	assert_refused("[rule nomatch]\ncode = EE1023\nsample = x\n", 1,
		       "rule 'nomatch' has no match");
}

static void test_sample_that_does_not_match(void **state)
{
	(void)state;
	assert_refused("[rule a]\n"
		       "match = Alloc Notify resource failed\n"
		       "sample = Alloc Notify resource failed\n"
		       "sample = [ERROR] RUNTIME(1,x):2026-07-09-21:52:24.482.342 "
		       "[a.cc:1]1 F:Alloc Event resource failed\n",
		       4, "rule 'a' does not match its sample");
	/* The rule sees the message, not the header: "^" is after it. */
	assert_refused("[rule a]\n"
		       "match = ^\\[ERROR\\]\n"
		       "sample = [ERROR] RUNTIME(1,x):2026-07-09-21:52:24.482.342 "
		       "[a.cc:1]1 F:x\n",
		       3, "does not match its sample");
	/* Matching text at a level the rule does not apply to. */
	assert_refused("[rule a]\n"
		       "levels = SCREEN\n"
		       "match = Alloc Stream resource failed\n"
		       "sample = Resource_Error(EE1023): Alloc Stream resource "
		       "failed.\n"
		       "sample = [ERROR] RUNTIME(1,x):2026-07-09-21:52:24.482.342 "
		       "[a.cc:1]1 F:Alloc Stream resource failed\n",
		       5, "does not apply to the level of its sample (ERROR)");
}

static void test_reject_that_matches(void **state)
{
	(void)state;
	assert_refused("[rule code]\n"
		       "code = EE1023\n"
		       "match = EE1023\n"
		       "sample = ErrorCode=EE1023.\n"
		       "reject = [ERROR] RUNTIME(1,x):2026-07-09-21:52:24.482.342 "
		       "[a.cc:1]1 F:fine\n"
		       "reject = code EE10230 is something else\n",
		       6, "rule 'code' matches a line it must reject");
}

static void test_key_outside_section(void **state)
{
	(void)state;
	assert_refused("# rules\n\ncode = EE1023\n" GOOD_RULE("a"), 3,
		       "'code = EE1023' outside a [rule NAME] section");
	assert_refused("[rules a]\nmatch = x\nsample = x\n", 1,
		       "expected [rule NAME]");
	assert_refused(GOOD_RULE("a") "[rule b\nmatch = x\nsample = x\n", 5,
		       "expected [rule NAME]");
	assert_refused("[rule has space]\nmatch = x\nsample = x\n", 1,
		       "bad rule name 'has space'");
}

static void test_duplicate_rule_name(void **state)
{
	(void)state;
	/* Right after the first one, and with another rule between. */
	assert_refused(GOOD_RULE("twice") "\n" GOOD_RULE("twice"), 6,
		       "rule 'twice' is defined twice in this file");
	assert_refused(GOOD_RULE("twice") GOOD_RULE("other")
		       GOOD_RULE("twice"), 9,
		       "rule 'twice' is defined twice in this file");
}

static void test_weight_out_of_range(void **state)
{
	(void)state;
	assert_refused(GOOD_RULE("a") "weight = 0\n", 5,
		       "weight must be a number from 1 to 100");
	assert_refused(GOOD_RULE("a") "weight = 101\n", 5, "from 1 to 100");
	assert_refused(GOOD_RULE("a") "weight = -5\n", 5, "from 1 to 100");
	assert_refused(GOOD_RULE("a") "weight = 5x\n", 5, "from 1 to 100");
	assert_refused(GOOD_RULE("a") "weight = heavy\n", 5, "from 1 to 100");
}

static void test_nul_bytes(void **state)
{
	struct ruleset *rs = ruleset_new();
	struct strbuf err = STRBUF_INIT;
	static const char first[] = "[rule a]\0\nmatch = x\nsample = x\n";
	static const char later[] = GOOD_RULE("a") "sample = a\0b\n";
	(void)state;

	assert_int_equal(ruleset_load_text(rs, "my.rules", first,
					   sizeof first - 1, &err), -1);
	assert_string_equal(sb_str(&err),
			    "my.rules:1: not a rules file (it holds NUL bytes)");
	/* Wherever the NUL is, the file is refused as a whole (and the
	 * message names the file's first line). */
	sb_reset(&err);
	assert_int_equal(ruleset_load_text(rs, "my.rules", later,
					   sizeof later - 1, &err), -1);
	assert_non_null(strstr(sb_str(&err), "NUL bytes"));
	assert_int_equal(strncmp(sb_str(&err), "my.rules:", 9), 0);
	assert_int_equal(ruleset_count(rs), 0);
	sb_free(&err);
	ruleset_free(rs);
}

static void test_no_rules(void **state)
{
	(void)state;
	assert_refused("# only comments\n\n# here\n", 3, "no rules in file");
	assert_refused("", 1, "no rules in file");
}

static void test_good_file_loads(void **state)
{
	struct ruleset *rs = ruleset_new();
	struct strbuf err = STRBUF_INIT;
	(void)state;

	assert_int_equal(load(rs,
			      "# comment\n"
			      "  # indented comment\n"
			      GOOD_RULE("one")
			      "\n"
			      "[rule two]\r\n"		/* CRLF is fine */
			      "resource = notify\r\n"
			      "cause = notifies_created\r\n"
			      "weight = 90\r\n"
			      "levels = ERROR, SCREEN\r\n"
			      "match = (?i)too many notify objects\r\n"
			      "sample = Too many Notify objects are created.\r\n"
			      "reject = too many streams\r\n"
			      "\t[rule  three ]  \n"
			      "role = veto\n"
			      "match = \\b0x0*7020010\\b\n"
			      "sample = retCode=0x7020010.",	/* no final newline */
			      &err), 0);
	assert_string_equal(sb_str(&err), "");
	assert_int_equal(ruleset_count(rs), 3);
	sb_free(&err);
	ruleset_free(rs);
}

struct hits {
	int n;
	struct rule_info info[8];
	char caps[512];		/* "name=value;" */
};

static void on_rule(void *ctx, const struct rule_info *info)
{
	struct hits *h = ctx;

	if (h->n < 8)
		h->info[h->n] = *info;
	h->n++;
}

static void on_capture(void *ctx, const char *name, const char *value,
		       size_t len)
{
	struct hits *h = ctx;
	size_t used = strlen(h->caps);

	snprintf(h->caps + used, sizeof h->caps - used, "%s=%.*s;", name,
		 (int)len, value);
}

static const char *const MATCH_RULES =
	"[rule sq]\n"
	"resource = stream\n"
	"weight = 60\n"
	"match = Alloc sq cq failed, stream_id=(?<stream_id>\\d+)"
	"(?:, model_id=(?<model_id>\\d+))?, retCode=(?<inner_code>0x[0-9a-f]+)\n"
	"sample = Alloc sq cq failed, stream_id=2047, retCode=0x7020023.\n"
	"\n"
	"[rule code]\n"
	"code = EE1023\n"
	"weight = 80\n"
	"levels = ERROR\n"
	"match = (?<![A-Za-z0-9])(?<reported>EE1023)(?![0-9])\n"
	"sample = [ERROR] RUNTIME(1,x):2026-07-09-21:52:24.482.342 "
	"[a.cc:1]1 F:EE1023\n"
	"\n"
	"[rule boundary]\n"
	"role = boundary\n"
	"levels = ERROR\n"
	"match = ^(?<api>rt[A-Za-z]+):ErrCode=\n"
	"sample = [ERROR] RUNTIME(1,x):2026-07-09-21:52:24.482.342 "
	"[a.cc:1]1 rtStreamCreate:ErrCode=207005\n";

static void test_match_and_named_captures(void **state)
{
	struct ruleset *rs = ruleset_new();
	struct strbuf err = STRBUF_INIT;
	struct hits h = { 0 };
	size_t off;
	enum plog_level level;
	(void)state;

	assert_int_equal(load(rs, MATCH_RULES, &err), 0);
	line_message(ERR_LINE, strlen(ERR_LINE), &off, &level);
	assert_int_equal(level, LEVEL_ERROR);
	assert_string_equal(ERR_LINE + off,
			    "Setup:Alloc sq cq failed, stream_id=2047, "
			    "retCode=0x7020023.");

	int n = ruleset_match(rs, ROLE_NONE, level, ERR_LINE + off,
			      strlen(ERR_LINE) - off, on_rule, on_capture, &h);
	assert_int_equal(n, 1);
	assert_int_equal(h.n, 1);
	assert_string_equal(h.info[0].name, "sq");
	assert_int_equal(h.info[0].role, ROLE_NONE);
	assert_int_equal(h.info[0].code, CODE_NONE);
	assert_int_equal(h.info[0].resource, RES_STREAM);
	assert_int_equal(h.info[0].cause, CAUSE_NONE);
	assert_int_equal(h.info[0].weight, 60);
	/* The optional group that did not take part is not reported. */
	assert_string_equal(h.caps, "inner_code=0x7020023;stream_id=2047;");

	/* Without callbacks it only counts. */
	assert_int_equal(ruleset_match(rs, ROLE_NONE, LEVEL_ERROR,
				       "ErrorCode=EE1023.", 17, NULL, NULL,
				       NULL), 1);
	/* A rule applies only at its levels (default: ERROR and SCREEN). */
	assert_int_equal(ruleset_match(rs, ROLE_NONE, LEVEL_INFO,
				       "ErrorCode=EE1023.", 17, NULL, NULL,
				       NULL), 0);
	assert_int_equal(ruleset_match(rs, ROLE_NONE, LEVEL_SCREEN,
				       "Alloc sq cq failed, stream_id=1, "
				       "retCode=0x1", 44, NULL, NULL, NULL), 1);
	assert_int_equal(ruleset_match(rs, ROLE_NONE, LEVEL_SCREEN,
				       "EE1023", 6, NULL, NULL, NULL), 0);
	/* Only rules of the role asked for. */
	memset(&h, 0, sizeof h);
	assert_int_equal(ruleset_match(rs, ROLE_BOUNDARY, LEVEL_ERROR,
				       "rtStreamCreate:ErrCode=207005", 29,
				       on_rule, on_capture, &h), 1);
	assert_int_equal(h.info[0].role, ROLE_BOUNDARY);
	assert_string_equal(h.caps, "api=rtStreamCreate;");
	assert_int_equal(ruleset_match(rs, ROLE_NONE, LEVEL_ERROR,
				       "rtStreamCreate:ErrCode=207005", 29,
				       NULL, NULL, NULL), 0);
	/* The text's length counts, not a terminator. */
	assert_int_equal(ruleset_match(rs, ROLE_NONE, LEVEL_ERROR,
				       "ErrorCode=EE1023.", 13, NULL, NULL,
				       NULL), 0);
	/* Invalid UTF-8 in a log line neither fails nor stops a match. */
	assert_int_equal(ruleset_match(rs, ROLE_NONE, LEVEL_ERROR,
				       "\xff\xfe EE1023 \xc0", 11, NULL, NULL,
				       NULL), 1);
	sb_free(&err);
	ruleset_free(rs);
}

static void test_later_rule_replaces_earlier(void **state)
{
	struct ruleset *rs = ruleset_new();
	struct strbuf err = STRBUF_INIT;
	struct hits h = { 0 };
	(void)state;

	assert_int_equal(load(rs, MATCH_RULES, &err), 0);
	assert_int_equal(ruleset_count(rs), 3);
	/* A user's file redefines "code" to catch only the hex form. */
	assert_int_equal(load(rs,
			      "[rule code]\n"
			      "code = EE1023\n"
			      "weight = 85\n"
			      "match = (?<reported>EE1023)\\.$\n"
			      "sample = ErrorCode=EE1023.\n"
			      "[rule extra]\n"
			      "resource = event\n"
			      "match = no event resource\n"
			      "sample = desc=[driver error:no event resource]\n",
			      &err), 0);
	assert_int_equal(ruleset_count(rs), 4);
	assert_int_equal(ruleset_match(rs, ROLE_NONE, LEVEL_ERROR,
				       "code EE1023 seen", 16, NULL, NULL,
				       NULL), 0);
	assert_int_equal(ruleset_match(rs, ROLE_NONE, LEVEL_ERROR,
				       "ErrorCode=EE1023.", 17, on_rule,
				       on_capture, &h), 1);
	assert_string_equal(h.info[0].name, "code");
	assert_int_equal(h.info[0].weight, 85);
	/* The new rule's own levels (the default, with SCREEN) apply, not
	 * the old one's (ERROR only). */
	assert_int_equal(ruleset_match(rs, ROLE_NONE, LEVEL_SCREEN,
				       "ErrorCode=EE1023.", 17, NULL, NULL,
				       NULL), 1);
	sb_free(&err);
	ruleset_free(rs);
}

static void test_prefix_process(void **state)
{
	struct ruleset *rs = ruleset_new();
	struct strbuf err = STRBUF_INIT;
	struct hits h = { 0 };
	const char *line = "(Worker pid=1) (Worker_DP0_TP5 pid=2) ERROR x";
	(void)state;

	assert_int_equal(load(rs,
			      "[rule tag]\n"
			      "role = prefix\n"
			      "match = \\((?<name>\\w+) pid=(?<pid>\\d+)\\)\n"
			      "sample = (W pid=7) x\n",
			      &err), 0);
	/* Looked for anywhere; the last match (the inner tag) wins. */
	ruleset_prefix_process(rs, line, strlen(line), on_capture, &h);
	assert_string_equal(h.caps, "name=Worker_DP0_TP5;pid=2;");
	/* Prefix rules are not matched as evidence. */
	assert_int_equal(ruleset_match(rs, ROLE_NONE, LEVEL_SCREEN, line,
				       strlen(line), NULL, NULL, NULL), 0);
	sb_free(&err);
	ruleset_free(rs);
}

static void test_find_earliest(void **state)
{
	struct ruleset *rs = ruleset_new();
	struct strbuf err = STRBUF_INIT;
	const char *line = "[rank0]: EL0009: [PID: 7] Insufficient(EL0009): x";
	size_t at = 99;
	(void)state;

	assert_int_equal(load(rs,
			      "[rule named]\n"
			      "role = heading\n"
			      "match = \\w+\\(EL\\d{4}\\):\n"
			      "sample = Insufficient(EL0009): x\n"
			      "[rule bare]\n"
			      "role = heading\n"
			      "match = EL\\d{4}:\\s\n"
			      "sample = EL0009: x\n",
			      &err), 0);
	assert_int_equal(ruleset_find(rs, ROLE_HEADING, LEVEL_SCREEN, line,
				      strlen(line), &at), 1);
	assert_int_equal(at, 9);
	assert_int_equal(ruleset_find(rs, ROLE_HEADING, LEVEL_SCREEN, "x", 1,
				      &at), 0);
	sb_free(&err);
	ruleset_free(rs);
}

static void test_names(void **state)
{
	(void)state;
	assert_int_equal(code_from_name("EE1023"), CODE_EE1023);
	assert_int_equal(code_from_name("EE1001"), CODE_EE1001);
	assert_int_equal(code_from_name("EE9999"), CODE_NONE);
	assert_int_equal(code_from_name(""), CODE_NONE);
	for (enum resource r = RES_STREAM; r < RES_COUNT; r++)
		assert_int_equal(resource_from_name(resource_name(r)), r);
	for (enum cause c = CAUSE_GRAPH_STREAMS; c < CAUSE_COUNT; c++)
		assert_int_equal(cause_from_name(cause_name(c)), c);
	assert_string_equal(resource_name(RES_ASYNC_COPY), "async_copy");
	assert_string_equal(cause_name(CAUSE_GRAPH_CONCURRENCY),
			    "graph_concurrency");
	assert_string_equal(role_name(ROLE_VETO), "veto");
}

/* The rules plogtop ships load, with all their samples checked, and say
 * what the seed lines mean. */
static void test_shipped_rules_load(void **state)
{
	struct ruleset *rs = ruleset_new();
	struct strbuf path = STRBUF_INIT, err = STRBUF_INIT;
	struct hits h = { 0 };
	size_t off;
	enum plog_level level;
	(void)state;

	unit_data_path(&path, "rules/plogtop.rules");
	if (ruleset_load(rs, path.buf, &err) != 0)
		fail_msg("%s", sb_str(&err));
	assert_true(ruleset_count(rs) >= 20);

	const char *reason =
		"[ERROR] RUNTIME(11803,rtstest_host):2026-07-09-21:52:24.482.347 "
		"[stream.cc:731]11803 Setup:Alloc Stream resource failed. "
		"Reason: Too many streams are created. ErrorCode=EE1023.";
	line_message(reason, strlen(reason), &off, &level);
	ruleset_match(rs, ROLE_NONE, level, reason + off, strlen(reason) - off,
		      on_rule, on_capture, &h);
	int saw_code = 0, saw_cause = 0;
	for (int i = 0; i < h.n && i < 8; i++) {
		saw_code |= h.info[i].code == CODE_EE1023;
		saw_cause |= h.info[i].cause == CAUSE_STREAMS_CREATED &&
			     h.info[i].resource == RES_STREAM;
	}
	assert_true(saw_code);
	assert_true(saw_cause);
	assert_non_null(strstr(h.caps, "reported=EE1023;"));

	/* A look-alike: the code inside a longer number is no evidence. */
	memset(&h, 0, sizeof h);
	ruleset_match(rs, ROLE_NONE, LEVEL_ERROR, "code EE10230 here", 17,
		      on_rule, NULL, &h);
	for (int i = 0; i < h.n && i < 8; i++)
		assert_int_equal(h.info[i].code, CODE_NONE);

	/* Loading them twice replaces every rule: the count stays. */
	size_t n = ruleset_count(rs);
	assert_int_equal(ruleset_load(rs, path.buf, &err), 0);
	assert_int_equal(ruleset_count(rs), n);
	sb_free(&path);
	sb_free(&err);
	ruleset_free(rs);
}

static void test_missing_file(void **state)
{
	struct ruleset *rs = ruleset_new();
	struct strbuf err = STRBUF_INIT;
	(void)state;

	assert_int_equal(ruleset_load(rs, "/nonexistent/x.rules", &err), -1);
	assert_string_equal(sb_str(&err),
			    "/nonexistent/x.rules: No such file or directory");
	sb_free(&err);
	ruleset_free(rs);
}

int main(void)
{
	cmocka_set_message_output(CM_OUTPUT_TAP);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_pattern),
		cmocka_unit_test(test_unknown_key),
		cmocka_unit_test(test_unknown_class_names),
		cmocka_unit_test(test_rule_without_sample),
		cmocka_unit_test(test_sample_that_does_not_match),
		cmocka_unit_test(test_reject_that_matches),
		cmocka_unit_test(test_key_outside_section),
		cmocka_unit_test(test_duplicate_rule_name),
		cmocka_unit_test(test_weight_out_of_range),
		cmocka_unit_test(test_nul_bytes),
		cmocka_unit_test(test_no_rules),
		cmocka_unit_test(test_good_file_loads),
		cmocka_unit_test(test_match_and_named_captures),
		cmocka_unit_test(test_later_rule_replaces_earlier),
		cmocka_unit_test(test_prefix_process),
		cmocka_unit_test(test_find_earliest),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_shipped_rules_load),
		cmocka_unit_test(test_missing_file),
	};
	return UNIT_RUN("rules", tests);
}
