#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "feeder.h"
#include "screenblock.h"
#include "xalloc.h"

/* A message continued on header-less lines is rare and short; more than
 * this many lines is something else. */
#define MAX_CONTINUATION 16

#define LEVEL_BIT_OF(l) (1u << (l))

enum state { ST_NONE, ST_PENDING, ST_SKIPPED };

struct feeder {
	struct ruleset *rs;
	struct classifier *c;
	const char *file;
	enum file_kind kind;
	enum state state;
	int want_all;		/* every line matters, not only ERROR ones */
	/* the ERROR record being assembled */
	struct plog_header h;
	struct strbuf raw, text, name, srcloc, module;
	unsigned fact_levels;	/* of the rules: ruleset_fact_levels */
	unsigned long line;
	unsigned long long off;	/* of the record's first line */
	size_t lead;		/* its prefix's bytes (struct record's) */
	const char *recfile;
	unsigned nlines;
	struct screen_line sl;	/* what the current line of output is */
	/* The record was given out for quiet (feeder_flush_quiet), not
	 * ended by a line: a header-less line next still continues it. */
	int late;
};

static void set_state(struct feeder *f, enum state st)
{
	f->state = st;
	f->want_all = st == ST_PENDING || f->kind == FILE_MIXED;
}

struct feeder *feeder_new(struct ruleset *rs, struct classifier *c)
{
	struct feeder *f = xcalloc(1, sizeof *f);

	f->rs = rs;
	f->c = c;
	f->fact_levels = ruleset_fact_levels(rs);
	return f;
}

void feeder_free(struct feeder *f)
{
	if (!f)
		return;
	sb_free(&f->raw);
	sb_free(&f->text);
	sb_free(&f->name);
	sb_free(&f->srcloc);
	sb_free(&f->module);
	screen_line_free(&f->sl);
	free(f);
}

void feeder_trim(struct feeder *f)
{
	if (!f || f->state == ST_PENDING)
		return;
	sb_free(&f->raw);
	sb_free(&f->text);
	sb_free(&f->name);
	sb_free(&f->srcloc);
	sb_free(&f->module);
}

void feeder_set_file(struct feeder *f, const char *file, enum file_kind kind)
{
	f->file = file;
	f->kind = kind;
	set_state(f, f->state);
}

int feeder_has_pending(const struct feeder *f)
{
	return f && f->state == ST_PENDING;
}

int feeder_pending_start(const struct feeder *f, unsigned long long *off,
			 unsigned long *line)
{
	if (!feeder_has_pending(f))
		return 0;
	*off = f->off;
	*line = f->line;
	return 1;
}

const int *feeder_want_all(const struct feeder *f)
{
	return &f->want_all;
}

const struct line_starts *feeder_line_starts(const struct feeder *f)
{
	return ruleset_fact_starts(f->rs);
}


void feeder_flush(struct feeder *f)
{
	if (!f)
		return;
	f->late = 0;
	if (f->state == ST_PENDING) {
		struct record rec = {
			.text = f->text.buf, .len = f->text.len,
			.raw = f->raw.buf, .rawlen = f->raw.len,
			.level = f->h.level, .pid = f->h.pid, .tid = f->h.tid,
			.name = sb_str(&f->name), .namelen = f->name.len,
			.time = f->h.time,
			.srcloc = f->srcloc.buf, .srcloclen = f->srcloc.len,
			.file = f->recfile, .line = f->line,
			.nlines = f->nlines, .prefix = "", .prefixlen = 0,
			.off = f->off,
			.module = sb_str(&f->module), .modulelen = f->module.len,
			.lead = f->lead,
		};
		classifier_feed(f->c, &rec);
	}
	set_state(f, ST_NONE);
}

void feeder_flush_quiet(struct feeder *f)
{
	if (!f || f->state != ST_PENDING)
		return;
	feeder_flush(f);
	f->late = f->kind == FILE_PLOG;
	if (f->late)
		f->want_all = 1;	/* header-less lines are wanted */
}

/* A header-less line after a record given out for quiet: it goes to the
 * record's chain on its own (struct record's late). */
static void late_line(struct feeder *f, const char *line, size_t len,
		      unsigned long lineno)
{
	if (f->nlines > MAX_CONTINUATION)
		return;
	f->nlines++;
	struct record rec = {
		.text = line, .len = len, .raw = line, .rawlen = len,
		.level = f->h.level, .pid = f->h.pid, .tid = f->h.tid,
		.name = sb_str(&f->name), .namelen = f->name.len,
		.time = f->h.time, .srcloc = NULL, .srcloclen = 0,
		.file = f->recfile, .line = lineno, .nlines = 1,
		.prefix = "", .prefixlen = 0, .late = 1,
	};
	classifier_feed(f->c, &rec);
}

