/* Rules: PCRE2 patterns loaded from data files, each with the facts a
 * matching line gives (a class, a resource, a cause, a role in its chain)
 * and sample lines that prove it matches what it was written for.  The
 * format is documented in doc/plogtop-rules.5 and rules/plogtop.rules. */
#ifndef PLOGTOP_RULES_H
#define PLOGTOP_RULES_H

#include <stddef.h>
#include <string.h>

#include "plogline.h"
#include "strbuf.h"
#include "taxonomy.h"

/* What a matching line means for the chain of lines it belongs to. */
enum role {
	ROLE_NONE = 0,		/* evidence and fields only */
	ROLE_BOUNDARY,		/* the API boundary line: the call has returned */
	ROLE_TRAILER,		/* may follow the boundary in the same chain */
	ROLE_VETO,		/* the chain is a look-alike, never an incident */
	ROLE_HEADING,		/* screen print: Name(CODE): message */
	ROLE_PREAMBLE,		/* screen print: a line that may open a block */
	ROLE_BODY,		/* screen print: Solution, TraceBack, indented */
	ROLE_PREFIX,		/* names the process in a line's prefix */
	ROLE_CALL,		/* screen print: the API call that failed */
	ROLE_COUNT
};

/* Limits on what a rules file may ask for (documented in
 * doc/plogtop-rules.5): its size, and the rules in it.  Each match
 * is bounded too (rules_int.h). */
#define RULES_FILE_MAX (16u << 20)
#define RULES_MAX 100000u

struct rule;
struct ruleset;

struct rule_info {
	const char *name;
	enum role role;
	enum code code;
	enum resource resource;
	enum cause cause;
	int weight;
	/* A fact rule (key "fact"): 1 + its enum fact_kind (fact.h); 0 for
	 * every other rule.  Fact rules run on every record of their levels
	 * (and modules), apart from chains: they never join, close or make
	 * an incident. */
	int fact;
};

/* Called for each named capture of a match. */
typedef void (*capture_fn)(void *ctx, const char *name, const char *value,
			   size_t len);

struct ruleset *ruleset_new(void);
void ruleset_free(struct ruleset *rs);

/* Loads a rules file and checks every rule's samples.  On error returns
 * -1 with "FILE:LINE: what is wrong" in err and the set unchanged.  A
 * rule named like one loaded before replaces it. */
int ruleset_load(struct ruleset *rs, const char *path, struct strbuf *err);
int ruleset_load_text(struct ruleset *rs, const char *path, const char *text,
		      size_t len, struct strbuf *err);

size_t ruleset_count(const struct ruleset *rs);
/* The file names of the plog family ([file NAME] sections): logname.h. */
struct lognames;
const struct lognames *ruleset_lognames(const struct ruleset *rs);
/* Matches that PCRE2 gave up on at a match, depth or heap limit (each
 * counted as no match): a rule too costly for some line. */
unsigned long ruleset_limit_hits(const struct ruleset *rs);

/* Matches the text against every rule of the given role that applies at
 * this level.  For each match, calls on_rule (if set) and then cap for
 * each named capture.  Returns the number of rules that matched. */
typedef void (*rule_fn)(void *ctx, const struct rule_info *info);
int ruleset_match(struct ruleset *rs, enum role role, enum plog_level level,
		  const char *text, size_t len, rule_fn on_rule,
		  capture_fn cap, void *ctx);

/* Every rule but prefixes and plain fields, in one go, as a classifier
 * needs them for each record: a prefilter over the rules' required
 * literals skips the patterns the line cannot match. */
int ruleset_match_line(struct ruleset *rs, enum plog_level level,
		       const char *text, size_t len, rule_fn on_rule,
		       capture_fn cap, void *ctx);
/* The same for rules that only capture fields: a classifier runs them
 * on the lines of incidents, not on every line. */
int ruleset_match_fields(struct ruleset *rs, enum plog_level level,
			 const char *text, size_t len, capture_fn cap,
			 void *ctx);

/* The earliest place in text where a rule of the role matches: where a
 * heading or a preamble stands in a line of captured output, what is
 * before it being the line's prefix.  Returns 0 if none matches. */
int ruleset_find(struct ruleset *rs, enum role role, enum plog_level level,
		 const char *text, size_t len, size_t *start);

/* For the prefix role: the captures (pid, name) of the last match of any
 * prefix rule in text, a line's prefix; nothing if none matches. */
void ruleset_prefix_process(struct ruleset *rs, const char *text,
			    size_t len, capture_fn cap, void *ctx);

/* Every capture but pid and name of each prefix rule that matches text
 * (a line's prefix): rank, dp, tp, ep for the incident's fields. */
void ruleset_prefix_fields(struct ruleset *rs, const char *text,
			   size_t len, capture_fn cap, void *ctx);

const char *role_name(enum role r);

/* ---- fact rules (fact.h) ---- */

/* The levels some fact rule applies to (bits 1 << enum plog_level). */
unsigned ruleset_fact_levels(const struct ruleset *rs);
/* The line starts a plog file's line must have for a fact rule to see
 * it ("[EVENT] ASCENDCL(", "[INFO] ASCENDCL(", from the fact rules'
 * levels and modules), besides ERROR lines: the line splitter gives
 * out only those (linesplit.h).  first8/mask8: the first bytes of each
 * as a little word, for a test of one compare; n is 0 without fact
 * rules.  Valid while the set is. */
#define FACT_STARTS_MAX 8
struct line_starts {
	size_t n;
	const char *s[FACT_STARTS_MAX];
	size_t len[FACT_STARTS_MAX];
	unsigned long long first8[FACT_STARTS_MAX], mask8[FACT_STARTS_MAX];
	int all;	/* too many to list: every line is wanted */
};
const struct line_starts *ruleset_fact_starts(const struct ruleset *rs);
/* Whether the n bytes at s start with one of st's starts (not st->all:
 * the caller asks that): each start's first eight bytes in one masked
 * compare, the rest compared only then.  Inline: the splitter asks it
 * of every line start its quick test lets through. */
static inline int line_starts_match(const struct line_starts *st,
				    const char *s, size_t n)
{
	unsigned long long w = 0;

	memcpy(&w, s, n < 8 ? n : 8);
	for (size_t i = 0; i < st->n; i++)
		if ((w & st->mask8[i]) == st->first8[i] && n >= st->len[i] &&
		    memcmp(s, st->s[i], st->len[i]) == 0)
			return 1;
	return 0;
}
/* The cheap test before any fact pattern runs: whether text (a line, or
 * the part of it where the message may be) holds one of the required
 * literals of the fact rules of its level. */
int ruleset_fact_maybe(const struct ruleset *rs, enum plog_level level,
		       const char *text, size_t len);
/* Runs the fact rules of this level (and of this module, a plog
 * record's; NULL for screen output) on text: for each match on_rule,
 * then cap for each named capture, as ruleset_match. */
int ruleset_match_facts(struct ruleset *rs, enum plog_level level,
			const char *module, size_t modlen, const char *text,
			size_t len, rule_fn on_rule, capture_fn cap,
			void *ctx);

/* The message text of a line as rules see it: after the plog header, or
 * the whole line for screen output. */
void line_message(const char *line, size_t len, size_t *off,
		  enum plog_level *level);

#endif
