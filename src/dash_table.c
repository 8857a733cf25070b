/* The process table: columns from the table in dash_text.c, dropped by
 * priority when the terminal is narrow (NAME shrinks to its minimum
 * first), the sorted column's head highlighted. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "dash_int.h"
#include "sanitize.h"

#define NAME_MAX_W 32
#define HOST_MAX_W 16

/* The widths that depend on the rows: HOST's and PID's. */
struct data_widths {
	int host;	/* 0: no HOST column */
	int pid;
};

/* A column's width: its own, or its head's in the language of the texts
 * when wider (terminal cells); HOST's: the widest host name's; PID's:
 * the widest pid's (a pid wider than the column would push every column
 * after it out of line). */
static int col_width(int i, const struct data_widths *dw)
{
	int hw = (int)text_width(tr(columns[i].head));
	int w = columns[i].width;

	if (columns[i].id == C_HOST && dw->host > w)
		w = dw->host;
	if (columns[i].id == C_PID && dw->pid > w)
		w = dw->pid;
	return hw > w ? hw : w;
}

/* Which columns fit in cols, and where.  Every column but NAME has its
 * width; NAME gets what is left, between its minimum and NAME_MAX_W.
 * HOST is shown when dw->host is not 0 (hosts are read). */
static void layout_for(struct layout *l, int cols,
		       const struct data_widths *dw)
{
	int keep[C_COUNT], need = -1;

	for (int i = 0; i < C_COUNT; i++) {
		keep[i] = columns[i].id != C_HOST || dw->host;
		if (keep[i])
			need += col_width(i, dw) + 1;
	}
	/* Drop the highest priority first; the rightmost of a priority. */
	while (need > cols) {
		int worst = -1;
		for (int i = C_COUNT - 1; i >= 0; i--)
			if (keep[i] && columns[i].drop &&
			    (worst < 0 || columns[i].drop > columns[worst].drop))
				worst = i;
		if (worst < 0)
			break;
		keep[worst] = 0;
		need -= col_width(worst, dw) + 1;
	}
	int extra = cols - need, x = 0;
	l->n = 0;
	for (int i = 0; i < C_COUNT; i++) {
		if (!keep[i])
			continue;
		int w = col_width(i, dw);
		if (columns[i].id == C_NAME) {
			int grow = extra < NAME_MAX_W - w ? extra : NAME_MAX_W - w;
			w += grow > 0 ? grow : 0;
		}
		l->shown[l->n] = i;
		l->x[l->n] = x;
		l->w[l->n] = w;
		l->n++;
		x += w + 1;
	}
}

void layout_table(struct dash *d)
{
	struct data_widths dw = { 0, 0 };
	char pid[24];

	for (size_t i = 0; i < d->m->nhosts; i++) {
		int w = (int)text_width(d->m->hosts[i]->name);
		dw.host = w > dw.host ? w : dw.host;
	}
	if (model_has_hosts(d->m) && dw.host < 1)
		dw.host = 1;
	if (dw.host > HOST_MAX_W)
		dw.host = HOST_MAX_W;
	/* The rows shown: the processes that pass the filter. */
	for (size_t i = 0; i < d->nrows; i++) {
		int w = snprintf(pid, sizeof pid, "%ld", d->rows[i].p->pid);
		dw.pid = w > dw.pid ? w : dw.pid;
	}
	layout_for(&d->lay, d->tui->cols, &dw);
}

int column_at(const struct dash *d, int x)
{
	for (int k = 0; k < d->lay.n; k++)
		if (x >= d->lay.x[k] && x <= d->lay.x[k] + d->lay.w[k])
			return d->lay.shown[k];
	return -1;
}

/* Text in a cell, aligned. */
static void cell(const struct dash *d, int y, int k, const char *s,
		 enum theme_item item)
{
	const struct column *c = &columns[d->lay.shown[k]];
	int w = d->lay.w[k];
	char buf[128];
	size_t sw = text_width(s);

	/* Padded in cells, not bytes: a head may be Chinese. */
	if (c->right && sw < (size_t)w && strlen(s) + (size_t)w < sizeof buf) {
		snprintf(buf, sizeof buf, "%*s%s", (int)((size_t)w - sw), "",
			 s);
		s = buf;
	}
	/* The space before the next column belongs to this one. */
	tui_text(d->tui, y, d->lay.x[k], w + 1, s, item, 1);
}

static void draw_head(struct dash *d, int y)
{
	tui_clear_line(d->tui, y, TI_TABLE_HEAD);
	for (int k = 0; k < d->lay.n; k++) {
		const struct column *c = &columns[d->lay.shown[k]];
		int sorted = c->sort >= 0 && (enum sortkey)c->sort == d->sort;
		cell(d, y, k, tr(c->head),
		     sorted ? TI_SELECTED : TI_TABLE_HEAD);
	}
}

void trend_text(const struct dash *d, const unsigned *trend,
		struct strbuf *sb)
{
	unsigned max = 1;

	for (int i = 0; i < TREND_MINUTES; i++)
		if (trend[i] > max)
			max = trend[i];
	for (int i = 0; i < TREND_MINUTES; i++)
		sb_adds(sb, tui_spark(d->tui, trend[i]
			? 1 + (int)(7 * trend[i] / max) : 0));
}

static void draw_row(struct dash *d, int y, const struct row *r,
		     int selected)
{
	enum theme_item base = selected ? TI_SELECTED : r->fresh ? TI_NEW
			       : r->alive ? TI_ROW : TI_DEAD;
	struct strbuf sb = STRBUF_INIT;

	for (int k = 0; k < d->lay.n; k++) {
		enum col_id id = columns[d->lay.shown[k]].id;
		enum theme_item item = base;
		char last[24];
		sb_reset(&sb);
		switch (id) {
		case C_HOST:
			clean_text(d, &sb, r->p->host ? r->p->host->name : "-");
			break;
		case C_PID:
			if (r->p->pid)
				sb_addf(&sb, "%ld", r->p->pid);
			else
				sb_adds(&sb, "-");
			break;
		case C_NAME:
			clean_text(d, &sb, *r->p->name ? r->p->name : "-");
			break;
		case C_ALIVE:
			sb_adds(&sb, tr(d->st->demo ? L_ALIVE_DEMO
					   : r->alive ? L_ALIVE_YES
					   : L_ALIVE_NO));
			break;
		case C_TOTAL:
			sb_addf(&sb, "%zu", r->total);
			if (base == TI_ROW)
				item = TI_COUNT;
			break;
		case C_TREND:
			trend_text(d, r->trend, &sb);
			if (base == TI_ROW)
				item = TI_GRAPH;
			break;
		case C_LAST:
			day_time(last, sizeof last, r->last);
			sb_adds(&sb, last);
			break;
		default: {
			size_t v = r->col[id - C_RES0];
			sb_addf(&sb, "%zu", v);
			if (base == TI_ROW)
				item = v ? TI_COUNT : TI_ZERO;
		}
		}
		cell(d, y, k, sb_str(&sb), item);
	}
	sb_free(&sb);
}

void draw_table(struct dash *d, int y0, int height)
{
	layout_table(d);
	draw_head(d, y0);
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
		draw_row(d, y0 + 1 + i, &d->rows[k], k == d->sel);
	}
	if (!d->nrows)
		tui_text(d->tui, y0 + 1, 2, d->tui->cols - 2,
			 tr(d->filter[0] ? L_NO_MATCH : L_NONE_YET),
			 TI_ROW, 0);
	d->table_y = y0;
	d->table_height = rows;
}
