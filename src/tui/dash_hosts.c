/* The hosts' panels: the table grouped by host (v: one row per host
 * with its state and counts, to see at a glance which host is failing,
 * over the column engine) with the selected host's status below it,
 * and the hosts view (H: every host's state, since when, why it is
 * down, connections tried, counts). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dash_int.h"
#include "sanitize.h"
#include "textfit.h"
#include "tui.h"
#include "xalloc.h"

#define HOST_W_MAX 16

/* TRANSLATORS: a host's connection: started, streaming, down, read. */
static const char *const state_label[HOST_STATE_COUNT] = {
	N_("connecting"), N_("up"), N_("down"), N_("done"),
};

/* ---- the table by host ---- */

enum hcol { H_HOST, H_STATE, H_PROCS, H_RES0, H_TOTAL = H_RES0 + NRES,
	    H_TREND, H_LAST, H_COUNT };

/* The column engine takes COLS_MAX columns at most. */
_Static_assert(H_COUNT <= COLS_MAX, "COLS_MAX");

static int max_i(int a, int b)
{
	return a > b ? a : b;
}

/* The columns as the process table's (its heads); TREND goes first when
 * narrow, then the resource columns, then PROCS. */
static void host_specs(struct col_spec *spec)
{
	for (int c = 0; c < H_COUNT; c++) {
		const struct column *pc = c == H_HOST ? &columns[C_HOST]
			: c == H_TOTAL ? &columns[C_TOTAL]
			: c == H_TREND ? &columns[C_TREND]
			: c == H_LAST ? &columns[C_LAST]
			: c >= H_RES0 ? &columns[C_RES0 + c - H_RES0] : NULL;
		int drop = c == H_TREND ? 3 : c >= H_RES0 && c < H_TOTAL ? 2
			 : c == H_PROCS;
		spec[c] = (struct col_spec){ pc ? pc->head : NULL, 4,
			c == H_PROCS || (c >= H_RES0 && c <= H_TOTAL), drop, 0 };
	}
	spec[H_STATE].head = L_STATE_HEAD;
	spec[H_PROCS].head = L_PROCS_HEAD;
	spec[H_HOST].width = 0;
	spec[H_STATE].width = 0;
	spec[H_TOTAL].width = 5;
	spec[H_TREND].width = TREND_MINUTES;
	spec[H_LAST].width = columns[C_LAST].width;
}

/* HOST as wide as the widest host (up to HOST_W_MAX), STATE as the
 * widest state. */
static void hlayout(const struct dash *d, const struct col_spec *spec,
		    struct col_layout *l)
{
	int want[H_COUNT] = { 0 };

	want[H_HOST] = (int)text_width(_(spec[H_HOST].head));
	for (size_t i = 0; i < d->nhrows; i++)
		want[H_HOST] = max_i(want[H_HOST],
				     (int)text_width(host_label(d->hrows[i].h)));
	want[H_HOST] = want[H_HOST] > HOST_W_MAX ? HOST_W_MAX : want[H_HOST];
	for (int s = 0; s < HOST_STATE_COUNT; s++)
		want[H_STATE] = max_i(want[H_STATE],
				      (int)text_width(_(state_label[s])));
	cols_layout(l, spec, H_COUNT, want, d->tui->cols);
}

/* The column the table is sorted by, -1 none. */
static int hcol_sorted(const struct dash *d)
{
	switch (d->sort) {
	case S_HOST: case S_NAME: return H_HOST;
	case S_ALIVE: return H_STATE;
	case S_TOTAL: return H_TOTAL;
	case S_LAST: return H_LAST;
	case S_PID: return -1;
	default: return H_RES0 + (int)d->sort - S_COL0;
	}
}

static void draw_host_row(struct dash *d, const struct col_spec *spec,
			  const struct col_layout *l, int y,
			  const struct host_row *r, int selected)
{
	enum theme_item base = selected ? TI_SELECTED
		: !r->h || r->h->state == HOST_UP || r->h->state == HOST_DONE
		? TI_ROW : r->h->state == HOST_DOWN ? TI_WARNING : TI_DEAD;
	struct strbuf sb = STRBUF_INIT;
	char last[24];

	for (int c = 0; c < H_COUNT; c++) {
		enum theme_item item = base;
		sb_reset(&sb);
		switch (c) {
		case H_HOST:
			tui_clean(d->tui, &sb, host_label(r->h));
			break;
		case H_STATE:
			sb_adds(&sb, r->h ? _(state_label[r->h->state]) : "-");
			break;
		case H_PROCS:
			sb_addf(&sb, "%zu", r->nprocs);
			break;
		case H_TOTAL:
			sb_addf(&sb, "%zu", r->total);
			if (base == TI_ROW)
				item = TI_COUNT;
			break;
		case H_TREND:
			trend_text(d->tui, r->trend, &sb);
			if (base == TI_ROW)
				item = TI_GRAPH;
			break;
		case H_LAST:
			day_time(last, sizeof last, r->last);
			sb_adds(&sb, last);
			break;
		default:
			sb_addf(&sb, "%zu", r->col[c - H_RES0]);
			if (base == TI_ROW)
				item = r->col[c - H_RES0] ? TI_COUNT : TI_ZERO;
		}
		cols_cell(d->tui, l, spec, y, c, sb_str(&sb), item);
	}
	sb_free(&sb);
}

