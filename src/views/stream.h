/* The --follow stream on standard output, and nothing else writes it:
 * its header (--hello), one line per incident (text for people, or
 * --format=ndjson for programs), and the cursor lines of a --hello
 * stream.  The header is read back here too, by a plogtop that reads a
 * host's stream (the fleet); the incident lines by incident_json.h, the
 * cursors by fleet_int.h. */
#ifndef PLOGTOP_STREAM_H
#define PLOGTOP_STREAM_H

#include <stdio.h>

#include "catalog.h"
#include "incident.h"
#include "jsonparse.h"
#include "model.h"
#include "strbuf.h"

/* How the incident lines are written. */
struct stream_opts {
	int ndjson;			/* JSON lines, else text lines */
	int with_host;			/* text: each line starts with the
					 * incident's host ("-": local) */
	const struct catalog *cat;	/* ndjson: the summary and fix */
	const char *host;		/* this machine's name (not written:
					 * a local incident's host is null) */
	int no_fix;			/* ndjson: --no-fix, "fix": null */
};

/* Each writes one line to out and flushes it, so that a pipe sees it at
 * once; -1 when the write failed (the reader went away). */
int stream_header(FILE *out, const char *version, const char *host);
int stream_incident(FILE *out, const struct incident *inc,
		    const struct stream_opts *so);
/* What the stream's plogtop has read so far, said beside its cursor
 * ("read": {"files": N, "lines": N, "bytes": N}) so that a plogtop
 * reading hosts shows their files and lines. */
struct stream_read {
	size_t files;			/* followed now */
	unsigned long long lines, bytes;	/* read since it started */
};

/* The cursor (positions_json's object, len bytes); partial: files were
 * left out of it; settled: nothing of the history is held back; rd (or
 * NULL) what was read. */
int stream_cursor(FILE *out, const char *cursor, size_t len, int partial,
		  int settled, const struct stream_read *rd);

/* --hello only: an identity line for each local identity that changed
 * since the last call ({"type": "identity", "identity": {ident_state.h's
 * object, "host": null}}), absolute values, so that a resend is
 * harmless (the reader replaces).  Called at most once a second (with
 * the cursor lines): each identity is sent at most that often.  -1 when
 * a write failed. */
struct stream_sent {
	struct stream_sent_one *v;	/* by seq, as model_idents */
	size_t n;
};
int stream_identities(FILE *out, const struct model *m,
		      struct stream_sent *sent);
void stream_sent_free(struct stream_sent *sent);
/* 1 with the identity object (NULL when it is not one) when v is an
 * identity line, else 0. */
int stream_identity_read(const struct jval *v, const struct jval **ident);

/* A host's first line, {"schema": "plogtop.stream", "schema_version": 4,
 * ...}: 0 with whether it resumes (honours --resume) in *resumes, or -1
 * with why in why. */
int stream_header_read(const struct jval *v, int *resumes,
		       struct strbuf *why);

/* A cursor line of a host's stream, read back: its parts. */
struct stream_cursor_line {
	const struct jval *cursor;	/* the object to give back, or NULL */
	int partial, settled;		/* as stream_cursor writes them */
	int has_read;			/* an older plogtop's has no "read" */
	struct stream_read read;
};

/* 1 with its parts when v is a cursor line, else 0 (an incident). */
int stream_cursor_read(const struct jval *v, struct stream_cursor_line *c);

#endif
