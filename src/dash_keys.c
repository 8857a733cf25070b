/* Keys and mouse, in htop's and lnav's habits: F1/h help, F10/q quit,
 * F3 or / filter (applied as typed), F6 or > sort menu, g/G, [ ] and
 * n/N step through incidents, a click selects a row or sorts by a head. */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "dash_int.h"

static void apply_filter(struct dash *d)
{
	d->sel = d->top = 0;
	dash_build_rows(d);
	dash_remember_selection(d);
}

/* The filter applies as it is typed. */
static enum dash_action filter_key(struct dash *d, int key)
{
	size_t n = strlen(d->filter);

	if (key == 27) {			/* Esc clears it */
		d->filter[0] = '\0';
		d->filtering = 0;
	} else if (key == '\r' || key == '\n' || key == TK_ENTER) {
		d->filtering = 0;
		return DASH_REDRAW;
	} else if (key == TK_BACKSPACE || key == 127 || key == 8) {
		if (n)
			d->filter[n - 1] = '\0';
	} else if (key == CTRL('u')) {
		d->filter[0] = '\0';
	} else if (key == CTRL('w')) {
		while (n && d->filter[n - 1] == ' ')
			d->filter[--n] = '\0';
		while (n && d->filter[n - 1] != ' ')
			d->filter[--n] = '\0';
	} else if (key >= 0x20 && key < 0x7f && n + 1 < sizeof d->filter) {
		d->filter[n] = (char)key;
		d->filter[n + 1] = '\0';
	} else {
		return DASH_NONE;
	}
	apply_filter(d);
	return DASH_REDRAW;
}

static void move_sel(struct dash *d, long delta)
{
	if (d->detail_focus) {
		long s = d->detail_scroll + delta;
		d->detail_scroll = s < 0 ? 0 : s > d->detail_max ? d->detail_max
			: (int)s;
		return;
	}
	long s = (long)d->sel + delta;
	if (s < 0)
		s = 0;
	if (d->nrows && s >= (long)d->nrows)
		s = (long)d->nrows - 1;
	d->sel = (size_t)s;
	dash_remember_selection(d);
}

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
		int c = column_at(d, ev.x);
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

static enum dash_action view_key(struct dash *d, int key)
{
	int page = d->tui->rows / 2;

	switch (key) {
	case 'q': case TK_F(10): return DASH_QUIT;
	case TK_UP: case 'k': d->view_top--; break;
	case TK_DOWN: case 'j': d->view_top++; break;
	case TK_PPAGE: d->view_top -= page; break;
	case TK_NPAGE: case ' ': d->view_top += page; break;
	case TK_HOME: case 'g': d->view_top = 0; break;
	case TK_END: case 'G': d->view_top = 1 << 20; break;
	case TK_RESIZE: break;
	default: d->view = V_MAIN; break;
	}
	return DASH_REDRAW;
}

/* The next sort key shown (host: only when hosts are read). */
static int next_sort(const struct dash *d, int k, int delta)
{
	do
		k = (k + S_COUNT + delta) % S_COUNT;
	while (!sort_shown(d, k));
	return k;
}

static enum dash_action menu_key(struct dash *d, int key)
{
	switch (key) {
	case TK_UP: case 'k':
		d->menu_sel = next_sort(d, d->menu_sel, -1);
		break;
	case TK_DOWN: case 'j':
		d->menu_sel = next_sort(d, d->menu_sel, 1);
		break;
	case '\r': case '\n': case TK_ENTER:
		d->sort = (enum sortkey)d->menu_sel;
		d->view = V_MAIN;
		dash_build_rows(d);
		break;
	case 'q': case TK_F(10): return DASH_QUIT;
	case TK_RESIZE: break;
	default: d->view = V_MAIN; break;
	}
	return DASH_REDRAW;
}

static void step(struct dash *d, int delta)
{
	d->step += delta;
	if (d->step < 0)
		d->step = 0;
	d->detail_scroll = 0;
	/* detail_lines stops it at the oldest. */
}

static void toggle_pause(struct dash *d)
{
	d->paused = !d->paused;
	if (d->paused) {
		time_t now = time(NULL);
		struct tm tm;
		localtime_r(&now, &tm);
		strftime(d->paused_clock, sizeof d->paused_clock, "%H:%M:%S",
			 &tm);
	}
}

