/* Keys, in htop's and lnav's habits: F1/h help, F10/q quit, F3 or /
 * filter (applied as typed), F6 or > sort menu, g/G, [ ] and n/N step
 * through incidents, a click selects a row or sorts by a head.  A key
 * goes to the view shown (help, messages, hosts, sort menu); on the
 * main screen to the table's panel, then the detail's, then to the keys
 * of the whole dashboard here. */
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
		msglog_note(d->log, _(L_NO_HOSTS));
	} else if (key == 'H') {
		d->view = V_HOSTS;
		d->view_top = 0;
	} else {
		d->by_host = !d->by_host;
		d->hsel = d->htop = 0;
		d->by_dev = 0;
	}
}

/* The keys of the whole dashboard, whichever panel has the focus. */
static enum dash_action global_key(struct dash *d, int key)
{
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
	case '\t': case '\r': case '\n': case TK_ENTER:
		d->detail_focus = !d->detail_focus;
		break;
	case 's': d->sort = next_sort(d, d->sort, 1); break;
	case 'v': case 'H': host_keys(d, key); break;
	case 'd': dev_view_toggle(d); break;
	case 'S': d->reverse = !d->reverse; break;
	case 'w': d->win = (d->win + 1) % W_COUNT; d->step = 0; break;
	case '/': case TK_F(3): d->filtering = 1; break;
	case 'p': toggle_pause(d); break;
	case 't': return DASH_THEME;
	case 'm':
		d->mouse = tui_mouse(d->tui, !d->mouse);
		msglog_note(d->log, _(d->mouse ? L_MOUSE_ON : L_MOUSE_OFF));
		break;
	case CTRL('l'): tui_refresh(1); break;
	case TK_RESIZE: break;
	default: return DASH_NONE;
	}
	return DASH_REDRAW;
}

static enum dash_action main_key(struct dash *d, int key)
{
	enum dash_action a;

	/* The tables by device and by host have keys of their own (moves,
	 * Enter, clicks). */
	if (d->by_dev && (a = dev_table_panel.key(d, key)) != DASH_NONE)
		return a;
	if (!d->by_dev && d->by_host &&
	    (a = host_table_panel.key(d, key)) != DASH_NONE)
		return a;
	a = d->by_host || d->by_dev ? DASH_NONE : procs_panel.key(d, key);
	if (a == DASH_NONE)
		a = detail_panel.key(d, key);
	if (a == DASH_NONE)
		a = global_key(d, key);
	if (a != DASH_REDRAW)
		return a;
	if (!d->paused)
		dash_build_rows(d);
	return DASH_REDRAW;
}

enum dash_action dash_key(struct dash *d, int key)
{
	/* A key acknowledges the message line (errors of o included). */
	if (key != TK_RESIZE && key != TK_MOUSE) {
		if (d->log)
			msglog_note_clear(d->log);
		d->log_seen = d->log ? d->log->total : 0;
	}
	if (d->filtering)
		return filter_key(d, key);
	switch (d->view) {
	case V_HELP: return help_panel.key(d, key);
	case V_MESSAGES: return messages_panel.key(d, key);
	case V_HOSTS: return hosts_panel.key(d, key);
	case V_SORT_MENU: return sort_panel.key(d, key);
	default: return main_key(d, key);
	}
}
