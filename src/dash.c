#include "config.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dash.h"
#include "sanitize.h"
#include "xalloc.h"

#define MIN_ROWS 12
#define MIN_COLS 60
#define TREND_MINUTES 10
#define CTRL(c) ((c) & 0x1f)

enum window { W_1M, W_5M, W_1H, W_ALL, W_COUNT };
static const char *const window_names[] = { "1 min", "5 min", "1 h", "all" };
static const long long window_usec[] = {
	60LL * 1000000, 300LL * 1000000, 3600LL * 1000000, 0
};

/* The resource columns, in table order. */
static const enum resource columns[] = {
	RES_STREAM, RES_NOTIFY, RES_EVENT, RES_ASYNC_COPY, RES_MEMCPY,
	RES_ARGUMENT,
};
static const char *const column_heads[] = {
	"Strm", "Ntfy", "Evnt", "Acpy", "Mcpy", "Arg"
};
#define NCOL 6

enum sortkey { S_TOTAL, S_PID, S_NAME, S_ALIVE, S_COL0, S_LAST = S_COL0 + NCOL,
	       S_COUNT };
static const char *const sort_names[] = {
	"incidents", "pid", "name", "alive", "stream", "notify", "event",
	"async copy", "memcpy", "argument", "last"
};

struct row {
	struct process *p;
	size_t col[NCOL];
	size_t total;
	int alive;
	unsigned trend[TREND_MINUTES];
	logtime_t last;
};

struct dash {
	struct model *m;
	const struct catalog *cat;
	struct tui *tui;
	enum window win;
	enum sortkey sort;
	int reverse;
	char filter[64];
	int filtering;
	char input[64];
	int paused, detail_focus, show_raw, help;
	struct row *rows;
	size_t nrows, sel, top;
	long sel_pid;
	char *sel_name;
	int detail_scroll;
	unsigned long long rate_lines;
	long long rate_ms;
	double lines_per_s;
	char message[160];
	const struct incident *pager_inc;
	int table_height;
	unsigned long long fold_gen;	/* the model's, when rows were built */
};

struct dash *dash_new(struct model *m, const struct catalog *cat,
		      struct tui *tui)
{
	struct dash *d = xcalloc(1, sizeof *d);

	d->m = m;
	d->cat = cat;
	d->tui = tui;
	d->win = W_ALL;
	d->sort = S_TOTAL;
	d->rate_ms = -1;
	return d;
}

void dash_free(struct dash *d)
{
	if (!d)
		return;
	free(d->rows);
	free(d->sel_name);
	free(d);
}

int dash_paused(const struct dash *d)
{
	return d->paused;
}

void dash_set_message(struct dash *d, const char *msg)
{
	snprintf(d->message, sizeof d->message, "%s", msg);
}

/* ---- rows ---- */

