/* What the fleet's files share.  fleet.c runs the hosts (connections,
 * states, lines); below it fleet_take.c (incidents into the model),
 * fleet_resume.c (cursors and identities), fleet_argv.c (the ssh
 * command) and fleet_fds.c (open files); fleet_once.c reads --once
 * reports, fleet_state.c the hosts' part of the state file. */
#ifndef PLOGTOP_FLEET_INT_H
#define PLOGTOP_FLEET_INT_H

#include <stdint.h>

#include "fleet.h"
#include "jsonparse.h"
#include "remote.h"

struct fleet_once;
/* Identities (64-bit hashes) of incidents a host sent that a reconnect
 * may send again.  A table at most 3/4 full: 11 to 22 bytes an
 * identity. */
#define FLEET_SEEN_MAX (1u << 22)	/* identities a host: a table of at most 64 MiB */
struct fleet_seen {
	uint64_t *slot;		/* 0: empty */
	size_t cap, n;
	int full;		/* FLEET_SEEN_MAX reached */
};

struct fleet_host {
	struct model_host *mh;
	char **paths;
	size_t npaths;
	struct remote r;
	int running;
	int header_seen;			/* the stream's header was read */
	int closing;			/* its output ended; reaping it */
	unsigned long long deadline;	/* closing: then killed; --once:
					 * its report's timeout */
	unsigned backoff_ms;
	struct fleet_once *once;	/* --once: its report being read */
	int waiting;			/* --once: for a free slot */
	int no_slot;			/* live: beyond the open-file limit,
					 * never connected */
	/* Reconnects (fleet_resume.c). */
	int resume;			/* its header said "resume": true */
	struct strbuf cursor;		/* the last cursor it sent, as JSON
					 * ("": none); at most
					 * REMOTE_LINE_MAX */
	struct fleet_seen seen;		/* identities since that cursor
					 * (all, for a host without one) */
	int seen_all;			/* a cursor left files out: keep
					 * every identity */
	int seen_full_said;
	int history_sent;		/* a "settled" cursor came: its
					 * history is here */
	size_t overlap;			/* incidents sent again, dropped */
	int sends_idents;		/* it sent identity lines: it is
					 * given them back with its cursor */
	unsigned long long up_ms;	/* when its header came; 0: not up */
	/* Lines over REMOTE_LINE_MAX: said once per note interval. */
	size_t drop_said;		/* of r.dropped, already said */
	unsigned long long drop_due;	/* 0: no interval running */
	size_t taken;			/* lines taken from the stream */
	size_t taken_at_drop;		/* taken when the interval began */
	/* Its last cursor's "read": lines and bytes since the plogtop
	 * there started (fleet_take_cursor adds what is new to mh's). */
	unsigned long long read_lines, read_bytes;
};

struct fleet {
	struct model *m;
	struct fleet_opts o;
	struct fleet_host *h;
	size_t n;
	size_t slots;		/* hosts connected at once, at most */
	unsigned long long gen;
	unsigned backoff_min_ms;	/* the first wait after a failure */
	unsigned stable_ms;		/* up this long: the backoff starts
					 * over */
	unsigned note_ms;		/* lines over 1 MiB: said at most
					 * once in this */
};

/* The host is down for why; a live fleet tries it again later. */
void fleet_host_down(struct fleet *fl, struct fleet_host *fh,
		     const char *why, unsigned long long now);
/* fleet_incident.c: one incident object of the named host into m (the
 * one way in, model_add); -1 with why in err. */
int fleet_add_incident(struct model *m, const char *host,
		       const struct jval *o, struct strbuf *err);
/* fleet_once.c: a --once report of the host, read as it arrives:
 * begun at each connection, fed a line at a time (-1: the report is
 * refused, then fleet_once_broken says why), finished when the child
 * ended (-1: the report is not whole, why says why: the host is down).
 * It calls nothing of fleet.c. */
void fleet_once_begin(struct fleet *fl, struct fleet_host *fh);
int fleet_once_line(struct fleet_host *fh, const char *line, size_t len);
void fleet_once_broken(struct fleet *fl, struct fleet_host *fh,
		       struct strbuf *why);
int fleet_once_finished(struct fleet *fl, struct fleet_host *fh,
			struct strbuf *why);
void fleet_once_free(struct fleet_host *fh);

/* fleet_take.c */
/* An incident line of a stream: taken unless its identity was. */
int fleet_stream_incident(struct fleet *fl, struct fleet_host *fh,
			  const struct jval *o, struct strbuf *err);

/* fleet_ident.c */
/* An identity line of a stream (1; a bad one is counted as a dropped
 * line), else 0. */
int fleet_take_identity(struct fleet *fl, struct fleet_host *fh,
			const struct jval *v);
/* What a resuming host is given on its standard input: its cursor with
 * the identities of it the model keeps. */
void fleet_cursor_input(struct fleet *fl, const struct fleet_host *fh,
			struct strbuf *out);
/* --once: a leak of calls (a rising held count) of the host's report,
 * its ledger into the model; -1 when it is not one (a bad claim). */
int fleet_once_leak(struct fleet *fl, struct fleet_host *fh,
		    const struct jval *o);

/* fleet_argv.c: the ssh command; resume: the remote reads a cursor
 * from its standard input. */
char **fleet_argv_for(const struct fleet_opts *o, const char *host,
		      char *const *paths, size_t npaths, int resume);

/* fleet_fds.c */
/* The soft limit on open files (0: none). */
unsigned long long fleet_fd_limit(void);
/* How many hosts may be connected at once: each holds two pipes. */
size_t fleet_host_slots(size_t nhosts);

/* fleet_resume.c */
void fleet_times_init(struct fleet *fl);
uint64_t fleet_incident_id(const struct jval *o);
int fleet_seen_has(const struct fleet_seen *s, uint64_t id);
/* 1: already there; -1: FLEET_SEEN_MAX reached (not added). */
int fleet_seen_add(struct fleet_seen *s, uint64_t id);
void fleet_seen_clear(struct fleet_seen *s);
/* {"type": "cursor", ...} */
int fleet_is_cursor(const struct jval *v);
/* Keeps the cursor of a resuming host; what it covers is forgotten. */
void fleet_take_cursor(struct fleet *fl, struct fleet_host *fh,
		       const struct jval *v);
/* A connection that ended before its header: when the remote refused
 * --resume=-, the next one goes without. */
void fleet_resume_refused(struct fleet *fl, struct fleet_host *fh);
void fleet_resume_free(struct fleet_host *fh);

#endif
