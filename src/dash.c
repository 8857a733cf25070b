/* The dashboard's state and frame: rows from the model, the parts
 * (header, table, detail, help...) laid out on the screen.  The parts
 * are in dash_header.c, dash_table.c, dash_detail.c, dash_help.c and
 * dash_keys.c; labels and columns in dash_text.c. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dash_int.h"
#include "follow.h"
#include "sanitize.h"
#include "xalloc.h"

struct dash *dash_new(struct model *m, const struct catalog *cat,
		      struct tui *tui, struct msglog *log)
{
	struct dash *d = xcalloc(1, sizeof *d);

	d->m = m;
	d->cat = cat;
	d->tui = tui;
	d->log = log;
	d->win = W_ALL;
	/* What is happening now first: the latest incident on top. */
	d->sort = S_LAST;
	d->rate_ms = -1;
	d->mouse = tui->mouse;
	return d;
}

void dash_free(struct dash *d)
{
	if (!d)
		return;
	free(d->rows);
	free(d->hrows);
	free(d->sel_name);
	free(d);
}

int dash_paused(const struct dash *d)
{
	return d->paused;
}

void dash_set_message(struct dash *d, const char *msg)
{
	struct strbuf sb = STRBUF_INIT;

	clean_text(d, &sb, msg);
	snprintf(d->message, sizeof d->message, "%s", sb_str(&sb));
	sb_free(&sb);
}

/* Sanitised, and ASCII (\xNN) when the terminal cannot show UTF-8. */
void clean_text(const struct dash *d, struct strbuf *sb, const char *s)
{
	sb_reset(sb);
	if (d->tui->utf8) {
		sanitize(sb, s, strlen(s));
	} else {
		struct strbuf c = STRBUF_INIT;
		sanitize(&c, s, strlen(s));
		escape_8bit(sb, c.buf ? c.buf : "", c.len);
		sb_free(&c);
	}
}

/* HH:MM:SS today, else MM-DD HH:MM: a time column says its day. */
void day_time(char *buf, size_t n, logtime_t t)
{
	char iso[LOGTIME_ISO_LEN], today[LOGTIME_ISO_LEN];

	if (t == LOGTIME_UNKNOWN) {
		snprintf(buf, n, "-");
		return;
	}
	logtime_iso(t, iso);
	logtime_iso(logtime_now(), today);
	if (strncmp(iso, today, 10) == 0)
		snprintf(buf, n, "%.8s", iso + 11);
	else
		snprintf(buf, n, "%.5s %.5s", iso + 5, iso + 11);
}

/* ---- rows ---- */

static int matches_filter(const struct dash *d, const struct process *p)
{
	char pid[24];

	if (!d->filter[0])
		return 1;
	snprintf(pid, sizeof pid, "%ld", p->pid);
	return strstr(p->name, d->filter) || strstr(pid, d->filter) ||
	       (p->host && strstr(p->host->name, d->filter));
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
	case S_HOST:
		return strcmp(a->p->host ? a->p->host->name : "",
			      b->p->host ? b->p->host->name : "");
	case S_LAST:
		return (b->last_at > a->last_at) - (b->last_at < a->last_at);
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

void dash_build_rows(struct dash *d)
{
	logtime_t now = logtime_now();
	long long span = window_usec[d->win];
	unsigned long long ms = monotonic_ms();

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
		r->last_at = p->last_at;
		r->total = model_window(d->m, p, span, now, by_res);
		for (int c = 0; c < NRES; c++)
			r->col[c] = by_res[res_columns[c]];
		model_trend(p, now, r->trend, TREND_MINUTES);
		/* New: arrived since the history was read, a moment ago. */
		r->fresh = d->history_done_ms && p->seen_ms >= d->history_done_ms
			   && ms - p->seen_ms < NEW_MS;
	}
	if (d->nrows)
		qsort_r(d->rows, d->nrows, sizeof *d->rows, row_cmp, d);
	/* Keep the selection on the same process, as htop does: a row
	 * moving up does not change what the detail shows (nor resend it). */
	d->sel = 0;
	for (size_t k = 0; k < d->nrows && d->sel_name; k++)
		if (d->rows[k].p->pid == d->sel_pid &&
		    d->rows[k].p->host == d->sel_host &&
		    strcmp(d->rows[k].p->name, d->sel_name) == 0)
			d->sel = k;
	if (!d->sel_name && d->nrows && !d->st_reading) {
		d->sel_pid = d->rows[0].p->pid;
		d->sel_host = d->rows[0].p->host;
		d->sel_name = xstrdup(d->rows[0].p->name);
	}
	if (d->by_host)
		dash_build_host_rows(d);
}

void dash_remember_selection(struct dash *d)
{
	free(d->sel_name);
	d->sel_name = NULL;
	if (d->sel < d->nrows) {
		d->sel_pid = d->rows[d->sel].p->pid;
		d->sel_host = d->rows[d->sel].p->host;
		d->sel_name = xstrdup(d->rows[d->sel].p->name);
	}
	d->detail_scroll = 0;
	d->step = 0;
}

