/* The sink: every message plogtop gives the user, in every mode, goes
 * through the functions below, and nothing else writes to stderr (but an
 * out-of-memory abort).  A message is sanitised here, once, and spelt in
 * ASCII when the locale's charset is not UTF-8 (src/base/sanitize.h,
 * clean_for); on stderr it reads "plogtop: TEXT".
 *
 * How to say something:
 *   msglog_add(l, text)        a warning or a note, text as it came (a
 *                              path, a host's stderr, strerror: any bytes);
 *   msglog_about(l, who, what) the same as "WHO: WHAT" (a path or a host,
 *                              and what happened to it);
 *   msglog_add_clean(l, text)  the same, for text sanitised already (an
 *                              error a lower layer built with sanitize());
 *   msglog_error(l, text)      an error that ends plogtop: kept like a
 *                              warning and said on stderr too, once no
 *                              dashboard owns the terminal;
 *   msglog_usage(text)         a usage error, whole and clean already (the
 *                              error and its hint are one translated text);
 *   msglog_note(l, text)       the dashboard's own note (the theme chosen, a
 *                              pager that failed): shown on the message line
 *                              until the next key, not kept in the log.
 * l is the log of a live mode (struct live); NULL where there is none
 * (--once, a start that fails, a usage error): the message goes to stderr
 * at once.  Without a dashboard a message goes to stderr at once too; with
 * one (msglog_attach) it is kept, with its time, for the message line and
 * the messages view, and nothing touches stderr while curses owns the
 * terminal. */
#ifndef PLOGTOP_MSGLOG_H
#define PLOGTOP_MSGLOG_H

#include <stddef.h>
#include <time.h>

#include "strbuf.h"

#define MSGLOG_KEEP 200		/* the latest kept; older ones counted */
/* A note's bytes at most, its NUL included. */
#define MSGLOG_NOTE 256

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
	struct strbuf errors;	/* said on stderr once no dashboard */
	char note[MSGLOG_NOTE];	/* the dashboard's note, "" when none */
};

void msglog_init(struct msglog *l);
void msglog_free(struct msglog *l);
/* A dashboard shows messages from now on (or no longer, with 0: the
 * errors it was shown are said on stderr then). */
void msglog_attach(struct msglog *l, int attached);
/* Adds text (any bytes); l NULL, or no dashboard: "plogtop: text" on
 * stderr at once. */
void msglog_add(struct msglog *l, const char *text);
/* Adds "who: what" (any bytes in both). */
void msglog_about(struct msglog *l, const char *who, const char *what);
/* Adds text that is sanitised already: only its charset is fitted. */
void msglog_add_clean(struct msglog *l, const char *text);
/* Adds an error that ends plogtop (any bytes): on stderr at once, or,
 * with a dashboard, kept and said on stderr when it goes. */
void msglog_error(struct msglog *l, const char *text);
/* Writes a usage error, clean and whole (its own "plogtop: " and
 * newlines), to stderr as it is. */
void msglog_usage(const char *text);
/* The dashboard's note (any bytes), until msglog_note_clear. */
void msglog_note(struct msglog *l, const char *text);
void msglog_note_clear(struct msglog *l);
/* The note, sanitised, cut at MSGLOG_NOTE - 1 bytes; "" when none. */
const char *msglog_note_text(const struct msglog *l);
/* Writes the messages kept to stderr (a dashboard that did not start). */
void msglog_flush(struct msglog *l);
/* The i-th message, 0 the oldest kept; NULL past the end. */
const struct msg *msglog_get(const struct msglog *l, size_t i);

#endif
