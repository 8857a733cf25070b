/* The prefilter is sound: whenever PCRE2 matches a line, the prefilter
 * lists the rule as a candidate for it.  The input is a pattern and a
 * line, separated by the first NUL byte (no NUL: the pattern is matched
 * against itself).  Patterns compile as rules.c compiles them. */
#define PCRE2_CODE_UNIT_WIDTH 8

#include "config.h"

#include <pcre2.h>
#include <string.h>

#include "fuzz.h"
#include "prefilter.h"
#include "rules_int.h"
#include "xalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *nul = memchr(data, '\0', size);
	size_t plen = nul ? (size_t)(nul - (const char *)data) : size;
	char *pattern = xstrndup((const char *)data, plen);
	const char *line = nul ? nul + 1 : pattern;
	size_t llen = nul ? size - plen - 1 : plen;
	int errcode;
	PCRE2_SIZE erroff;

	pcre2_code *re = rule_compile(pattern, &errcode, &erroff);
	if (re) {
		pcre2_match_data *md =
			pcre2_match_data_create_from_pattern(re, NULL);
		pcre2_match_context *mc = rule_match_context();
		int rc = pcre2_match(re, (PCRE2_SPTR)line, llen, 0, 0, md, mc);
		if (rc >= 0) {
			struct prefilter *pf = prefilter_new(1);
			unsigned char cand = 0;
			prefilter_add(pf, 0, pattern);
			prefilter_scan(pf, line, llen, &cand);
			if (!cand)
				fprintf(stderr, "pattern /%s/ matches but the "
					"prefilter skips it\n", pattern);
			FUZZ_ASSERT(cand);
			prefilter_free(pf);
		}
		pcre2_match_context_free(mc);
		pcre2_match_data_free(md);
		pcre2_code_free(re);
	}
	free(pattern);
	return 0;
}
