/* Views of the model for --once: text for people, JSON for programs. */
#ifndef PLOGTOP_REPORT_H
#define PLOGTOP_REPORT_H

#include <stdio.h>

#include "catalog.h"
#include "model.h"

/* The incidents of a JSON report, written as they complete (to an
 * unlinked temporary file), so that the report's memory does not grow
 * with them; they keep the order they were found in. */
struct json_stream {
	FILE *f;
	const struct catalog *cat;
	size_t n;
	int err;	/* errno of the first failed write */
	char *head;	/* the report's start, written before the first */
};

/* Incidents are written to f, the report's own output: the report's
 * head (report_json_head) first, the rest of it after (report_json). */
void json_stream_init(struct json_stream *js, FILE *f,
		      const struct catalog *cat);
void json_stream_free(struct json_stream *js);
/* Returns -1 when writing failed (js->err says why). */
int json_stream_add(struct json_stream *js, const struct incident *inc);
/* The same, for an incident already rendered (incident_json). */
int json_stream_add_rendered(struct json_stream *js, const char *json,
			     size_t len);

struct report_opts {
	const struct catalog *cat;
	const char *host;
	const char *version;
	int color;
	int width;	/* columns to fit; 80 */
	struct json_stream *incidents;	/* the JSON report's incidents */
	/* --state: the report covers this run, the counters all runs since
	 * counted_since (Unix seconds). */
	const char *state_file;
	double counted_since;
};

/* Each writes the whole report to out; returns 0, or -1 on a write error
 * (errno set). */
int report_text(const struct model *m, const struct report_opts *o, FILE *out);
int report_json(const struct model *m, const struct report_opts *o, FILE *out);
/* What a JSON report starts with, known before anything is read; the
 * incidents follow it (see struct json_stream). */
void report_json_head(struct strbuf *sb, const struct report_opts *o);

/* The version of the snapshot and of the --follow stream (2: hosts). */
#define REPORT_SCHEMA_VERSION 2

#endif