static long long now_ms_real(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static int matches_filter(const struct dash *d, const struct process *p)
{
	char pid[24];

	if (!d->filter[0])
		return 1;
	snprintf(pid, sizeof pid, "%ld", p->pid);
	return strstr(p->name, d->filter) || strstr(pid, d->filter);
}

static int row_cmp_key(const struct row *a, const struct row *b,
		       enum sortkey k)
{
	switch (k) {
	case S_PID:
		return (a->p->pid > b->p->pid) - (a->p->pid < b->p->pid);
	case S_NAME:
		return strcmp(a->p->name, b->p->name);
	case S_ALIVE:
		return b->alive - a->alive;
	case S_LAST:
		return (b->last > a->last) - (b->last < a->last);
	case S_TOTAL:
		return (b->total > a->total) - (b->total < a->total);
	default: {
		int c = (int)k - S_COL0;
		return (b->col[c] > a->col[c]) - (b->col[c] < a->col[c]);
	}
	}
}

static int row_cmp(const void *x, const void *y, void *ctx)
{
	const struct row *a = x, *b = y;
	const struct dash *d = ctx;
	int c = row_cmp_key(a, b, d->sort);

	if (!c)
		c = row_cmp_key(a, b, S_TOTAL);
	if (!c)
		c = row_cmp_key(a, b, S_PID);
	if (!c)
		c = strcmp(a->p->name, b->p->name);
	return d->reverse ? -c : c;
}

static void build_rows(struct dash *d)
{
	logtime_t now = logtime_now();
	long long span = window_usec[d->win];

	/* Counts come from the model's per-minute counts: the cost of a
	 * frame does not grow with the incidents seen. */
	d->rows = xrealloc(d->rows, (d->m->nprocs + 1) * sizeof *d->rows);
	d->nrows = 0;
	d->fold_gen = d->m->fold_gen;
	for (size_t i = 0; i < d->m->nprocs; i++) {
		struct process *p = d->m->procs[i];
		size_t by_res[RES_COUNT];
		if (!matches_filter(d, p))
			continue;
		struct row *r = &d->rows[d->nrows++];
		memset(r, 0, sizeof *r);
		r->p = p;
		r->alive = model_alive(d->m, p);
		r->last = p->last;
		r->total = model_window(d->m, p, span, now, by_res);
		for (int c = 0; c < NCOL; c++)
			r->col[c] = by_res[columns[c]];
		model_trend(p, now, r->trend, TREND_MINUTES);
	}
	if (d->nrows)
		qsort_r(d->rows, d->nrows, sizeof *d->rows, row_cmp, d);
	/* Keep the selection on the same process. */
	d->sel = 0;
	for (size_t k = 0; k < d->nrows && d->sel_name; k++)
		if (d->rows[k].p->pid == d->sel_pid &&
		    strcmp(d->rows[k].p->name, d->sel_name) == 0)
			d->sel = k;
}

static void remember_selection(struct dash *d)
{
	free(d->sel_name);
	d->sel_name = NULL;
	if (d->sel < d->nrows) {
		d->sel_pid = d->rows[d->sel].p->pid;
		d->sel_name = xstrdup(d->rows[d->sel].p->name);
	}
	d->detail_scroll = 0;
}

/* ---- drawing ---- */

static void clean(struct strbuf *sb, const char *s)
{
	sb_reset(sb);
	sanitize(sb, s, strlen(s));
}

static void short_time(char *buf, size_t n, logtime_t t)
{
	char iso[LOGTIME_ISO_LEN];

	if (t == LOGTIME_UNKNOWN) {
		snprintf(buf, n, "-");
		return;
	}
	logtime_iso(t, iso);
	snprintf(buf, n, "%.8s", iso + 11);
}

static void draw_header(struct dash *d, const struct dash_status *st)
{
	struct tui *t = d->tui;
	struct strbuf sb = STRBUF_INIT;
	char clock[16];
	time_t now = time(NULL);
	struct tm tm;

	localtime_r(&now, &tm);
	strftime(clock, sizeof clock, "%H:%M:%S", &tm);
	tui_clear_line(t, 0, TI_HEADER);
	sb_addf(&sb, " plogtop %s  %s (%s)", PACKAGE_VERSION, st->roots, st->how);
	tui_text(t, 0, 0, t->cols - 20, sb.buf, TI_HEADER, 0);
	sb_reset(&sb);
	sb_addf(&sb, "%s%s ", d->paused ? "PAUSED  " : "", clock);
	tui_text(t, 0, t->cols - (int)text_width(sb.buf), (int)text_width(sb.buf),
		 sb.buf, TI_HEADER, 0);
	sb_reset(&sb);
	/* What hides rows comes first: at 80 columns the line is cut. */
	if (d->filter[0]) {
		struct strbuf f = STRBUF_INIT;
		clean(&f, d->filter);
		sb_addf(&sb, " filter '%s' ", f.buf);
		sb_free(&f);
	}
	sb_addf(&sb, " window %s  incidents 1m %zu 1h %zu all %zu  files %zu  ",
		window_names[d->win],
		model_count_window(d->m, 60LL * 1000000, logtime_now()),
		model_count_window(d->m, 3600LL * 1000000, logtime_now()),
		d->m->n, st->files);
	/* What was found and not read is never silent (see the report's
	 * Skipped: list, or --once). */
	if (d->m->nskipped)
		sb_addf(&sb, "skipped %zu  ", d->m->nskipped);
	sb_addf(&sb, "processes %zu  lines/s %.0f  sort %s%s",
		d->m->nprocs, d->lines_per_s, sort_names[d->sort],
		d->reverse ? " (rev)" : "");
	tui_text(t, 1, 0, t->cols, sb.buf, TI_STATUS, 1);
	sb_free(&sb);
}

/* Column widths: the name takes what is left. */
struct layout {
	int name, trend;
};

static struct layout layout_for(int cols)
{
	/* pid 7, alive 6, six counts of 5, total 6, last 9, spaces */
	int fixed = 8 + 6 + NCOL * 5 + 6 + 9 + 1;
	struct layout l = { cols - fixed - (TREND_MINUTES + 1), TREND_MINUTES };

	if (l.name < 10) {
		l.trend = 0;
		l.name = cols - fixed;
	}
	if (l.name > 24)
		l.name = 24;
	return l;
}

static void draw_table_head(struct dash *d, int y, struct layout l)
{
	struct strbuf sb = STRBUF_INIT;

	sb_addf(&sb, "%-7s %-*s %-5s", "PID", l.name, "NAME", "ALIVE");
	for (int c = 0; c < NCOL; c++)
		sb_addf(&sb, " %4s", column_heads[c]);
	sb_addf(&sb, " %5s", "TOTAL");
	if (l.trend)
		sb_addf(&sb, " %-*s", l.trend, "TREND");
	sb_addf(&sb, " %-8s", "LAST");
	tui_text(d->tui, y, 0, d->tui->cols, sb.buf, TI_TABLE_HEAD, 1);
	sb_free(&sb);
}

static void draw_row(struct dash *d, int y, const struct row *r,
		     struct layout l, int selected)
{
	struct tui *t = d->tui;
	struct strbuf sb = STRBUF_INIT, name = STRBUF_INIT;
	enum theme_item base = selected ? TI_SELECTED
			       : r->alive ? TI_ROW : TI_DEAD;
	char last[16];
	int x = 0;

	if (r->p->pid)
		sb_addf(&sb, "%-7ld ", r->p->pid);
	else
		sb_addf(&sb, "%-7s ", "-");
	tui_text(t, y, x, 8, sb.buf, base, 1);
	x += 8;
	clean(&name, *r->p->name ? r->p->name : "-");
	tui_text(t, y, x, l.name, name.buf, base, 1);
	x += l.name;
	tui_text(t, y, x, 6, r->alive ? " yes" : " no", base, 1);
	x += 6;
	for (int c = 0; c < NCOL; c++) {
		sb_reset(&sb);
		sb_addf(&sb, " %4zu", r->col[c]);
		tui_text(t, y, x, 5, sb.buf, selected ? base
			 : r->col[c] ? TI_COUNT : TI_ZERO, 1);
		x += 5;
	}
	sb_reset(&sb);
	sb_addf(&sb, " %5zu", r->total);
	tui_text(t, y, x, 6, sb.buf, selected ? base : TI_COUNT, 1);
	x += 6;
	if (l.trend) {
		unsigned max = 1;
		for (int i = 0; i < TREND_MINUTES; i++)
			if (r->trend[i] > max)
				max = r->trend[i];
		sb_reset(&sb);
		sb_addc(&sb, ' ');
		for (int i = 0; i < TREND_MINUTES; i++)
			sb_adds(&sb, tui_spark(t, r->trend[i]
				? 1 + (int)(7 * r->trend[i] / max) : 0));
		tui_text(t, y, x, l.trend + 1, sb.buf,
			 selected ? base : TI_GRAPH, 1);
		x += l.trend + 1;
	}
	short_time(last, sizeof last, r->last);
	sb_reset(&sb);
	sb_addf(&sb, " %s", last);
	tui_text(t, y, x, t->cols - x, sb.buf, base, 1);
	sb_free(&sb);
	sb_free(&name);
}

static void draw_table(struct dash *d, int y0, int height)
{
	struct layout l = layout_for(d->tui->cols);

	draw_table_head(d, y0, l);
	int rows = height - 1;
	if (d->sel >= d->nrows)
		d->sel = d->nrows ? d->nrows - 1 : 0;
	if (d->sel < d->top)
		d->top = d->sel;
	if (rows > 0 && d->sel >= d->top + (size_t)rows)
		d->top = d->sel - (size_t)rows + 1;
	for (int i = 0; i < rows; i++) {
		size_t k = d->top + (size_t)i;
		if (k >= d->nrows)
			break;
		draw_row(d, y0 + 1 + i, &d->rows[k], l,
			 k == d->sel);
	}
	if (!d->nrows)
		tui_text(d->tui, y0 + 1, 2, d->tui->cols - 2, d->filter[0]
			 ? "No process matches the filter."
			 : "No EE1023 or EE1001 incident so far.", TI_ROW, 0);
	d->table_height = rows;
}

/* The lines of the detail pane, before scrolling. */
static void detail_lines(struct dash *d, struct strbuf *out)
{
	const struct row *r = &d->rows[d->sel];
	const struct process *p = r->p;
	const struct incident *inc = p->latest;
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < p->nclasses; i++) {
		const struct class_count *cc = &p->classes[i];
		struct incident probe = { 0 };
		probe.code = cc->k.code;
		probe.resource = cc->k.resource;
		probe.cause = cc->k.cause;
		sb_reset(&sb);
		catalog_render(d->cat, "title", &probe, &sb);
		sb_addf(out, "%5zu  %s %s / %s: %s\n", cc->n,
			code_name(cc->k.code), resource_name(cc->k.resource),
			cause_name(cc->k.cause), sb.buf ? sb.buf : "");
	}
	if (!inc) {
		sb_free(&sb);
		return;
	}
	char iso[LOGTIME_ISO_LEN];
	logtime_iso(inc->first, iso);
	sb_addf(out, "\fLatest: %s, ", *iso ? iso : "unknown time");
	if (inc->reported_code) {
		sb_adds(out, "reported as ");
		sanitize(out, inc->reported_code, strlen(inc->reported_code));
	} else {
		sb_adds(out, "no code printed");
	}
	sb_addc(out, '\n');
	sb_reset(&sb);
	for (size_t i = 0; i < inc->nfields; i++) {
		if (i)
			sb_adds(&sb, ", ");
		sb_adds(&sb, inc->fields[i].key);
		sb_addc(&sb, '=');
		sanitize(&sb, inc->fields[i].value, strlen(inc->fields[i].value));
	}
	if (sb.len)
		sb_addf(out, "%s\n", sb.buf);
	if (d->show_raw) {
		sb_adds(out, "\fRaw lines (o opens the file in $PAGER):\n");
		for (size_t i = 0; i < inc->nraw; i++) {
			sb_addf(out, "\v");
			sanitize(out, inc->raw[i].file, strlen(inc->raw[i].file));
			sb_addf(out, ":%lu: ", inc->raw[i].line);
			const char *raw = inc->raw[i].text;
			size_t n = strcspn(raw, "\n");
			sanitize(out, raw, n);
			sb_addc(out, '\n');
		}
		if (!inc->nraw)
			sb_adds(out, "\v(the raw lines were not kept)\n");
	} else {
		sb_adds(out, "\fWhat to do (l shows the raw lines):\n");
		sb_reset(&sb);
		catalog_render(d->cat, "fix", inc, &sb);
		sb_addf(out, "%s\n", sb.buf ? sb.buf : "");
	}
	sb_free(&sb);
}

