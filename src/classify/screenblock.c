#include "config.h"

#include <errno.h>

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "chain.h"
#include "lineprefix.h"
#include "screenblock.h"
#include "xalloc.h"


static const char TRACEBACK[] = "TraceBack (most recent call last)";

/* ---- what a line is ---- */

static int is_code_at(const char *s, size_t n, size_t i)
{
	if (i + 6 > n || (s[i] != 'E' && s[i] != 'W'))
		return 0;
	char c = s[i + 1];
	if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')))
		return 0;
	for (size_t k = 2; k < 6; k++)
		if (s[i + k] < '0' || s[i + k] > '9')
			return 0;
	return 1;
}

/* The cheap test before the heading patterns run: every heading holds a
 * code such as EE1023 or EL0009. */
static int has_code(const char *s, size_t n)
{
	for (size_t i = 0; i + 6 <= n; i++)
		if (is_code_at(s, n, i))
			return 1;
	return 0;
}

/* The code a heading printed: its first code-shaped word. */
static void heading_code(const char *s, size_t n, char out[8])
{
	out[0] = '\0';
	for (size_t i = 0; i + 6 <= n; i++) {
		int alnum_before = i > 0 &&
			((s[i - 1] >= 'A' && s[i - 1] <= 'Z') ||
			 (s[i - 1] >= 'a' && s[i - 1] <= 'z') ||
			 (s[i - 1] >= '0' && s[i - 1] <= '9'));
		int digit_after = i + 6 < n && s[i + 6] >= '0' && s[i + 6] <= '9';
		if (!alnum_before && !digit_after && is_code_at(s, n, i)) {
			memcpy(out, s + i, 6);
			out[6] = '\0';
			return;
		}
	}
}

static int is_blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
			return 0;
	return 1;
}

static int is_body(struct classifier *c, const char *s, size_t n)
{
	return ruleset_match(c->rs, ROLE_BODY, LEVEL_SCREEN, s, n, NULL, NULL,
			     NULL) > 0;
}

/* A heading or a preamble anywhere in the line. */
static int find_opening(struct classifier *c, const char *line, size_t len,
			struct screen_line *sl)
{
	size_t at;

	if (has_code(line, len) &&
	    ruleset_find(c->rs, ROLE_HEADING, LEVEL_SCREEN, line, len, &at))
		sl->kind = SCREEN_HEADING;
	else if (ruleset_find(c->rs, ROLE_PREAMBLE, LEVEL_SCREEN, line, len,
			      &at))
		sl->kind = SCREEN_PREAMBLE;
	else
		return 0;
	sl->off = at;
	lineprefix_shape(line, at, &sl->key);
	return 1;
}

static int in_file(const struct chain *ch, const char *file)
{
	return ch->screen && ch->file == file;
}

/* The open block of this file whose prefix the line carries: the longest
 * such prefix, the latest block among equals. */
static struct chain *continued(struct classifier *c, const char *file,
			       const char *line, size_t len, size_t *off)
{
	struct chain *best = NULL;
	size_t o;

	for (size_t i = 0; i < c->nopen; i++) {
		struct chain *ch = c->open[i];
		if (!in_file(ch, file) ||
		    !lineprefix_match(ch->prefix, ch->keep, line, len, &o))
			continue;
		if (!best || o > *off || (o == *off && ch->order > best->order)) {
			best = ch;
			*off = o;
		}
	}
	return best;
}

/* A body line met without the whole prefix must look like one on its
 * own: indented (two blanks or more: one blank is just the end of the
 * part of the prefix it carries, as in "[pod/x] [rank1]: ..." against
 * "[pod/x] [rank0]: ..."), or a Solution or TraceBack line. */
static int loose_body(struct classifier *c, const char *s, size_t n)
{
	size_t b = 0;

	while (b < n && (s[b] == ' ' || s[b] == '\t'))
		b++;
	if (b < 2 && !(n - b >= 9 && (memcmp(s + b, "TraceBack", 9) == 0 ||
				      memcmp(s + b, "Solution:", 9) == 0)))
		return 0;
	return is_body(c, s, n);
}

/* Some writers put the prefix on the first line of a message only
 * ("CANN error: EE1001: ...", then the Solution line bare), or part of
 * it.  A body line that carries no open block's prefix belongs to the
 * latest heading that has had no body yet, if it carries a leading part
 * of that heading's prefix (cut where a blank was). */
