/* What the rules loader's tests share: text loaded as "my.rules", and
 * the check that a refusal names its line and says what is wrong. */
#ifndef PLOGTOP_TESTS_UNIT_RULES_TEST_H
#define PLOGTOP_TESTS_UNIT_RULES_TEST_H

#include "unit.h"

#include "rules.h"

static inline int load(struct ruleset *rs, const char *text,
		       struct strbuf *err)
{
	sb_reset(err);
	return ruleset_load_text(rs, "my.rules", text, strlen(text), err);
}

/* Loading text into rs fails with exactly "my.rules:LINE: " and a
 * message containing what, on one line. */
static inline void assert_load_refused(struct ruleset *rs, const char *text,
				       unsigned long line, const char *what)
{
	struct strbuf err = STRBUF_INIT;
	char head[64];

	if (load(rs, text, &err) != -1)
		fail_msg("accepted:\n%s", text);
	snprintf(head, sizeof head, "my.rules:%lu: ", line);
	if (strncmp(sb_str(&err), head, strlen(head)) != 0 ||
	    !strstr(sb_str(&err), what))
		fail_msg("got '%s', want '%s...%s...'", sb_str(&err), head,
			 what);
	/* One line, no trailing newline: it is printed as is. */
	assert_null(strchr(sb_str(&err), '\n'));
	sb_free(&err);
}

#endif