/* Wraps one logical line into screen lines of width columns. */
static int wrap_line(const char *s, size_t width, const char **starts,
		     size_t *lens, int max)
{
	int n = 0;

	do {
		size_t fit = text_fit(s, width);
		if (!fit && *s)
			fit = 1;
		if (s[fit]) {
			size_t sp = fit;
			while (sp > 0 && s[sp] != ' ')
				sp--;
			if (sp > width / 3)
				fit = sp;
		}
		if (n < max) {
			starts[n] = s;
			lens[n] = fit;
		}
		n++;
		s += fit;
		while (*s == ' ')
			s++;
	} while (*s);
	return n;
}

static void draw_detail(struct dash *d, int y0, int height)
{
	struct tui *t = d->tui;
	struct strbuf text = STRBUF_INIT, title = STRBUF_INIT, name = STRBUF_INIT;

	tui_rule(t, y0, 0, t->cols, d->detail_focus ? TI_TITLE : TI_RAW);
	if (!d->nrows || height < 2) {
		sb_free(&text);
		return;
	}
	const struct row *r = &d->rows[d->sel];
	clean(&name, *r->p->name ? r->p->name : "-");
	sb_addf(&title, " %ld %s: %zu incident%s in the window, %zu in all ",
		r->p->pid, name.buf, r->total, r->total == 1 ? "" : "s",
		r->p->total);
	tui_text(t, y0, 2, t->cols - 4, title.buf, TI_DETAIL_TITLE, 0);
	detail_lines(d, &text);
	/* Split into screen lines, then show from the scroll position. */
	int y = y0 + 1, skip = d->detail_scroll, shown = 0;
	char *line = text.buf, *next;
	for (; line && *line; line = next) {
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
		const char *starts[64];
		size_t lens[64];
		/* Wrapped lines are indented two more columns. */
		int n = wrap_line(line, (size_t)(t->cols - indent - 3), starts,
				  lens, 64);
		for (int i = 0; i < n && i < 64; i++) {
			if (skip > 0) {
				skip--;
				continue;
			}
			if (y >= y0 + height)
				break;
			char buf[4096];
			size_t len = lens[i] < sizeof buf - 1 ? lens[i]
							      : sizeof buf - 1;
			memcpy(buf, starts[i], len);
			buf[len] = '\0';
			tui_text(t, y++, i ? indent + 2 : indent,
				 t->cols - indent - 2, buf, item, 0);
			shown++;
		}
	}
	if (d->detail_scroll > 0 && !shown)
		d->detail_scroll--;
	sb_free(&text);
	sb_free(&title);
	sb_free(&name);
}

