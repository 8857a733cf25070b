/* Inside the rules: what the loader (rules_load.c) and the matcher
 * (rules.c) share.  Not for other modules; tests may use it. */
#ifndef PLOGTOP_RULES_INT_H
#define PLOGTOP_RULES_INT_H

#ifndef PCRE2_CODE_UNIT_WIDTH
#define PCRE2_CODE_UNIT_WIDTH 8
#endif

#include <pcre2.h>
#include <stdint.h>

#include "prefilter.h"
#include "rules.h"

#define LEVEL_BIT(l) (1u << (l))
#define DEFAULT_LEVELS (LEVEL_BIT(LEVEL_ERROR) | LEVEL_BIT(LEVEL_SCREEN))

/* Limits on what one PCRE2 match may cost, so that a catastrophic user
 * rule cannot hang plogtop: steps of the matcher (PCRE2's default is ten
 * million), nested backtracking depth, and heap (KiB) for it.  A match
 * that reaches one counts as no match and as a limit hit. */
#define RULE_MATCH_LIMIT 1000000u
#define RULE_DEPTH_LIMIT 10000u
#define RULE_HEAP_LIMIT (16u * 1024)

struct sample {
	char *text;
	int must_match;
	unsigned long line;
};

/* When a rule is tried: roles that shape chains on every line; evidence
 * (and vetoes, and reported codes) on every line that a combined
 * prefilter lets through; plain fields only for chains that turned out to
 * be incidents. */
enum stage { STAGE_ROLE, STAGE_EVIDENCE, STAGE_FIELDS, STAGE_FACT };

/* Modules a fact rule may name (its "modules" key). */
#define RULE_MODULES_MAX 8

struct rule {
	struct rule_info info;
	enum stage stage;
	char *name;
	char *pattern;
	pcre2_code *re;
	int jit;	/* JIT-compiled: pcre2_jit_match runs it (ruleset_install) */
	unsigned levels;
	char *file;
	unsigned long line;
	unsigned long class_line;	/* of the last code/resource/cause key */
	struct sample *samples;
	size_t nsamples;
	/* Fact rules: the plog modules whose records they see (none: all). */
	char *modules[RULE_MODULES_MAX];
	size_t nmodules;
	char *bad_level;		/* a level only fact rules may have */
	unsigned long levels_line;
	int names_process;		/* prefix: captures pid or name */
	/* Its named groups, as pcre2_pattern_info tells them, asked once
	 * (ruleset_install): each match of each line reports them. */
	uint32_t namecount, nameentry;
	PCRE2_SPTR nametable;
};

/* Rules by name, for replacing and for duplicates in constant time:
 * open addressing over indexes into an array of rules. */
struct rule_index {
	size_t *slot;		/* index + 1; 0 is empty */
	size_t cap, n;
};

struct ruleset {
	struct rule **rules;
	size_t n, cap;
	struct rule_index names;
	pcre2_match_data *md;
	uint32_t max_pairs;
	pcre2_match_context *mctx;	/* the limits above */
	unsigned long limit_hits;
	struct prefilter *prefilter;	/* of the evidence rules */
	unsigned char *cand;		/* scratch: the candidates of a line */
	/* The rules ruleset_match_line and ruleset_match_fields try, by
	 * index in load order: a line need not look at the others. */
	size_t *line_rules, nline_rules;
	size_t *field_rules, nfield_rules;
	struct lognames *files;		/* [file NAME] sections: logname.h */
	/* Fact rules: their levels, the line starts they need, and the
	 * prefilter of their literals (fact_any: one has none). */
	unsigned fact_levels;
	struct line_starts starts;
	char *start_text[FACT_STARTS_MAX];
	struct prefilter *fact_pf;
	/* ruleset_fact_maybe's: of rules of plog levels, of SCREEN ones */
	struct anylit *fact_lits, *fact_screen_lits;
	unsigned char *fact_cand;
	int fact_any;
};

/* Compiles a pattern as every rule is compiled (UTF, invalid UTF
 * tolerated); NULL with PCRE2's error code and offset. */
pcre2_code *rule_compile(const char *pattern, int *errcode,
			 PCRE2_SIZE *erroff);
/* A match context with the limits above. */
pcre2_match_context *rule_match_context(void);
/* Runs a pattern: 1 on a match, 0 on none, -1 when a limit was hit. */
int rule_exec(const pcre2_code *re, const char *text, size_t len,
	      size_t start, uint32_t options, pcre2_match_data *md,
	      pcre2_match_context *mc);

void rule_free(struct rule *r);
/* rules_facts.c: the fact rules' levels, line starts and literals, made
 * again when rules are installed. */
void fact_build(struct ruleset *rs);
/* Whether a fact rule sees records of this module. */
int rule_takes_module(const struct rule *r, const char *module, size_t len);
int role_from_name(const char *s);	/* -1 when unknown */

/* The position of name in rules[] through ix, or (size_t)-1. */
size_t rule_index_find(const struct rule_index *ix, struct rule *const *rules,
		       const char *name);
/* Records rules[i] (whose name is not there yet). */
void rule_index_add(struct rule_index *ix, struct rule *const *rules,
		    size_t i);
void rule_index_free(struct rule_index *ix);

/* Adds freshly loaded rules to the set, each replacing the one of its
 * name, and rebuilds the prefilter.  Takes ownership of the rules. */
void ruleset_install(struct ruleset *rs, struct rule **rules, size_t n);

#endif