/* ---- the frame ---- */

/* Words of text at (y, x) in width columns, wrapped; returns the rows. */
static int put_words(const struct tui *t, int y, int width, const char *s,
		     enum theme_item item)
{
	int n = 0;

	while (*s && y + n < t->rows) {
		size_t k = text_fit(s, (size_t)width);
		if (s[k]) {
			size_t sp = k;
			while (sp > 0 && s[sp] != ' ')
				sp--;
			if (sp)
				k = sp;
		}
		char line[256];
		snprintf(line, sizeof line, "%.*s", (int)k, s);
		tui_text(t, y + n++, 0, width, line, item, 0);
		s += k;
		while (*s == ' ')
			s++;
	}
	return n;
}

/* Smaller than the minimum: what is wrong and what to do, in words that
 * wrap to whatever width there is. */
static void draw_too_small(struct dash *d)
{
	struct tui *t = d->tui;
	char msg[160];
	int y = t->rows > 4 ? t->rows / 2 - 2 : 0;

	snprintf(msg, sizeof msg, tr(L_TOO_SMALL), t->cols, t->rows);
	y += put_words(t, y, t->cols, msg, TI_WARNING);
	snprintf(msg, sizeof msg, tr(L_TOO_SMALL_NEEDS), MIN_COLS, MIN_ROWS);
	y += put_words(t, y, t->cols, msg, TI_WARNING);
	put_words(t, y, t->cols, tr(L_TOO_SMALL_WHAT), TI_WARNING);
}

static void draw_progress(struct dash *d, int y)
{
	const struct dash_status *st = d->st;
	struct strbuf sb = STRBUF_INIT;

	sb_addf(&sb, tr(L_READING), st->hist_files, st->hist_files_total,
		(double)st->hist_bytes / 1e6, (double)st->hist_bytes_total / 1e6);
	tui_text(d->tui, y, 2, d->tui->cols - 4, sb.buf, TI_STATUS, 0);
	sb_free(&sb);
}

/* Lines read per second, from the second measure after the history:
 * the history's lines are no rate. */
static void update_rate(struct dash *d)
{
	long long now = (long long)monotonic_ms();

	if (d->st->reading_history) {
		d->rate_ms = -1;
		d->rate_known = 0;
		return;
	}
	if (!d->history_done_ms)
		d->history_done_ms = (unsigned long long)now;
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
		d->rate_known = 1;
	}
}

/* A table takes its rows and its heading and borders, up to half of
 * the room below the header, and 3 lines at least. */
static int table_height(size_t rows, int avail)
{
	int table = rows + 2 < (size_t)avail / 2 ? (int)rows + 2 : avail / 2;

	return table < 3 ? 3 : table;
}

void dash_draw(struct dash *d, const struct dash_status *st)
{
	struct tui *t = d->tui;
	char buf[512];

	d->st = st;
	d->st_reading = st->reading_history;
	tui_erase();
	if (t->rows < MIN_ROWS || t->cols < MIN_COLS) {
		draw_too_small(d);
		tui_refresh(0);
		return;
	}
	update_rate(d);
	/* Paused rows are rebuilt when a process they show was folded. */
	if (!d->paused || !d->rows || d->fold_gen != d->m->fold_gen)
		dash_build_rows(d);
	int y = draw_header(d);
	int keys = key_bar_rows(d);
	int bottom = t->rows - keys;
	if (message_line(d, buf, sizeof buf))
		tui_text(t, --bottom, 0, t->cols, buf, TI_WARNING, 1);
	draw_key_bar(d, t->rows - keys);
	int avail = bottom - y;
	if (d->view == V_HELP) {
		draw_help(d, y, avail);
	} else if (d->view == V_MESSAGES) {
		draw_messages(d, y, avail);
	} else if (d->view == V_HOSTS) {
		draw_hosts_view(d, y, avail);
	} else if (st->reading_history) {
		draw_progress(d, y + avail / 2);
	} else {
		int table = table_height(d->by_host ? d->nhrows : d->nrows,
					 avail);
		if (d->by_host) {
			draw_host_table(d, y, table);
			draw_host_detail(d, y + table, avail - table);
		} else {
			draw_table(d, y, table);
			draw_detail(d, y + table, avail - table);
		}
		if (d->view == V_SORT_MENU)
			draw_sort_menu(d, y + 1, avail - 1);
	}
	tui_refresh(0);
	d->st = NULL;
}

const char *dash_pager_file(const struct dash *d)
{
	return d->pager_inc ? d->pager_inc->file : NULL;
}

unsigned long dash_pager_line(const struct dash *d)
{
	return d->pager_inc ? d->pager_inc->line : 1;
}
