/* Views of the model for --once: text for people, JSON for programs. */
#ifndef PLOGTOP_REPORT_H
#define PLOGTOP_REPORT_H

#include <stdio.h>

#include "catalog.h"
#include "model.h"

struct report_opts {
	const struct catalog *cat;
	const char *host;
	const char *version;
	int color;
	int width;	/* columns to fit; 80 */
};

/* Each writes the whole report to out; returns 0, or -1 on a write error
 * (errno set). */
int report_text(const struct model *m, const struct report_opts *o, FILE *out);
int report_json(const struct model *m, const struct report_opts *o, FILE *out);

/* One incident as the JSON object of the snapshot's "incidents" (also a
 * line of --follow --format=ndjson, with host when given). */
void report_incident_json(struct strbuf *sb, const struct incident *inc,
			  const struct catalog *cat, const char *host);

#endif
