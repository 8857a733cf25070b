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
/* Whether prefilter_scan would list a rule of this pattern for text
 * (without a prefilter of its own: a rule's samples are checked so). */
int prefilter_lists_pattern(const char *pattern, const char *text,
			    size_t len);

/* A quicker test of a few literals, compared with case: whether text
 * holds any of them.  For the fact rules, tried on every INFO line of
 * their modules: sixteen bytes at a time, by each literal's first and
 * last byte, then a compare. */
struct anylit;
struct anylit *anylit_new(void);
void anylit_free(struct anylit *a);
void anylit_add(struct anylit *a, const char *lit);
size_t anylit_count(const struct anylit *a);
int anylit_scan(const struct anylit *a, const char *text, size_t len);

#endif