static void draw_host_table(struct dash *d, int y0, int height)
{
	struct col_spec spec[H_COUNT];
	struct col_layout l;
	int rows = height - 1;

	host_specs(spec);
	hlayout(d, spec, &l);
	cols_head(d->tui, &l, spec, y0, hcol_sorted(d));
	cols_scroll(d->hsel, &d->htop, rows);
	for (int i = 0; i < rows && d->htop + (size_t)i < d->nhrows; i++)
		draw_host_row(d, spec, &l, y0 + 1 + i,
			      &d->hrows[d->htop + (size_t)i],
			      d->htop + (size_t)i == d->hsel);
	if (!d->nhrows)
		tui_text(d->tui, y0 + 1, 2, d->tui->cols - 2,
			 _(L_NO_HOST_MATCH), TI_ROW, 0);
	d->table_y = y0;
	d->table_height = rows;
}

/* ---- a host's status, in words ---- */

/* "2m05s", "1h02m", "3d04h": how long a state has lasted. */
static void duration(struct strbuf *sb, unsigned long long ms)
{
	unsigned long long s = ms / 1000;

	if (s < 60)
		sb_addf(sb, "%llus", s);
	else if (s < 3600)
		sb_addf(sb, "%llum%02llus", s / 60, s % 60);
	else if (s < 86400)
		sb_addf(sb, "%lluh%02llum", s / 3600, s % 3600 / 60);
	else
		sb_addf(sb, "%llud%02lluh", s / 86400, s % 86400 / 3600);
}

/* The lines (each ending "\n") of a host's status; h NULL: the local
 * input. */
static void host_status(const struct dash *d, const struct host_row *r,
			struct strbuf *out)
{
	const struct model_host *h = r->h;
	unsigned long long now = d->m->clock_ms();
	char last[24];

	if (h && h->origin) {
		struct strbuf c = STRBUF_INIT;
		tui_clean(d->tui, &c, h->origin);
		sb_addf(out, _(L_HOST_FROM_PATH), sb_str(&c), h->rule);
		sb_addc(out, '\n');
		sb_free(&c);
	} else if (h) {
		unsigned long long ago = now > h->state_ms ? now - h->state_ms : 0;
		time_t at = time(NULL) - (time_t)(ago / 1000);
		struct tm tm;
		char clock[16];
		struct strbuf dur = STRBUF_INIT;
		localtime_r(&at, &tm);
		strftime(clock, sizeof clock, "%H:%M:%S", &tm);
		duration(&dur, ago);
		sb_addf(out, _(L_HOST_SINCE), _(state_label[h->state]), clock,
			sb_str(&dur), h->attempts);
		sb_addc(out, '\n');
		sb_free(&dur);
		if (h->state == HOST_DOWN && h->reason) {
			struct strbuf c = STRBUF_INIT;
			tui_clean(d->tui, &c, h->reason);
			sb_addf(out, _(L_HOST_WHY), sb_str(&c));
			sb_addc(out, '\n');
			sb_free(&c);
		}
		if (h->state == HOST_DOWN && h->retry_ms > now) {
			sb_addf(out, _(L_HOST_RETRY),
				(h->retry_ms - now + 999) / 1000);
			sb_addc(out, '\n');
		}
	} else {
		sb_addf(out, "%s\n", _(L_HOST_LOCAL_DETAIL));
	}
	day_time(last, sizeof last, r->last);
	if (h) {
		sb_addf(out, _(L_HOST_COUNTS), h->n, h->by_code[CODE_EE1023],
			h->by_code[CODE_EE1001], h->nprocs, last);
	} else {
		/* The local row counts by column: EE1001's are its
		 * resources' columns, the rest EE1023's. */
		size_t ee1001 = 0;
		for (int i = 0; i < NRES; i++)
			if (code_of_resource(RES_COLUMN(i)) == CODE_EE1001)
				ee1001 += r->col[i];
		sb_addf(out, _(L_HOST_COUNTS), r->total, r->total - ee1001,
			ee1001, r->nprocs, last);
	}
	sb_addc(out, '\n');
	/* A path's host: its lines are this machine's (read here). */
	if (h && h->files && !h->origin) {
		sb_addf(out, _(L_HOST_READ), h->files, h->lines);
		sb_addc(out, '\n');
	}
	if (h && h->dropped) {
		sb_addf(out, _(L_HOST_REFUSED), h->dropped);
		sb_addc(out, '\n');
	}
}

/* Lines of text wrapped to width, each indented; appended to lines. */
static void add_wrapped(struct strbuf *out, const char *text, size_t width,
			const char *indent)
{
	struct strbuf w = STRBUF_INIT;

	wrap_into(&w, text, width > strlen(indent) + 8
		  ? width - strlen(indent) : 8);
	for (const char *p = sb_str(&w), *nl; (nl = strchr(p, '\n'));
	     p = nl + 1) {
		sb_adds(out, indent);
		sb_add(out, p, (size_t)(nl - p));
		sb_addc(out, '\n');
	}
	sb_free(&w);
}

