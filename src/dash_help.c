/* The other views and the bottom of the screen: the help and the
 * messages (both scroll, with a marker when more is below), the sort
 * menu, the message line and the key bar (every key shown: the bar takes
 * a second line when one is not enough). */
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

static void draw_messages(struct dash *d, int y0, int height)
{
	size_t n = d->log ? d->log->n : 0;
	const char **lines = xcalloc(n + 1, sizeof *lines);
	struct strbuf *sb = xcalloc(n + 1, sizeof *sb);

	sb_adds(&sb[0], _(n ? L_MESSAGES_TITLE : L_MESSAGES_NONE));
	lines[0] = sb_str(&sb[0]);
	for (size_t i = 0; i < n; i++) {
		const struct msg *m = msglog_get(d->log, i);
		struct tm tm;
		char when[16];
		localtime_r(&m->when, &tm);
		strftime(when, sizeof when, "%H:%M:%S", &tm);
		sb_addf(&sb[i + 1], "%s  %s", when, m->text);
		if (m->repeats)
			sb_addf(&sb[i + 1], " (x%u)", m->repeats + 1);
		lines[i + 1] = sb_str(&sb[i + 1]);
	}
	draw_lines(d, y0 + 1, height - 1, lines, n + 1, TI_TITLE);
	for (size_t i = 0; i <= n; i++)
		sb_free(&sb[i]);
	free(sb);
	free(lines);
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

/* ---- the bottom lines ---- */

/* "q quit", or "q:quit" compact (a narrow terminal). */
static void key_item(const struct dash *d, size_t i, int compact,
		     struct strbuf *sb)
{
	const struct keyhelp *k = &key_bar[i];
	const char *key = d->tui->utf8 || !k->ascii_key ? k->key : k->ascii_key;

	if (compact) {
		for (const char *c = key; *c; c++)
			if (*c != ' ')
				sb_addc(sb, *c);
		sb_addf(sb, ":%s", _(k->what));
	} else {
		sb_addf(sb, "%s %s", key, _(k->what));
	}
}

/* The lines the key bar takes in one form. */
static int key_rows(const struct dash *d, int compact)
{
	struct strbuf item = STRBUF_INIT;
	size_t used = 0;
	int rows = 1;
	size_t sep = compact ? 1 : 2;

	for (size_t i = 0; i < key_bar_n; i++) {
		if (key_bar[i].hosts && !model_has_hosts(d->m))
			continue;
		sb_reset(&item);
		key_item(d, i, compact, &item);
		size_t w = text_width(item.buf);
		if (used && used + sep + w > (size_t)d->tui->cols) {
			rows++;
			used = 0;
		}
		used += (used ? sep : 1) + w;
	}
	sb_free(&item);
	return rows;
}

/* The key bar's lines: items flowed, never cut; compact when the long
 * form would take more than two lines. */
static int key_bar_flow(const struct dash *d, int draw, int y)
{
	struct strbuf line = STRBUF_INIT, item = STRBUF_INIT;
	int rows = 0;
	int compact = key_rows(d, 0) > 2;
	const char *sep = compact ? " " : "  ";

	if (d->filtering || d->view != V_MAIN) {
		const char *s = _(d->filtering ? (model_has_hosts(d->m)
						   ? L_FILTER_PROMPT_HOST
						   : L_FILTER_PROMPT)
				      : d->view == V_HELP ? L_HELP_CLOSE
				      : d->view == V_MESSAGES ? L_MESSAGES_CLOSE
				      : d->view == V_HOSTS ? L_HOSTS_CLOSE
				      : L_SORT_MENU_KEYS);
		if (draw) {
			sb_adds(&line, s);
			if (d->filtering) {
				struct strbuf c = STRBUF_INIT;
				tui_clean(d->tui, &c, d->filter);
				sb_adds(&line, sb_str(&c));
				sb_addc(&line, '_');
				sb_free(&c);
			}
			tui_text(d->tui, y, 0, d->tui->cols, line.buf, TI_KEYS, 1);
		}
		sb_free(&line);
		return 1;
	}
	for (size_t i = 0; i < key_bar_n; i++) {
		if (key_bar[i].hosts && !model_has_hosts(d->m))
			continue;
		sb_reset(&item);
		key_item(d, i, compact, &item);
		if (line.len && text_width(line.buf) + strlen(sep) +
		    text_width(item.buf) > (size_t)d->tui->cols) {
			if (draw)
				tui_text(d->tui, y + rows, 0, d->tui->cols,
					 line.buf, TI_KEYS, 1);
			rows++;
			sb_reset(&line);
		}
		sb_adds(&line, line.len ? sep : " ");
		sb_adds(&line, item.buf);
	}
	if (draw)
		tui_text(d->tui, y + rows, 0, d->tui->cols, line.buf, TI_KEYS, 1);
	rows++;
	sb_free(&line);
	sb_free(&item);
	return rows;
}

int key_bar_rows(const struct dash *d)
{
	return key_bar_flow(d, 0, 0);
}

void draw_key_bar(struct dash *d, int y)
{
	key_bar_flow(d, 1, y);
}

/* The message line: the log's note, else its newest message that
 * arrived since the last key; NULL when none. */
const char *message_line(const struct dash *d, char *buf, size_t n)
{
	const char *note = d->log ? msglog_note_text(d->log) : "";

	if (*note) {
		snprintf(buf, n, " %s", note);
		return buf;
	}
	if (!d->log || d->log->total <= d->log_seen || !d->log->n)
		return NULL;
	const struct msg *m = msglog_get(d->log, d->log->n - 1);
	struct tm tm;
	char when[16], more[64] = "";
	localtime_r(&m->when, &tm);
	strftime(when, sizeof when, "%H:%M:%S", &tm);
	if (d->log->total - d->log_seen > 1)
		snprintf(more, sizeof more, _(L_MESSAGE_MORE), d->log->n);
	snprintf(buf, n, " %s %s%s", when, m->text, more);
	return buf;
}