static void start_record(struct feeder *f, const char *line, size_t len,
			 const struct plog_header *h, unsigned long lineno)
{
	feeder_flush(f);
	f->h = *h;
	sb_reset(&f->raw);
	sb_add(&f->raw, line, len);
	sb_reset(&f->text);
	sb_add(&f->text, line + h->msg, len - h->msg);
	sb_reset(&f->name);
	sb_add(&f->name, line + h->name.off, h->name.len);
	sb_reset(&f->module);
	sb_add(&f->module, line + h->module.off, h->module.len);
	/* A place in the code is its module's: RUNTIME's stream.cc:412 and
	 * ASCENDCL's are two places, and meeting the second is no repeat. */
	sb_reset(&f->srcloc);
	if (h->srcloc.len) {
		sb_add(&f->srcloc, line + h->module.off, h->module.len);
		sb_addc(&f->srcloc, ' ');
		sb_add(&f->srcloc, line + h->srcloc.off, h->srcloc.len);
	}
	f->line = lineno;
	f->off = classifier_line_off(f->c);
	f->recfile = f->file;
	f->nlines = 1;
	set_state(f, ST_PENDING);
}

static void continue_record(struct feeder *f, const char *line, size_t len)
{
	if (f->nlines > MAX_CONTINUATION)
		return;
	f->nlines++;
	sb_addc(&f->raw, '\n');
	sb_add(&f->raw, line, len);
	sb_addc(&f->text, ' ');
	sb_add(&f->text, line, len);
}

/* A plog record of a level only fact rules see (its header parsed in
 * h, lead bytes before it): its facts, nothing else.  It is never a
 * record of a chain, and what it continues on header-less lines is not
 * read. */
static void fact_record(struct feeder *f, const char *line, size_t len,
			size_t lead, const struct plog_header *h,
			unsigned long lineno)
{
	const char *p = line + lead;
	struct record rec = {
		.text = p + h->msg, .len = len - lead - h->msg,
		.raw = line, .rawlen = len, .level = h->level,
		.pid = h->pid, .tid = h->tid,
		.name = p + h->name.off, .namelen = h->name.len,
		.time = h->time, .file = f->file, .line = lineno, .nlines = 1,
		.module = p + h->module.off, .modulelen = h->module.len,
		.prefix = "", .off = classifier_line_off(f->c),
	};

	classifier_feed_facts(f->c, &rec);
}

/* Whether a fact rule may take the plog line at p (n bytes) of this
 * level by its start: the rules' starts are "[LEVEL] MODULE(" (or
 * "[LEVEL]") in the level's one spelling, one space, so a line spelt so
 * that starts none of them is of a module no rule of its level takes.
 * Any other spelling ("[WARN]", two spaces) is left to the literals.
 * The splitter lets only such lines through, but the line after an
 * ERROR record comes whatever it is (a RUNTIME INFO line, mostly). */
static int start_wanted(const struct line_starts *st, enum plog_level level,
			const char *p, size_t n)
{
	if (st->all || line_starts_match(st, p, n))
		return 1;
	const char *name = plog_level_name(level);
	size_t k = strlen(name);
	return n < k + 4 || memcmp(p + 1, name, k) != 0 || p[k + 1] != ']' ||
	       p[k + 2] != ' ' || p[k + 3] == ' ';
}

/* A plog line of another level than ERROR: it ends the record above;
 * a fact rule may take it (the cheap test of the rules' literals first,
 * then the header). */
static void other_level(struct feeder *f, const char *line, size_t len,
			size_t lead, enum plog_level level,
			const struct plog_header *parsed, unsigned long lineno)
{
	struct plog_header h;

	feeder_flush(f);
	set_state(f, ST_SKIPPED);
	if (!(f->fact_levels & LEVEL_BIT_OF(level)) ||
	    !start_wanted(ruleset_fact_starts(f->rs), level, line + lead,
			  len - lead))
		return;
	/* The message is after the header's "MODULE(PID,NAME):STAMP ":
	 * the test need not look at the header. */
	const char *p = line + lead, *end = line + len;
	const char *close = memchr(p, ')', (size_t)(end - p));
	const char *sp = close ? memchr(close, ' ', (size_t)(end - close)) : NULL;
	if (sp)
		p = sp;
	if (!ruleset_fact_maybe(f->rs, level, p, (size_t)(end - p)))
		return;
	if (!parsed) {
		if (!plog_parse(line + lead, len - lead, &h))
			return;
		parsed = &h;
	}
	fact_record(f, line, len, lead, parsed, lineno);
}