static struct chain *loosened(struct classifier *c, const char *file,
			      const char *line, size_t len, size_t *off,
			      size_t *keep)
{
	struct chain *cand = NULL;

	for (size_t i = 0; i < c->nopen; i++) {
		struct chain *ch = c->open[i];
		if (in_file(ch, file) && ch->heading && !ch->own_body &&
		    !ch->loose && ch->prefixlen &&
		    (!cand || ch->order > cand->order))
			cand = ch;
	}
	for (size_t k = cand ? cand->prefixlen : 0; cand && k-- > 0;) {
		if (k && cand->prefix[k] != SHAPE_SPACE)
			continue;
		if (lineprefix_match(cand->prefix, k, line, len, off) &&
		    loose_body(c, line + *off, len - *off)) {
			*keep = k;
			return cand;
		}
	}
	return NULL;
}

/* "        TraceBack (most recent call last):" with nothing above it. */
static int find_headless(const char *line, size_t len, struct screen_line *sl)
{
	const char *at = NULL;

	for (const char *p = line; !at && p; ) {
		p = memchr(p, 'T', len - (size_t)(p - line));
		if (p && (size_t)(line + len - p) >= sizeof TRACEBACK - 1 &&
		    memcmp(p, TRACEBACK, sizeof TRACEBACK - 1) == 0)
			at = p;
		else if (p)
			p++;
	}
	if (!at)
		return 0;
	/* The prefix keeps one blank of the indentation: the frames that
	 * follow are indented further. */
	size_t n = (size_t)(at - line), end = n;
	while (end && (line[end - 1] == ' ' || line[end - 1] == '\t'))
		end--;
	lineprefix_shape(line, end < n ? end + 1 : end, &sl->key);
	sl->off = sl->key.len ? end + (end < n) : 0;
	sl->kind = SCREEN_HEADLESS;
	return 1;
}

void screen_scan(struct classifier *c, const char *file, const char *line,
		 size_t len, struct screen_line *sl)
{
	struct chain *ch;

	sl->kind = SCREEN_NONE;
	sl->off = 0;
	sl->keep = 0;
	sb_reset(&sl->key);
	if (find_opening(c, line, len, sl))
		return;
	ch = continued(c, file, line, len, &sl->off);
	if (ch) {
		const char *rest = line + sl->off;
		size_t n = len - sl->off;
		sl->kind = is_blank(rest, n) ? SCREEN_BLANK
			   : is_body(c, rest, n) ? SCREEN_BODY : SCREEN_END;
		sl->keep = ch->keep;
	} else {
		ch = loosened(c, file, line, len, &sl->off, &sl->keep);
		if (ch)
			sl->kind = SCREEN_BODY;
		else
			find_headless(line, len, sl);
	}
	if (ch)
		sb_add(&sl->key, ch->prefix, ch->prefixlen);
}

void screen_line_free(struct screen_line *sl)
{
	sb_free(&sl->key);
}

/* ---- what a line does to its block ---- */

static void add_line(struct classifier *c, struct chain *ch,
		     const struct record *rec)
{
	chain_read_facts(c, rec);
	chain_append(c, ch, rec);
	chain_merge_evidence(ch, &c->facts);
	ch->call |= chain_has_role(&c->facts, ROLE_CALL);
	ch->tick = c->tick;
	chain_touch(c, ch);
}

/* A new heading ends every other block of the file whose prefix its line
 * carries before the heading: an unprefixed block, say, when a prefixed
 * heading comes. */
static void close_covered(struct classifier *c, const struct record *rec)
{
	size_t off = (size_t)(rec->text - rec->raw), o;

	for (size_t i = c->nopen; i-- > 0;) {
		struct chain *ch = c->open[i];
		if (in_file(ch, rec->file) &&
		    !(ch->prefixlen == rec->prefixlen &&
		      memcmp(ch->prefix, rec->prefix, rec->prefixlen) == 0) &&
		    lineprefix_match(ch->prefix, ch->keep, rec->raw, rec->rawlen,
				     &o) && o <= off)
			chain_close_at(c, i);
	}
}

/* Whether an opening line goes on with the open block of its prefix:
 * only its preamble, or a heading repeated before any body ("EE9999:
 * Inner Error!" then "EE9999[PID: 753] ... (EE9999): ..."). */
static int goes_on(const struct chain *ch, int heading, const char *code)
{
	if (ch->headless || ch->body)
		return 0;
	if (!ch->heading)
		return 1;
	return heading && strcmp(ch->hcode, code) == 0;
}