static void draw_keys(struct dash *d)
{
	struct tui *t = d->tui;
	int y = t->rows - 1;

	if (d->filtering) {
		struct strbuf sb = STRBUF_INIT;
		sb_adds(&sb, " filter (pid or name, Enter applies, Esc "
			"cancels): ");
		sanitize(&sb, d->input, strlen(d->input));
		sb_addc(&sb, '_');
		tui_text(t, y, 0, t->cols, sb.buf, TI_KEYS, 1);
		sb_free(&sb);
		return;
	}
	if (d->message[0]) {
		tui_text(t, y, 0, t->cols, d->message, TI_WARNING, 1);
		return;
	}
	tui_text(t, y, 0, t->cols, " q quit  ? help  \u2191\u2193 move  Tab "
		 "detail  s sort  w window  / filter  p pause  t theme  l lines"
		 "  o open", TI_KEYS, 1);
	if (!t->utf8)
		tui_text(t, y, 0, t->cols, " q quit  ? help  j/k move  Tab "
			 "detail  s sort  w window  / filter  p pause  t theme"
			 "  l lines  o open", TI_KEYS, 1);
}

static const char *const help_text[] = {
	"plogtop: Ascend runtime incidents per process, live",
	"",
	"Up/Down, j/k      select a process (or scroll the detail)",
	"PgUp/PgDn         a page up or down",
	"Home/End          first or last",
	"Enter, Tab        move between the table and the detail",
	"s / S             sort by the next column / reverse the order",
	"w                 window: 1 min, 5 min, 1 h, all (by log time)",
	"/                 filter by pid or name (empty: no filter)",
	"p                 pause the display (counting goes on)",
	"t                 next theme: default, light, mono, high-contrast",
	"l                 the raw lines of the latest incident, or the fix",
	"o                 open that incident's file in $PAGER at its line",
	"Ctrl-L            redraw the whole screen",
	"?                 this help (Esc or ? closes it)",
	"q                 quit",
	"",
	"Columns: Strm stream, Ntfy notify, Evnt event, Acpy async copy",
	"queue (EE1023); Mcpy memcpy kind, Arg other argument (EE1001).",
	"ALIVE: the pid runs the same program now.  TREND: incidents per",
	"minute over the last ten minutes.  Dead processes are dimmed.",
};

