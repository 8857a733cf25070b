/* The dashboard's parts (dash*.c) share this: the state, the labels and
 * the column table.  Labels live in one table (dash_text.c) so that a
 * translation replaces strings, not code; columns are data, so that a
 * new one (a HOST column) is a row of the table. */
#ifndef PLOGTOP_DASH_INT_H
#define PLOGTOP_DASH_INT_H

#include "dash.h"
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

/* ---- the table's columns (dash_table.c) ---- */
enum col_id { C_HOST, C_PID, C_NAME, C_ALIVE, C_RES0, C_TOTAL = C_RES0 + NRES,
	      C_TREND, C_LAST, C_COUNT };

struct column {
	enum col_id id;
	const char *head;
	int width;		/* columns, without the space before it */
	int right;		/* aligned right */
	int drop;		/* dropped first when narrow: higher first; 0 never */
	int sort;		/* enum sortkey, -1 none */
};
extern const struct column columns[C_COUNT];

/* Where each shown column is, for drawing and for mouse clicks. */
struct layout {
	int shown[C_COUNT];	/* column ids in order */
	int x[C_COUNT], w[C_COUNT];
	int n;
};

struct row {
	struct process *p;
	size_t col[NRES];
	size_t total;
	int alive;
	int fresh;		/* an incident arrived in the last NEW_MS */
	unsigned trend[TREND_MINUTES];
	logtime_t last;
	logtime_t last_at;	/* as counted: what S_LAST sorts by */
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
	long sel_pid;
	char *sel_name;
	const struct model_host *sel_host;	/* hosts live with the model */
	int detail_scroll, detail_max, step;
	unsigned long long rate_lines;
	long long rate_ms;
	double lines_per_s;
	int rate_known;
	char message[256];
	size_t log_seen;	/* messages before the last key */
	const struct incident *pager_inc;
	int table_y, table_height;
	struct layout lay;
	int mouse;
	unsigned long long fold_gen;	/* the model's, when rows were built */
	unsigned long long history_done_ms;
	int st_reading;		/* the history is still being read */
	/* The view grouped by host (v), its rows and selection. */
	int by_host;
	struct host_row *hrows;
	size_t nhrows, hsel, htop;
};

/* dash.c */
void dash_build_rows(struct dash *d);
void dash_remember_selection(struct dash *d);
void clean_text(const struct dash *d, struct strbuf *sb, const char *s);
void day_time(char *buf, size_t n, logtime_t t);
/* dash_header.c: draws the header; returns the rows it took. */
int draw_header(struct dash *d);
/* dash_table.c */
void layout_table(struct dash *d);
void draw_table(struct dash *d, int y0, int height);
/* The last TREND_MINUTES counts as a sparkline, scaled to their peak. */
void trend_text(const struct dash *d, const unsigned *trend,
		struct strbuf *sb);
int column_at(const struct dash *d, int x);
/* dash_detail.c */
void draw_detail(struct dash *d, int y0, int height);
const struct incident *detail_incident(const struct dash *d);
size_t detail_incidents(const struct dash *d, const struct process *p,
			const struct incident **out, size_t max);
/* dash_help.c: help, messages, sort menu, key bar, message line. */
void draw_help(struct dash *d, int y0, int height);
void draw_messages(struct dash *d, int y0, int height);
void draw_sort_menu(struct dash *d, int y0, int height);
int key_bar_rows(const struct dash *d);
void draw_key_bar(struct dash *d, int y);
const char *message_line(const struct dash *d, char *buf, size_t n);
void draw_lines(struct dash *d, int y0, int height, const char *const *lines,
		size_t n, enum theme_item first_item);
void wrap_into(struct strbuf *out, const char *s, size_t width);
/* text's lines (each ended by a newline; they are cut there), as
 * draw_lines shows them. */
void draw_text(struct dash *d, int y0, int height, struct strbuf *text);
/* dash_hosts.c: the hosts' parts (v, H, the header's hosts). */
int sort_shown(const struct dash *d, int k);
const char *host_label(const struct model_host *h);
void dash_build_host_rows(struct dash *d);
void draw_host_table(struct dash *d, int y0, int height);
void draw_host_detail(struct dash *d, int y0, int height);
void draw_hosts_view(struct dash *d, int y0, int height);
size_t host_fields(struct dash *d, struct strbuf *f);
enum dash_action host_table_key(struct dash *d, int key);
/* dash_keys.c */
enum dash_action dash_key(struct dash *d, int key);

#endif
