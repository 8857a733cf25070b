/* The panels of the other views: the help and the messages (both
 * scroll, with a marker when more is below) and the sort menu. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dash_int.h"
#include "sanitize.h"
#include "textfit.h"
#include "xalloc.h"

/* The help in the language of the texts, wrapped to the terminal. */
static void draw_help(struct dash *d, int y0, int height)
{
	struct strbuf text = STRBUF_INIT;
	size_t width = d->tui->cols > 4 ? (size_t)d->tui->cols - 3 : 1;

	for (size_t i = 0; i < help_lines_n; i++) {
		if (*help_lines[i])
			wrap_into(&text, _(help_lines[i]), width);
		else
			sb_addc(&text, '\n');
	}
	draw_text(d, y0 + 1, height - 1, &text);
	sb_free(&text);
}

/* Every message whole, wrapped to the terminal: the message line may
 * have cut one short (after a word, with an ellipsis). */
static void draw_messages(struct dash *d, int y0, int height)
{
	size_t n = d->log ? d->log->n : 0;
	size_t width = d->tui->cols > 4 ? (size_t)d->tui->cols - 3 : 1;
	struct strbuf text = STRBUF_INIT, one = STRBUF_INIT;

	wrap_into(&text, _(n ? L_MESSAGES_TITLE : L_MESSAGES_NONE), width);
	for (size_t i = 0; i < n; i++) {
		const struct msg *m = msglog_get(d->log, i);
		struct tm tm;
		char when[16];
		localtime_r(&m->when, &tm);
		strftime(when, sizeof when, "%H:%M:%S", &tm);
		sb_reset(&one);
		sb_addf(&one, "%s  %s", when, m->text);
		if (m->repeats)
			sb_addf(&one, " (x%u)", m->repeats + 1);
		wrap_into(&text, sb_str(&one), width);
	}
	draw_text(d, y0 + 1, height - 1, &text);
	sb_free(&one);
	sb_free(&text);
}

static void draw_sort_menu(struct dash *d, int y0, int height)
{
	struct tui *t = d->tui;
	int w = 24, x = 2;

	tui_text(t, y0, x, w, _(L_SORT_MENU), TI_TITLE, 1);
	for (int i = 0, y = y0 + 1; i < S_COUNT && y < y0 + height; i++) {
		char line[64];
		if (!sort_shown(d, i))
			continue;
		snprintf(line, sizeof line, " %c %s", i == (int)d->sort ? '*'
			 : ' ', _(sort_names[i]));
		tui_text(t, y++, x, w, line,
			 i == d->menu_sel ? TI_SELECTED : TI_KEYS, 1);
	}
}

/* Esc, ? h or F1 close the help; the other keys scroll it. */
static enum dash_action help_key(struct dash *d, int key)
{
	if (key == '?' || key == 'h' || key == TK_F(1) || key == 27) {
		d->view = V_MAIN;
		return DASH_REDRAW;
	}
	return textview_key(d, key);
}

/* Esc or e close the messages. */
static enum dash_action messages_key(struct dash *d, int key)
{
	if (key == 'e' || key == 27) {
		d->view = V_MAIN;
		return DASH_REDRAW;
	}
	return textview_key(d, key);
}

static enum dash_action sort_menu_key(struct dash *d, int key)
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

const struct panel help_panel = { draw_help, help_key };
const struct panel messages_panel = { draw_messages, messages_key };
const struct panel sort_panel = { draw_sort_menu, sort_menu_key };
