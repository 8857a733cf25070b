/* The bounds of an incident on the wire: what one plogtop writes (the
 * JSON report's incidents, --follow's ndjson lines) and what another of
 * the same version reads back (jsonparse, incident_json, the fleet).
 * One set for both sides: the writer cuts what would pass a bound (a
 * cut string ends in "…"), the reader takes everything within them, so
 * an incident one plogtop sends is never refused by another. */
#ifndef PLOGTOP_WIRE_LIMITS_H
#define PLOGTOP_WIRE_LIMITS_H

/* Decoded bytes of one string of an incident: name, file, reported
 * code, a field's value, summary, fix.  A log line is at most 64 KiB
 * (LINESPLIT_MAX): only a line of escaped bytes comes near it. */
#define WIRE_STRING_MAX (64u << 10)
/* Fields of one incident, and the bytes of a field's name. */
#define WIRE_FIELDS_MAX 64
#define WIRE_KEY_MAX 64
/* Bytes of one incident's JSON as written: fields are cut to fit.  A
 * line of a stream or of a report that holds it is read (it stays under
 * REMOTE_LINE_MAX, 1 MiB, with room for its indent and comma). */
#define WIRE_INCIDENT_MAX ((1u << 20) - 4096)
/* JSON values in one incident (its fields and a few more). */
#define WIRE_VALUES_MAX (4 * WIRE_FIELDS_MAX + 64)

/* What a host's report may claim it read: counts above these are
 * refused (the host gets a problem), so that sums over hosts cannot
 * wrap. */
#define WIRE_CLAIM_MAX (1ull << 48)

#endif
