/* Loading a rules file: its syntax, the consistency of each rule, and
 * the proof by samples (see doc/plogtop-rules.5).  Matching is
 * rules.c. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "fileio.h"
#include "fact.h"
#include "logname.h"
#include "rules_int.h"
#include "xalloc.h"

#define NAMES(a) (sizeof(a) / sizeof((a)[0]))

/* ---- parsing the file ---- */

struct loader {
	const char *path;
	unsigned long lineno;
	struct strbuf *err;
	struct rule *cur;
	struct rule **rules;
	size_t n, cap;
	struct rule_index names;	/* of this file's rules */
	pcre2_match_context *mctx;
	struct logname_rule *curfile;	/* a [file NAME] section */
	struct lognames *files;		/* this file's [file NAME] sections */
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

/* The names a rule may give, from the taxonomy: every resource but
 * unknown, which is what an incident gets when no line says one. */
static int unknown_resource(struct loader *ld, const char *v)
{
	struct strbuf list = STRBUF_INIT;
	enum resource last = RES_NONE;

	for (enum resource r = RES_NONE + 1; r < RES_COUNT; r++)
		if (r != RES_UNKNOWN)
			last = r;
	for (enum resource r = RES_NONE + 1; r < RES_COUNT; r++) {
		if (r == RES_UNKNOWN)
			continue;
		if (!list.len) {
			sb_adds(&list, resource_name(r));
			continue;
		}
		char *before = sb_detach(&list);
		/* TRANSLATORS: a list of names: its last two, its others. */
		sb_addf(&list, r == last ? _("%s or %s") : _("%s, %s"), before,
			resource_name(r));
		free(before);
	}
	int rc = fail(ld, ld->lineno, _("unknown resource '%s' (use %s; "
		      "leave it out when the line does not say)"), v,
		      sb_str(&list));
	sb_free(&list);
	return rc;
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

/* Every level is a name here; only fact rules may use those other than
 * ERROR and SCREEN (check_consistency says so), since only ERROR
 * records and screen output reach the other rules. */
static int parse_levels(struct loader *ld, struct rule *r, const char *v)
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
		if (i == NAMES(names)) {
			fail(ld, ld->lineno, _("level '%s' cannot be used: only "
			     "ERROR records and SCREEN output reach the rules"),
			     tok);
			free(copy);
			return -1;
		}
		if (names[i].level != LEVEL_ERROR &&
		    names[i].level != LEVEL_SCREEN && !r->bad_level)
			r->bad_level = xstrdup(tok);
		bits |= LEVEL_BIT(names[i].level);
	}
	free(copy);
	if (!bits)
		return fail(ld, ld->lineno, _("levels needs at least one level"));
	r->levels = bits;
	r->levels_line = ld->lineno;
	return 0;
}

/* modules = ASCENDCL RUNTIME: the plog modules a fact rule sees. */
static int parse_modules(struct loader *ld, struct rule *r, const char *v)
{
	char *copy = xstrdup(v), *save = NULL;

	for (char *tok = strtok_r(copy, " ,", &save); tok;
	     tok = strtok_r(NULL, " ,", &save)) {
		if (r->nmodules == RULE_MODULES_MAX) {
			free(copy);
			return fail(ld, ld->lineno, _("more than %d modules"),
				    RULE_MODULES_MAX);
		}
		r->modules[r->nmodules++] = xstrdup(tok);
	}
	free(copy);
	return 0;
}

