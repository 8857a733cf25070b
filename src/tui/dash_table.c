/* The process table, a panel: columns from the table in dash_text.c
 * laid out by the column engine (dropped by priority when the terminal
 * is narrow, NAME shrinks to its minimum first), the sorted column's
 * head highlighted; its keys move the selection, a click selects a row
 * or sorts by a head. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "dash_int.h"
#include "textfit.h"
#include "sanitize.h"
#include "tui.h"

#define NAME_MAX_W 32

/* The column engine takes COLS_MAX columns at most. */
_Static_assert(C_COUNT <= COLS_MAX, "COLS_MAX");
#define HOST_MAX_W 16
#define HOST_MIN_W 6	/* HOST shortens to it before DEV or RANK goes */

/* The columns as the engine takes them: NAME grows up to NAME_MAX_W. */
static void proc_specs(struct col_spec *spec)
{
	for (int i = 0; i < C_COUNT; i++)
		spec[i] = (struct col_spec){ columns[i].head, columns[i].width,
			columns[i].right, columns[i].drop,
			columns[i].id == C_NAME ? NAME_MAX_W : 0 };
}

/* The widths the columns' data need: HOST's, PID's, DEV's and RANK's
 * (-1 leaves a column out); the order in which columns shorten or
 * drop is columns.c's: HOST shortens to HOST_MIN_W before DEV or RANK
 * goes. */
void proc_layout(struct col_layout *l, int host, int pid, int dev,
		 int rank, int cols)
{
	struct col_spec spec[C_COUNT];
	int want[C_COUNT] = { 0 };

	proc_specs(spec);
	for (;;) {
		for (int i = 0; i < C_COUNT; i++)
			want[i] = columns[i].id == C_HOST ? (host > 0 ? host : -1)
				: columns[i].id == C_PID ? pid
				: columns[i].id == C_DEV ? dev
				: columns[i].id == C_RANK ? rank : 0;
		cols_layout(l, spec, C_COUNT, want, cols);
		int lost = (dev >= 0 && l->at[C_DEV] < 0) ||
			   (rank >= 0 && l->at[C_RANK] < 0);
		if (!lost || host <= HOST_MIN_W)
			return;
		host--;
	}
}

/* HOST is as wide as the widest host name (shown when hosts are read),
 * PID as the widest pid (a pid wider than the column would push every
 * column after it out of line), DEV and RANK as theirs (shown when a
 * row has one). */
static void layout_table(struct dash *d)
{
	int host = 0, pid = 0, dev = -1, rank = -1;
	char buf[24];

	for (size_t i = 0; i < d->m->nhosts; i++) {
		int w = (int)text_width(d->m->hosts[i]->name);
		host = w > host ? w : host;
	}
	if (model_has_hosts(d->m) && host < 1)
		host = 1;
	if (host > HOST_MAX_W)
		host = HOST_MAX_W;
	/* The rows shown: the processes that pass the filter. */
	for (size_t i = 0; i < d->nrows; i++) {
		const struct row *r = &d->rows[i];
		int w = snprintf(buf, sizeof buf, "%ld", r->p->pid);
		pid = w > pid ? w : pid;
		if (r->dev != IDENT_UNKNOWN || r->rank != IDENT_UNKNOWN) {
			w = snprintf(buf, sizeof buf, "%ld", r->dev);
			dev = w > dev ? w : dev;
			w = snprintf(buf, sizeof buf, "%ld", r->rank);
			rank = w > rank ? w : rank;
		}
	}
	proc_layout(&d->lay, host, pid, dev, rank, d->tui->cols);
}

/* A host's name in the HOST column: cut in the middle when it is
 * wider (node-0041 and node-0042 share their first cells, not their
 * last). */
static void host_cell(const struct dash *d, struct strbuf *sb,
		      const char *name)
{
	struct strbuf clean = STRBUF_INIT;
	int k = d->lay.at[C_HOST];

	tui_clean(d->tui, &clean, name);
	if (k >= 0)
		host_fit(sb, sb_str(&clean), (size_t)d->lay.w[k],
			 d->tui->utf8 ? "\u2026" : "~");
	else
		sb_adds(sb, sb_str(&clean));
	sb_free(&clean);
}

