#include "config.h"

#include <curses.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "i18n.h"
#include "sanitize.h"
#include "terminal.h"
#include "tui.h"

int tui_start(struct tui *t, int want_colour, struct strbuf *err)
{
	memset(t, 0, sizeof *t);
	t->want_colour = want_colour;
	t->utf8 = locale_is_utf8();
	if (terminal_check(err) < 0)
		return -1;
	/* newterm, unlike initscr, returns an error instead of exiting. */
	if (!newterm(NULL, stdout, stdin)) {
		sb_adds(err, _("cannot use this terminal (is TERM right?); "
			"try TERM=xterm-256color, or --once or --follow"));
		return -1;
	}
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	curs_set(0);
	ESCDELAY = 25;
	/* COLORS is only known once start_color() has run. */
	if (want_colour && has_colors() && start_color() == OK && COLORS >= 8) {
		use_default_colors();
		t->colours = COLORS >= 256 ? 256 : COLORS >= 16 ? 16 : 8;
	}
	mouseinterval(0);
	tui_mouse(t, 1);
	tui_size(t);
	return 0;
}

int tui_mouse(struct tui *t, int on)
{
	mmask_t got = mousemask(on ? BUTTON1_PRESSED | BUTTON1_RELEASED |
				BUTTON1_CLICKED : 0, NULL);
	t->mouse = on && got != 0;
	return t->mouse;
}

void tui_stop(struct tui *t)
{
	(void)t;
	if (isendwin())
		return;
	/* Terminals without an alternate screen (vt100) keep what was
	 * drawn: leave them a clean screen and the cursor at the top. */
	erase();
	move(0, 0);
	refresh();
	endwin();
}

void tui_size(struct tui *t)
{
	getmaxyx(stdscr, t->rows, t->cols);
}

/* xterm's first sixteen colours, for finding the nearest. */
static const unsigned char base16[16][3] = {
	{ 0, 0, 0 }, { 205, 0, 0 }, { 0, 205, 0 }, { 205, 205, 0 },
	{ 0, 0, 238 }, { 205, 0, 205 }, { 0, 205, 205 }, { 229, 229, 229 },
	{ 127, 127, 127 }, { 255, 0, 0 }, { 0, 255, 0 }, { 255, 255, 0 },
	{ 92, 92, 255 }, { 255, 0, 255 }, { 0, 255, 255 }, { 255, 255, 255 },
};

static void rgb_of(int c, int rgb[3])
{
	if (c < 16) {
		for (int i = 0; i < 3; i++)
			rgb[i] = base16[c][i];
	} else if (c < 232) {
		static const int level[6] = { 0, 95, 135, 175, 215, 255 };
		c -= 16;
		rgb[0] = level[c / 36];
		rgb[1] = level[c / 6 % 6];
		rgb[2] = level[c % 6];
	} else {
		rgb[0] = rgb[1] = rgb[2] = 8 + (c - 232) * 10;
	}
}

/* A colour the terminal lacks becomes the nearest one it has; a grey
 * the nearest grey (black, white; on 16 colours bright-black too), so
 * that a dim grey never turns into a loud yellow on 8 colours. */
static short degrade(short c, int colours)
{
	if (c < colours || c < 0)
		return c;
	int rgb[3], best = 0;
	long bestd = -1;
	rgb_of(c, rgb);
	int grey = abs(rgb[0] - rgb[1]) < 16 && abs(rgb[1] - rgb[2]) < 16;
	for (int i = 0; i < colours && i < 16; i++) {
		if (grey && i != 0 && i != 7 && i != 8 && i != 15)
			continue;
		long d = 0;
		for (int k = 0; k < 3; k++)
			d += (long)(rgb[k] - base16[i][k]) * (rgb[k] - base16[i][k]);
		if (bestd < 0 || d < bestd)
			bestd = d, best = i;
	}
	return (short)best;
}

static unsigned long attrs_of(unsigned a)
{
	unsigned long r = A_NORMAL;

	if (a & TA_BOLD)
		r |= A_BOLD;
	if (a & TA_DIM)
		r |= A_DIM;
	if (a & TA_UNDERLINE)
		r |= A_UNDERLINE;
	if (a & TA_REVERSE)
		r |= A_REVERSE;
	if (a & TA_STANDOUT)
		r |= A_STANDOUT;
	return r;
}