/* A line that starts with a plog header (after lead bytes already
 * skipped).  Returns 0 if it is not one. */
static int plog_line(struct feeder *f, const char *line, size_t len,
		     size_t lead, unsigned long lineno)
{
	struct plog_header h;

	if (!plog_parse(line + lead, len - lead, &h))
		return 0;
	if (h.level != LEVEL_ERROR) {
		other_level(f, line, len, lead, h.level, &h, lineno);
		return 1;
	}
	h.msg += lead;
	h.name.off += lead;
	h.srcloc.off += lead;
	h.module.off += lead;
	h.stamp.off += lead;
	start_record(f, line, len, &h, lineno);
	f->lead = lead;
	return 1;
}

static int is_blank_or_indented(const char *s, size_t n)
{
	return n == 0 || s[0] == ' ' || s[0] == '\t';
}

/* A plog line behind a launcher's prefix ("[rank1]: [ERROR] RUNTIME(...")
 * starts at a '[' that opens a level; the prefix may be anything. */
static int prefixed_plog_line(struct feeder *f, const char *line, size_t len,
			      unsigned long lineno)
{
	enum plog_level level;

	for (const char *p = line; (p = memchr(p, '[', len - (size_t)(p - line)));
	     p++) {
		size_t lead = (size_t)(p - line);
		if (plog_peek_level(p, len - lead, &level) &&
		    plog_line(f, line, len, lead, lineno))
			return 1;
	}
	return 0;
}

/* What a line of captured output says as facts, beside what it is to
 * the blocks (screen_feed). */
static void screen_facts(struct feeder *f, const char *line, size_t len,
			 unsigned long lineno)
{
	if (!(f->fact_levels & LEVEL_BIT_OF(LEVEL_SCREEN)) ||
	    !ruleset_fact_maybe(f->rs, LEVEL_SCREEN, line, len))
		return;
	struct record rec = {
		.text = line, .len = len, .raw = line, .rawlen = len,
		.level = LEVEL_SCREEN, .file = f->file, .line = lineno,
		.nlines = 1, .prefix = "", .off = classifier_line_off(f->c),
	};
	classifier_feed_facts(f->c, &rec);
}

/* A header-less line of captured output: part of a screen-print block,
 * a plog line behind a prefix, or the continuation of a plog record. */
static void mixed_line(struct feeder *f, const char *line, size_t len,
		       unsigned long lineno)
{
	struct screen_line *sl = &f->sl;

	if (prefixed_plog_line(f, line, len, lineno))
		return;
	screen_facts(f, line, len, lineno);
	screen_scan(f->c, f->file, line, len, sl);
	int pending = f->state == ST_PENDING;
	if (sl->kind == SCREEN_END || sl->kind == SCREEN_NONE ||
	    (sl->kind == SCREEN_HEADLESS && pending)) {
		/* Lines that end a block or belong to none: a plog record
		 * may go on over them. */
		if (sl->kind == SCREEN_END)
			screen_feed(f->c, sl, f->file, line, len, lineno);
		if (pending && len) {
			continue_record(f, line, len);
			return;
		}
		if (f->state == ST_SKIPPED && is_blank_or_indented(line, len))
			return;
		feeder_flush(f);
		return;
	}
	feeder_flush(f);
	screen_feed(f->c, sl, f->file, line, len, lineno);
}

void feeder_line(struct feeder *f, const char *line, size_t len,
		 unsigned long lineno)
{
	enum plog_level level;

	/* The fast path: most lines are INFO or DEBUG records. */
	if (len && line[0] == '[' && plog_peek_level(line, len, &level)) {
		if (level != LEVEL_ERROR && f->kind == FILE_PLOG) {
			other_level(f, line, len, 0, level, NULL, lineno);
			return;
		}
		if (plog_line(f, line, len, 0, lineno))
			return;
	}
	if (f->kind == FILE_MIXED) {
		mixed_line(f, line, len, lineno);
		return;
	}
	/* In a plog file a header-less line continues the record above. */
	if (f->state == ST_PENDING)
		continue_record(f, line, len);
	else if (f->late)
		late_line(f, line, len, lineno);
}
