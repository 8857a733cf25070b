/* The dashboard view: header, process table, the selected process's
 * detail and fix, the hosts, help, messages: each a panel (dash_int.h).
 * It renders the model through tui.c and never touches the logs. */
#ifndef PLOGTOP_DASH_H
#define PLOGTOP_DASH_H

#include "catalog.h"
#include "model.h"
#include "msglog.h"
#include "theme.h"
#include "tui.h"

/* What the header shows of the reading side. */
struct dash_status {
	const char *roots;	/* sanitised list */
	const char *how;	/* "inotify", "polling", "inotify+polling" */
	const char *since;	/* --since as given, or NULL */
	int demo;		/* --demo: the header says so, ALIVE "demo" */
	int cluster;		/* --from-prometheus: no files, no lines */
	size_t files;
	int reading_history;
	size_t hist_files, hist_files_total;
	unsigned long long hist_bytes, hist_bytes_total;
};

enum dash_action { DASH_NONE, DASH_REDRAW, DASH_QUIT, DASH_PAGER,
		   DASH_THEME };

struct dash;

/* Messages of log (the one sink) show on the message line and in the
 * messages view; its notes (msglog_note) on the message line. */
struct dash *dash_new(struct model *m, const struct catalog *cat,
		      struct tui *tui, struct msglog *log);
void dash_free(struct dash *d);

/* Draws everything (curses sends only what changed). */
void dash_draw(struct dash *d, const struct dash_status *st);
/* Handles a key; DASH_PAGER asks the caller to open dash_pager_file at
 * dash_pager_line, DASH_THEME to switch to the next theme. */
enum dash_action dash_key(struct dash *d, int key);
int dash_paused(const struct dash *d);
const char *dash_pager_file(const struct dash *d);
unsigned long dash_pager_line(const struct dash *d);

#endif
