/* The dashboard's parts (dash*.c) share this: the state, the labels,
 * the column table and the panels.  Labels live in one table
 * (dash_text.c) so that a translation replaces strings, not code;
 * columns are data, so that a new one (a HOST column) is a row of the
 * table.  The layers, each calling only those below it:
 *   dash.c, dash_keys.c    the frame and the keys: which panel is where
 *   the panels             processes (dash_table.c), detail, hosts,
 *                          help, messages and sort menu (dash_help.c),
 *                          the header
 *   dash_rows.c            the rows of the tables, from the model
 *   columns.c, textview.c, dash_cells.c, dash_text.c
 *   tui.c, terminal.c      the terminal */
#ifndef PLOGTOP_DASH_INT_H
#define PLOGTOP_DASH_INT_H

#include "columns.h"
#include "dash.h"
#include "ident.h"
#include "msglog.h"
#include "strbuf.h"

#define MIN_ROWS 12
#define MIN_COLS 60
#define TREND_MINUTES 10
#define NEW_MS 10000		/* a new incident's row is highlighted */
#define CTRL(c) ((c) & 0x1f)

#include "dash_labels.h"

/* The key bar: each key with what it does, in order of importance. */
struct keyhelp {
	const char *key, *ascii_key;	/* ascii_key: without UTF-8 */
	const char *what;
	int hosts;		/* shown only when hosts are read */
};
extern const struct keyhelp key_bar[];
extern const size_t key_bar_n;
extern const char *const help_lines[];
extern const size_t help_lines_n;

/* ---- windows and sort keys ---- */
enum window { W_1M, W_5M, W_1H, W_ALL, W_COUNT };
extern const char *const window_names[];
extern const long long window_usec[];

enum sortkey { S_LAST, S_TOTAL, S_PID, S_NAME, S_ALIVE, S_HOST, S_COL0,
	       S_COUNT = S_COL0 + NRES };
extern const enum resource res_columns[NRES];
extern const char *const sort_names[S_COUNT];

/* ---- the process table's columns (dash_text.c) ---- */
enum col_id { C_HOST, C_PID, C_NAME, C_ALIVE, C_RES0, C_TOTAL = C_RES0 + NRES,
	      C_DEV, C_RANK, C_TREND, C_LAST, C_COUNT };

struct column {
	enum col_id id;
	const char *head;
	int width;		/* columns, without the space before it */
	int right;		/* aligned right */
	int drop;		/* dropped first when narrow: higher first; 0 never */
	int sort;		/* enum sortkey, -1 none */
};
extern const struct column columns[C_COUNT];

struct row {
	struct process *p;
	size_t col[NRES];
	size_t total;
	int alive;
	int fresh;		/* an incident arrived in the last NEW_MS */
	unsigned trend[TREND_MINUTES];
	logtime_t last;
	logtime_t last_at;	/* as counted: what S_LAST sorts by */
	long dev, rank;		/* its identity's, IDENT_UNKNOWN: "-" */
};

enum view { V_MAIN, V_HELP, V_MESSAGES, V_SORT_MENU, V_HOSTS };

/* A row of the view grouped by host (v): a host's incidents in the
 * window, its processes, its state.  h NULL: the local input. */
struct host_row {
	struct model_host *h;
	size_t col[NRES];
	size_t total, nprocs;
	unsigned trend[TREND_MINUTES];
	logtime_t last;
	logtime_t last_at;	/* as counted: what S_LAST sorts by */
};