static struct chain *open_line(struct classifier *c, const struct record *rec,
			       int heading)
{
	char code[8] = "";
	size_t i;

	if (heading)
		heading_code(rec->text, rec->len, code);
	close_covered(c, rec);
	struct chain *ch = chain_find(c, rec, &i);
	if (ch && !goes_on(ch, heading, code)) {
		chain_close_at(c, i);
		ch = NULL;
	}
	if (!ch)
		ch = chain_open(c, rec);
	add_line(c, ch, rec);
	if (heading && !ch->heading) {
		/* The heading's code is the one the log printed. */
		memcpy(ch->hcode, code, sizeof code);
		free(ch->inc->reported_code);
		ch->inc->reported_code = code[0] ? xstrdup(code) : NULL;
		ch->reported_w = code[0] ? INT_MAX : 0;
	}
	ch->heading |= heading;
	return ch;
}

static void body_line(struct classifier *c, struct chain *ch,
		      const struct record *rec, size_t keep)
{
	if (keep < ch->keep) {
		ch->loose = 1;
		ch->keep = keep;
	} else if (!ch->loose && ch->heading) {
		ch->own_body = 1;
	}
	/* A blank line and then more body: the output is double-spaced. */
	ch->spaced |= ch->blanks > 0;
	ch->blanks = 0;
	add_line(c, ch, rec);
	/* Indented lines before the heading are part of the preamble. */
	ch->body |= ch->heading || ch->headless;
}

/* A blank line ends a block after its body, unless the output puts one
 * after every line; two in a row end it anyway. */
static void blank_line(struct classifier *c, struct chain *ch, size_t i)
{
	ch->blanks++;
	if (ch->blanks > 1 || (ch->body && !ch->spaced))
		chain_close_at(c, i);
}

static void headless_line(struct classifier *c, const struct record *rec)
{
	size_t i;
	struct chain *ch = chain_find(c, rec, &i);

	if (ch)
		chain_close_at(c, i);
	ch = chain_open(c, rec);
	ch->headless = 1;
	body_line(c, ch, rec, ch->keep);
}

/* The process a prefix names: pid= fields, journald's name[pid]. */
struct prefix_process {
	long pid;
	const char *name;
	size_t namelen;
};

static void on_prefix_capture(void *ctx, const char *name, const char *value,
			      size_t len)
{
	struct prefix_process *pp = ctx;

	if (strcmp(name, "pid") == 0) {
		/* Out of range (strtol clamps it): no pid, not LONG_MAX. */
		errno = 0;
		pp->pid = strtol(value, NULL, 10);
		if (errno == ERANGE || pp->pid < 0)
			pp->pid = 0;
	}
	else if (strcmp(name, "name") == 0) {
		pp->name = value;
		pp->namelen = len;
	}
}

void screen_feed(struct classifier *c, const struct screen_line *sl,
		 const char *file, const char *line, size_t len,
		 unsigned long lineno)
{
	struct prefix_process pp = { 0, NULL, 0 };
	struct record rec = {
		.text = line + sl->off, .len = len - sl->off,
		.raw = line, .rawlen = len, .level = LEVEL_SCREEN,
		.file = file, .line = lineno, .nlines = 1,
		.prefix = sl->key.buf ? sl->key.buf : "",
		.prefixlen = sl->key.len,
	};
	size_t i;
	struct chain *ch = NULL;

	if (sl->kind == SCREEN_HEADING || sl->kind == SCREEN_PREAMBLE) {
		ruleset_prefix_process(c->rs, line, sl->off, on_prefix_capture,
				       &pp);
		rec.pid = pp.pid;
		rec.name = pp.name;
		rec.namelen = pp.namelen;
		ch = open_line(c, &rec, sl->kind == SCREEN_HEADING);
		chain_prefix_fields(c, ch->inc, line, sl->off);
		return;
	}
	if (sl->kind == SCREEN_HEADLESS) {
		headless_line(c, &rec);
		return;
	}
	ch = chain_find(c, &rec, &i);
	if (!ch)
		return;
	if (sl->kind == SCREEN_BODY)
		body_line(c, ch, &rec, sl->keep);
	else if (sl->kind == SCREEN_BLANK)
		blank_line(c, ch, i);
	else if (sl->kind == SCREEN_END)
		chain_close_at(c, i);
}
