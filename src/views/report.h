/* Views of the model for --once: text for people, JSON for programs. */
#ifndef PLOGTOP_REPORT_H
#define PLOGTOP_REPORT_H

#include <stdio.h>

#include "catalog.h"
#include "model.h"
#include "report_sections.h"

struct report_opts {
	const struct catalog *cat;
	const char *host;
	const char *version;
	int color;
	int width;	/* columns to fit; 80 */
	/* --state: the report covers this run, the counters all runs since
	 * counted_since (Unix seconds). */
	const char *state_file;
	double counted_since;
	/* The text report's sections (report_sections.h), sorted; NULL:
	 * none shown. */
	const struct report_sections *sections;
	/* --from-prometheus: the server read instead of files, without the
	 * password its URL may hold (its hosts are a cluster's nodes). */
	const char *prometheus;
	/* --no-fix: each incident's "fix" null; --format=ndjson with
	 * --once: the summary a line of its own (snapshot_end). */
	int no_fix, ndjson;
};

/* The --once text report (report_text.c), whole: under a locale whose
 * charset is not UTF-8 with every byte >= 0x80 spelt out, and with what
 * it covers when a state carries counters.  Returns 0, or -1 on a write
 * error (errno set). */
int report_text(const struct model *m, const struct report_opts *o, FILE *out);

/* The JSON snapshot (--format=json, report_json.c, and nothing else
 * writes it), written as it is read: its head, each counted incident as
 * it completes (so that memory does not grow with them, and they keep
 * the order they were found in), then what needs all of them counted. */
struct snapshot {
	FILE *f;
	const struct catalog *cat;
	size_t n;	/* incidents written */
	int err;	/* errno of the first failed write */
	char *head;	/* written with the first incident, or at the end */
	int no_fix;	/* "fix": null */
	int ndjson;	/* --once --format=ndjson: a line per incident, then
			 * the rest as one summary line */
};

/* The head is made now (its generated_at) and written with the first
 * incident, so that a run that fails before reading writes nothing. */
void snapshot_begin(struct snapshot *s, FILE *f, const struct report_opts *o);
/* The snapshot as a view of the model (model_watch, ctx the snapshot):
 * each incident counted goes out as it is found; one that was not
 * counted (--since) is left out. */
void snapshot_on_incident(void *snapshot, const struct incident *inc);
/* The same in two steps, for a reader's view (readall.h, struct
 * read_view; ctx the snapshot): an incident's object rendered where it
 * was read (in parallel), then added here in the model's order (a
 * failed write is kept in s->err). */
void snapshot_render(void *snapshot, struct strbuf *sb,
		     const struct incident *inc);
void snapshot_add_rendered(void *snapshot, const char *json, size_t len);
/* The rest, from the model once everything is counted: -1 on a write
 * error (errno set). */
int snapshot_end(struct snapshot *s, const struct model *m);
void snapshot_free(struct snapshot *s);
/* The whole snapshot at once, with no incidents (the fuzzers'). */
int report_json(const struct model *m, const struct report_opts *o, FILE *out);

/* The version of the snapshot and of the --follow stream (2: hosts; 3:
 * who each process was, devices, ledgers and leaks; 4: fields' integers
 * as numbers, UTC times and offsets, doc/json-schema.md).  A host's
 * stream is read from REPORT_SCHEMA_STREAM_OLDEST on. */
#define REPORT_SCHEMA_VERSION 4
#define REPORT_SCHEMA_STREAM_OLDEST 3

#endif
