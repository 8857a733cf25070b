#include "config.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "logname.h"
#include "xalloc.h"

struct name_sample {
	char *text;
	unsigned long line;
	int reject;
};

struct logname_rule {
	char *name;
	unsigned long line;		/* of [file NAME] */
	char *pattern;
	unsigned long pattern_line;
	struct name_sample *samples;
	size_t nsamples;
	pcre2_code *re;
	int stamp;			/* the number of the stamp group */
	uint32_t pairs;			/* ovector pairs a match needs */
	int first;			/* the byte every match starts with
					 * (ASCII, case folded), or -1 */
};

struct lognames {
	struct logname_rule **v;
	size_t n;
	/* Scratch for every pattern: a set belongs to one ruleset, and a
	 * ruleset to one thread. */
	pcre2_match_data *md;
};

static int ends_with(const char *s, size_t n, const char *sfx)
{
	size_t k = strlen(sfx);

	return n > k && memcmp(s + n - k, sfx, k) == 0;
}

/* An archive member's path is the archive's, a colon and the member's
 * (bundle.tar.gz:plog-4711_20260101000000000.log): its name is the
 * member's, wherever in the archive it lies. */
static const char *base_name(const char *path)
{
	static const char *const archives[] = { ".tar", ".tar.gz", ".tgz",
		".tar.xz", ".txz", ".tar.zst", ".tzst" };
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;

	for (const char *c = strrchr(base, ':'); c; c = NULL)
		for (size_t i = 0; i < sizeof archives / sizeof *archives; i++)
			if (ends_with(base, (size_t)(c - base), archives[i]))
				return c + 1;
	return base;
}

/* A compressed file's name is its name without .gz, .xz or .zst (a
 * rotated plog-4711_20260101000000000.log.gz is of the plog family):
 * the name to match, in tmp when cut. */
static const char *plain_name(const char *base, char *tmp, size_t cap)
{
	static const char *const sfx[] = { ".gz", ".xz", ".zst" };
	size_t n = strlen(base);

	for (size_t i = 0; i < sizeof sfx / sizeof *sfx; i++)
		if (ends_with(base, n, sfx[i]) && n < cap) {
			size_t k = n - strlen(sfx[i]);
			memcpy(tmp, base, k);
			tmp[k] = 0;
			return tmp;
		}
	return base;
}

