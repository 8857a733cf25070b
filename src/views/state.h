/* The state file (--state=FILE): what must survive a restart, so that
 * counters only grow and nothing is read twice or lost.
 *
 *   {"format": "plogtop-state", "version": 1, "tool_version": "...",
 *    "written": UNIX, "counted_since": UNIX,
 *    "counters": {"incidents": [{"process": "...", "code": "EE1023",
 *        "resource": "...", "cause": "...", "n": N}, ...],
 *      "read_bytes": N, "read_lines": N, "match_limit_hits": N},
 *    "positions": {see state_positions.h},
 *    "hosts": {see fleet.h: fleet_save_state},
 *    "identities": [see ident_state.h, one per identity of the model]}
 *
 * "identities" (added in version 1: an older reader ignores it) keeps
 * who each process was and its ledgers, so that a restart goes on
 * counting from them; the positions' "facts_to" keeps the facts read
 * again from a resume point from being counted twice.
 *
 * It grows by sections: a reader ignores the members it does not know
 * (later features keep theirs there: fleet cursors, a ledger...), and
 * "version" changes only when a reader of the old one would misread it.
 * It is written to a temporary file in the same directory, synced, then
 * renamed over FILE.  One that cannot be read as a state of this version
 * (corrupt, truncated, another program's, a newer version's) is renamed
 * to FILE.bad.UNIXTIME, said on stderr, and counting starts afresh. */
#ifndef PLOGTOP_STATE_H
#define PLOGTOP_STATE_H

#include <stddef.h>

#include "follow.h"
#include "model.h"
#include "prom.h"
#include "state_positions.h"
#include "strbuf.h"

#define STATE_VERSION 1
#define STATE_MAX_BYTES (256u << 20)	/* a larger file is not read */
/* --follow and the dashboard write it this often when something was
 * read or counted, once the history is read, and when they end. */
#define STATE_INTERVAL_MS 10000

enum state_loaded {
	STATE_NONE,		/* no file yet: a first start */
	STATE_LOADED,
	STATE_SET_ASIDE,	/* unusable: renamed, said in msg */
	STATE_ERROR,		/* cannot be read (permissions...): msg */
};

/* Loads path: its counters into m and pc (the prom file's, and
 * m->counted_since), its positions into ps. */
enum state_loaded state_load(const char *path, struct model *m,
			     struct prom_counts *pc, struct posset *ps,
			     struct strbuf *msg);

/* Parses a state's text: counters into m and pc, positions into ps.  Returns
 * 0, or -1 with why (m and ps then untouched and empty). */
int state_parse(const char *text, size_t len, struct model *m,
		struct prom_counts *pc, struct posset *ps, struct strbuf *why);

/* Writes the state: m's counters and the positions (cur, then what of
 * old no file was matched to), then more (further members, '"key":
 * value', or NULL: the sections of other parts, such as "hosts").
 * Returns 0, or -1 with "PATH: why". */
int state_save(const char *path, const struct model *m,
	       const struct prom_counts *pc,
	       const struct position *cur, size_t ncur,
	       const struct posset *old, const char *more,
	       struct strbuf *err);

/* The section key (an object) of the state at path, as compact JSON
 * appended to out: 0, or -1 when there is none (no state, or one that
 * cannot be read: state_open says so). */
int state_section(const char *path, const char *key, struct strbuf *out);

/* A cursor object (--resume=FILE, "-": standard input) into ps, and its
 * "identities" (ident_state.h: those a fleet kept of this host, given
 * back with the cursor) into m (NULL: not read).  Returns 0, or -1 with
 * why in msg (then ps is empty and m untouched). */
int state_load_cursor(const char *path, struct posset *ps,
		      struct model *m, struct strbuf *msg);

/* What --state and --resume give at the start: the state's counters into
 * m, the positions to start from into ps (the cursor's when one is given
 * and good, else the state's).  Each message goes to the sink, log
 * (NULL: stderr at once, src/base/msglog.h).  Returns -1
 * when the state cannot be read at all; *set_aside is set when it was
 * unusable and set aside.  One plogtop at a time uses a state: it holds
 * a lock on FILE.lock (*lock_fd, -1 without a state; the caller closes
 * it at the end), and another is refused. */
struct msglog;
int state_open(const char *state_file, const char *resume_file,
	       struct model *m, struct prom_counts *pc, struct posset *ps,
	       int *set_aside,
	       int *lock_fd, struct msglog *log);

double state_now(void);

#endif
