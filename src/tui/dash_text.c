/* The key bar, the help, and the table's columns (labels: dash_labels.h). */
#include "config.h"

#include "dash_int.h"

/* TRANSLATORS: the key bar: a word or two for what each key does. */
const struct keyhelp key_bar[] = {
	{ "q", NULL, N_("quit"), 0 },
	{ "h", NULL, N_("help"), 0 },
	{ "\u2191\u2193", "j/k", N_("move"), 0 },
	{ "Tab", NULL, N_("detail"), 0 },
	{ "[ ]", NULL, N_("step"), 0 },
	{ "/", NULL, N_("filter"), 0 },
	{ "s >", NULL, N_("sort"), 0 },
	{ "w", NULL, N_("window"), 0 },
	{ "p", NULL, N_("pause"), 0 },
	{ "l", NULL, N_("lines"), 0 },
	{ "o", NULL, N_("open"), 0 },
	{ "e", NULL, N_("msgs"), 0 },
	{ "t", NULL, N_("theme"), 0 },
	{ "m", NULL, N_("mouse"), 0 },
	{ "d", NULL, N_("devices"), 0 },
	{ "v", NULL, N_("by host"), 1 },
	{ "H", NULL, N_("hosts"), 1 },
};
const size_t key_bar_n = sizeof key_bar / sizeof key_bar[0];

/* The help: a key and what it does (the text starts at column 18;
 * a "\n" and 17 spaces continue it), then paragraphs, each wrapped to
 * the terminal's width where it is drawn. */
const char *const help_lines[] = {
	N_("plogtop: Ascend runtime incidents per process, live"),
	"",
	N_("Up/Down, j/k     select a process (in the detail: scroll it)"),
	N_("PgUp/PgDn        a page up or down"),
	N_("Home/End, g/G    first or last"),
	N_("Enter, Tab       move between the table and the detail"),
	N_("] or n           the detail shows the next older incident"),
	N_("[ or N           the next newer one (back to the latest)"),
	N_("s / S            sort by the next column / reverse the order"),
	N_("F6 or >          the sort menu"),
	N_("w                window: 1 min, 5 min, 1 h, all (by log time);\n"
	   "                 a process with no incident in it is not listed"),
	N_("F3 or /          filter by pid or name, applied as you type;\n"
	   "                 Backspace, Ctrl-W (a word), Ctrl-U (all) edit\n"
	   "                 it, Enter keeps it, Esc clears it"),
	N_("p                pause the table (counting goes on; p resumes)"),
	N_("t                next theme readable on this background\n"
	   "                 (PLOGTOP_THEME or --theme choose at start)"),
	N_("l                the raw lines of the incident, or the fix"),
	N_("o                open the incident's file in $PAGER at its line"),
	N_("e                the messages (warnings), with their time"),
	N_("m                mouse on or off: click a row selects it, a\n"
	   "                 column head sorts by it (again: reverses)"),
	N_("v                hosts read over ssh: the table by host, one row\n"
	   "                 per host with its state and counts (Enter on a\n"
	   "                 host filters the processes by it; v goes back)"),
	N_("H                hosts read over ssh: each host's state, since\n"
	   "                 when, why it is down, connections tried, counts;\n"
	   "                 the filter (/) also matches the host, and s or\n"
	   "                 the sort menu sort by it"),
	N_("d                the table by host and device: one row per device\n"
	   "                 the logs name, its processes and incidents, a\n"
	   "                 note when several jobs share it, a gone process\n"
	   "                 still fails on it, or one logical id has no\n"
	   "                 device map; below, its processes (rank, alive\n"
	   "                 or gone, job) and npu-smi's tenants.  Enter\n"
	   "                 shows the device's processes; d goes back"),
	N_("Ctrl-L           redraw the whole screen"),
	N_("F1, h or ?       this help (Esc, h or ? closes it)"),
	N_("F10 or q         quit"),
	"",
	TAXONOMY_COLUMNS_HELP,
	N_("ALIVE: the pid runs the same program now (demo: the demo's "
	   "generated processes).  TREND: incidents per minute over the last "
	   "ten minutes.  LAST: the latest incident, HH:MM:SS today, else "
	   "MM-DD HH:MM.  Rows of processes that are gone are dimmed; a row "
	   "with an incident in the last 10 seconds is highlighted."),
	N_("The default sort is LAST: what is happening now comes first."),
	N_("DEV: the device a process set last (its logical id), RANK its "
	   "rank, shown when the logs name one ('-': not known).  The detail "
	   "says its NPU and the evidence, its dp/tp/ep, its job and its "
	   "ledger: streams, events and notifies created, destroyed and "
	   "held."),
	N_("When the width is short, columns go in this order: TREND, ALIVE "
	   "(a gone process's row stays dimmed), HOST shortens to 6 cells, "
	   "RANK, DEV, then the resource columns from the right; PID, NAME, "
	   "TOTAL and LAST stay.  80 columns hold HOST, DEV and RANK."),
	N_("On a narrow terminal the key bar takes a second line.  Warnings "
	   "never write over the screen: they show on the message line and "
	   "under e."),
};
const size_t help_lines_n = sizeof help_lines / sizeof help_lines[0];

/* TRANSLATORS: the time windows of the dashboard (w). */
const char *const window_names[] = {
	N_("1 min"), N_("5 min"), N_("1 h"), N_("all")
};
const long long window_usec[] = {
	60LL * 1000000, 300LL * 1000000, 3600LL * 1000000, 0
};

#define RES_ID(id, ...) RES_##id,
const enum resource res_columns[NRES] = { TAXONOMY_COLUMNS(RES_ID) };

/* TRANSLATORS: the sort keys (the header's "sort %s", the s menu). */
const char *const sort_names[S_COUNT] = {
	N_("last"), N_("incidents"), N_("pid"), N_("name"), N_("alive"),
	N_("host"),
#define RES_WORD(id, name, code, head, word, legend) word,
	TAXONOMY_COLUMNS(RES_WORD)
};

/* TRANSLATORS: the column heads (a column is as wide as its head).
 * In table order.  drop: which goes first when the terminal is narrow
 * (the highest); NAME takes what is left and shrinks to its minimum. */
const struct column columns[C_COUNT] = {
	/* Only when hosts are read; as wide as the widest name (up to 16). */
	{ C_HOST, N_("HOST"), 4, 0, 0, S_HOST },
	{ C_PID, N_("PID"), 7, 0, 0, S_PID },
	{ C_NAME, N_("NAME"), 8, 0, 0, S_NAME },
	{ C_ALIVE, N_("ALIVE"), 5, 0, 5, S_ALIVE },
#define RES_HEAD(id, name, code, head, ...) \
	{ C_RES0 + RES_##id - 1, head, 4, 1, 2, S_COL0 + RES_##id - 1 },
	TAXONOMY_COLUMNS(RES_HEAD)
	{ C_TOTAL, N_("TOTAL"), 5, 1, 0, S_TOTAL },
	/* Only when a process's device or rank is known (columns.c says
	 * the order in which columns shorten or drop). */
	{ C_DEV, N_("DEV"), 3, 1, 3, -1 },
	{ C_RANK, N_("RANK"), 4, 1, 4, -1 },
	{ C_TREND, N_("TREND"), TREND_MINUTES, 0, 6, -1 },
	{ C_LAST, N_("LAST"), 11, 0, 0, S_LAST },
};
