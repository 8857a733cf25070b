/* The rule set and matching lines against it; loading a rules file is
 * rules_load.c. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "htab.h"
#include "logname.h"
#include "rules_int.h"
#include "xalloc.h"

static const char *const role_names[] = {
	"none", "boundary", "trailer", "veto", "heading", "preamble", "body",
	"prefix", "call"
};

#define NAMES(a) (sizeof(a) / sizeof((a)[0]))

static int lookup(const char *const *names, size_t n, const char *s)
{
	for (size_t i = 1; i < n; i++)
		if (strcmp(names[i], s) == 0)
			return (int)i;
	return 0;
}

const char *role_name(enum role r) { return role_names[r]; }

int role_from_name(const char *s)
{
	int i = lookup(role_names, NAMES(role_names), s);

	return i || strcmp(s, "none") == 0 ? i : -1;
}

struct ruleset *ruleset_new(void)
{
	struct ruleset *rs = xcalloc(1, sizeof *rs);

	rs->mctx = rule_match_context();
	rs->files = lognames_new();
	return rs;
}

void rule_free(struct rule *r)
{
	if (!r)
		return;
	pcre2_code_free(r->re);
	free(r->name);
	free(r->pattern);
	free(r->file);
	for (size_t i = 0; i < r->nsamples; i++)
		free(r->samples[i].text);
	free(r->samples);
	for (size_t i = 0; i < r->nmodules; i++)
		free(r->modules[i]);
	free(r->bad_level);
	free(r);
}

void ruleset_free(struct ruleset *rs)
{
	if (!rs)
		return;
	for (size_t i = 0; i < rs->n; i++)
		rule_free(rs->rules[i]);
	free(rs->rules);
	rule_index_free(&rs->names);
	prefilter_free(rs->prefilter);
	free(rs->cand);
	free(rs->line_rules);
	free(rs->field_rules);
	prefilter_free(rs->fact_pf);
	anylit_free(rs->fact_lits);
	anylit_free(rs->fact_screen_lits);
	free(rs->fact_cand);
	for (size_t i = 0; i < FACT_STARTS_MAX; i++)
		free(rs->start_text[i]);
	pcre2_match_data_free(rs->md);
	pcre2_match_context_free(rs->mctx);
	lognames_free(rs->files);
	free(rs);
}

size_t ruleset_count(const struct ruleset *rs)
{
	return rs->n;
}

const struct lognames *ruleset_lognames(const struct ruleset *rs)
{
	return rs ? rs->files : NULL;
}

unsigned long ruleset_limit_hits(const struct ruleset *rs)
{
	return rs->limit_hits;
}

void line_message(const char *line, size_t len, size_t *off,
		  enum plog_level *level)
{
	struct plog_header h;
	size_t lead = 0;

	while (lead < len && (line[lead] == ' ' || line[lead] == '\t'))
		lead++;
	if (plog_parse(line + lead, len - lead, &h)) {
		*off = lead + h.msg;
		*level = h.level;
	} else {
		*off = 0;
		*level = LEVEL_SCREEN;
	}
}

/* ---- compiling and running one pattern ---- */

/* PCRE2 allocates match data and contexts itself. */
static void *must(void *p)
{
	if (!p) {
		fprintf(stderr, "plogtop: out of memory (PCRE2)\n");
		exit(2);
	}
	return p;
}

pcre2_code *rule_compile(const char *pattern, int *errcode,
			 PCRE2_SIZE *erroff)
{
	pcre2_code *re = pcre2_compile((PCRE2_SPTR)pattern,
				       PCRE2_ZERO_TERMINATED,
				       PCRE2_UTF | PCRE2_MATCH_INVALID_UTF,
				       errcode, erroff, NULL);

	/* JIT is an optimisation: where it is missing the interpreter
	 * runs. */
	if (re)
		pcre2_jit_compile(re, PCRE2_JIT_COMPLETE);
	return re;
}

pcre2_match_context *rule_match_context(void)
{
	pcre2_match_context *mc = must(pcre2_match_context_create(NULL));

	pcre2_set_match_limit(mc, RULE_MATCH_LIMIT);
	pcre2_set_depth_limit(mc, RULE_DEPTH_LIMIT);
	pcre2_set_heap_limit(mc, RULE_HEAP_LIMIT);
	return mc;
}

int rule_exec(const pcre2_code *re, const char *text, size_t len,
	      size_t start, uint32_t options, pcre2_match_data *md,
	      pcre2_match_context *mc)
{
	int rc = pcre2_match(re, (PCRE2_SPTR)text, len, start, options, md, mc);

	if (rc >= 0)
		return 1;
	if (rc == PCRE2_ERROR_NOMATCH || rc == PCRE2_ERROR_PARTIAL)
		return 0;
	/* Match, depth or heap limit, JIT stack: the pattern costs too
	 * much on this text (other errors cannot happen here). */
	return -1;
}

