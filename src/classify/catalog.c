#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "fileio.h"
#include "i18n.h"
#include "sanitize.h"
#include "xalloc.h"

struct entry {
	char *section;		/* "EE1023/stream/streams_created", "ui" */
	char *key;
	char *text;
};

/* The keys every class has, found once at load: a report renders two
 * of them for each of tens of thousands of incidents. */
static const char *const class_keys[] = { "title", "summary", "fix" };
#define NKEYS (sizeof class_keys / sizeof class_keys[0])

struct catalog {
	struct entry *v;
	size_t n;
	const char *by_class[CODE_COUNT][RES_COUNT][CAUSE_COUNT][NKEYS];
	char lang[I18N_LANG_MAX];
};

static void index_classes(struct catalog *cat);

void catalog_free(struct catalog *cat)
{
	if (!cat)
		return;
	for (size_t i = 0; i < cat->n; i++) {
		free(cat->v[i].section);
		free(cat->v[i].key);
		free(cat->v[i].text);
	}
	free(cat->v);
	free(cat);
}

static const char *lookup(const struct catalog *cat, const char *section,
			  const char *key)
{
	/* The key's first byte first: loading the index looks up each
	 * class's keys in every entry, and most entries are of other keys. */
	for (size_t i = 0; i < cat->n; i++)
		if (cat->v[i].key[0] == key[0] &&
		    strcmp(cat->v[i].key, key) == 0 &&
		    strcmp(cat->v[i].section, section) == 0)
			return cat->v[i].text;
	return NULL;
}

/* How deep {?field:...} templates nest in text. */
static int nesting(const char *text)
{
	int depth = 0, max = 0;

	for (; *text; text++) {
		if (*text == '{' && ++depth > max)
			max = depth;
		else if (*text == '}' && depth > 0)
			depth--;
	}
	return max;
}

static int add_entry(struct catalog *cat, const char *section,
		     const char *key, struct strbuf *text, const char *path,
		     unsigned long line, struct strbuf *err)
{
	while (text->len && text->buf[text->len - 1] == '\n')
		text->buf[--text->len] = '\0';
	/* Rendering recurses once per level: keep the stack bounded. */
	if (nesting(sb_str(text)) > CATALOG_MAX_NESTING) {
		sb_addf(err, _("%s:%lu: templates nest more than %d deep"),
			path, line, CATALOG_MAX_NESTING);
		sb_reset(text);
		return -1;
	}
	cat->v = xrealloc(cat->v, (cat->n + 1) * sizeof *cat->v);
	cat->v[cat->n++] = (struct entry){
		xstrdup(section), xstrdup(key), sb_detach(text)
	};
	return 0;
}

/* The format: "[section]" lines; "key: text" on one line, or "key:"
 * followed by indented lines (indentation removed, line breaks kept);
 * "#" starts a comment line. */
