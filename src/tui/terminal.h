/* The terminal policy, as htop's CRT.c: whether the output is a
 * terminal, whether to use colour (--color, NO_COLOR, TERM=dumb), what
 * the terminal's background is (COLORFGBG), whether TERM can show the
 * dashboard, and the escape sequences of the text report.  Every such
 * decision is taken here; the dashboard's curses side is tui.c. */
#ifndef PLOGTOP_TERMINAL_H
#define PLOGTOP_TERMINAL_H

#include "options.h"
#include "strbuf.h"

/* SGR sequences: the only escape codes plogtop writes in text reports. */
#define TERMINAL_BOLD "\033[1m"
#define TERMINAL_RED "\033[1;31m"
#define TERMINAL_DIM "\033[2m"
#define TERMINAL_OFF "\033[0m"

/* Both standard input and standard output are terminals: the dashboard
 * can run (`plogtop | less` and `ssh host plogtop` in a pipe report). */
int terminal_interactive(void);
/* Standard output is a terminal. */
int terminal_stdout(void);
/* Standard input is a terminal (PATH - would wait for typing). */
int terminal_stdin(void);
/* Whether the text report is in colour: --color=always, or auto on a
 * terminal when NO_COLOR is empty and TERM is not dumb. */
int terminal_report_colour(enum color c);
/* Whether the dashboard may use colour: --color=always, or auto when
 * NO_COLOR is empty (the terminal's own colours decide the rest). */
int terminal_dashboard_colour(enum color c);

/* The terminal's background as $COLORFGBG tells ("15;0": dark). */
enum terminal_bg { TERMINAL_BG_UNKNOWN, TERMINAL_BG_DARK, TERMINAL_BG_LIGHT };
enum terminal_bg terminal_background(void);

/* Whether TERM can show the dashboard, before curses takes the screen:
 * 0, or -1 with an exact reason and what to do in err (no terminal,
 * TERM unset, dumb, unknown on this host, or unable to move the
 * cursor). */
int terminal_check(struct strbuf *err);

#endif