/* One match in the set: a limit hit counts as no match, and is counted. */
static int rs_exec(struct ruleset *rs, const struct rule *r, const char *text,
		   size_t len, size_t start, uint32_t options)
{
	int rc;

	/* pcre2_match would call it too, after checks that cost as much as
	 * a failed match of a JIT pattern (it runs ANCHORED itself). */
	if (r->jit && !options) {
		rc = pcre2_jit_match(r->re, (PCRE2_SPTR)text, len, start, 0,
				     rs->md, rs->mctx);
		rc = rc >= 0 ? 1 : rc == PCRE2_ERROR_NOMATCH ||
				   rc == PCRE2_ERROR_PARTIAL ? 0 : -1;
	} else {
		rc = rule_exec(r->re, text, len, start, options, rs->md,
			       rs->mctx);
	}
	if (rc < 0)
		rs->limit_hits++;
	return rc > 0;
}

/* ---- rules by name ---- */

size_t rule_index_find(const struct rule_index *ix, struct rule *const *rules,
		       const char *name)
{
	if (!ix->cap)
		return (size_t)-1;
	for (size_t h = htab_hash_str(name, 0) & (ix->cap - 1); ix->slot[h];
	     h = (h + 1) & (ix->cap - 1))
		if (strcmp(rules[ix->slot[h] - 1]->name, name) == 0)
			return ix->slot[h] - 1;
	return (size_t)-1;
}

static void index_put(struct rule_index *ix, struct rule *const *rules,
		      size_t i)
{
	size_t h = htab_hash_str(rules[i]->name, 0) & (ix->cap - 1);

	while (ix->slot[h])
		h = (h + 1) & (ix->cap - 1);
	ix->slot[h] = i + 1;
}

void rule_index_add(struct rule_index *ix, struct rule *const *rules,
		    size_t i)
{
	if ((ix->n + 1) * 2 > ix->cap) {
		struct rule_index big = { 0 };
		big.cap = ix->cap ? ix->cap * 2 : 64;
		big.slot = xcalloc(big.cap, sizeof *big.slot);
		for (size_t s = 0; s < ix->cap; s++)
			if (ix->slot[s])
				index_put(&big, rules, ix->slot[s] - 1);
		big.n = ix->n;
		free(ix->slot);
		*ix = big;
	}
	index_put(ix, rules, i);
	ix->n++;
}

void rule_index_free(struct rule_index *ix)
{
	free(ix->slot);
	ix->slot = NULL;
	ix->cap = ix->n = 0;
}

/* ---- installing loaded rules ---- */

static void grow_match_data(struct ruleset *rs, struct rule *r)
{
	uint32_t pairs = 0;

	pcre2_pattern_info(r->re, PCRE2_INFO_CAPTURECOUNT, &pairs);
	pairs++;
	if (rs->md && pairs <= rs->max_pairs)
		return;
	pcre2_match_data_free(rs->md);
	rs->max_pairs = pairs > rs->max_pairs ? pairs : rs->max_pairs;
	rs->md = must(pcre2_match_data_create(rs->max_pairs, NULL));
}

static void install(struct ruleset *rs, struct rule *r)
{
	size_t i = rule_index_find(&rs->names, rs->rules, r->name);

	if (i != (size_t)-1) {
		rule_free(rs->rules[i]);
		rs->rules[i] = r;
		return;
	}
	if (rs->n == rs->cap) {
		rs->cap = rs->cap ? rs->cap * 2 : 64;
		rs->rules = xrealloc(rs->rules, rs->cap * sizeof *rs->rules);
	}
	rs->rules[rs->n++] = r;
	rule_index_add(&rs->names, rs->rules, rs->n - 1);
}

static void build_prefilters(struct ruleset *rs)
{
	prefilter_free(rs->prefilter);
	rs->prefilter = prefilter_new(rs->n);
	for (size_t i = 0; i < rs->n; i++)
		if (rs->rules[i]->stage != STAGE_FIELDS &&
		    rs->rules[i]->stage != STAGE_FACT &&
		    rs->rules[i]->info.role != ROLE_PREFIX)
			prefilter_add(rs->prefilter, i, rs->rules[i]->pattern);
	free(rs->cand);
	rs->cand = xcalloc(rs->n ? rs->n : 1, 1);
	free(rs->line_rules);
	free(rs->field_rules);
	rs->line_rules = xcalloc(rs->n ? rs->n : 1, sizeof *rs->line_rules);
	rs->field_rules = xcalloc(rs->n ? rs->n : 1, sizeof *rs->field_rules);
	rs->nline_rules = rs->nfield_rules = 0;
	for (size_t i = 0; i < rs->n; i++) {
		const struct rule *r = rs->rules[i];
		if (r->stage == STAGE_FIELDS)
			rs->field_rules[rs->nfield_rules++] = i;
		else if (r->stage != STAGE_FACT && r->info.role != ROLE_PREFIX)
			rs->line_rules[rs->nline_rules++] = i;
	}
	fact_build(rs);
}

