#include "config.h"

#include <curses.h>
#include <stdlib.h>
#include <string.h>
#include <term.h>
#include <unistd.h>

#include "i18n.h"
#include "sanitize.h"
#include "terminal.h"

int terminal_interactive(void)
{
	return isatty(STDOUT_FILENO) && isatty(STDIN_FILENO);
}

int terminal_stdout(void)
{
	return isatty(STDOUT_FILENO);
}

int terminal_stdin(void)
{
	return isatty(STDIN_FILENO);
}

static int no_color(void)
{
	const char *no = getenv("NO_COLOR");

	return no && *no;
}

int terminal_report_colour(enum color c)
{
	const char *term = getenv("TERM");

	if (c != COLOR_AUTO)
		return c == COLOR_ALWAYS;
	return isatty(STDOUT_FILENO) && !no_color() &&
	       !(term && strcmp(term, "dumb") == 0);
}

int terminal_dashboard_colour(enum color c)
{
	return c == COLOR_ALWAYS || (c == COLOR_AUTO && !no_color());
}

enum terminal_bg terminal_background(void)
{
	const char *fgbg = getenv("COLORFGBG");

	/* "FG;BG" or "FG;default;BG": colours 0-6 and 8 are dark. */
	if (fgbg && *fgbg) {
		const char *last = strrchr(fgbg, ';');
		char *end;
		long bg = strtol(last ? last + 1 : fgbg, &end, 10);
		if (last && !*end && bg >= 0 && bg <= 15)
			return bg <= 6 || bg == 8 ? TERMINAL_BG_DARK
						  : TERMINAL_BG_LIGHT;
	}
	return TERMINAL_BG_UNKNOWN;
}

/* TERM=xterm: why it cannot show the dashboard, from terminfo. */
static int check_terminfo(const char *term, const char *name,
			  struct strbuf *err)
{
	int e = 0;

	if (setupterm((char *)term, STDOUT_FILENO, &e) != OK) {
		if (e == 0)
			sb_addf(err, _("TERM=%s is not known on this host (no "
				"terminfo entry): run TERM=xterm-256color "
				"plogtop, or install the entry (infocmp -x "
				"%s | tic -x - on a host that has it); "
				"--once and --follow need none"), name, name);
		else
			sb_addf(err, _("no terminfo database for TERM=%s: "
				"install ncurses-base (or ncurses-term), or "
				"use plogtop --once or --follow"), name);
		return -1;
	}
	const char *cup = tigetstr("cup");
	int rc = 0;
	if (!cup || cup == (char *)-1) {
		sb_addf(err, _("TERM=%s cannot move the cursor, so it "
			"cannot show the dashboard: use "
			"TERM=xterm-256color, or plogtop --once or "
			"--follow"), name);
		rc = -1;
	}
	del_curterm(cur_term);
	return rc;
}

int terminal_check(struct strbuf *err)
{
	const char *term = getenv("TERM");

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		sb_adds(err, _("the dashboard needs a terminal: use --once or "
			"--follow when the output is a file or a pipe"));
		return -1;
	}
	if (!term || !*term) {
		sb_adds(err, _("TERM is not set, so the terminal's kind is "
			"unknown: run TERM=xterm-256color plogtop, or use "
			"--once or --follow (no terminal needed)"));
		return -1;
	}
	struct strbuf name = STRBUF_INIT;
	clean_for(&name, term, strlen(term), CLEAN_LOCALE);
	int rc = -1;
	if (strcmp(term, "dumb") == 0)
		sb_addf(err, _("TERM=dumb cannot show the dashboard (no cursor "
			"movement): use plogtop --once or --follow here, or "
			"run it in a real terminal (e.g. TERM=xterm-256color)"));
	else
		rc = check_terminfo(term, name.buf, err);
	sb_free(&name);
	return rc;
}