static int fold(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

/* PCRE2's allocations through ours, which cannot fail. */
static void *px_malloc(PCRE2_SIZE n, void *data)
{
	(void)data;
	return xmalloc(n ? n : 1);
}

static void px_free(void *p, void *data)
{
	(void)data;
	free(p);
}

/* Match data for up to pairs captures, from allocations that cannot
 * fail. */
static pcre2_match_data *match_data(uint32_t pairs)
{
	pcre2_general_context *gc =
		pcre2_general_context_create(px_malloc, px_free, NULL);
	pcre2_match_data *md = pcre2_match_data_create(pairs, gc);

	pcre2_general_context_free(gc);
	return md;
}

/* Where the stamp of a name that r matches whole starts (-1: no match).
 * Names are matched once per file (three times as it is set up), never
 * per line: JIT-compiled, a pattern costs tens of nanoseconds. */
static long rule_match(const struct logname_rule *r, const char *base,
		       pcre2_match_data *md, unsigned long long *stamp)
{
	long at = -1;

	/* Most names are not of this family: their first byte says so
	 * without a match. */
	if (r->first >= 0 && fold((unsigned char)base[0]) != r->first)
		return -1;
	if (pcre2_match(r->re, (PCRE2_SPTR)base, strlen(base), 0, 0, md,
			NULL) > r->stamp) {
		PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
		if (ov[2 * r->stamp] != PCRE2_UNSET) {
			at = (long)ov[2 * r->stamp];
			*stamp = strtoull(base + at, NULL, 10);
		}
	}
	return at;
}

/* The length of the name up to the stamp (the family part), 0 for a name
 * of no family. */
static size_t family_of(const struct lognames *ln, const char *base,
			unsigned long long *stamp)
{
	*stamp = 0;
	for (size_t i = 0; ln && i < ln->n; i++) {
		long at = rule_match(ln->v[i], base, ln->md, stamp);
		if (at > 0)
			return (size_t)at;
		*stamp = 0;
	}
	return 0;
}

void logname_parse(const struct lognames *ln, const char *path,
		   struct logname *out)
{
	char tmp[256];
	size_t family = family_of(ln, plain_name(base_name(path), tmp,
						 sizeof tmp), &out->stamp);

	out->kind = family ? FILE_PLOG : FILE_MIXED;
}

void logname_stream(const struct lognames *ln, struct strbuf *key,
		    const char *path)
{
	const char *base = base_name(path);
	unsigned long long stamp;
	char tmp[256];
	size_t family = family_of(ln, plain_name(base, tmp, sizeof tmp),
				  &stamp);

	/* The directory and the name up to the stamp: rotation changes
	 * only the stamp. */
	sb_add(key, path, (size_t)(base - path) + (family ? family
						   : strlen(base)));
}

enum file_kind file_kind_of(const struct lognames *ln, const char *path)
{
	struct logname out;

	logname_parse(ln, path, &out);
	return out.kind;
}

/* ---- loading ---- */

struct lognames *lognames_new(void)
{
	return xcalloc(1, sizeof(struct lognames));
}

void logname_rule_free(struct logname_rule *r)
{
	if (!r)
		return;
	free(r->name);
	free(r->pattern);
	for (size_t i = 0; i < r->nsamples; i++)
		free(r->samples[i].text);
	free(r->samples);
	pcre2_code_free(r->re);
	free(r);
}

void lognames_free(struct lognames *ln)
{
	if (!ln)
		return;
	for (size_t i = 0; i < ln->n; i++)
		logname_rule_free(ln->v[i]);
	free(ln->v);
	pcre2_match_data_free(ln->md);
	free(ln);
}

size_t lognames_count(const struct lognames *ln)
{
	return ln ? ln->n : 0;
}

static size_t find(const struct lognames *ln, const char *name)
{
	for (size_t i = 0; i < ln->n; i++)
		if (strcmp(ln->v[i]->name, name) == 0)
			return i;
	return (size_t)-1;
}

static void append(struct lognames *ln, struct logname_rule *r)
{
	ln->v = xrealloc(ln->v, (ln->n + 1) * sizeof *ln->v);
	ln->v[ln->n++] = r;
}

int logname_rule_start(struct lognames *pending, struct logname_rule **cur,
		       const char *name, unsigned long line,
		       struct strbuf *err)
{
	if (find(pending, name) != (size_t)-1) {
		sb_addf(err, _("file rule '%s' is defined twice in this file"),
			name);
		return -1;
	}
	*cur = xcalloc(1, sizeof **cur);
	(*cur)->name = xstrdup(name);
	(*cur)->line = line;
	return 0;
}

int logname_rule_key(struct logname_rule *r, const char *key,
		     const char *value, unsigned long line, struct strbuf *err)
{
	if (strcmp(key, "match") == 0) {
		if (r->pattern) {
			sb_addf(err, _("file rule '%s' has two match keys"),
				r->name);
			return -1;
		}
		r->pattern = xstrdup(value);
		r->pattern_line = line;
		return 0;
	}
	if (strcmp(key, "sample") == 0 || strcmp(key, "reject") == 0) {
		r->samples = xrealloc(r->samples,
				      (r->nsamples + 1) * sizeof *r->samples);
		r->samples[r->nsamples++] = (struct name_sample){
			xstrdup(value), line, key[0] == 'r',
		};
		return 0;
	}
	sb_addf(err, _("'%s' cannot be used in a [file NAME] section (only "
		       "match, sample and reject)"), key);
	return -1;
}

/* A name must match whole: the pattern is anchored at both ends. */
static int compile(struct logname_rule *r, struct strbuf *err,
		   unsigned long *line)
{
	int code;
	PCRE2_SIZE off;

	*line = r->pattern_line;
	r->re = pcre2_compile((PCRE2_SPTR)r->pattern, PCRE2_ZERO_TERMINATED,
			      PCRE2_UTF | PCRE2_MATCH_INVALID_UTF |
			      PCRE2_ANCHORED | PCRE2_ENDANCHORED,
			      &code, &off, NULL);
	if (!r->re) {
		PCRE2_UCHAR msg[256];
		pcre2_get_error_message(code, msg, sizeof msg);
		sb_addf(err, _("bad pattern in rule '%s': %s at offset %zu"),
			r->name, (const char *)msg, (size_t)off);
		return -1;
	}
	/* JIT is an optimisation: where it is missing the interpreter
	 * runs. */
	pcre2_jit_compile(r->re, PCRE2_JIT_COMPLETE);
	r->stamp = pcre2_substring_number_from_name(r->re,
						     (PCRE2_SPTR)"stamp");
	if (r->stamp <= 0) {
		sb_addf(err, _("file rule '%s' needs a group named stamp, "
			       "(?<stamp>\\d+)"), r->name);
		return -1;
	}
	uint32_t groups = 0;
	pcre2_pattern_info(r->re, PCRE2_INFO_CAPTURECOUNT, &groups);
	r->pairs = groups + 1;
	uint32_t type = 0, unit = 0;
	pcre2_pattern_info(r->re, PCRE2_INFO_FIRSTCODETYPE, &type);
	pcre2_pattern_info(r->re, PCRE2_INFO_FIRSTCODEUNIT, &unit);
	/* Type 1: a fixed first code unit.  PCRE2 reports one for a
	 * caseless start too (either case), so it is compared folded; k and
	 * s have caseless partners beyond ASCII (KELVIN SIGN, LONG S). */
	r->first = type == 1 && unit < 0x80 ? fold((unsigned char)unit) : -1;
	if (r->first == 'k' || r->first == 's')
		r->first = -1;
	return 0;
}

static int check_samples(const struct logname_rule *r, struct strbuf *err,
			 unsigned long *line)
{
	int samples = 0;
	pcre2_match_data *md = match_data(r->pairs);
	int rc = -1;

	for (size_t i = 0; i < r->nsamples; i++) {
		const struct name_sample *s = &r->samples[i];
		unsigned long long stamp;
		long at = rule_match(r, s->text, md, &stamp);
		*line = s->line;
		if (!s->reject && at <= 0) {
			sb_addf(err, _("file rule '%s' does not match its sample "
				       "(a whole name, with a stamp after "
				       "the family part)"), r->name);
			goto out;
		}
		if (s->reject && at >= 0) {
			sb_addf(err, _("file rule '%s' matches a name it must "
				       "reject"), r->name);
			goto out;
		}
		samples += !s->reject;
	}
	if (!samples) {
		*line = r->line;
		sb_addf(err, _("file rule '%s' has no sample"), r->name);
		goto out;
	}
	rc = 0;
out:
	pcre2_match_data_free(md);
	return rc;
}

int logname_rule_finish(struct lognames *pending, struct logname_rule **cur,
			struct strbuf *err, unsigned long *line)
{
	struct logname_rule *r = *cur;

	*cur = NULL;
	if (!r)
		return 0;
	if (!r->pattern) {
		*line = r->line;
		sb_addf(err, _("file rule '%s' has no match"), r->name);
	} else if (compile(r, err, line) == 0 &&
		   check_samples(r, err, line) == 0) {
		append(pending, r);
		return 0;
	}
	logname_rule_free(r);
	return -1;
}

void lognames_merge(struct lognames *to, struct lognames *from)
{
	for (size_t i = 0; i < from->n; i++) {
		struct logname_rule *r = from->v[i];
		size_t at = find(to, r->name);
		if (at == (size_t)-1) {
			append(to, r);
		} else {
			logname_rule_free(to->v[at]);
			to->v[at] = r;
		}
	}
	free(from->v);
	from->v = NULL;
	from->n = 0;
	uint32_t pairs = 1;
	for (size_t i = 0; i < to->n; i++)
		if (to->v[i]->pairs > pairs)
			pairs = to->v[i]->pairs;
	pcre2_match_data_free(to->md);
	to->md = match_data(pairs);
}
