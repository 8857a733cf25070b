/* The one sink for warnings and notes raised while plogtop runs live:
 * out of inotify watches, polling, unreadable files, a prom file that
 * cannot be written, a locale that cannot be loaded...  Each is
 * sanitised once here.  Without a dashboard a message goes to stderr at
 * once; with one (msglog_attach) it is kept, with its time, for the
 * message line and the messages view, and nothing touches stderr while
 * curses owns the terminal. */
#ifndef PLOGTOP_MSGLOG_H
#define PLOGTOP_MSGLOG_H

#include <stddef.h>
#include <time.h>

#include "strbuf.h"

#define MSGLOG_KEEP 200		/* the latest kept; older ones counted */

struct msg {
	time_t when;
	char *text;		/* sanitised, ASCII when the terminal is not UTF-8 */
	unsigned repeats;	/* the same text again, right after */
};

struct msglog {
	struct msg items[MSGLOG_KEEP];	/* a ring, oldest at first */
	size_t first, n;
	size_t total;		/* every message since the start */
	int attached;		/* a dashboard shows them */
	int ascii;		/* escape bytes >= 0x80 */
	char note[256];		/* msglog_note's, "" none */
};

void msglog_init(struct msglog *l);
void msglog_free(struct msglog *l);
/* A dashboard shows messages from now on (or no longer, with 0). */
void msglog_attach(struct msglog *l, int attached);
/* Adds text (any bytes): stderr as "plogtop: text" when no dashboard. */
void msglog_add(struct msglog *l, const char *text);
/* Writes the messages kept to stderr (a dashboard that did not start). */
void msglog_flush(struct msglog *l);
/* The i-th message, 0 the oldest kept; NULL past the end. */
const struct msg *msglog_get(const struct msglog *l, size_t i);

/* A note of the dashboard's own (the theme chosen, an error of o),
 * sanitised as a message: shown on the message line, without a time,
 * until the next key (msglog_note_done); not kept with the messages. */
void msglog_note(struct msglog *l, const char *text);
void msglog_note_done(struct msglog *l);
/* The note, or NULL when there is none. */
const char *msglog_note_text(const struct msglog *l);

#endif
