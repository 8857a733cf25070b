#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "feeder.h"
#include "xalloc.h"

/* A message continued on header-less lines is rare and short; more than
 * this many lines is something else. */
#define MAX_CONTINUATION 16

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
	struct strbuf raw, text, name, srcloc;
	unsigned long line;
	const char *recfile;
	unsigned nlines;
	struct strbuf prefix;	/* screen: what tells the launcher's streams apart */
	struct strbuf prefix_name;
	long prefix_pid;
	int prefix_keyed;	/* the prefix rules captured a key */
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
	sb_free(&f->prefix);
	sb_free(&f->prefix_name);
	free(f);
}

void feeder_set_file(struct feeder *f, const char *file, enum file_kind kind)
{
	f->file = file;
	f->kind = kind;
	set_state(f, f->state);
}

int feeder_has_pending(const struct feeder *f)
{
	return f->state == ST_PENDING;
}

const int *feeder_want_all(const struct feeder *f)
{
	return &f->want_all;
}


void feeder_flush(struct feeder *f)
{
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
		};
		classifier_feed(f->c, &rec);
	}
	set_state(f, ST_NONE);
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
	sb_reset(&f->srcloc);
	sb_add(&f->srcloc, line + h->srcloc.off, h->srcloc.len);
	f->line = lineno;
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

/* A line that starts with a plog header (after lead bytes already
 * skipped).  Returns 0 if it is not one. */
static int plog_line(struct feeder *f, const char *line, size_t len,
		     size_t lead, unsigned long lineno)
{
	struct plog_header h;

	if (!plog_parse(line + lead, len - lead, &h))
		return 0;
	if (h.level != LEVEL_ERROR) {
		feeder_flush(f);
		set_state(f, ST_SKIPPED);
		return 1;
	}
	h.msg += lead;
	h.name.off += lead;
	h.srcloc.off += lead;
	h.stamp.off += lead;
	start_record(f, line, len, &h, lineno);
	return 1;
}

static void screen_line(struct feeder *f, const char *line, size_t len,
			size_t off, unsigned long lineno)
{
	struct record rec = {
		.text = line + off, .len = len - off,
		.raw = line, .rawlen = len, .level = LEVEL_SCREEN,
		.pid = f->prefix_pid, .name = sb_str(&f->prefix_name),
		.namelen = f->prefix_name.len, .file = f->file, .line = lineno,
		.nlines = 1, .prefix = sb_str(&f->prefix),
		.prefixlen = f->prefix.len,
	};

	classifier_feed(f->c, &rec);
}

static int matches_role(struct feeder *f, enum role role, const char *s,
			size_t n)
{
	return ruleset_match(f->rs, role, LEVEL_SCREEN, s, n, NULL, NULL,
			     NULL) > 0;
}

static int is_blank_or_indented(const char *s, size_t n)
{
	return n == 0 || s[0] == ' ' || s[0] == '\t';
}

/* A prefix that names its process (a worker's name and pid) keys the
 * block by them: its other parts, such as a time, change line by line. */
static void on_prefix_capture(void *ctx, const char *name, const char *value,
			      size_t len)
{
	struct feeder *f = ctx;

	if (strcmp(name, "pid") == 0)
		f->prefix_pid = strtol(value, NULL, 10);
	else if (strcmp(name, "name") == 0)
		sb_add(&f->prefix_name, value, len);
	sb_add(&f->prefix, value, len);
	sb_addc(&f->prefix, ' ');
	f->prefix_keyed = 1;
}

/* A header-less line of captured output: a launcher prefix may stand
 * before a plog line or a screen print. */
static void mixed_line(struct feeder *f, const char *line, size_t len,
		       unsigned long lineno)
{
	size_t off = 0, step;

	sb_reset(&f->prefix);
	sb_reset(&f->prefix_name);
	f->prefix_pid = 0;
	f->prefix_keyed = 0;
	for (int i = 0; i < 4; i++) {
		step = ruleset_strip_prefix(f->rs, line + off, len - off,
					    on_prefix_capture, f);
		if (!step)
			break;
		/* Without captures the prefix text itself is the key. */
		if (!f->prefix_keyed)
			sb_add(&f->prefix, line + off, step);
		f->prefix_keyed = 0;
		off += step;
	}
	size_t lead = off;
	while (lead < len && (line[lead] == ' ' || line[lead] == '\t'))
		lead++;
	if (lead < len && line[lead] == '[' &&
	    plog_line(f, line, len, lead, lineno))
		return;
	const char *s = line + off;
	size_t n = len - off;
	if (matches_role(f, ROLE_HEADING, s, n) ||
	    matches_role(f, ROLE_PREAMBLE, s, n) ||
	    (classifier_screen_open(f->c, f->file, sb_str(&f->prefix),
				    f->prefix.len)
	     && matches_role(f, ROLE_BODY, s, n))) {
		feeder_flush(f);
		screen_line(f, line, len, off, lineno);
		return;
	}
	if (f->state == ST_PENDING && off == 0 && n) {
		continue_record(f, line, len);
		return;
	}
	if (f->state == ST_SKIPPED && off == 0 && is_blank_or_indented(s, n))
		return;
	feeder_flush(f);
	screen_line(f, line, len, off, lineno);
}

void feeder_line(struct feeder *f, const char *line, size_t len,
		 unsigned long lineno)
{
	enum plog_level level;

	/* The fast path: most lines are INFO or DEBUG records. */
	if (len && line[0] == '[' && plog_peek_level(line, len, &level)) {
		if (level != LEVEL_ERROR && f->kind == FILE_PLOG) {
			feeder_flush(f);
			set_state(f, ST_SKIPPED);
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
}
