/* The bottom of the screen: the message line (the log's note, else its
 * newest message) and the key bar (every key shown: the bar takes a
 * second line when one is not enough, or what the view shown takes). */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "dash_int.h"
#include "sanitize.h"
#include "textfit.h"

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

/* s in width columns, whole when it fits, else cut after a word (or
 * between two wide characters) with an ellipsis: never mid-word.  The
 * whole text is in the messages view (e). */
static void fit_words(const struct dash *d, struct strbuf *out,
		      const char *s, int width)
{
	const char *ell = d->tui->utf8 ? "\u2026" : "...";
	size_t w = width > 0 ? (size_t)width : 0;

	if (text_width(s) <= w) {
		sb_adds(out, s);
		return;
	}
	if (w <= text_width(ell))
		return;
	size_t k = wrap_break(s, w - text_width(ell));
	/* wrap_break cuts a word longer than the line where it must. */
	while (k > 0 && (s[k - 1] == ' ' || s[k - 1] == ',' ||
			 s[k - 1] == ':' || s[k - 1] == ';'))
		k--;
	sb_add(out, s, k);
	sb_adds(out, ell);
}

/* The message line: the log's note, else its newest message that
 * arrived since the last key, fitted to the width; NULL when none. */
const char *message_line(const struct dash *d, char *buf, size_t n)
{
	const char *note = d->log ? msglog_note_text(d->log) : "";
	struct strbuf sb = STRBUF_INIT;
	int cols = d->tui->cols;

	if (*note) {
		fit_words(d, &sb, note, cols - 1);
		snprintf(buf, n, " %s", sb_str(&sb));
		sb_free(&sb);
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
	fit_words(d, &sb, m->text, cols - 2 - (int)text_width(when) -
		  (int)text_width(more));
	snprintf(buf, n, " %s %s%s", when, sb_str(&sb), more);
	sb_free(&sb);
	return buf;
}