/* v: the table by host and back; H: the hosts view.  Without hosts,
 * a note says how to read some. */
static void host_keys(struct dash *d, int key)
{
	if (!model_has_hosts(d->m)) {
		dash_set_message(d, tr(L_NO_HOSTS));
	} else if (key == 'H') {
		d->view = V_HOSTS;
		d->view_top = 0;
	} else {
		d->by_host = !d->by_host;
		d->hsel = d->htop = 0;
	}
}

static enum dash_action main_key(struct dash *d, int key)
{
	long page = d->table_height > 1 ? d->table_height - 1 : 1;

	if (d->by_host && host_table_key(d, key) == DASH_REDRAW)
		return DASH_REDRAW;
	switch (key) {
	case 'q': case TK_F(10): return DASH_QUIT;
	case '?': case 'h': case TK_F(1):
		d->view = V_HELP;
		d->view_top = 0;
		break;
	case 'e':
		d->view = V_MESSAGES;
		d->view_top = 1 << 20;	/* the newest */
		break;
	case '>': case TK_F(6):
		d->view = V_SORT_MENU;
		d->menu_sel = (int)d->sort;
		break;
	case TK_UP: case 'k': move_sel(d, -1); break;
	case TK_DOWN: case 'j': move_sel(d, 1); break;
	case TK_PPAGE: move_sel(d, -page); break;
	case TK_NPAGE: move_sel(d, page); break;
	case TK_HOME: case 'g': move_sel(d, -(long)d->nrows - (1L << 20)); break;
	case TK_END: case 'G': move_sel(d, (long)d->nrows + (1L << 20)); break;
	case '\t': case '\r': case '\n': case TK_ENTER:
		d->detail_focus = !d->detail_focus;
		break;
	case ']': case 'n': step(d, 1); break;
	case '[': case 'N': step(d, -1); break;
	case 's': d->sort = next_sort(d, d->sort, 1); break;
	case 'v': case 'H': host_keys(d, key); break;
	case 'S': d->reverse = !d->reverse; break;
	case 'w': d->win = (d->win + 1) % W_COUNT; d->step = 0; break;
	case '/': case TK_F(3): d->filtering = 1; break;
	case 'p': toggle_pause(d); break;
	case 'l': d->show_raw = !d->show_raw; d->detail_scroll = 0; break;
	case 't': return DASH_THEME;
	case 'm':
		d->mouse = tui_mouse(d->tui, !d->mouse);
		dash_set_message(d, tr(d->mouse ? L_MOUSE_ON : L_MOUSE_OFF));
		break;
	case TK_MOUSE: mouse_key(d); break;
	case 'o': {
		const struct incident *inc = detail_incident(d);
		if (inc && strcmp(inc->file, "-") != 0) {
			d->pager_inc = inc;
			return DASH_PAGER;
		}
		dash_set_message(d, tr(L_NOTHING_TO_OPEN));
		break;
	}
	case CTRL('l'): tui_refresh(1); break;
	case TK_RESIZE: break;
	default: return DASH_NONE;
	}
	if (!d->paused)
		dash_build_rows(d);
	return DASH_REDRAW;
}

enum dash_action dash_key(struct dash *d, int key)
{
	/* A key acknowledges the message line (errors of o included). */
	if (key != TK_RESIZE && key != TK_MOUSE) {
		d->message[0] = '\0';
		d->log_seen = d->log ? d->log->total : 0;
	}
	if (d->filtering)
		return filter_key(d, key);
	if (d->view == V_HELP || d->view == V_MESSAGES || d->view == V_HOSTS) {
		if ((d->view == V_HELP && (key == '?' || key == 'h' ||
					   key == TK_F(1))) ||
		    (d->view == V_MESSAGES && key == 'e') ||
		    (d->view == V_HOSTS && key == 'H') || key == 27) {
			d->view = V_MAIN;
			return DASH_REDRAW;
		}
		return view_key(d, key);
	}
	if (d->view == V_SORT_MENU)
		return menu_key(d, key);
	return main_key(d, key);
}