void ruleset_install(struct ruleset *rs, struct rule **rules, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t jitsize = 0;
		pcre2_pattern_info(rules[i]->re, PCRE2_INFO_JITSIZE, &jitsize);
		rules[i]->jit = jitsize > 0;
		pcre2_pattern_info(rules[i]->re, PCRE2_INFO_NAMECOUNT,
				   &rules[i]->namecount);
		pcre2_pattern_info(rules[i]->re, PCRE2_INFO_NAMEENTRYSIZE,
				   &rules[i]->nameentry);
		pcre2_pattern_info(rules[i]->re, PCRE2_INFO_NAMETABLE,
				   &rules[i]->nametable);
		grow_match_data(rs, rules[i]);
		install(rs, rules[i]);
	}
	build_prefilters(rs);
}

/* ---- matching ---- */

static void report_captures(struct rule *r, pcre2_match_data *md,
			    const char *text, capture_fn cap, void *ctx)
{
	uint32_t count = r->namecount, entry = r->nameentry;
	PCRE2_SPTR table = r->nametable;
	PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);

	if (!count)
		return;
	for (uint32_t i = 0; i < count; i++, table += entry) {
		unsigned n = (unsigned)(table[0] << 8 | table[1]);
		PCRE2_SIZE a = ov[2 * n], b = ov[2 * n + 1];
		if (a == PCRE2_UNSET || b < a)
			continue;
		cap(ctx, (const char *)table + 2, text + a, b - a);
	}
}

/* Which rules a match call tries. */
enum pick { PICK_ROLE, PICK_LINE, PICK_FIELDS };

static int picked(const struct ruleset *rs, size_t i, enum pick how,
		  enum role role, enum plog_level level)
{
	const struct rule *r = rs->rules[i];

	if (!(r->levels & LEVEL_BIT(level)) || r->stage == STAGE_FACT)
		return 0;
	switch (how) {
	case PICK_ROLE:
		return r->info.role == role;
	case PICK_LINE:
		return r->stage != STAGE_FIELDS && r->info.role != ROLE_PREFIX &&
		       (!rs->prefilter || rs->cand[i]);
	default:
		return r->stage == STAGE_FIELDS;
	}
}

/* A rule picked matched: what it says, and its captures. */
static void matched(struct ruleset *rs, struct rule *r, rule_fn on_rule,
		    capture_fn cap, const char *text, void *ctx)
{
	if (on_rule)
		on_rule(ctx, &r->info);
	if (cap)
		report_captures(r, rs->md, text, cap, ctx);
}

/* The candidates of a line, by index: the prefilter marks only the rules
 * it was given, a few of dozens, and cand is read eight at a time to
 * find them (the order is load order, as in line_rules). */
static int match_cands(struct ruleset *rs, enum plog_level level,
		       const char *text, size_t len, rule_fn on_rule,
		       capture_fn cap, void *ctx)
{
	int hits = 0;

	for (size_t i = 0; i < rs->n; i++) {
		uint64_t w;
		if (i % 8 == 0 && i + 8 <= rs->n &&
		    (memcpy(&w, rs->cand + i, 8), !w)) {
			i += 7;
			continue;
		}
		if (!rs->cand[i] || !picked(rs, i, PICK_LINE, ROLE_NONE, level))
			continue;
		struct rule *r = rs->rules[i];
		if (!rs_exec(rs, r, text, len, 0, 0))
			continue;
		hits++;
		matched(rs, r, on_rule, cap, text, ctx);
	}
	return hits;
}

static int match_picked(struct ruleset *rs, enum pick how, enum role role,
			enum plog_level level, const char *text, size_t len,
			rule_fn on_rule, capture_fn cap, void *ctx)
{
	int hits = 0;
	/* Lines and fields: only their rules; roles: every rule. */
	const size_t *only = how == PICK_LINE ? rs->line_rules
			   : how == PICK_FIELDS ? rs->field_rules : NULL;
	size_t n = how == PICK_LINE ? rs->nline_rules
		 : how == PICK_FIELDS ? rs->nfield_rules : rs->n;

	for (size_t k = 0; k < n; k++) {
		size_t i = only ? only[k] : k;
		/* Most of a line's rules are not candidates: told without
		 * reading the rule. */
		if (how == PICK_LINE && rs->prefilter && !rs->cand[i])
			continue;
		struct rule *r = rs->rules[i];
		if (!picked(rs, i, how, role, level) ||
		    !rs_exec(rs, r, text, len, 0, 0))
			continue;
		hits++;
		matched(rs, r, on_rule, cap, text, ctx);
	}
	return hits;
}

