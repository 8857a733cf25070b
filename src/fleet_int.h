/* What fleet.c and fleet_once.c share. */
#ifndef PLOGTOP_FLEET_INT_H
#define PLOGTOP_FLEET_INT_H

#include "fleet.h"
#include "jsonparse.h"
#include "remote.h"

struct fleet_once;

struct fleet_host {
	struct model_host *mh;
	char **paths;
	size_t npaths;
	struct remote r;
	int running;
	int hello;			/* the stream's header was read */
	int closing;			/* its output ended; reaping it */
	unsigned long long deadline;	/* closing: then killed; --once:
					 * its report's timeout */
	unsigned backoff_ms;
	struct fleet_once *once;	/* --once: its report being read */
	int waiting;			/* --once: for a free slot */
	int no_slot;			/* live: beyond the open-file limit,
					 * never connected */
};

struct fleet {
	struct model *m;
	struct fleet_opts o;
	struct fleet_host *h;
	size_t n;
	size_t slots;		/* hosts connected at once, at most */
	unsigned long long gen;
};

/* The host is down for why; a live fleet tries it again later. */
void fleet_host_down(struct fleet *fl, struct fleet_host *fh,
		     const char *why, unsigned long long now);
void fleet_say(struct fleet *fl, struct fleet_host *fh, const char *what);
/* Adds one incident object of host fh; -1 with why in err. */
int fleet_take_incident(struct fleet *fl, struct fleet_host *fh,
			const struct jval *o, struct strbuf *err);
/* fleet_once.c: a --once report of the host, read as it arrives:
 * begun at each connection, fed a line at a time (-1: the report is
 * refused, then fleet_once_broken says why), finished when the child
 * ended. */
void fleet_once_begin(struct fleet *fl, struct fleet_host *fh);
int fleet_once_line(struct fleet_host *fh, const char *line, size_t len);
void fleet_once_broken(struct fleet *fl, struct fleet_host *fh,
		       struct strbuf *why);
void fleet_once_finished(struct fleet *fl, struct fleet_host *fh,
			 unsigned long long now);
void fleet_once_free(struct fleet_host *fh);

#endif
