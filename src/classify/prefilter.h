/* Which rules a line may match, found in one pass over the line: each
 * rule's required literals (see literals.h) are indexed by their first
 * four bytes, case folded; a rule without literals is always a candidate.
 * This is what lets a large tree's ERROR lines skip most patterns. */
#ifndef PLOGTOP_PREFILTER_H
#define PLOGTOP_PREFILTER_H

#include <stddef.h>

struct prefilter;

struct prefilter *prefilter_new(size_t nrules);
void prefilter_free(struct prefilter *pf);

/* Registers the literals of rule i from its pattern; returns 0 when the
 * pattern has none (the rule is then always a candidate). */
int prefilter_add(struct prefilter *pf, size_t rule, const char *pattern);

/* Marks in cand[0..nrules) the rules the text may match (1) and the rest
 * (0). */
void prefilter_scan(const struct prefilter *pf, const char *text, size_t len,
		    unsigned char *cand);

#endif