static void draw_help(struct dash *d)
{
	struct tui *t = d->tui;
	size_t n = sizeof help_text / sizeof help_text[0];

	for (size_t i = 0; i < n && (int)i + 3 < t->rows - 1; i++)
		tui_text(t, (int)i + 3, 2, t->cols - 4, help_text[i],
			 i ? TI_FIX : TI_TITLE, 0);
	tui_text(t, t->rows - 1, 0, t->cols, " Esc or ? closes the help, "
		 "q quits", TI_KEYS, 1);
}

static void draw_progress(struct dash *d, const struct dash_status *st)
{
	struct strbuf sb = STRBUF_INIT;

	sb_addf(&sb, "Reading the history: %zu of %zu files, %.1f of %.1f MB",
		st->hist_files, st->hist_files_total,
		(double)st->hist_bytes / 1e6, (double)st->hist_bytes_total / 1e6);
	tui_text(d->tui, d->tui->rows / 2, 2, d->tui->cols - 4, sb.buf,
		 TI_STATUS, 0);
	sb_free(&sb);
}

static void update_rate(struct dash *d)
{
	long long now = now_ms_real();

	if (d->rate_ms < 0) {
		d->rate_ms = now;
		d->rate_lines = d->m->stats.lines;
		return;
	}
	if (now - d->rate_ms >= 1000) {
		d->lines_per_s = (double)(d->m->stats.lines - d->rate_lines) *
				 1000.0 / (double)(now - d->rate_ms);
		d->rate_ms = now;
		d->rate_lines = d->m->stats.lines;
	}
}

