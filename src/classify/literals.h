/* Required literals of a PCRE2 pattern: a set of strings one of which
 * appears in every text the pattern matches.  They let a line skip the
 * rules it cannot match without running them.  The analysis is
 * conservative: when in doubt it finds nothing, and the rule always runs. */
#ifndef PLOGTOP_LITERALS_H
#define PLOGTOP_LITERALS_H

#include <stddef.h>

#define LITERAL_MIN 4	/* shorter literals filter too little */

struct litset {
	char **v;
	size_t n;
};

/* Fills out (empty on entry) and returns 1, or returns 0 when the pattern
 * has no usable requirement.  Literals are to be compared without case. */
int pattern_literals(const char *pattern, struct litset *out);
void litset_free(struct litset *s);

#endif
