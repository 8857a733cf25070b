/* Fact rules (a "fact" key, rules.h): the line starts and literals that
 * let their lines through the splitter and the feeder, and matching a
 * record against them.  The rest of matching is rules.c. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "literals.h"
#include "rules_int.h"
#include "xalloc.h"

int rule_takes_module(const struct rule *r, const char *module, size_t len)
{
	if (!r->nmodules)
		return 1;
	for (size_t i = 0; i < r->nmodules; i++)
		if (strlen(r->modules[i]) == len &&
		    memcmp(r->modules[i], module, len) == 0)
			return 1;
	return 0;
}

/* Adds "[LEVEL] MODULE(" (or "[LEVEL]" for every module) to the line
 * starts, once; a start that a shorter one covers is left out. */
static void add_start(struct ruleset *rs, const char *level,
		      const char *module)
{
	struct line_starts *st = &rs->starts;
	struct strbuf sb = STRBUF_INIT;

	sb_addf(&sb, module ? "[%s] %s(" : "[%s]", level, module);
	for (size_t i = 0; i < st->n; i++)
		if (strncmp(sb.buf, st->s[i], st->len[i]) == 0) {
			sb_free(&sb);
			return;
		}
	if (st->n == FACT_STARTS_MAX) {
		st->all = 1;
		sb_free(&sb);
		return;
	}
	size_t k = st->n++;
	st->len[k] = sb.len;
	st->s[k] = rs->start_text[k] = sb_detach(&sb);
	/* In the host's byte order, as the splitter loads a line's. */
	unsigned char wb[8] = { 0 }, mb[8] = { 0 };
	for (size_t b = 0; b < 8 && b < st->len[k]; b++) {
		wb[b] = (unsigned char)st->s[k][b];
		mb[b] = 0xff;
	}
	memcpy(&st->first8[k], wb, 8);
	memcpy(&st->mask8[k], mb, 8);
}

/* Whether a pattern sets caseless matching anywhere: "(?i", "(?mi:". */
static int caseless(const char *p)
{
	for (const char *q = p; (q = strstr(q, "(?")); q += 2) {
		const char *o = q + 2;
		int i = 0;
		/* An option setting holds only option letters. */
		while (*o && strchr("imnsxJUaxr-^", *o))
			i |= *o++ == 'i';
		if (i && (*o == ')' || *o == ':'))
			return 1;
	}
	return 0;
}

/* The fact rule's literals for the quick test (fact_any: it has none
 * the test could use, so every line is tried). */
static void fact_literals(struct ruleset *rs, size_t i)
{
	const struct rule *r = rs->rules[i];
	struct litset set = { 0 };

	rs->fact_levels |= r->levels;
	if (!prefilter_add(rs->fact_pf, i, r->pattern) || caseless(r->pattern) ||
	    !pattern_literals(r->pattern, &set)) {
		rs->fact_any = 1;
		litset_free(&set);
		return;
	}
	for (size_t k = 0; k < set.n; k++) {
		if (r->levels & ~LEVEL_BIT(LEVEL_SCREEN))
			anylit_add(rs->fact_lits, set.v[k]);
		if (r->levels & LEVEL_BIT(LEVEL_SCREEN))
			anylit_add(rs->fact_screen_lits, set.v[k]);
	}
	litset_free(&set);
}

/* The line starts, levels and literals of the fact rules. */
void fact_build(struct ruleset *rs)
{
	static const char *const level_names[] = {
		[LEVEL_OTHER] = NULL, [LEVEL_DEBUG] = "DEBUG",
		[LEVEL_INFO] = "INFO", [LEVEL_WARNING] = "WARNING",
		[LEVEL_ERROR] = NULL, [LEVEL_EVENT] = "EVENT",
		[LEVEL_TRACE] = "TRACE", [LEVEL_SCREEN] = NULL,
	};

	for (size_t i = 0; i < FACT_STARTS_MAX; i++) {
		free(rs->start_text[i]);
		rs->start_text[i] = NULL;
	}
	memset(&rs->starts, 0, sizeof rs->starts);
	rs->fact_levels = 0;
	rs->fact_any = 0;
	prefilter_free(rs->fact_pf);
	rs->fact_pf = prefilter_new(rs->n);
	anylit_free(rs->fact_lits);
	rs->fact_lits = anylit_new();
	anylit_free(rs->fact_screen_lits);
	rs->fact_screen_lits = anylit_new();
	free(rs->fact_cand);
	rs->fact_cand = xcalloc(rs->n ? rs->n : 1, 1);
	/* A short start first, so that it covers the longer ones after. */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < rs->n; i++) {
			const struct rule *r = rs->rules[i];
			if (r->stage != STAGE_FACT || (pass == 0) != !r->nmodules)
				continue;
			if (pass == 0)
				fact_literals(rs, i);
			for (int l = 0; l <= LEVEL_SCREEN; l++) {
				if (!(r->levels & LEVEL_BIT(l)) || !level_names[l])
					continue;
				if (!r->nmodules)
					add_start(rs, level_names[l], NULL);
				for (size_t k = 0; k < r->nmodules; k++)
					add_start(rs, level_names[l],
						  r->modules[k]);
			}
		}
	/* The second pass added the rules with modules' levels; their
	 * literals too. */
	for (size_t i = 0; i < rs->n; i++) {
		const struct rule *r = rs->rules[i];
		if (r->stage == STAGE_FACT && r->nmodules)
			fact_literals(rs, i);
	}
}

/* ---- fact rules ---- */

unsigned ruleset_fact_levels(const struct ruleset *rs)
{
	return rs->fact_levels;
}

const struct line_starts *ruleset_fact_starts(const struct ruleset *rs)
{
	return &rs->starts;
}

int ruleset_fact_maybe(const struct ruleset *rs, enum plog_level level,
		       const char *text, size_t len)
{
	if (!(rs->fact_levels & LEVEL_BIT(level)))
		return 0;
	return rs->fact_any ||
	       anylit_scan(level == LEVEL_SCREEN ? rs->fact_screen_lits
						 : rs->fact_lits, text, len);
}
