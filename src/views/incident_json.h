/* One incident as JSON, both ways: written as an object of the
 * snapshot's "incidents" or a line of --follow --format=ndjson, and read
 * back from another plogtop of the same version (a host's).  One set of
 * bounds serves both sides (wire_limits.h): what this writes, the reader
 * takes.  The reader checks every field as hostile input, and renders
 * nothing: the summary and fix a host sent are not kept, as the writer
 * renders them from this side's message file. */
#ifndef PLOGTOP_INCIDENT_JSON_H
#define PLOGTOP_INCIDENT_JSON_H

#include "catalog.h"
#include "incident.h"
#include "jsonparse.h"
#include "model.h"
#include "strbuf.h"

/* Appends the incident's object.  host: the one to name when the
 * incident has none (local input); NULL writes null there, as every
 * output does (doc/json-schema.md: "host" is null for this machine's own
 * input, the host as named for a host's). */
void incident_json(struct strbuf *sb, const struct incident *inc,
		   const struct catalog *cat, const char *host);
/* The same with flags: INCIDENT_JSON_NO_FIX writes "fix": null
 * (--no-fix). */
#define INCIDENT_JSON_NO_FIX 1u
void incident_json_opt(struct strbuf *sb, const struct incident *inc,
		       const struct catalog *cat, const char *host,
		       unsigned flags);

/* A field value written as a JSON number: a decimal integer, without
 * leading zeros or "+", "-0", of magnitude at most FIELD_NUMBER_MAX
 * (2^53, what a double holds exactly). */
#define FIELD_NUMBER_MAX 9007199254740992ull
int field_is_number(const char *v);

/* A new incident of host from the object o; its file is interned in m
 * (the caller gives that reference back after model_add).  NULL with why
 * in err. */
struct incident *incident_json_read(struct model *m, const struct jval *o,
				    const char *host, struct strbuf *err);

/* The remote side's sanitised text made the bytes it stands for again,
 * so that this side's sanitiser writes it once (a new string). */
char *wire_unsanitized(const char *s);

/* Parses "2026-07-13T11:39:20.982549" (the fraction optional). */
int iso_logtime(const char *s, logtime_t *t);

#endif
