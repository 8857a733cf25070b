/* The column engine (columns.h).
 *
 * The process table's order in which columns shorten or drop when the
 * terminal is narrow (the table is dash_text.c's columns[], the HOST
 * step dash_table.c's proc_layout; the help says it too):
 *   1. NAME shrinks to its 8 cells (it only grows into what is left);
 *   2. TREND goes;
 *   3. ALIVE goes (a gone process's row is still dimmed);
 *   4. HOST shortens to 6 cells (a long name cut in the middle:
 *      textfit.c host_fit), when DEV or RANK would go;
 *   5. RANK goes, then DEV (each 3-4 cells, shown only when some
 *      process's device or rank is known);
 *   6. the resource columns, the rightmost first (Arg ... Strm).
 * PID, NAME, TOTAL and LAST never go.  So 80 columns hold HOST (up to
 * 6 cells), DEV and RANK with every resource column.  The text report
 * (views/report_text.c) keeps the same order. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "columns.h"
#include "dash_labels.h"
#include "sanitize.h"

/* A column's width: the widest of its spec's, its data's and its head's
 * in the language of the texts (terminal cells). */
static int col_width(const struct col_spec *c, int want)
{
	int hw = (int)text_width(_(c->head));
	int w = want > c->width ? want : c->width;

	return hw > w ? hw : w;
}

void cols_layout(struct col_layout *l, const struct col_spec *c, int n,
		 const int *want, int cols)
{
	int keep[COLS_MAX], need = -1;

	for (int i = 0; i < n; i++) {
		keep[i] = want[i] >= 0;
		if (keep[i])
			need += col_width(&c[i], want[i]) + 1;
	}
	/* Drop the highest priority first; the rightmost of a priority. */
	while (need > cols) {
		int worst = -1;
		for (int i = n - 1; i >= 0; i--)
			if (keep[i] && c[i].drop &&
			    (worst < 0 || c[i].drop > c[worst].drop))
				worst = i;
		if (worst < 0)
			break;
		keep[worst] = 0;
		need -= col_width(&c[worst], want[worst]) + 1;
	}
	int extra = cols - need, x = 0;
	l->n = 0;
	for (int i = 0; i < n; i++) {
		l->at[i] = -1;
		if (!keep[i])
			continue;
		int w = col_width(&c[i], want[i]);
		if (c[i].grow) {
			int grow = extra < c[i].grow - w ? extra : c[i].grow - w;
			w += grow > 0 ? grow : 0;
		}
		l->at[i] = l->n;
		l->shown[l->n] = i;
		l->x[l->n] = x;
		l->w[l->n] = w;
		l->n++;
		x += w + 1;
	}
}

void cols_cell(const struct tui *t, const struct col_layout *l,
	       const struct col_spec *c, int y, int i, const char *s,
	       enum theme_item item)
{
	int k = l->at[i];
	if (k < 0)
		return;
	int w = l->w[k];
	char buf[128];
	size_t sw = text_width(s);

	/* Padded in cells, not bytes: a head may be Chinese. */
	if (c[i].right && sw < (size_t)w && strlen(s) + (size_t)w < sizeof buf) {
		snprintf(buf, sizeof buf, "%*s%s", (int)((size_t)w - sw), "",
			 s);
		s = buf;
	}
	/* The space before the next column belongs to this one, and stays
	 * a space: a value cut to its column never runs into the next. */
	tui_text(t, y, l->x[k], w, s, item, 1);
	tui_text(t, y, l->x[k] + w, 1, " ", item, 1);
}

void cols_head(const struct tui *t, const struct col_layout *l,
	       const struct col_spec *c, int y, int sorted)
{
	tui_clear_line(t, y, TI_TABLE_HEAD);
	for (int k = 0; k < l->n; k++) {
		int i = l->shown[k];
		cols_cell(t, l, c, y, i, _(c[i].head),
			  i == sorted ? TI_SELECTED : TI_TABLE_HEAD);
	}
}

int cols_at(const struct col_layout *l, int x)
{
	for (int k = 0; k < l->n; k++)
		if (x >= l->x[k] && x <= l->x[k] + l->w[k])
			return l->shown[k];
	return -1;
}

void cols_scroll(size_t sel, size_t *top, int rows)
{
	if (sel < *top)
		*top = sel;
	if (rows > 0 && sel >= *top + (size_t)rows)
		*top = sel - (size_t)rows + 1;
}
