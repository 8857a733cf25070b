#include "config.h"

#define PCRE2_CODE_UNIT_WIDTH 8

#include <ctype.h>
#include <errno.h>
#include <pcre2.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "prefilter.h"
#include "rules.h"
#include "xalloc.h"

#define LEVEL_BIT(l) (1u << (l))
#define DEFAULT_LEVELS (LEVEL_BIT(LEVEL_ERROR) | LEVEL_BIT(LEVEL_SCREEN))

struct sample {
	char *text;
	int must_match;
	unsigned long line;
};

/* When a rule is tried: roles that shape chains on every line; evidence
 * (and vetoes, and reported codes) on every line that a combined
 * prefilter lets through; plain fields only for chains that turned out to
 * be incidents. */
enum stage { STAGE_ROLE, STAGE_EVIDENCE, STAGE_FIELDS };

struct rule {
	struct rule_info info;
	enum stage stage;
	char *name;
	char *pattern;
	pcre2_code *re;
	unsigned levels;
	char *file;
	unsigned long line;
	unsigned long class_line;	/* of the last code/resource/cause key */
	struct sample *samples;
	size_t nsamples;
};

struct ruleset {
	struct rule **rules;
	size_t n;
	pcre2_match_data *md;
	uint32_t max_pairs;
	struct prefilter *prefilter;	/* of the evidence rules */
	unsigned char *cand;		/* scratch: the candidates of a line */
};

static const char *const code_names[] = { "", "EE1023", "EE1001" };
static const char *const resource_names[] = {
	"", "stream", "notify", "event", "async_copy", "memcpy", "argument",
	"unknown"
};
static const char *const cause_names[] = {
	"", "graph_streams", "streams_created", "graph_concurrency",
	"notifies_created", "events_created", "graph_copy_tasks",
	"kind_location_mismatch", "unknown"
};
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

const char *code_name(enum code c) { return code_names[c]; }
const char *resource_name(enum resource r) { return resource_names[r]; }
const char *cause_name(enum cause c) { return cause_names[c]; }
const char *role_name(enum role r) { return role_names[r]; }
enum code code_from_name(const char *s)
{
	return (enum code)lookup(code_names, NAMES(code_names), s);
}
enum resource resource_from_name(const char *s)
{
	return (enum resource)lookup(resource_names, NAMES(resource_names), s);
}
enum cause cause_from_name(const char *s)
{
	return (enum cause)lookup(cause_names, NAMES(cause_names), s);
}

struct ruleset *ruleset_new(void)
{
	return xcalloc(1, sizeof(struct ruleset));
}

static void rule_free(struct rule *r)
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
	free(r);
}

void ruleset_free(struct ruleset *rs)
{
	if (!rs)
		return;
	for (size_t i = 0; i < rs->n; i++)
		rule_free(rs->rules[i]);
	free(rs->rules);
	prefilter_free(rs->prefilter);
	free(rs->cand);
	pcre2_match_data_free(rs->md);
	free(rs);
}