void dash_draw(struct dash *d, const struct dash_status *st)
{
	struct tui *t = d->tui;

	tui_erase();
	if (t->rows < MIN_ROWS || t->cols < MIN_COLS) {
		char msg[96];
		snprintf(msg, sizeof msg, "Too small: %dx%d", t->cols, t->rows);
		tui_text(t, t->rows / 2 - 1, 0, t->cols, msg, TI_WARNING, 0);
		snprintf(msg, sizeof msg, "needs %dx%d", MIN_COLS, MIN_ROWS);
		tui_text(t, t->rows / 2, 0, t->cols, msg, TI_WARNING, 0);
		tui_refresh(0);
		return;
	}
	update_rate(d);
	/* Paused rows are rebuilt when a process they show was folded. */
	if (!d->paused || !d->rows || d->fold_gen != d->m->fold_gen)
		build_rows(d);
	draw_header(d, st);
	if (d->help) {
		draw_help(d);
	} else if (st->reading_history) {
		draw_progress(d, st);
		draw_keys(d);
	} else {
		int avail = t->rows - 3;
		int table = d->nrows + 2 < (size_t)avail / 2
			    ? (int)d->nrows + 2 : avail / 2;
		if (table < 3)
			table = 3;
		draw_table(d, 2, table);
		draw_detail(d, 2 + table, avail - table);
		draw_keys(d);
	}
	tui_refresh(0);
}

