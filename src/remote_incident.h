/* Incidents as another plogtop sends them (a JSON object of the snapshot's
 * "incidents" or a line of --follow --format=ndjson), read back into the
 * model's struct incident.  The remote side classified them; every field
 * is checked as hostile input, and the summary and fix are rendered
 * here again from the local message file. */
#ifndef PLOGTOP_REMOTE_INCIDENT_H
#define PLOGTOP_REMOTE_INCIDENT_H

#include "incident.h"
#include "jsonparse.h"
#include "model.h"
#include "wire_limits.h"

/* What the writer of the same version writes: wire_limits.h. */
#define REMOTE_FIELDS_MAX WIRE_FIELDS_MAX	/* fields of one incident */
#define REMOTE_STRING_MAX WIRE_STRING_MAX	/* bytes of a name, file or
						 * value */

/* A new incident of host from the object o; its file is interned in m
 * (the caller gives that reference back after model_add).  NULL with why
 * in err. */
struct incident *remote_incident(struct model *m, const struct jval *o,
				 const char *host, struct strbuf *err);

/* Parses "2026-07-13T11:39:20.982549" (the fraction optional). */
int iso_logtime(const char *s, logtime_t *t);

#endif