size_t ruleset_count(const struct ruleset *rs)
{
	return rs->n;
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

/* ---- parsing the file ---- */

struct loader {
	const char *path;
	unsigned long lineno;
	struct strbuf *err;
	struct rule *cur;
	struct rule **rules;
	size_t n;
};

static int fail(struct loader *ld, unsigned long line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct loader *ld, unsigned long line, const char *fmt, ...)
{
	va_list ap;

	sb_reset(ld->err);
	sb_addf(ld->err, "%s:%lu: ", ld->path, line);
	va_start(ap, fmt);
	sb_vaddf(ld->err, fmt, ap);
	va_end(ap);
	return -1;
}

static char *trim(char *s)
{
	char *e = s + strlen(s);

	while (*s == ' ' || *s == '\t')
		s++;
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		*--e = '\0';
	return s;
}

static int parse_levels(struct loader *ld, const char *v, unsigned *out)
{
	static const struct {
		const char *name;
		enum plog_level level;
	} names[] = {
		{ "ERROR", LEVEL_ERROR }, { "WARNING", LEVEL_WARNING },
		{ "INFO", LEVEL_INFO }, { "DEBUG", LEVEL_DEBUG },
		{ "EVENT", LEVEL_EVENT }, { "TRACE", LEVEL_TRACE },
		{ "SCREEN", LEVEL_SCREEN }, { "OTHER", LEVEL_OTHER },
	};
	unsigned bits = 0;
	char *copy = xstrdup(v), *save = NULL;

	for (char *tok = strtok_r(copy, " ,", &save); tok;
	     tok = strtok_r(NULL, " ,", &save)) {
		size_t i;
		for (i = 0; i < NAMES(names); i++)
			if (strcmp(names[i].name, tok) == 0)
				break;
		if (i == NAMES(names) || (names[i].level != LEVEL_ERROR &&
					  names[i].level != LEVEL_SCREEN)) {
			fail(ld, ld->lineno, "level '%s' cannot be used: only "
			     "ERROR records and SCREEN output reach the rules",
			     tok);
			free(copy);
			return -1;
		}
		bits |= LEVEL_BIT(names[i].level);
	}
	free(copy);
	if (!bits)
		return fail(ld, ld->lineno, "levels needs at least one level");
	*out = bits;
	return 0;
}

static int set_key(struct loader *ld, const char *key, const char *v)
{
	struct rule *r = ld->cur;

	if (strcmp(key, "match") == 0) {
		if (r->pattern)
			return fail(ld, ld->lineno, "a rule has one match");
		r->pattern = xstrdup(v);
		r->line = ld->lineno;
	} else if (strcmp(key, "role") == 0) {
		int i = lookup(role_names, NAMES(role_names), v);
		if (!i && strcmp(v, "none") != 0)
			return fail(ld, ld->lineno, "unknown role '%s'", v);
		r->info.role = (enum role)i;
	} else if (strcmp(key, "code") == 0) {
		r->class_line = ld->lineno;
		if (!(r->info.code = code_from_name(v)))
			return fail(ld, ld->lineno,
				    "unknown code '%s' (EE1023 or EE1001)", v);
	} else if (strcmp(key, "resource") == 0) {
		r->class_line = ld->lineno;
		r->info.resource = resource_from_name(v);
		if (!r->info.resource || r->info.resource == RES_UNKNOWN)
			return fail(ld, ld->lineno, "unknown resource '%s' (use "
				    "stream, notify, event, async_copy, memcpy "
				    "or argument; leave it out when the line "
				    "does not say)", v);
	} else if (strcmp(key, "cause") == 0) {
		r->class_line = ld->lineno;
		r->info.cause = cause_from_name(v);
		if (!r->info.cause || r->info.cause == CAUSE_UNKNOWN)
			return fail(ld, ld->lineno, "unknown cause '%s' (leave "
				    "it out when the line does not say)", v);
	} else if (strcmp(key, "weight") == 0) {
		char *end;
		long w = strtol(v, &end, 10);
		if (*end || w < 1 || w > 100)
			return fail(ld, ld->lineno,
				    "weight must be a number from 1 to 100");
		r->info.weight = (int)w;
	} else if (strcmp(key, "levels") == 0) {
		return parse_levels(ld, v, &r->levels);
	} else if (strcmp(key, "sample") == 0 || strcmp(key, "reject") == 0) {
		r->samples = xrealloc(r->samples,
				      (r->nsamples + 1) * sizeof *r->samples);
		r->samples[r->nsamples++] = (struct sample){
			xstrdup(v), key[0] == 's', ld->lineno
		};
	} else {
		return fail(ld, ld->lineno, "unknown key '%s' (match, role, "
			    "code, resource, cause, weight, levels, sample, "
			    "reject)", key);
	}
	return 0;
}

enum resource resource_of_cause(enum cause c)
{
	switch (c) {
	case CAUSE_GRAPH_STREAMS:
	case CAUSE_STREAMS_CREATED: return RES_STREAM;
	case CAUSE_GRAPH_CONCURRENCY:
	case CAUSE_NOTIFIES_CREATED: return RES_NOTIFY;
	case CAUSE_EVENTS_CREATED: return RES_EVENT;
	case CAUSE_GRAPH_COPY_TASKS: return RES_ASYNC_COPY;
	case CAUSE_KIND_LOCATION_MISMATCH: return RES_MEMCPY;
	default: return RES_NONE;
	}
}

static int check_consistency(struct loader *ld, struct rule *r)
{
	enum resource res = r->info.resource;
	enum code code = r->info.code;

	if (!r->pattern)
		return fail(ld, r->line, "rule '%s' has no match", r->name);
	if (res >= RES_STREAM && res <= RES_ASYNC_COPY && code == CODE_EE1001)
		return fail(ld, r->class_line, "resource %s belongs to EE1023",
			    resource_name(res));
	if ((res == RES_MEMCPY || res == RES_ARGUMENT) && code == CODE_EE1023)
		return fail(ld, r->class_line, "resource %s belongs to EE1001",
			    resource_name(res));
	int ee1001_cause = r->info.cause == CAUSE_KIND_LOCATION_MISMATCH;
	if (r->info.cause && code &&
	    (code == CODE_EE1001) != ee1001_cause)
		return fail(ld, r->class_line, "cause %s belongs to %s",
			    cause_name(r->info.cause),
			    ee1001_cause ? "EE1001" : "EE1023");
	if (r->info.cause && res && res != resource_of_cause(r->info.cause))
		return fail(ld, r->class_line, "cause %s belongs to resource "
			    "%s", cause_name(r->info.cause),
			    resource_name(resource_of_cause(r->info.cause)));
	int has_sample = 0;
	for (size_t i = 0; i < r->nsamples; i++)
		has_sample |= r->samples[i].must_match;
	if (!has_sample)
		return fail(ld, r->line, "rule '%s' has no sample line",
			    r->name);
	return 0;
}

static int compile_rule(struct loader *ld, struct rule *r)
{
	int errcode;
	PCRE2_SIZE erroff;

	r->re = pcre2_compile((PCRE2_SPTR)r->pattern, PCRE2_ZERO_TERMINATED,
			      PCRE2_UTF | PCRE2_MATCH_INVALID_UTF, &errcode,
			      &erroff, NULL);
	if (!r->re) {
		PCRE2_UCHAR msg[256];
		pcre2_get_error_message(errcode, msg, sizeof msg);
		return fail(ld, r->line, "bad pattern in rule '%s': %s at "
			    "offset %zu", r->name, (char *)msg, (size_t)erroff);
	}
	/* JIT is an optimisation: where it is missing the interpreter runs. */
	pcre2_jit_compile(r->re, PCRE2_JIT_COMPLETE);
	return 0;
}

static int rule_matches(struct rule *r, const char *text, size_t len,
			pcre2_match_data *md)
{
	return pcre2_match(r->re, (PCRE2_SPTR)text, len, 0, 0, md,
			   NULL) >= 0;
}

/* Samples are whole log lines: the rule sees them as it would in a log. */
static int check_samples(struct loader *ld, struct rule *r)
{
	pcre2_match_data *md = pcre2_match_data_create_from_pattern(r->re, NULL);
	int rc = 0;

	for (size_t i = 0; i < r->nsamples && rc == 0; i++) {
		struct sample *s = &r->samples[i];
		size_t len = strlen(s->text), off = 0;
		enum plog_level level = LEVEL_SCREEN;
		if (r->info.role != ROLE_PREFIX)
			line_message(s->text, len, &off, &level);
		int applies = r->info.role == ROLE_PREFIX ||
			      (r->levels & LEVEL_BIT(level));
		int hit = rule_matches(r, s->text + off, len - off, md);
		if (s->must_match && !hit)
			rc = fail(ld, s->line, "rule '%s' does not match its "
				  "sample", r->name);
		else if (s->must_match && !applies)
			rc = fail(ld, s->line, "rule '%s' does not apply to the "
				  "level of its sample (%s)", r->name,
				  plog_level_name(level));
		else if (!s->must_match && hit && applies)
			rc = fail(ld, s->line, "rule '%s' matches a line it "
				  "must reject", r->name);
	}
	pcre2_match_data_free(md);
	return rc;
}

static int captures_reported(const struct rule *r)
{
	return pcre2_substring_number_from_name(r->re,
		(PCRE2_SPTR)"reported") >= 0 ||
	       pcre2_substring_number_from_name(r->re,
		(PCRE2_SPTR)"reported") == PCRE2_ERROR_NOUNIQUESUBSTRING;
}

static enum stage stage_of(const struct rule *r)
{
	if (r->info.role == ROLE_VETO)
		return STAGE_EVIDENCE;
	if (r->info.role != ROLE_NONE)
		return STAGE_ROLE;
	if (r->info.code || r->info.resource || r->info.cause ||
	    captures_reported(r))
		return STAGE_EVIDENCE;
	return STAGE_FIELDS;
}

static int finish_rule(struct loader *ld)
{
	struct rule *r = ld->cur;

	if (!r)
		return 0;
	ld->cur = NULL;
	if (check_consistency(ld, r) || compile_rule(ld, r) ||
	    check_samples(ld, r)) {
		rule_free(r);
		return -1;
	}
	r->stage = stage_of(r);
	ld->rules = xrealloc(ld->rules, (ld->n + 1) * sizeof *ld->rules);
	ld->rules[ld->n++] = r;
	return 0;
}

static int start_rule(struct loader *ld, char *s)
{
	char *name = trim(s + strlen("[rule"));
	size_t n = strlen(name);

	if (n < 2 || name[n - 1] != ']')
		return fail(ld, ld->lineno, "expected [rule NAME]");
	name[n - 1] = '\0';
	name = trim(name);
	if (!*name)
		return fail(ld, ld->lineno, "a rule needs a name");
	for (char *p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '-' && *p != '_' &&
		    *p != '.')
			return fail(ld, ld->lineno, "bad rule name '%s' (use "
				    "letters, digits, '-', '_', '.')", name);
	if (finish_rule(ld))
		return -1;
	for (size_t i = 0; i < ld->n; i++)
		if (strcmp(ld->rules[i]->name, name) == 0)
			return fail(ld, ld->lineno, "rule '%s' is defined "
				    "twice in this file", name);
	struct rule *r = xcalloc(1, sizeof *r);
	r->name = xstrdup(name);
	r->info.name = r->name;
	r->info.weight = 10;
	r->levels = DEFAULT_LEVELS;
	r->file = xstrdup(ld->path);
	r->line = ld->lineno;
	ld->cur = r;
	return 0;
}

static int parse_line(struct loader *ld, char *line)
{
	char *s = trim(line);

	if (!*s || *s == '#')
		return 0;
	if (strncmp(s, "[rule", 5) == 0 && (s[5] == ' ' || s[5] == '\t'))
		return start_rule(ld, s);
	if (*s == '[')
		return fail(ld, ld->lineno, "expected [rule NAME]");
	if (!ld->cur)
		return fail(ld, ld->lineno, "'%s' outside a [rule NAME] "
			    "section", s);
	char *key = s;
	while (isalpha((unsigned char)*s))
		s++;
	char *after = s;
	while (*s == ' ' || *s == '\t')
		s++;
	if (*s != '=' || after == key)
		return fail(ld, ld->lineno, "expected 'key = value'");
	*after = '\0';
	/* A sample is a log line as written: only the one space after '='
	 * goes, so an indented line can be a sample. */
	char *value = s + 1;
	if (strcmp(key, "sample") == 0 || strcmp(key, "reject") == 0)
		value += *value == ' ';
	else
		value = trim(value);
	if (!*value)
		return fail(ld, ld->lineno, "'%s' has no value", key);
	return set_key(ld, key, value);
}

static void install(struct ruleset *rs, struct rule *r)
{
	for (size_t i = 0; i < rs->n; i++) {
		if (strcmp(rs->rules[i]->name, r->name) == 0) {
			rule_free(rs->rules[i]);
			rs->rules[i] = r;
			return;
		}
	}
	rs->rules = xrealloc(rs->rules, (rs->n + 1) * sizeof *rs->rules);
	rs->rules[rs->n++] = r;
}

static void grow_match_data(struct ruleset *rs, struct rule *r)
{
	uint32_t pairs = 0;

	pcre2_pattern_info(r->re, PCRE2_INFO_CAPTURECOUNT, &pairs);
	pairs++;
	if (rs->md && pairs <= rs->max_pairs)
		return;
	pcre2_match_data_free(rs->md);
	rs->max_pairs = pairs > rs->max_pairs ? pairs : rs->max_pairs;
	rs->md = pcre2_match_data_create(rs->max_pairs, NULL);
}

static void build_prefilters(struct ruleset *rs)
{
	prefilter_free(rs->prefilter);
	rs->prefilter = prefilter_new(rs->n);
	for (size_t i = 0; i < rs->n; i++)
		if (rs->rules[i]->stage != STAGE_FIELDS &&
		    rs->rules[i]->info.role != ROLE_PREFIX)
			prefilter_add(rs->prefilter, i, rs->rules[i]->pattern);
	free(rs->cand);
	rs->cand = xcalloc(rs->n ? rs->n : 1, 1);
}

int ruleset_load_text(struct ruleset *rs, const char *path, const char *text,
		      size_t len, struct strbuf *err)
{
	struct loader ld = { .path = path, .err = err };
	const char *p = text, *end = text + len;
	int rc = 0;

	const char *nul = memchr(text, '\0', len);
	if (nul) {
		unsigned long line = 1;
		for (const char *c = text; c < nul; c++)
			line += *c == '\n';
		return fail(&ld, line, "not a rules file (it holds NUL bytes)");
	}
	while (p < end && rc == 0) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char *line = xstrndup(p, n);
		ld.lineno++;
		rc = parse_line(&ld, line);
		free(line);
		p += n + (nl != NULL);
	}
	if (rc == 0)
		rc = finish_rule(&ld);
	if (rc == 0 && ld.n == 0)
		rc = fail(&ld, ld.lineno ? ld.lineno : 1, "no rules in file");
	for (size_t i = 0; i < ld.n; i++) {
		if (rc == 0) {
			grow_match_data(rs, ld.rules[i]);
			install(rs, ld.rules[i]);
		} else {
			rule_free(ld.rules[i]);
		}
	}
	if (rc == 0)
		build_prefilters(rs);
	rule_free(ld.cur);
	free(ld.rules);
	return rc;
}

