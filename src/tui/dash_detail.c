/* The detail pane, a panel: the selected process's classes, one of its
 * incidents (the latest, or stepped to with [ ] / n N), and its fix or
 * raw lines; wrapped at spaces (never inside a word or a file name),
 * scrolled no further than its end, with a marker when more is below.
 * Its keys scroll it (when it has the focus), step, show the raw lines
 * and open the incident's file. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dash_ident.h"
#include "dash_int.h"
#include "ledger_text.h"
#include "sanitize.h"
#include "textfit.h"
#include "tui.h"
#include "xalloc.h"

#define MAX_STEP 1000	/* incidents the detail steps through */

static int by_time_desc(const void *x, const void *y)
{
	const struct incident *a = *(const struct incident *const *)x;
	const struct incident *b = *(const struct incident *const *)y;

	return (b->first > a->first) - (b->first < a->first);
}

/* In the window as the table counts it (model_window): by the minute
 * the incident counts in (its time as counted, model.h's
 * MODEL_SKEW_USEC), so that the detail's count and the table's agree. */
static int in_window(const struct incident *i, long long span, logtime_t now)
{
	long long min = 60LL * 1000000;

	if (!span)
		return 1;
	if (i->at == LOGTIME_UNKNOWN)
		return 0;
	return i->at / min >= (now - span) / min;
}

/* The incidents the detail steps through, newest first: the kept ones
 * in the window (all of them in "all"); the latest when none is kept. */
static size_t detail_incidents(const struct dash *d, const struct process *p,
			const struct incident **out, size_t max)
{
	long long span = window_usec[d->win];
	logtime_t now = logtime_now();
	size_t n = 0;

	for (const struct incident *i = model_last_recent(p); i && n < max;
	     i = model_prev_recent(i))
		if (in_window(i, span, now))
			out[n++] = i;
	if (!n && p->lv && p->lv->latest && !span)
		out[n++] = p->lv->latest;
	/* Kept in the order read; shown by log time, the latest first. */
	qsort(out, n, sizeof *out, by_time_desc);
	return n;
}

const struct incident *detail_incident(const struct dash *d)
{
	const struct incident **v, *inc = NULL;

	if (!d->nrows)
		return NULL;
	v = xmalloc(MAX_STEP * sizeof *v);
	size_t n = detail_incidents(d, d->rows[d->sel].p, v, MAX_STEP);
	if (n)
		inc = v[(size_t)d->step < n ? (size_t)d->step : n - 1];
	free(v);
	return inc;
}

static void put_class(struct dash *d, struct strbuf *out, size_t n,
		      const struct class_key *k)
{
	struct strbuf sb = STRBUF_INIT;
	struct incident probe = { 0 };

	probe.code = k->code;
	probe.resource = k->resource;
	probe.cause = k->cause;
	catalog_render(d->cat, "title", &probe, &sb);
	sb_addf(out, "%5zu  %s %s / %s: %s\n", n, code_name(k->code),
		resource_name(k->resource), cause_name(k->cause),
		sb.buf ? sb.buf : "");
	sb_free(&sb);
}

static int one_class(const struct incident **v, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (v[i]->code != v[0]->code || v[i]->resource != v[0]->resource ||
		    v[i]->cause != v[0]->cause)
			return 0;
	return 1;
}

/* The classes: all-time counts in "all", else the window's incidents;
 * when fewer are kept than the window counted (--keep), the heading
 * says so: the counts are of those kept.  None when the process has one
 * class, all of it shown (the detail's first line names it). */