static int set_key(struct loader *ld, const char *key, const char *v)
{
	struct rule *r = ld->cur;

	if (strcmp(key, "match") == 0) {
		if (r->pattern)
			return fail(ld, ld->lineno, _("a rule has one match"));
		r->pattern = xstrdup(v);
		r->line = ld->lineno;
	} else if (strcmp(key, "role") == 0) {
		int i = role_from_name(v);
		if (i < 0)
			return fail(ld, ld->lineno, _("unknown role '%s'"), v);
		r->info.role = (enum role)i;
	} else if (strcmp(key, TAX_KEY_CODE) == 0) {
		r->class_line = ld->lineno;
		if (!(r->info.code = code_from_name(v)))
			return fail(ld, ld->lineno,
				    _("unknown code '%s' (EE1023 or EE1001)"), v);
	} else if (strcmp(key, TAX_KEY_RESOURCE) == 0) {
		r->class_line = ld->lineno;
		r->info.resource = resource_from_name(v);
		if (!r->info.resource || r->info.resource == RES_UNKNOWN)
			return unknown_resource(ld, v);
	} else if (strcmp(key, TAX_KEY_CAUSE) == 0) {
		r->class_line = ld->lineno;
		r->info.cause = cause_from_name(v);
		if (!r->info.cause || r->info.cause == CAUSE_UNKNOWN)
			return fail(ld, ld->lineno, _("unknown cause '%s' (leave "
				    "it out when the line does not say)"), v);
	} else if (strcmp(key, "weight") == 0) {
		char *end;
		long w = strtol(v, &end, 10);
		if (*end || w < 1 || w > 100)
			return fail(ld, ld->lineno,
				    _("weight must be a number from 1 to 100"));
		r->info.weight = (int)w;
	} else if (strcmp(key, "levels") == 0) {
		return parse_levels(ld, r, v);
	} else if (strcmp(key, "fact") == 0) {
		enum fact_kind k = fact_kind_from_name(v);
		if (k == FACT_KIND_COUNT)
			return fail(ld, ld->lineno, _("unknown fact '%s' (device, "
				    "rank, create, created, destroyed or "
				    "statistics)"), v);
		r->info.fact = 1 + (int)k;
	} else if (strcmp(key, "modules") == 0) {
		return parse_modules(ld, r, v);
	} else if (strcmp(key, "sample") == 0 || strcmp(key, "reject") == 0) {
		r->samples = xrealloc(r->samples,
				      (r->nsamples + 1) * sizeof *r->samples);
		r->samples[r->nsamples++] = (struct sample){
			xstrdup(v), key[0] == 's', ld->lineno
		};
	} else {
		return fail(ld, ld->lineno, _("unknown key '%s' (match, role, "
			    "code, resource, cause, weight, levels, fact, "
			    "modules, sample, reject)"), key);
	}
	return 0;
}

static int check_consistency(struct loader *ld, struct rule *r)
{
	enum resource res = r->info.resource;
	enum code code = r->info.code;

	if (!r->pattern)
		return fail(ld, r->line, _("rule '%s' has no match"), r->name);
	if (r->bad_level && !r->info.fact)
		return fail(ld, r->levels_line, _("level '%s' cannot be used: "
			    "only ERROR records and SCREEN output reach the "
			    "rules"), r->bad_level);
	if (r->nmodules && !r->info.fact)
		return fail(ld, r->line, _("rule '%s': modules is for fact "
			    "rules only"), r->name);
	if (r->info.fact && (r->info.role || code || r->info.cause))
		return fail(ld, r->line, _("fact rule '%s' has no role, code "
			    "or cause: it says what a process did, not why a "
			    "call failed"), r->name);
	if (res && code && code_of_resource(res) != code)
		return fail(ld, r->class_line, _("resource %s belongs to %s"),
			    resource_name(res), code_name(code_of_resource(res)));
	enum code cause_code = code_of_resource(resource_of_cause(r->info.cause));
	if (r->info.cause && code && cause_code != code)
		return fail(ld, r->class_line, _("cause %s belongs to %s"),
			    cause_name(r->info.cause), code_name(cause_code));
	if (r->info.cause && res && res != resource_of_cause(r->info.cause))
		return fail(ld, r->class_line, _("cause %s belongs to resource "
			    "%s"), cause_name(r->info.cause),
			    resource_name(resource_of_cause(r->info.cause)));
	int has_sample = 0;
	for (size_t i = 0; i < r->nsamples; i++)
		has_sample |= r->samples[i].must_match;
	if (!has_sample)
		return fail(ld, r->line, _("rule '%s' has no sample line"),
			    r->name);
	return 0;
}

static int compile_rule(struct loader *ld, struct rule *r)
{
	int errcode;
	PCRE2_SIZE erroff;

	r->re = rule_compile(r->pattern, &errcode, &erroff);
	if (!r->re) {
		PCRE2_UCHAR msg[256];
		pcre2_get_error_message(errcode, msg, sizeof msg);
		return fail(ld, r->line, _("bad pattern in rule '%s': %s at "
			    "offset %zu"), r->name, (char *)msg, (size_t)erroff);
	}
	return 0;
}