struct catalog *catalog_load_text(const char *path, const char *text,
				  size_t len, struct strbuf *err)
{
	struct catalog *cat = xcalloc(1, sizeof *cat);
	char *copy = xstrndup(text, len), *save = NULL;
	char *section = NULL, *key = NULL;
	struct strbuf value = STRBUF_INIT;
	unsigned long lineno = 0, key_line = 0;
	int bad = 0;

	for (char *line = copy; line && !bad; line = save) {
		save = strchr(line, '\n');
		if (save)
			*save++ = '\0';
		lineno++;
		size_t n = strlen(line);
		if (n && line[n - 1] == '\r')
			line[--n] = '\0';
		if (line[0] == ' ' || line[0] == '\t') {
			char *s = line + strspn(line, " \t");
			if (!key && *s) {
				sb_addf(err, _("%s:%lu: indented text outside "
					"a key"), path, lineno);
				bad = 1;
			} else if (key) {
				sb_adds(&value, s);
				sb_addc(&value, '\n');
			}
			continue;
		}
		if (key) {
			bad = add_entry(cat, section, key, &value, path,
					key_line, err) < 0;
			free(key);
			key = NULL;
			if (bad)
				continue;
		}
		if (!*line || *line == '#')
			continue;
		if (*line == '[') {
			char *end = strchr(line, ']');
			if (!end || end[1] || end == line + 1) {
				sb_addf(err, _("%s:%lu: expected [section]"),
					path, lineno);
				bad = 1;
				continue;
			}
			free(section);
			section = xstrndup(line + 1, (size_t)(end - line - 1));
			continue;
		}
		char *colon = strchr(line, ':');
		if (!section || !colon || colon == line) {
			sb_addf(err, _("%s:%lu: expected 'key: text' inside a "
				"[section]"), path, lineno);
			bad = 1;
			continue;
		}
		key = xstrndup(line, (size_t)(colon - line));
		key_line = lineno;
		sb_adds(&value, colon + 1 + strspn(colon + 1, " \t"));
		if (value.len)
			sb_addc(&value, '\n');
	}
	if (key && !bad)
		bad = add_entry(cat, section, key, &value, path, key_line,
				err) < 0;
	free(key);
	free(section);
	free(copy);
	sb_free(&value);
	if (bad) {
		catalog_free(cat);
		return NULL;
	}
	index_classes(cat);
	return cat;
}

struct catalog *catalog_load(const char *path, struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT;

	if (read_data_file(path, _("message file"), CATALOG_FILE_MAX, &text,
			   err) < 0) {
		sb_free(&text);
		return NULL;
	}
	struct catalog *cat = catalog_load_text(path, text.buf, text.len, err);
	sb_free(&text);
	return cat;
}

const char *catalog_text(const struct catalog *cat, const char *key)
{
	const char *t = cat ? lookup(cat, "ui", key) : NULL;

	return t ? t : key;
}

static const char *find_class_text(const struct catalog *cat,
				   enum code code, enum resource res,
				   enum cause cause, const char *key)
{
	char sec[96];
	const char *t;

	snprintf(sec, sizeof sec, "%s/%s/%s", code_name(code),
		 resource_name(res), cause_name(cause));
	if ((t = lookup(cat, sec, key)))
		return t;
	snprintf(sec, sizeof sec, "%s/%s/*", code_name(code),
		 resource_name(res));
	if ((t = lookup(cat, sec, key)))
		return t;
	snprintf(sec, sizeof sec, "%s/*/*", code_name(code));
	return lookup(cat, sec, key);
}

const char *catalog_lang(const struct catalog *cat)
{
	return cat->lang;
}

static const char *translated(const char *t)
{
	return t ? _(t) : NULL;
}

static void index_classes(struct catalog *cat)
{
	char lang[I18N_LANG_MAX];

	snprintf(cat->lang, sizeof cat->lang, "%s", i18n_lang(lang));
	for (enum code c = CODE_NONE; c < CODE_COUNT; c++)
		for (enum resource r = RES_NONE; r < RES_COUNT; r++)
			for (enum cause k = CAUSE_NONE; k < CAUSE_COUNT; k++)
				for (size_t i = 0; i < NKEYS; i++)
					cat->by_class[c][r][k][i] = translated(
						find_class_text(cat, c, r, k,
								class_keys[i]));
}

/* The template, translated: the English template is the msgid
 * (po/catalog.pot), and its translation a template with the same
 * placeholders.  Those of the index were translated at load, in the
 * locale main() set before. */
static const char *class_text(const struct catalog *cat, enum code code,
			      enum resource res, enum cause cause,
			      const char *key)
{
	if ((unsigned)code < CODE_COUNT && (unsigned)res < RES_COUNT &&
	    (unsigned)cause < CAUSE_COUNT)
		for (size_t i = 0; i < NKEYS; i++)
			if (strcmp(key, class_keys[i]) == 0)
				return cat->by_class[code][res][cause][i];
	return translated(find_class_text(cat, code, res, cause, key));
}