static void draw_row(struct dash *d, const struct col_spec *spec, int y,
		     const struct row *r, int selected)
{
	enum theme_item base = selected ? TI_SELECTED : r->fresh ? TI_NEW
			       : r->alive ? TI_ROW : TI_DEAD;
	struct strbuf sb = STRBUF_INIT;

	for (int k = 0; k < d->lay.n; k++) {
		int i = d->lay.shown[k];
		enum col_id id = columns[i].id;
		enum theme_item item = base;
		char last[24];
		sb_reset(&sb);
		switch (id) {
		case C_HOST:
			host_cell(d, &sb, r->p->host ? r->p->host->name : "-");
			break;
		case C_PID:
			if (r->p->pid)
				sb_addf(&sb, "%ld", r->p->pid);
			else
				sb_adds(&sb, "-");
			break;
		case C_NAME:
			tui_clean(d->tui, &sb, *r->p->name ? r->p->name : "-");
			break;
		case C_ALIVE:
			/* The demo's processes run: yes, as any. */
			sb_adds(&sb, _(r->alive ? L_ALIVE_YES : L_ALIVE_NO));
			break;
		case C_TOTAL:
			sb_addf(&sb, "%zu", r->total);
			if (base == TI_ROW)
				item = TI_COUNT;
			break;
		case C_TREND:
			trend_text(d->tui, r->trend, &sb);
			if (base == TI_ROW)
				item = TI_GRAPH;
			break;
		case C_DEV: case C_RANK: {
			long v = id == C_DEV ? r->dev : r->rank;
			if (v != IDENT_UNKNOWN)
				sb_addf(&sb, "%ld", v);
			else
				sb_adds(&sb, "-");
			break;
		}
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
		cols_cell(d->tui, &d->lay, spec, y, i, sb_str(&sb), item);
	}
	sb_free(&sb);
}

/* The column the table is sorted by, -1 none. */
static int sorted_column(const struct dash *d)
{
	for (int i = 0; i < C_COUNT; i++)
		if (columns[i].sort >= 0 &&
		    (enum sortkey)columns[i].sort == d->sort)
			return i;
	return -1;
}

/* How many processes have no incident in the window, and the key that
 * shows them. */
static void zero_note(struct dash *d, int y, int none)
{
	struct strbuf sb = STRBUF_INIT;

	if (none)
		sb_addf(&sb, _(L_NONE_IN_WINDOW), _(window_names[d->win]),
			d->nzero);
	else
		sb_addf(&sb, _(d->nzero == 1 ? L_ZERO_HIDDEN : L_ZERO_HIDDEN_PL),
			d->nzero, _(window_names[d->win]));
	tui_text(d->tui, y, 2, d->tui->cols - 2, sb.buf, TI_STATUS, 0);
	sb_free(&sb);
}

static void draw_table(struct dash *d, int y0, int height)
{
	struct col_spec spec[C_COUNT];

	proc_specs(spec);
	layout_table(d);
	cols_head(d->tui, &d->lay, spec, y0, sorted_column(d));
	int rows = height - 1;
	/* The count of rows of zeros left out takes the table's last line. */
	int note = d->nzero && d->nrows && rows > 1;
	rows -= note;
	if (d->sel >= d->nrows)
		d->sel = d->nrows ? d->nrows - 1 : 0;
	cols_scroll(d->sel, &d->top, rows);
	for (int i = 0; i < rows; i++) {
		size_t k = d->top + (size_t)i;
		if (k >= d->nrows)
			break;
		draw_row(d, spec, y0 + 1 + i, &d->rows[k], k == d->sel);
	}
	if (!d->nrows && d->nzero)
		zero_note(d, y0 + 1, 1);
	else if (!d->nrows)
		tui_text(d->tui, y0 + 1, 2, d->tui->cols - 2,
			 _(d->filter[0] ? L_NO_MATCH : L_NONE_YET),
			 TI_ROW, 0);
	if (note)
		zero_note(d, y0 + 1 + (d->nrows - d->top < (size_t)rows
				       ? (int)(d->nrows - d->top) : rows), 0);
	d->table_y = y0;
	d->table_height = rows;
}

/* ---- keys ---- */

static void set_sort(struct dash *d, enum sortkey k)
{
	if (d->sort == k)
		d->reverse = !d->reverse;
	else
		d->sort = k, d->reverse = 0;
}

/* A click: a row selects it (the detail shows it), a column head sorts
 * by that column (again: reversed). */
static void mouse_key(struct dash *d)
{
	struct tui_click ev;

	if (!tui_click(&ev) || d->view != V_MAIN || !ev.button1)
		return;
	if (ev.y == d->table_y) {
		int c = cols_at(&d->lay, ev.x);
		if (c >= 0 && columns[c].sort >= 0 && !ev.released)
			set_sort(d, (enum sortkey)columns[c].sort);
	} else if (ev.y > d->table_y && ev.y <= d->table_y + d->table_height) {
		size_t k = d->top + (size_t)(ev.y - d->table_y - 1);
		if (k < d->nrows) {
			d->sel = k;
			d->detail_focus = 0;
			dash_remember_selection(d);
		}
	}
}

static void move_sel(struct dash *d, long delta)
{
	long s = (long)d->sel + delta;
	if (s < 0)
		s = 0;
	if (d->nrows && s >= (long)d->nrows)
		s = (long)d->nrows - 1;
	d->sel = (size_t)s;
	dash_remember_selection(d);
}

/* The moves while the table has the focus (the detail's otherwise),
 * and clicks. */
static enum dash_action table_key(struct dash *d, int key)
{
	long page = d->table_height > 1 ? d->table_height - 1 : 1;

	if (key == TK_MOUSE) {
		mouse_key(d);
		return DASH_REDRAW;
	}
	if (d->detail_focus)
		return DASH_NONE;
	switch (key) {
	case TK_UP: case 'k': move_sel(d, -1); break;
	case TK_DOWN: case 'j': move_sel(d, 1); break;
	case TK_PPAGE: move_sel(d, -page); break;
	case TK_NPAGE: move_sel(d, page); break;
	case TK_HOME: case 'g': move_sel(d, -(long)d->nrows - (1L << 20)); break;
	case TK_END: case 'G': move_sel(d, (long)d->nrows + (1L << 20)); break;
	default: return DASH_NONE;
	}
	return DASH_REDRAW;
}

const struct panel procs_panel = { draw_table, table_key };