void tui_theme(struct tui *t, const struct theme *theme,
	       const struct theme *mono)
{
	for (int i = 0; i < TI_ITEMS; i++) {
		if (!t->colours) {
			t->attr[i] = attrs_of(mono->item[i].attrs);
			continue;
		}
		const struct theme_style *st = &theme->item[i];
		short fg = degrade(st->fg, t->colours);
		short bg = degrade(st->bg, t->colours);
		init_pair((short)(i + 1), fg, bg);
		t->attr[i] = COLOR_PAIR(i + 1) | attrs_of(st->attrs);
	}
}

/* curses' keys under the terminal layer's names. */
static int tui_key_of(int k)
{
	static const struct {
		int curses, tui;
	} names[] = {
		{ KEY_ENTER, TK_ENTER }, { KEY_BACKSPACE, TK_BACKSPACE },
		{ KEY_UP, TK_UP }, { KEY_DOWN, TK_DOWN },
		{ KEY_PPAGE, TK_PPAGE }, { KEY_NPAGE, TK_NPAGE },
		{ KEY_HOME, TK_HOME }, { KEY_END, TK_END },
		{ KEY_RESIZE, TK_RESIZE }, { KEY_MOUSE, TK_MOUSE },
	};

	if (k < KEY_MIN)
		return k;
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (names[i].curses == k)
			return names[i].tui;
	if (k >= KEY_F(0) && k <= KEY_F(63))
		return TK_F(k - KEY_F(0));
	return TK_OTHER;
}

int tui_key(struct tui *t)
{
	int k = getch();

	if (k == KEY_RESIZE)
		tui_size(t);
	return k == ERR ? -1 : tui_key_of(k);
}

int tui_click(struct tui_click *c)
{
	MEVENT ev;

	if (getmouse(&ev) != OK)
		return 0;
	c->y = ev.y;
	c->x = ev.x;
	c->button1 = (ev.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED |
				   BUTTON1_RELEASED)) != 0;
	c->released = (ev.bstate & BUTTON1_RELEASED) != 0;
	return 1;
}

void tui_clean(const struct tui *t, struct strbuf *sb, const char *s)
{
	sb_reset(sb);
	clean_for(sb, s, strlen(s), t->utf8 ? CLEAN_UTF8 : CLEAN_ASCII);
}

void tui_text(const struct tui *t, int y, int x, int width, const char *s,
	      enum theme_item item, int pad)
{
	if (y < 0 || y >= t->rows || x >= t->cols || width <= 0)
		return;
	if (x + width > t->cols)
		width = t->cols - x;
	struct strbuf ascii = STRBUF_INIT;
	if (!t->utf8) {
		clean_for(&ascii, s, strlen(s), CLEAN_ASCII | CLEAN_DONE);
		s = sb_str(&ascii);
	}
	size_t n = text_fit(s, (size_t)width);
	attrset((attr_t)t->attr[item]);
	mvaddnstr(y, x, s, (int)n);
	if (pad) {
		/* The columns the first n bytes took. */
		struct strbuf part = STRBUF_INIT;
		sb_add(&part, s, n);
		int used = (int)text_width(sb_str(&part));
		sb_free(&part);
		for (int i = used; i < width; i++)
			addch(' ');
	}
	attrset(A_NORMAL);
	sb_free(&ascii);
}

void tui_rule(const struct tui *t, int y, int x, int width,
	      enum theme_item item)
{
	if (y < 0 || y >= t->rows)
		return;
	attrset((attr_t)t->attr[item]);
	move(y, x);
	for (int i = 0; i < width && x + i < t->cols; i++)
		addstr(t->utf8 ? "\u2500" : "-");
	attrset(A_NORMAL);
}

void tui_clear_line(const struct tui *t, int y, enum theme_item item)
{
	if (y < 0 || y >= t->rows)
		return;
	attrset((attr_t)t->attr[item]);
	move(y, 0);
	for (int i = 0; i < t->cols; i++)
		addch(' ');
	attrset(A_NORMAL);
}

const char *tui_spark(const struct tui *t, int level)
{
	static const char *const bars[] = {
		" ", "\u2581", "\u2582", "\u2583", "\u2584", "\u2585",
		"\u2586", "\u2587", "\u2588",
	};
	static const char *const ascii[] = {
		" ", ".", ".", ":", ":", "=", "=", "#", "#",
	};

	if (level < 0)
		level = 0;
	if (level > 8)
		level = 8;
	return t->utf8 ? bars[level] : ascii[level];
}

void tui_erase(void)
{
	erase();
}

void tui_refresh(int full)
{
	if (full)
		clearok(curscr, TRUE);
	refresh();
}

void tui_suspend(void)
{
	def_prog_mode();
	endwin();
}

void tui_resume(void)
{
	reset_prog_mode();
	refresh();
}