/* Whether the len bytes at name are lit. */
static int is_name(const char *name, size_t len, const char *lit)
{
	return strlen(lit) == len && memcmp(name, lit, len) == 0;
}

/* The value a template name (len bytes at name) stands for, or NULL. */
static const char *value_of(const struct incident *inc, const char *name,
			    size_t len, char *num)
{
	if (is_name(name, len, "pid")) {
		snprintf(num, 32, "%ld", inc->pid);
		return inc->pid ? num : NULL;
	}
	if (is_name(name, len, "name"))
		return inc->name && *inc->name ? inc->name : NULL;
	if (is_name(name, len, TAX_KEY_CODE))
		return code_name(inc->code);
	if (is_name(name, len, TAX_KEY_RESOURCE))
		return resource_name(inc->resource);
	if (is_name(name, len, TAX_KEY_CAUSE))
		return cause_name(inc->cause);
	if (is_name(name, len, "reported_code"))
		return inc->reported_code;
	const char *v = incident_field_n(inc, name, len);
	return v && *v ? v : NULL;
}

/* The brace that closes the one at open, or end: conditionals nest
 * placeholders.  Braces are found by strcspn, not byte by byte: a fix's
 * conditional spans hundreds of bytes, rendered for every incident.  The
 * text is NUL-terminated at or after end (a template's tail). */
static const char *matching_brace(const char *open, const char *end)
{
	int depth = 0;

	for (const char *p = open; p < end && *p; p++) {
		p += strcspn(p, "{}");
		if (p >= end || !*p)
			break;
		depth += *p == '{' ? 1 : -1;
		if (depth == 0)
			return p;
	}
	return end;
}

static void render(const char *t, const char *end, const struct incident *inc,
		   struct strbuf *out, int level)
{
	char num[32];

	while (t < end) {
		const char *open = memchr(t, '{', (size_t)(end - t));
		if (!open) {
			sb_add(out, t, (size_t)(end - t));
			return;
		}
		sb_add(out, t, (size_t)(open - t));
		const char *close = matching_brace(open, end);
		if (close >= end) {
			sb_add(out, open, (size_t)(end - open));
			return;
		}
		if (open[1] == '?' || open[1] == '!') {
			const char *colon = memchr(open, ':', (size_t)(close - open));
			if (colon) {
				int present = value_of(inc, open + 2,
						       (size_t)(colon - open - 2),
						       num) != NULL;
				if (present == (open[1] == '?') &&
				    level < CATALOG_MAX_NESTING)
					render(colon + 1, close, inc, out,
					       level + 1);
			}
		} else {
			const char *v = value_of(inc, open + 1,
						 (size_t)(close - open - 1), num);
			if (v)
				sanitize(out, v, strlen(v));
			else
				sb_adds(out, "?");
		}
		t = close + 1;
	}
}

int catalog_render(const struct catalog *cat, const char *key,
		   const struct incident *inc, struct strbuf *out)
{
	const char *t = class_text(cat, inc->code, inc->resource, inc->cause,
				   key);

	if (!t)
		return -1;
	render(t, t + strlen(t), inc, out, 0);
	return 0;
}

int catalog_check_complete(const struct catalog *cat, struct strbuf *err)
{
	for (enum resource r = RES_NONE + 1; r < RES_COUNT; r++) {
		enum code code = code_of_resource(r);
		for (enum cause c = CAUSE_NONE + 1; c < CAUSE_COUNT; c++) {
			for (size_t k = 0; k < NKEYS; k++) {
				if (class_text(cat, code, r, c, class_keys[k]))
					continue;
				sb_addf(err, "no '%s' for %s/%s/%s",
					class_keys[k], code_name(code),
					resource_name(r), cause_name(c));
				return -1;
			}
		}
	}
	return 0;
}