struct dash {
	struct model *m;
	const struct catalog *cat;
	struct tui *tui;
	struct msglog *log;
	const struct dash_status *st;	/* during a draw */
	enum window win;
	enum sortkey sort;
	int reverse;
	char filter[64];
	int filtering;
	int paused, detail_focus, show_raw;
	char paused_clock[16];
	enum view view;
	int view_top, menu_sel;
	struct row *rows;
	size_t nrows, sel, top;
	/* Processes that pass the filter with no incident in the window
	 * (not "all"): not listed, counted under the table. */
	size_t nzero;
	/* Until a row is chosen (sel_name NULL) the selection is the top
	 * row; the process it was, to start its detail afresh when another
	 * comes on top (compared, never read). */
	const struct process *top_p;
	long sel_pid;
	char *sel_name;
	const struct model_host *sel_host;	/* hosts live with the model */
	int detail_scroll, detail_max, step;
	unsigned long long rate_lines;
	long long rate_ms;
	double lines_per_s;
	int rate_known;
	size_t log_seen;	/* messages before the last key */
	const struct incident *pager_inc;
	int table_y, table_height;
	struct col_layout lay;	/* the process table's */
	int mouse;
	unsigned long long fold_gen;	/* the model's, when rows were built */
	unsigned long long history_done_ms;
	int st_reading;		/* the history is still being read */
	/* The view grouped by host (v), its rows and selection. */
	int by_host;
	struct host_row *hrows;
	size_t nhrows, hsel, htop;
	/* The view grouped by host and device (d), its rows (the model's
	 * devices, rebuilt with the rows) and selection; Enter on a device
	 * keeps the process table to its processes (dev_only). */
	int by_dev;
	struct device_row *drows;
	size_t ndrows, dsel, dtop;
	size_t ndrows_all;	/* the rows model_devices gave (to free) */
	int dev_only;
	const struct model_host *dev_host;
	long dev_id;
};

/* A view of the dashboard: draws itself in height rows from y0, and
 * takes a key: DASH_NONE when the key is not its own (key NULL: a
 * panel that takes none).  A panel reads the state above and the model,
 * and calls only what is below it (dash_rows.c and lower). */
struct panel {
	void (*draw)(struct dash *d, int y0, int height);
	enum dash_action (*key)(struct dash *d, int key);
};
extern const struct panel procs_panel;		/* dash_table.c */
extern const struct panel detail_panel;		/* dash_detail.c */
extern const struct panel host_table_panel;	/* dash_hosts.c: v */
extern const struct panel host_detail_panel;
extern const struct panel hosts_panel;		/* H */
extern const struct panel dev_table_panel;	/* dash_devices.c: d */
extern const struct panel dev_detail_panel;
extern const struct panel help_panel;		/* dash_help.c */
extern const struct panel messages_panel;
extern const struct panel sort_panel;

/* dash_header.c: draws the header; returns the rows it took. */
int draw_header(struct dash *d);
/* dash_bar.c: the bottom lines. */
int key_bar_rows(const struct dash *d);
void draw_key_bar(struct dash *d, int y);
const char *message_line(const struct dash *d, char *buf, size_t n);
/* dash_detail.c: the incident the detail shows (o opens it). */
const struct incident *detail_incident(const struct dash *d);

/* dash_rows.c: the tables' rows from the model, filtered and sorted;
 * the selection kept on its process (or host). */
void dash_build_rows(struct dash *d);
void dash_remember_selection(struct dash *d);
/* Every host's row in the order named, then the local input's;
 * returns the rows there are. */
size_t fill_host_rows(struct dash *d, struct host_row *rows);
int sort_shown(const struct dash *d, int k);
/* The next sort key shown after k (delta 1) or before it (-1). */
int next_sort(const struct dash *d, int k, int delta);
const char *host_label(const struct model_host *h);
/* dash_devices.c: the device view's rows from the model, the selection
 * kept on its device; d's key (the view and back, or a note when no
 * device is known); p used the device dev_only keeps to. */
void dash_build_dev_rows(struct dash *d);
void dev_view_toggle(struct dash *d);
int dev_matches(const struct dash *d, const struct process *p);

/* dash_table.c: the process table's columns for data this wide (HOST,
 * PID, DEV, RANK; -1 leaves HOST, DEV or RANK out) in cols. */
void proc_layout(struct col_layout *l, int host, int pid, int dev,
		 int rank, int cols);

/* textview.c: text that scrolls (d->view_top), with a marker when
 * more is below; the scrolling keys of a text view. */
void draw_lines(struct dash *d, int y0, int height, const char *const *lines,
		size_t n, enum theme_item first_item);
/* text's lines (each ended by a newline; they are cut there), as
 * draw_lines shows them. */
void draw_text(struct dash *d, int y0, int height, struct strbuf *text);
void wrap_into(struct strbuf *out, const char *s, size_t width);
enum dash_action textview_key(struct dash *d, int key);

/* dash_cells.c: the texts of cells. */
/* HH:MM:SS today, else MM-DD HH:MM: a time column says its day. */
void day_time(char *buf, size_t n, logtime_t t);
/* The last TREND_MINUTES counts as a sparkline, scaled to their peak. */
void trend_text(const struct tui *t, const unsigned *trend,
		struct strbuf *sb);

#endif