/* ---- keys ---- */

static enum dash_action filter_key(struct dash *d, int key)
{
	size_t n = strlen(d->input);

	if (key == 27) {
		d->filtering = 0;
	} else if (key == '\r' || key == '\n' || key == KEY_ENTER) {
		snprintf(d->filter, sizeof d->filter, "%s", d->input);
		d->filtering = 0;
		d->sel = d->top = 0;
		remember_selection(d);
		build_rows(d);
	} else if (key == KEY_BACKSPACE || key == 127 || key == 8) {
		if (n)
			d->input[n - 1] = '\0';
	} else if (key >= 0x20 && key < 0x7f && n + 1 < sizeof d->input) {
		d->input[n] = (char)key;
		d->input[n + 1] = '\0';
	}
	return DASH_REDRAW;
}

static void move_sel(struct dash *d, long delta)
{
	if (d->detail_focus) {
		d->detail_scroll += (int)delta;
		if (d->detail_scroll < 0)
			d->detail_scroll = 0;
		return;
	}
	long s = (long)d->sel + delta;
	if (s < 0)
		s = 0;
	if (d->nrows && s >= (long)d->nrows)
		s = (long)d->nrows - 1;
	d->sel = (size_t)s;
	remember_selection(d);
}

enum dash_action dash_key(struct dash *d, int key)
{
	long page = d->table_height > 1 ? d->table_height - 1 : 1;

	d->message[0] = '\0';
	if (d->filtering)
		return filter_key(d, key);
	if (d->help && key != 'q' && key != KEY_RESIZE) {
		d->help = 0;
		return DASH_REDRAW;
	}
	switch (key) {
	case 'q': return DASH_QUIT;
	case '?': d->help = 1; break;
	case KEY_UP: case 'k': move_sel(d, -1); break;
	case KEY_DOWN: case 'j': move_sel(d, 1); break;
	case KEY_PPAGE: move_sel(d, -page); break;
	case KEY_NPAGE: move_sel(d, page); break;
	case KEY_HOME: case 'g': move_sel(d, -(long)d->nrows - 1000); break;
	case KEY_END: case 'G': move_sel(d, (long)d->nrows + 1000); break;
	case '\t': case '\r': case '\n': case KEY_ENTER:
		d->detail_focus = !d->detail_focus;
		break;
	case 's': d->sort = (d->sort + 1) % S_COUNT; break;
	case 'S': d->reverse = !d->reverse; break;
	case 'w': d->win = (d->win + 1) % W_COUNT; break;
	case '/':
		d->filtering = 1;
		snprintf(d->input, sizeof d->input, "%s", d->filter);
		break;
	case 'p': d->paused = !d->paused; break;
	case 'l': d->show_raw = !d->show_raw; d->detail_scroll = 0; break;
	case 't': return DASH_THEME;
	case 'o':
		if (d->nrows && d->rows[d->sel].p->latest &&
		    strcmp(d->rows[d->sel].p->latest->file, "-") != 0) {
			d->pager_inc = d->rows[d->sel].p->latest;
			return DASH_PAGER;
		}
		dash_set_message(d, " Nothing to open.");
		break;
	case CTRL('l'): tui_refresh(1); break;
	case KEY_RESIZE: break;
	default: return DASH_NONE;
	}
	if (!d->paused)
		build_rows(d);
	return DASH_REDRAW;
}

const char *dash_pager_file(const struct dash *d)
{
	return d->pager_inc ? d->pager_inc->file : NULL;
}

unsigned long dash_pager_line(const struct dash *d)
{
	return d->pager_inc ? d->pager_inc->line : 1;
}