static void class_lines(struct dash *d, const struct process *p,
			const struct incident **v, size_t n, size_t total,
			struct strbuf *out)
{
	/* One class, all of it shown: the detail's first line says it. */
	if (!window_usec[d->win] && n && p->nclasses == 1)
		return;
	if (window_usec[d->win] && n && n == total && one_class(v, n))
		return;
	if (!window_usec[d->win]) {
		for (size_t i = 0; i < p->nclasses; i++)
			put_class(d, out, p->classes[i].n, &p->classes[i].k);
		return;
	}
	if (n < total) {
		sb_addf(out, "\f");
		sb_addf(out, _(L_KEPT_CLASSES), n);
		sb_addc(out, '\n');
	}
	for (size_t i = 0; i < n; i++) {
		size_t same = 0, seen = 0;
		for (size_t j = 0; j < n; j++) {
			int eq = v[j]->code == v[i]->code &&
				 v[j]->resource == v[i]->resource &&
				 v[j]->cause == v[i]->cause;
			same += eq;
			seen += eq && j < i;
		}
		if (seen)
			continue;
		struct class_key k = { v[i]->code, v[i]->resource, v[i]->cause };
		put_class(d, out, same, &k);
	}
}

static void add_clean(const struct dash *d, struct strbuf *out,
		      const char *s, size_t n)
{
	struct strbuf raw = STRBUF_INIT, c = STRBUF_INIT;

	sb_add(&raw, s, n);
	tui_clean(d->tui, &c, sb_str(&raw));
	sb_adds(out, sb_str(&c));
	sb_free(&raw);
	sb_free(&c);
}

/* The fix: the catalog's, then what the ledger knows of the resource
 * that ran out and the device's limit (npu-smi's chip, else the one
 * inferred from a stream id). */
static void fix_lines(struct dash *d, const struct incident *inc,
		      const struct ident *id, struct strbuf *out)
{
	struct strbuf sb = STRBUF_INIT;

	sb_addf(out, "\f%s\n", _(L_FIX));
	catalog_render(d->cat, "fix", inc, &sb);
	/* The catalog's lines are lines of the pane; each is cleaned (the
	 * fix quotes values from the logs). */
	for (const char *l = sb_str(&sb); *l;) {
		size_t k = strcspn(l, "\n");
		add_clean(d, out, l, k);
		sb_addc(out, '\n');
		l += k + (l[k] == '\n');
	}
	sb_reset(&sb);
	if (ledger_sentence(id, inc, &sb))
		sb_addf(out, "%s\n", sb_str(&sb));
	sb_reset(&sb);
	if (inc->code == CODE_EE1023 &&
	    limit_sentence(&sb, inc, id, d->m->idents.npu))
		sb_addf(out, "%s\n", sb_str(&sb));
	sb_free(&sb);
}

/* The incident's class and title, the first line of the detail. */
/* The incident's class, and which of the N it is when there are more:
 * after ] or [ the first line says where the step is, the fix below it
 * (the "Incident K of N" line is further down). */
static void class_title(struct dash *d, const struct incident *inc,
			size_t n, struct strbuf *out)
{
	struct strbuf sb = STRBUF_INIT;

	catalog_render(d->cat, "title", inc, &sb);
	sb_addf(out, "\f%s %s / %s: %s", code_name(inc->code),
		resource_name(inc->resource), cause_name(inc->cause),
		sb.buf ? sb.buf : "");
	if (n > 1)	/* no space inside: it wraps as one word */
		sb_addf(out, " [%zu/%zu]", (size_t)d->step + 1, n);
	sb_addc(out, '\n');
	sb_free(&sb);
}

static void raw_lines(struct dash *d, const struct incident *inc,
		      struct strbuf *out)
{
	sb_addf(out, "\f%s\n", _(L_RAW));
	for (size_t i = 0; i < inc->nraw; i++) {
		sb_addc(out, '\v');
		add_clean(d, out, inc->raw[i].file, strlen(inc->raw[i].file));
		sb_addf(out, ":%lu: ", inc->raw[i].line);
		add_clean(d, out, inc->raw[i].text,
			  strcspn(inc->raw[i].text, "\n"));
		sb_addc(out, '\n');
	}
	if (!inc->nraw)
		sb_addf(out, "\v%s\n", _(inc->raw_dropped ? L_RAW_DROPPED
						       : L_RAW_NOT_KEPT));
}

/* Which incident of how many (the kept ones named when fewer are kept
 * than counted), when, as what, and its fields. */
