/* The dashboard's frame: the header, the panel of the view shown (or
 * the table and its detail), the message line and the key bar laid out
 * on the screen.  The panels are in dash_table.c, dash_detail.c,
 * dash_hosts.c and dash_help.c, the keys in dash_keys.c, the rows in
 * dash_rows.c; labels and columns in dash_text.c. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dash_int.h"
#include "monoclock.h"
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
	model_devices_free(d->drows, d->ndrows_all);
	free(d->sel_name);
	free(d);
}

int dash_paused(const struct dash *d)
{
	return d->paused;
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

	snprintf(msg, sizeof msg, _(L_TOO_SMALL), t->cols, t->rows);
	y += put_words(t, y, t->cols, msg, TI_WARNING);
	snprintf(msg, sizeof msg, _(L_TOO_SMALL_NEEDS), MIN_COLS, MIN_ROWS);
	y += put_words(t, y, t->cols, msg, TI_WARNING);
	put_words(t, y, t->cols, _(L_TOO_SMALL_WHAT), TI_WARNING);
}

static void draw_progress(struct dash *d, int y)
{
	const struct dash_status *st = d->st;
	struct strbuf sb = STRBUF_INIT;

	sb_addf(&sb, _(L_READING), st->hist_files, st->hist_files_total,
		(double)st->hist_bytes / 1e6, (double)st->hist_bytes_total / 1e6);
	tui_text(d->tui, y, 2, d->tui->cols - 4, sb.buf, TI_STATUS, 0);
	sb_free(&sb);
}

/* Lines read here and by the hosts (their cursor lines say it). */
static unsigned long long lines_read(const struct model *m)
{
	unsigned long long n = m->stats.lines;

	for (size_t i = 0; i < m->nhosts; i++)
		n += m->hosts[i]->lines;
	return n;
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
		d->rate_lines = lines_read(d->m);
		return;
	}
	if (now - d->rate_ms >= 1000) {
		d->lines_per_s = (double)(lines_read(d->m) - d->rate_lines) *
				 1000.0 / (double)(now - d->rate_ms);
		d->rate_ms = now;
		d->rate_lines = lines_read(d->m);
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
	const struct panel *view = d->view == V_HELP ? &help_panel
		: d->view == V_MESSAGES ? &messages_panel
		: d->view == V_HOSTS ? &hosts_panel : NULL;
	if (view) {
		view->draw(d, y, avail);
	} else if (st->reading_history) {
		draw_progress(d, y + avail / 2);
	} else {
		/* The table above, its detail below. */
		const struct panel *table = d->by_dev ? &dev_table_panel
			: d->by_host ? &host_table_panel : &procs_panel;
		const struct panel *detail = d->by_dev ? &dev_detail_panel
			: d->by_host ? &host_detail_panel : &detail_panel;
		int h = table_height(d->by_dev ? d->ndrows : d->by_host
				     ? d->nhrows : d->nrows, avail);
		table->draw(d, y, h);
		detail->draw(d, y + h, avail - h);
		if (d->view == V_SORT_MENU)
			sort_panel.draw(d, y + 1, avail - 1);
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
