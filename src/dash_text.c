/* The key bar, the help, and the table's columns (labels: dash_labels.h). */
#include "config.h"

#include "dash_int.h"

const char *tr(const char *msgid)
{
	return msgid;
}

const struct keyhelp key_bar[] = {
	{ "q", NULL, "quit" },
	{ "h", NULL, "help" },
	{ "\u2191\u2193", "j/k", "move" },
	{ "Tab", NULL, "detail" },
	{ "[ ]", NULL, "step" },
	{ "/", NULL, "filter" },
	{ "s >", NULL, "sort" },
	{ "w", NULL, "window" },
	{ "p", NULL, "pause" },
	{ "l", NULL, "lines" },
	{ "o", NULL, "open" },
	{ "e", NULL, "msgs" },
	{ "t", NULL, "theme" },
	{ "m", NULL, "mouse" },
};
const size_t key_bar_n = sizeof key_bar / sizeof key_bar[0];

const char *const help_lines[] = {
	"plogtop: Ascend runtime incidents per process, live",
	"",
	"Up/Down, j/k     select a process (in the detail: scroll it)",
	"PgUp/PgDn        a page up or down",
	"Home/End, g/G    first or last",
	"Enter, Tab       move between the table and the detail",
	"] or n           the detail shows the next older incident",
	"[ or N           the next newer one (back to the latest)",
	"s / S            sort by the next column / reverse the order",
	"F6 or >          the sort menu",
	"w                window: 1 min, 5 min, 1 h, all (by log time)",
	"F3 or /          filter by pid or name, applied as you type;",
	"                 Backspace, Ctrl-W (a word), Ctrl-U (all) edit",
	"                 it, Enter keeps it, Esc clears it",
	"p                pause the table (counting goes on; p resumes)",
	"t                next theme readable on this background",
	"                 (PLOGTOP_THEME or --theme choose at start)",
	"l                the raw lines of the incident, or the fix",
	"o                open the incident's file in $PAGER at its line",
	"e                the messages (warnings), with their time",
	"m                mouse on or off: click a row selects it, a",
	"                 column head sorts by it (again: reverses)",
	"Ctrl-L           redraw the whole screen",
	"F1, h or ?       this help (Esc, h or ? closes it)",
	"F10 or q         quit",
	"",
	"Columns: Strm stream, Ntfy notify, Evnt event, Acpy async copy",
	"queue (EE1023); Mcpy memcpy kind, Arg other argument (EE1001).",
	"ALIVE: the pid runs the same program now (demo: the demo's",
	"generated processes).  TREND: incidents per minute over the last",
	"ten minutes.  LAST: the latest incident, HH:MM:SS today, else",
	"MM-DD HH:MM.  Rows of processes that are gone are dimmed; a row",
	"with an incident in the last 10 seconds is highlighted.",
	"The default sort is LAST: what is happening now comes first.",
	"Narrow terminals drop TREND, then the resource columns; the key",
	"bar takes a second line.  Warnings never write over the screen:",
	"they show on the message line and under e.",
};
const size_t help_lines_n = sizeof help_lines / sizeof help_lines[0];

const char *const window_names[] = { "1 min", "5 min", "1 h", "all" };
const long long window_usec[] = {
	60LL * 1000000, 300LL * 1000000, 3600LL * 1000000, 0
};

const enum resource res_columns[NRES] = {
	RES_STREAM, RES_NOTIFY, RES_EVENT, RES_ASYNC_COPY, RES_MEMCPY,
	RES_ARGUMENT,
};

const char *const sort_names[S_COUNT] = {
	"last", "incidents", "pid", "name", "alive", "stream", "notify",
	"event", "async copy", "memcpy", "argument",
};

/* In table order.  drop: which goes first when the terminal is narrow
 * (the highest); NAME takes what is left and shrinks to its minimum. */
const struct column columns[C_COUNT] = {
	{ C_PID, "PID", 7, 0, 0, S_PID },
	{ C_NAME, "NAME", 8, 0, 0, S_NAME },
	{ C_ALIVE, "ALIVE", 5, 0, 3, S_ALIVE },
	{ C_RES0 + 0, "Strm", 4, 1, 2, S_COL0 + 0 },
	{ C_RES0 + 1, "Ntfy", 4, 1, 2, S_COL0 + 1 },
	{ C_RES0 + 2, "Evnt", 4, 1, 2, S_COL0 + 2 },
	{ C_RES0 + 3, "Acpy", 4, 1, 2, S_COL0 + 3 },
	{ C_RES0 + 4, "Mcpy", 4, 1, 2, S_COL0 + 4 },
	{ C_RES0 + 5, "Arg", 4, 1, 2, S_COL0 + 5 },
	{ C_TOTAL, "TOTAL", 5, 1, 0, S_TOTAL },
	{ C_TREND, "TREND", TREND_MINUTES, 0, 4, -1 },
	{ C_LAST, "LAST", 11, 0, 0, S_LAST },
};