int ruleset_load(struct ruleset *rs, const char *path, struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT;

	if (read_small_file(path, &text, 4 << 20) < 0) {
		sb_reset(err);
		sb_addf(err, "%s: %s", path, strerror(errno));
		sb_free(&text);
		return -1;
	}
	int rc = ruleset_load_text(rs, path, text.buf, text.len, err);
	sb_free(&text);
	return rc;
}

static void report_captures(struct rule *r, pcre2_match_data *md,
			    const char *text, capture_fn cap, void *ctx)
{
	uint32_t count = 0, entry = 0;
	PCRE2_SPTR table;
	PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);

	pcre2_pattern_info(r->re, PCRE2_INFO_NAMECOUNT, &count);
	if (!count)
		return;
	pcre2_pattern_info(r->re, PCRE2_INFO_NAMEENTRYSIZE, &entry);
	pcre2_pattern_info(r->re, PCRE2_INFO_NAMETABLE, &table);
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

	if (!(r->levels & LEVEL_BIT(level)))
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

static int match_picked(struct ruleset *rs, enum pick how, enum role role,
			enum plog_level level, const char *text, size_t len,
			rule_fn on_rule, capture_fn cap, void *ctx)
{
	int hits = 0;

	for (size_t i = 0; i < rs->n; i++) {
		struct rule *r = rs->rules[i];
		if (!picked(rs, i, how, role, level) ||
		    !rule_matches(r, text, len, rs->md))
			continue;
		hits++;
		if (on_rule)
			on_rule(ctx, &r->info);
		if (cap)
			report_captures(r, rs->md, text, cap, ctx);
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
	if (rs->prefilter)
		prefilter_scan(rs->prefilter, text, len, rs->cand);
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
		    !rule_matches(rs->rules[i], text, len, rs->md))
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
		while (r->info.role == ROLE_PREFIX && from < len &&
		       pcre2_match(r->re, (PCRE2_SPTR)text, len, from, 0,
				   rs->md, NULL) >= 0) {
			PCRE2_SIZE *ov = pcre2_get_ovector_pointer(rs->md);
			if (!best || ov[0] >= best_at) {
				best = r;
				best_at = ov[0];
			}
			from = ov[1] > ov[0] ? ov[1] : ov[0] + 1;
		}
	}
	if (best && pcre2_match(best->re, (PCRE2_SPTR)text, len, best_at,
				PCRE2_ANCHORED, rs->md, NULL) >= 0)
		report_captures(best, rs->md, text, cap, ctx);
}