/* Whether the prefilter lists the rule for text: it must for every line
 * the rule matches, or the rule would silently never fire there. */
static int prefilter_lists(const struct rule *r, const char *text,
			   size_t len)
{
	if (r->stage == STAGE_FIELDS || r->info.role == ROLE_PREFIX)
		return 1;
	/* Not a prefilter of its own: its 40 KiB, cleared and freed for
	 * each sample, were a fifth of loading the rules (per thread). */
	return prefilter_lists_pattern(r->pattern, text, len);
}

/* Whether a fact rule's modules take the sample's record. */
static int module_applies(const struct rule *r, const char *text, size_t len,
			  enum plog_level level)
{
	struct plog_header h;
	size_t lead = 0;

	if (!r->nmodules || level == LEVEL_SCREEN)
		return 1;
	while (lead < len && (text[lead] == ' ' || text[lead] == '\t'))
		lead++;
	if (!plog_parse(text + lead, len - lead, &h))
		return 0;
	return rule_takes_module(r, text + lead + h.module.off, h.module.len);
}

/* Samples are whole log lines: the rule sees them as it would in a log.
 * Each also goes through the match limits and the prefilter. */
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
			      ((r->levels & LEVEL_BIT(level)) &&
			       module_applies(r, s->text, len, level));
		int hit = rule_exec(r->re, s->text + off, len - off, 0, 0, md,
				    ld->mctx);
		if (hit < 0)
			rc = fail(ld, s->line, _("rule '%s' costs too much on "
				  "this line: PCRE2 reached its match, depth "
				  "or heap limit (look for nested quantifiers "
				  "such as (a+)+)"), r->name);
		else if (s->must_match && !hit)
			rc = fail(ld, s->line, _("rule '%s' does not match its "
				  "sample"), r->name);
		else if (s->must_match && !applies)
			rc = fail(ld, s->line, _("rule '%s' does not apply to the "
				  "level of its sample (%s)"), r->name,
				  plog_level_name(level));
		else if (!s->must_match && hit && applies)
			rc = fail(ld, s->line, _("rule '%s' matches a line it "
				  "must reject"), r->name);
		else if (hit && !prefilter_lists(r, s->text + off, len - off))
			rc = fail(ld, s->line, _("rule '%s' matches this line but "
				  "plogtop's literal prefilter would skip it "
				  "(a plogtop bug: please report the pattern)"),
				  r->name);
	}
	pcre2_match_data_free(md);
	return rc;
}

static int captures_name(const struct rule *r, const char *name)
{
	int n = pcre2_substring_number_from_name(r->re, (PCRE2_SPTR)name);

	return n >= 0 || n == PCRE2_ERROR_NOUNIQUESUBSTRING;
}

static int captures_reported(const struct rule *r)
{
	return captures_name(r, "reported");
}

static enum stage stage_of(const struct rule *r)
{
	if (r->info.fact)
		return STAGE_FACT;
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
	if (check_consistency(ld, r) || compile_rule(ld, r)) {
		rule_free(r);
		return -1;
	}
	r->stage = stage_of(r);
	r->names_process = captures_name(r, "pid") || captures_name(r, "name");
	if (check_samples(ld, r)) {
		rule_free(r);
		return -1;
	}
	if (ld->n == ld->cap) {
		ld->cap = ld->cap ? ld->cap * 2 : 64;
		ld->rules = xrealloc(ld->rules, ld->cap * sizeof *ld->rules);
	}
	ld->rules[ld->n++] = r;
	rule_index_add(&ld->names, ld->rules, ld->n - 1);
	return 0;
}

/* [file NAME] sections are file names (logname.c). */
static int finish_file(struct loader *ld)
{
	unsigned long line = ld->lineno;
	struct strbuf msg = STRBUF_INIT;
	int rc = logname_rule_finish(ld->files, &ld->curfile, &msg, &line);

	if (rc)
		fail(ld, line, "%s", sb_str(&msg));
	sb_free(&msg);
	return rc;
}

static int finish_section(struct loader *ld)
{
	return finish_rule(ld) || finish_file(ld) ? -1 : 0;
}