int ruleset_match(struct ruleset *rs, enum role role, enum plog_level level,
		  const char *text, size_t len, rule_fn on_rule,
		  capture_fn cap, void *ctx)
{
	return match_picked(rs, PICK_ROLE, role, level, text, len, on_rule,
			    cap, ctx);
}

int ruleset_match_line(struct ruleset *rs, enum plog_level level,
		       const char *text, size_t len, rule_fn on_rule,
		       capture_fn cap, void *ctx)
{
	if (rs->prefilter) {
		prefilter_scan(rs->prefilter, text, len, rs->cand);
		return match_cands(rs, level, text, len, on_rule, cap, ctx);
	}
	return match_picked(rs, PICK_LINE, ROLE_NONE, level, text, len,
			    on_rule, cap, ctx);
}

int ruleset_match_fields(struct ruleset *rs, enum plog_level level,
			 const char *text, size_t len, capture_fn cap,
			 void *ctx)
{
	return match_picked(rs, PICK_FIELDS, ROLE_NONE, level, text, len,
			    NULL, cap, ctx);
}

int ruleset_find(struct ruleset *rs, enum role role, enum plog_level level,
		 const char *text, size_t len, size_t *start)
{
	int found = 0;

	for (size_t i = 0; i < rs->n; i++) {
		if (!picked(rs, i, PICK_ROLE, role, level) ||
		    !rs_exec(rs, rs->rules[i], text, len, 0, 0))
			continue;
		size_t at = pcre2_get_ovector_pointer(rs->md)[0];
		if (!found || at < *start)
			*start = at;
		found = 1;
	}
	return found;
}

/* The last match of any prefix rule: in "(Worker pid=1) (Worker_TP5
 * pid=2) " the inner tag is the process that wrote the line. */
void ruleset_prefix_process(struct ruleset *rs, const char *text,
			    size_t len, capture_fn cap, void *ctx)
{
	struct rule *best = NULL;
	size_t best_at = 0;

	for (size_t i = 0; i < rs->n; i++) {
		struct rule *r = rs->rules[i];
		size_t from = 0;
		while (r->info.role == ROLE_PREFIX && r->names_process &&
		       from < len &&
		       rs_exec(rs, r, text, len, from, 0)) {
			PCRE2_SIZE *ov = pcre2_get_ovector_pointer(rs->md);
			if (!best || ov[0] >= best_at) {
				best = r;
				best_at = ov[0];
			}
			from = ov[1] > ov[0] ? ov[1] : ov[0] + 1;
		}
	}
	if (best && rs_exec(rs, best, text, len, best_at, PCRE2_ANCHORED))
		report_captures(best, rs->md, text, cap, ctx);
}

/* Prefix rules that capture more than the process (a rank, the
 * parallel indices of a worker's name): every such capture of each
 * prefix rule's first match. */
void ruleset_prefix_fields(struct ruleset *rs, const char *text, size_t len,
			   capture_fn cap, void *ctx)
{
	for (size_t i = 0; i < rs->n; i++) {
		struct rule *r = rs->rules[i];
		if (r->info.role == ROLE_PREFIX &&
		    rs_exec(rs, r, text, len, 0, 0))
			report_captures(r, rs->md, text, cap, ctx);
	}
}

/* Fact rules: their line starts and literals are rules_facts.c. */
int ruleset_match_facts(struct ruleset *rs, enum plog_level level,
			const char *module, size_t modlen, const char *text,
			size_t len, rule_fn on_rule, capture_fn cap,
			void *ctx)
{
	int hits = 0;

	if (!(rs->fact_levels & LEVEL_BIT(level)))
		return 0;
	prefilter_scan(rs->fact_pf, text, len, rs->fact_cand);
	for (size_t i = 0; i < rs->n; i++) {
		struct rule *r = rs->rules[i];
		if (r->stage != STAGE_FACT || !rs->fact_cand[i] ||
		    !(r->levels & LEVEL_BIT(level)) ||
		    (module && !rule_takes_module(r, module, modlen)) ||
		    !rs_exec(rs, r, text, len, 0, 0))
			continue;
		hits++;
		if (on_rule)
			on_rule(ctx, &r->info);
		if (cap)
			report_captures(r, rs->md, text, cap, ctx);
	}
	return hits;
}