/* Below the table by host: the selected host's status. */
static void draw_host_detail(struct dash *d, int y0, int height)
{
	struct tui *t = d->tui;
	struct strbuf status = STRBUF_INIT, text = STRBUF_INIT,
		      name = STRBUF_INIT;
	int y = y0 + 1;

	tui_rule(t, y0, 0, t->cols, TI_RAW);
	if (!d->nhrows || height < 2)
		return;
	const struct host_row *r = &d->hrows[d->hsel];
	tui_clean(d->tui, &name, host_label(r->h));
	sb_addf(&text, " %s ", sb_str(&name));
	tui_text(t, y0, 2, t->cols - 4, text.buf, TI_DETAIL_TITLE, 0);
	sb_reset(&text);
	host_status(d, r, &status);
	add_wrapped(&text, status.buf, (size_t)t->cols - 2, " ");
	for (const char *p = sb_str(&text), *nl; (nl = strchr(p, '\n')) &&
	     y < y0 + height; p = nl + 1) {
		char line[1024];
		snprintf(line, sizeof line, "%.*s", (int)(nl - p), p);
		tui_text(t, y++, 0, t->cols - 1, line, TI_FIX, 0);
	}
	sb_free(&status);
	sb_free(&text);
	sb_free(&name);
}

/* H: every host, in the order named, with its status. */
static void draw_hosts_view(struct dash *d, int y0, int height)
{
	struct model *m = d->m;
	struct strbuf text = STRBUF_INIT, status = STRBUF_INIT;
	size_t width = d->tui->cols > 4 ? (size_t)d->tui->cols - 3 : 1;
	/* Every host, unfiltered, in the order named. */
	struct host_row *rows = xcalloc(m->nhosts + 1, sizeof *rows);
	size_t nrows = fill_host_rows(d, rows);

	sb_addf(&text, _(L_HOSTS_TITLE), model_hosts_in(m, HOST_UP),
		m->nhosts);
	sb_addc(&text, '\n');
	for (size_t i = 0; i < nrows; i++) {
		struct strbuf name = STRBUF_INIT;
		tui_clean(d->tui, &name, host_label(rows[i].h));
		sb_addf(&text, "\n%s\n", sb_str(&name));
		sb_reset(&status);
		host_status(d, &rows[i], &status);
		add_wrapped(&text, status.buf, width, "    ");
		sb_free(&name);
	}
	free(rows);
	draw_text(d, y0 + 1, height - 1, &text);
	sb_free(&text);
	sb_free(&status);
}

/* ---- keys of the table by host ---- */

static void host_move(struct dash *d, long delta)
{
	long s = (long)d->hsel + delta;

	if (s >= (long)d->nhrows)
		s = (long)d->nhrows - 1;
	d->hsel = s < 0 ? 0 : (size_t)s;
}

/* Keys that mean something else in the table by host; DASH_NONE for
 * the others (the main table's). */
static enum dash_action host_table_key(struct dash *d, int key)
{
	long page = d->table_height > 1 ? d->table_height - 1 : 1;
	struct tui_click ev;

	switch (key) {
	case TK_UP: case 'k': host_move(d, -1); break;
	case TK_DOWN: case 'j': host_move(d, 1); break;
	case TK_PPAGE: host_move(d, -page); break;
	case TK_NPAGE: host_move(d, page); break;
	case TK_HOME: case 'g': d->hsel = 0; break;
	case TK_END: case 'G': host_move(d, (long)d->nhrows); break;
	case '\t': case '\r': case '\n': case TK_ENTER:
		/* Into the host: its processes. */
		if (d->hsel < d->nhrows && d->hrows[d->hsel].h)
			snprintf(d->filter, sizeof d->filter, "%s",
				 d->hrows[d->hsel].h->name);
		d->by_host = 0;
		d->sel = d->top = 0;
		dash_build_rows(d);
		dash_remember_selection(d);
		break;
	case TK_MOUSE:
		if (tui_click(&ev) && ev.y > d->table_y &&
		    ev.y <= d->table_y + d->table_height &&
		    d->htop + (size_t)(ev.y - d->table_y - 1) < d->nhrows)
			d->hsel = d->htop + (size_t)(ev.y - d->table_y - 1);
		break;
	default:
		return DASH_NONE;
	}
	return DASH_REDRAW;
}

/* H closes the hosts view, as Esc does; the other keys scroll it. */
static enum dash_action hosts_view_key(struct dash *d, int key)
{
	if (key == 'H' || key == 27) {
		d->view = V_MAIN;
		return DASH_REDRAW;
	}
	return textview_key(d, key);
}

const struct panel host_table_panel = { draw_host_table, host_table_key };
const struct panel host_detail_panel = { draw_host_detail, NULL };
const struct panel hosts_panel = { draw_hosts_view, hosts_view_key };
