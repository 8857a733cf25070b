/* The column engine of the dashboard's tables (processes, hosts): which
 * columns fit in the width and where, the heads with the sorted one
 * highlighted, cells aligned and padded in terminal cells, the column
 * under a click, and the rows that scroll into view.  A table is an
 * array of struct col_spec; what a cell holds is the table's. */
#ifndef PLOGTOP_COLUMNS_H
#define PLOGTOP_COLUMNS_H

#include <stddef.h>

#include "tui.h"

#define COLS_MAX 32

struct col_spec {
	const char *head;	/* msgid: a column is as wide as its head */
	int width;		/* columns, without the space before it */
	int right;		/* aligned right */
	int drop;		/* dropped first when narrow: higher first; 0 never */
	int grow;		/* takes what is left, up to this width; 0 never */
};

/* Where each shown column is, for drawing and for clicks. */
struct col_layout {
	int n;
	int shown[COLS_MAX];	/* column indexes in order */
	int x[COLS_MAX], w[COLS_MAX];
	int at[COLS_MAX];	/* a column's place in shown, -1 not shown */
};

/* Lays out n columns in cols: want[i] is the width column i's data
 * needs (0: its spec's), or -1 to leave it out.  A column is as wide as
 * the widest of its head, spec and data; when they do not fit, the
 * highest drop goes first (the rightmost of a priority); the growing
 * column gets what is left. */
void cols_layout(struct col_layout *l, const struct col_spec *c, int n,
		 const int *want, int cols);
/* The heads on line y; sorted (a column index, -1 none) highlighted. */
void cols_head(const struct tui *t, const struct col_layout *l,
	       const struct col_spec *c, int y, int sorted);
/* s in column i on line y, when shown; aligned as its spec says. */
void cols_cell(const struct tui *t, const struct col_layout *l,
	       const struct col_spec *c, int y, int i, const char *s,
	       enum theme_item item);
/* The column at x, or -1. */
int cols_at(const struct col_layout *l, int x);
/* The first row shown, so that the selected row sel shows in rows. */
void cols_scroll(size_t sel, size_t *top, int rows);

#endif
