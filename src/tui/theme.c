#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "datadir.h"
#include "fileio.h"
#include "terminal.h"
#include "theme.h"

const char *const theme_names[] = { "default", "light", "mono",
				    "high-contrast" };

static const char *const item_names[TI_ITEMS] = {
	"header", "title", "table-head", "row", "selected", "dead", "count",
	"zero", "graph", "detail-title", "fix", "raw", "keys", "status",
	"warning", "new",
};

static const char *const colour_names[] = {
	"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
};

static int parse_colour(const char *s, short *out)
{
	char *end;

	if (strcmp(s, "default") == 0) {
		*out = -1;
		return 0;
	}
	int bright = strncmp(s, "bright-", 7) == 0;
	const char *base = bright ? s + 7 : s;
	for (short i = 0; i < 8; i++) {
		if (strcmp(base, colour_names[i]) == 0) {
			*out = (short)(i + (bright ? 8 : 0));
			return 0;
		}
	}
	long n = strtol(s, &end, 10);
	if (*s && !*end && n >= 0 && n <= 255) {
		*out = (short)n;
		return 0;
	}
	return -1;
}

static int parse_attrs(const char *s, unsigned *out)
{
	static const struct {
		const char *name;
		unsigned bit;
	} names[] = {
		{ "normal", 0 }, { "bold", TA_BOLD }, { "dim", TA_DIM },
		{ "underline", TA_UNDERLINE }, { "reverse", TA_REVERSE },
		{ "standout", TA_STANDOUT },
	};
	char buf[128];
	char *save = NULL;

	if (strlen(s) >= sizeof buf)
		return -1;
	strcpy(buf, s);
	*out = 0;
	for (char *tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		size_t i;
		for (i = 0; i < sizeof names / sizeof names[0]; i++)
			if (strcmp(tok, names[i].name) == 0)
				break;
		if (i == sizeof names / sizeof names[0])
			return -1;
		*out |= names[i].bit;
	}
	return 0;
}

int theme_parse(const char *path, const char *text, struct theme *t,
		int complete, struct strbuf *err)
{
	int seen[TI_ITEMS] = { 0 };
	unsigned long lineno = 0;
	const char *p = text;

	while (*p) {
		size_t n = strcspn(p, "\n");
		char line[512], item[64], fg[64], bg[64], attrs[128];
		lineno++;
		if (n >= sizeof line) {
			sb_addf(err, _("%s:%lu: line too long"), path, lineno);
			return -1;
		}
		memcpy(line, p, n);
		line[n] = '\0';
		p += n + (p[n] == '\n');
		char *hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		strcpy(attrs, "normal");
		int k = sscanf(line, "%63s %63s %63s %127s", item, fg, bg, attrs);
		if (k <= 0)
			continue;
		/* "background dark|light|any": what the theme is made for;
		 * the t key skips a theme unreadable on the terminal's. */
		if (strcmp(item, "background") == 0) {
			static const char *const bgs[] = { "any", "dark", "light" };
			int b = 0;
			while (k == 2 && b < 3 && strcmp(fg, bgs[b]) != 0)
				b++;
			if (k != 2 || b == 3) {
				sb_addf(err, _("%s:%lu: expected background dark, "
					"light or any"), path, lineno);
				return -1;
			}
			t->background = (enum theme_bg)b;
			continue;
		}
		if (k < 3) {
			sb_addf(err, _("%s:%lu: expected ITEM FOREGROUND BACKGROUND "
				"[ATTRIBUTES]"), path, lineno);
			return -1;
		}
		int i;
		for (i = 0; i < TI_ITEMS; i++)
			if (strcmp(item, item_names[i]) == 0)
				break;
		if (i == TI_ITEMS) {
			sb_addf(err, _("%s:%lu: unknown item '%s'"), path, lineno,
				item);
			return -1;
		}
		struct theme_style *st = &t->item[i];
		if (parse_colour(fg, &st->fg) < 0 || parse_colour(bg, &st->bg) < 0) {
			sb_addf(err, _("%s:%lu: unknown colour '%s' (use default, "
				"black..white, bright-black..bright-white or "
				"0-255)"), path, lineno,
				parse_colour(fg, &st->fg) < 0 ? fg : bg);
			return -1;
		}
		if (parse_attrs(attrs, &st->attrs) < 0) {
			sb_addf(err, _("%s:%lu: unknown attribute in '%s' (use "
				"normal, bold, dim, underline, reverse, "
				"standout)"), path, lineno, attrs);
			return -1;
		}
		seen[i] = 1;
	}
	/* No line is wrong when an item is missing: the file is. */
	for (int i = 0; complete && i < TI_ITEMS; i++) {
		if (!seen[i]) {
			sb_addf(err, _("%s: item '%s' is not set (the default "
				"theme sets every item)"), path, item_names[i]);
			return -1;
		}
	}
	return 0;
}

int theme_load(const char *name_or_file, struct theme *t, struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	size_t n = strlen(name_or_file);
	int is_file = strchr(name_or_file, '/') ||
		      (n > 6 && strcmp(name_or_file + n - 6, ".theme") == 0);

	t->background = BG_ANY;
	/* Another theme sets what it wants; the rest is the default's. */
	int is_default = !is_file && strcmp(name_or_file, "default") == 0;
	if (!is_default && theme_load("default", t, err) < 0)
		return -1;
	t->background = BG_ANY;	/* not inherited from the default */
	int rc = -1, got;
	/* A regular file only (a FIFO must not block), of THEME_FILE_MAX
	 * bytes at most, without NUL bytes; a name, a shipped theme. */
	if (is_file) {
		sb_adds(&path, name_or_file);
		got = read_data_file(path.buf, _("theme file"), THEME_FILE_MAX,
				     &text, err);
	} else {
		struct strbuf rel = STRBUF_INIT;
		sb_addf(&rel, "themes/%s.theme", name_or_file);
		got = datadir_read(rel.buf, _("theme file"), THEME_FILE_MAX,
				   &path, &text, err);
		sb_free(&rel);
	}
	if (got < 0) {
		if (!is_file)
			sb_adds(err, _(" (themes: default, light, mono, "
				"high-contrast, or a FILE)"));
	} else if (theme_parse(path.buf, text.buf, t, is_default, err) == 0) {
		const char *base = strrchr(name_or_file, '/');
		base = base ? base + 1 : name_or_file;
		snprintf(t->name, sizeof t->name, "%.*s",
			 (int)strcspn(base, "."), base);
		rc = 0;
	}
	sb_free(&path);
	sb_free(&text);
	return rc;
}

enum theme_bg theme_terminal_bg(const struct theme *start)
{
	enum terminal_bg bg = terminal_background();

	if (bg != TERMINAL_BG_UNKNOWN)
		return bg == TERMINAL_BG_DARK ? BG_DARK : BG_LIGHT;
	if (start && start->background != BG_ANY)
		return start->background;
	return BG_DARK;
}

int theme_next(int from, enum theme_bg bg, struct theme *t,
	       struct strbuf *err)
{
	for (int k = 1; k <= THEME_COUNT; k++) {
		int i = (from + k) % THEME_COUNT;
		struct theme cand;
		sb_reset(err);
		if (theme_load(theme_names[i], &cand, err) < 0)
			continue;
		if (cand.background != BG_ANY && cand.background != bg)
			continue;
		*t = cand;
		return i;
	}
	return -1;
}
