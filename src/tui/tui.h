/* The dashboard's screen, over curses (with terminal.c, the only files
 * that include curses.h): start-up and restoring, colours from a theme
 * (degraded to what the terminal has, or monochrome), keys and clicks
 * under names of its own, and a few drawing helpers that take sanitised
 * text.  Whether there is a terminal and colour is terminal.c's. */
#ifndef PLOGTOP_TUI_H
#define PLOGTOP_TUI_H

#include <stddef.h>

#include "strbuf.h"
#include "theme.h"

struct tui {
	int colours;		/* colours in use: 0 monochrome, 8, 16, 256 */
	int utf8;		/* the locale is UTF-8: Unicode line drawing */
	int want_colour;	/* --color and NO_COLOR allow it */
	int mouse;		/* clicks are reported (m turns it off) */
	unsigned long attr[TI_ITEMS];
	int rows, cols;
};

/* Takes the terminal (stdin and stdout).  Returns 0, or -1 with a message
 * in err that names what is wrong and what to do (no terminal, TERM
 * unset, dumb, unknown on this host, or unable to move the cursor). */
int tui_start(struct tui *t, int want_colour, struct strbuf *err);
void tui_stop(struct tui *t);
/* Sets the colours of a theme; monochrome uses mono's attributes. */
void tui_theme(struct tui *t, const struct theme *theme,
	       const struct theme *mono);

/* Keys beyond bytes, under names of the terminal layer (curses' own
 * stay in tui.c); a byte (a letter, Esc 27, Tab) is itself. */
enum tui_keycode {
	TK_ENTER = 0x1000, TK_BACKSPACE, TK_UP, TK_DOWN, TK_PPAGE, TK_NPAGE,
	TK_HOME, TK_END, TK_RESIZE, TK_MOUSE,
	TK_OTHER,		/* a key with no name here */
	TK_F0 = 0x1100		/* function keys: TK_F(1) is F1 */
};
#define TK_F(n) (TK_F0 + (n))

/* A key, or -1 when none is waiting.  TK_RESIZE updates rows/cols. */
int tui_key(struct tui *t);

/* The click a TK_MOUSE key reports. */
struct tui_click {
	int y, x;
	int button1;		/* the first button: pressed, released, clicked */
	int released;		/* ... and it was released */
};
/* Reads the click of a TK_MOUSE key: 1, or 0 when there is none. */
int tui_click(struct tui_click *c);
void tui_size(struct tui *t);
/* Mouse clicks reported as TK_MOUSE, or not; returns the new state (0
 * when the terminal has no mouse). */
int tui_mouse(struct tui *t, int on);

/* Replaces sb with s sanitised for the screen, in ASCII (\xNN) when
 * the terminal cannot show UTF-8: any bytes from a log or a host. */
void tui_clean(const struct tui *t, struct strbuf *sb, const char *s);
/* Text at (y, x) in at most width columns, padded to width when pad.
 * Without UTF-8 every byte >= 0x80 is spelt \xNN: no garbage. */
void tui_text(const struct tui *t, int y, int x, int width, const char *s,
	      enum theme_item item, int pad);
/* A horizontal rule. */
void tui_rule(const struct tui *t, int y, int x, int width,
	      enum theme_item item);
void tui_clear_line(const struct tui *t, int y, enum theme_item item);
const char *tui_spark(const struct tui *t, int level);	/* level 0..8 */
void tui_erase(void);
void tui_refresh(int full);

/* Leaves curses for a child program (the pager) and comes back. */
void tui_suspend(void);
void tui_resume(void);

#endif