static char *section_name(struct loader *ld, char *s, size_t skip,
			  const char *expected)
{
	char *name = trim(s + skip);
	size_t n = strlen(name);

	if (n < 2 || name[n - 1] != ']') {
		fail(ld, ld->lineno, "%s", expected);
		return NULL;
	}
	name[n - 1] = '\0';
	name = trim(name);
	if (!*name) {
		fail(ld, ld->lineno, _("a rule needs a name"));
		return NULL;
	}
	for (char *p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '-' && *p != '_' &&
		    *p != '.') {
			fail(ld, ld->lineno, _("bad rule name '%s' (use "
			     "letters, digits, '-', '_', '.')"), name);
			return NULL;
		}
	return name;
}

static int start_file(struct loader *ld, char *s)
{
	char *name = section_name(ld, s, strlen("[file"), "expected [file NAME]");
	struct strbuf msg = STRBUF_INIT;

	if (!name || finish_section(ld))
		return -1;
	int rc = logname_rule_start(ld->files, &ld->curfile, name, ld->lineno,
				    &msg);
	if (rc)
		fail(ld, ld->lineno, "%s", sb_str(&msg));
	sb_free(&msg);
	return rc;
}

static int start_rule(struct loader *ld, char *s)
{
	char *name = section_name(ld, s, strlen("[rule"), "expected [rule NAME]");

	if (!name || finish_section(ld))
		return -1;
	if (rule_index_find(&ld->names, ld->rules, name) != (size_t)-1)
		return fail(ld, ld->lineno, _("rule '%s' is defined "
			    "twice in this file"), name);
	if (ld->n >= RULES_MAX)
		return fail(ld, ld->lineno, _("more than %u rules: that is "
			    "the limit"), RULES_MAX);
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
	if (strncmp(s, "[file", 5) == 0 && (s[5] == ' ' || s[5] == '\t'))
		return start_file(ld, s);
	if (*s == '[')
		return fail(ld, ld->lineno, "expected [rule NAME]");
	if (!ld->cur && !ld->curfile)
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
		return fail(ld, ld->lineno, _("'%s' has no value"), key);
	if (ld->curfile) {
		struct strbuf msg = STRBUF_INIT;
		int rc = logname_rule_key(ld->curfile, key, value, ld->lineno,
					  &msg);
		if (rc)
			fail(ld, ld->lineno, "%s", sb_str(&msg));
		sb_free(&msg);
		return rc;
	}
	return set_key(ld, key, value);
}


int ruleset_load_text(struct ruleset *rs, const char *path, const char *text,
		      size_t len, struct strbuf *err)
{
	struct loader ld = {
		.path = path, .err = err, .mctx = rs->mctx,
	};
	const char *p = text, *end = text + len;
	int rc = 0;

	const char *nul = memchr(text, '\0', len);
	if (nul) {
		unsigned long line = 1;
		for (const char *c = text; c < nul; c++)
			line += *c == '\n';
		return fail(&ld, line, _("not a rules file (it holds NUL bytes)"));
	}
	if (len > RULES_FILE_MAX) {
		unsigned long line = 1;
		for (const char *c = text; c < text + RULES_FILE_MAX; c++)
			line += *c == '\n';
		return fail(&ld, line, _("larger than %u KiB, the limit for a "
			    "rules file"), RULES_FILE_MAX / 1024);
	}
	/* Made only now: the refusals above return before anything is. */
	ld.files = lognames_new();
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
		rc = finish_section(&ld);
	if (rc == 0 && ld.n == 0 && lognames_count(ld.files) == 0)
		rc = fail(&ld, ld.lineno ? ld.lineno : 1, _("no rules in file"));
	if (rc == 0) {
		ruleset_install(rs, ld.rules, ld.n);
		lognames_merge(rs->files, ld.files);
	} else {
		for (size_t i = 0; i < ld.n; i++)
			rule_free(ld.rules[i]);
	}
	rule_free(ld.cur);
	logname_rule_free(ld.curfile);
	lognames_free(ld.files);
	rule_index_free(&ld.names);
	free(ld.rules);
	return rc;
}

int ruleset_load(struct ruleset *rs, const char *path, struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT;

	if (read_data_file(path, _("rules file"), RULES_FILE_MAX, &text, err) < 0) {
		sb_free(&text);
		return -1;
	}
	int rc = ruleset_load_text(rs, path, text.buf, text.len, err);
	sb_free(&text);
	return rc;
}