static void incident_line(struct dash *d, const struct incident *inc,
			  size_t n, size_t total, struct strbuf *out)
{
	struct strbuf sb = STRBUF_INIT;
	char iso[LOGTIME_ISO_LEN];
	const char *when;

	logtime_iso(inc->first, iso);
	when = *iso ? iso : _(L_UNKNOWN_TIME);
	sb_adds(out, "\f");
	if (n > 1 || n < total)
		sb_addf(out, _(n < total ? L_INCIDENT_N_KEPT : L_INCIDENT_N),
			(size_t)d->step + 1, n, when);
	else
		sb_addf(out, _(L_LATEST), when);
	if (inc->reported_code) {
		sb_adds(out, _(L_REPORTED));
		add_clean(d, out, inc->reported_code, strlen(inc->reported_code));
	} else {
		sb_adds(out, _(L_NO_CODE));
	}
	sb_addc(out, '\n');
	for (size_t i = 0; i < inc->nfields; i++) {
		if (i)
			sb_adds(&sb, ", ");
		sb_adds(&sb, inc->fields[i].key);
		sb_addc(&sb, '=');
		add_clean(d, &sb, inc->fields[i].value,
			  strlen(inc->fields[i].value));
	}
	if (sb.len)
		sb_addf(out, "%s\n", sb.buf);
	sb_free(&sb);
}

/* The lines of the detail pane, before wrapping: "\f" starts a title,
 * "\v" a raw line.  What to change comes first (at 80x24 it is on the
 * first lines): the incident's class, its fix (or its raw lines, l),
 * then which incident it is and its fields, the process's classes, who
 * it was and its ledger. */
static void detail_lines(struct dash *d, struct strbuf *out)
{
	const struct incident **v = xmalloc(MAX_STEP * sizeof *v);
	const struct row *r = &d->rows[d->sel];
	const struct process *p = r->p;
	size_t n = detail_incidents(d, p, v, MAX_STEP);

	const struct ident *id = model_ident(d->m, p);
	if (n) {
		if ((size_t)d->step >= n)
			d->step = (int)n - 1;
		const struct incident *inc = v[d->step];
		class_title(d, inc, n, out);
		if (d->show_raw)
			raw_lines(d, inc, out);
		else
			fix_lines(d, inc, id, out);
		incident_line(d, inc, n, r->total, out);
	}
	class_lines(d, p, v, n, r->total, out);
	ident_lines(d->tui, id, out);
	if (id)
		ledger_lines(id, out);
	free(v);
}

/* A screen line of the detail. */
struct sline {
	const char *s;
	size_t len;
	int x;
	enum theme_item item;
};

static size_t screen_lines(struct dash *d, char *text, struct sline **out)
{
	struct tui *t = d->tui;
	size_t n = 0, cap = 0;
	char *next;

	*out = NULL;
	for (char *line = text; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		enum theme_item item = TI_FIX;
		int indent = 1;
		if (*line == '\f') {
			item = TI_DETAIL_TITLE;
			line++;
		} else if (*line == '\v') {
			item = TI_RAW;
			line++;
			indent = 2;
		}
		const char *s = line;
		int first = 1;
		do {
			/* Wrapped lines are indented two more columns. */
			int x = first ? indent : indent + 2;
			size_t k = wrap_break(s, (size_t)(t->cols - x - 1));
			if (n == cap) {
				cap = cap ? 2 * cap : 64;
				*out = xrealloc(*out, cap * sizeof **out);
			}
			(*out)[n++] = (struct sline){ s, k, x, item };
			s += k;
			while (*s == ' ')
				s++;
			first = 0;
		} while (*s);
	}
	return n;
}

static void draw_detail(struct dash *d, int y0, int height)
{
	struct tui *t = d->tui;
	struct strbuf text = STRBUF_INIT, title = STRBUF_INIT, name = STRBUF_INIT;
	struct sline *sl;

	tui_rule(t, y0, 0, t->cols, d->detail_focus ? TI_TITLE : TI_RAW);
	height--;
	if (!d->nrows || height < 1)
		return;
	const struct row *r = &d->rows[d->sel];
	tui_clean(d->tui, &name, *r->p->name ? r->p->name : "-");
	if (r->p->host) {	/* "python (node01)" */
		struct strbuf host = STRBUF_INIT;
		tui_clean(d->tui, &host, r->p->host->name);
		sb_addf(&name, " (%s)", sb_str(&host));
		sb_free(&host);
	}
	if (window_usec[d->win])
		sb_addf(&title, _(r->total == 1 ? L_IN_WINDOW : L_IN_WINDOW_PL),
			r->p->pid, name.buf, r->total,
			_(window_names[d->win]), process_total(r->p));
	else
		sb_addf(&title, _(r->total == 1 ? L_IN_ALL : L_IN_ALL_PL),
			r->p->pid, name.buf, r->total);
	tui_text(t, y0, 2, t->cols - 4, title.buf, TI_DETAIL_TITLE, 0);
	detail_lines(d, &text);
	size_t n = text.len ? screen_lines(d, text.buf, &sl) : (sl = NULL, 0);
	/* Never scrolled into blank space. */
	d->detail_max = n > (size_t)height ? (int)(n - (size_t)height) : 0;
	if (d->detail_scroll > d->detail_max)
		d->detail_scroll = d->detail_max;
	size_t from = (size_t)d->detail_scroll;
	int more = n - from > (size_t)height;
	int show = more ? height - 1 : height;
	for (int i = 0; i < show && from + (size_t)i < n; i++) {
		const struct sline *s = &sl[from + (size_t)i];
		char buf[4096];
		size_t len = s->len < sizeof buf - 1 ? s->len : sizeof buf - 1;
		memcpy(buf, s->s, len);
		buf[len] = '\0';
		tui_text(t, y0 + 1 + i, s->x, t->cols - s->x - 1, buf, s->item, 0);
	}
	if (more)
		tui_text(t, y0 + height, 1, t->cols - 2, _(L_MORE_BELOW),
			 TI_STATUS, 0);
	free(sl);
	sb_free(&text);
	sb_free(&title);
	sb_free(&name);
}

/* ---- keys ---- */

static void scroll(struct dash *d, long delta)
{
	long s = d->detail_scroll + delta;

	d->detail_scroll = s < 0 ? 0 : s > d->detail_max ? d->detail_max
		: (int)s;
}

static void step(struct dash *d, int delta)
{
	d->step += delta;
	if (d->step < 0)
		d->step = 0;
	d->detail_scroll = 0;
	/* detail_lines stops it at the oldest. */
}

/* The moves scroll the detail while it has the focus (Tab). */
static enum dash_action scroll_key(struct dash *d, int key)
{
	long page = d->table_height > 1 ? d->table_height - 1 : 1;

	switch (key) {
	case TK_UP: case 'k': scroll(d, -1); break;
	case TK_DOWN: case 'j': scroll(d, 1); break;
	case TK_PPAGE: scroll(d, -page); break;
	case TK_NPAGE: scroll(d, page); break;
	case TK_HOME: case 'g': scroll(d, -(long)d->nrows - (1L << 20)); break;
	case TK_END: case 'G': scroll(d, (long)d->nrows + (1L << 20)); break;
	default: return DASH_NONE;
	}
	return DASH_REDRAW;
}

static enum dash_action detail_key(struct dash *d, int key)
{
	if (d->detail_focus && scroll_key(d, key) == DASH_REDRAW)
		return DASH_REDRAW;
	switch (key) {
	case ']': case 'n': step(d, 1); break;
	case '[': case 'N': step(d, -1); break;
	case 'l': d->show_raw = !d->show_raw; d->detail_scroll = 0; break;
	case 'o': {
		const struct incident *inc = detail_incident(d);
		if (inc && strcmp(inc->file, "-") != 0) {
			d->pager_inc = inc;
			return DASH_PAGER;
		}
		msglog_note(d->log, _(L_NOTHING_TO_OPEN));
		break;
	}
	default: return DASH_NONE;
	}
	return DASH_REDRAW;
}

const struct panel detail_panel = { draw_detail, detail_key };
