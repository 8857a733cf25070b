/* An incident: one failed API call, however many lines it wrote. */
#ifndef PLOGTOP_INCIDENT_H
#define PLOGTOP_INCIDENT_H

#include <stddef.h>

#include "dlist.h"
#include "logtime.h"
#include "rules.h"

struct process;

/* Where an incident's device or rank came from: its own lines, or its
 * process's (the device it set last, the rank it logged); NONE: not
 * known (shown as "-", null in JSON). */
enum ident_from { FROM_NONE = 0, FROM_LINES, FROM_PROCESS };

struct field {
	char *key;	/* owns the value too (incident_set_field) */
	char *value;	/* as the log wrote it: sanitise before showing */
};

struct rawline {
	const char *file;	/* interned, owned by the model */
	unsigned long line;
	char *text;		/* as the log wrote it */
};

struct incident {
	/* The host as the user named it; NULL for local input.  Set to a
	 * model_host's name (model_add makes it so). */
	const char *host;
	long pid;		/* 0 when the log did not say */
	char *name;
	long tid;
	enum code code;
	enum resource resource;
	enum cause cause;
	char *reported_code;	/* the code as the log printed it */
	logtime_t first, last;
	/* The UTC offsets (seconds east) of first and last in the zone of
	 * the host that read the log, when a host's JSON said them
	 * (has_offsets); else this host's zone's, found when written. */
	long off_first, off_last;
	int has_offsets;
	const char *file;	/* where its first line is */
	unsigned long line;
	/* Its first line's offset, and its last line in that file (resume
	 * points must not cut it: follow_resume.c). */
	unsigned long long off;
	unsigned long last_line;
	unsigned nlines;
	struct field *fields;
	size_t nfields;
	struct rawline *raw;	/* may be dropped once no view needs it */
	size_t nraw;
	int raw_refs;		/* views that may still show the raw lines */
	/* A hash of its first raw line's text (model_dedupe.c's
	 * fingerprint), set by model_dedupe_head when its raw lines are let
	 * go before the model sees it (a reading thread's); else 0. */
	size_t head_hash;
	/* The live model let its raw lines go for its byte budget
	 * (MODEL_RAW_BYTES): the detail says so. */
	int raw_dropped;
	/* Who it was: the logged (logical) device and the rank, valid when
	 * their _from is not FROM_NONE.  model_add sets them (from the
	 * incident's fields device_id and rank, else its process's identity,
	 * src/model/ident.h) unless a host's report already said them. */
	long device;
	enum ident_from device_from;
	long rank;
	enum ident_from rank_from;
	struct process *proc;	/* set by the model */
	/* The model's own: who keeps the incident, the lists it is on. */
	logtime_t at;		/* first as counted (model.h: MODEL_SKEW_USEC) */
	int refs;
	int held_paths;		/* the model holds its paths */
	struct dlink in_proc;	/* in its process's recent ones */
	struct dlink in_kept;	/* in all recent ones */
	struct dlink in_raw;	/* in those whose raw lines it keeps */
	size_t raw_bytes;	/* what they take, counted while kept */
};

const char *incident_field(const struct incident *inc, const char *key);
/* The same for a key of len bytes, not NUL-terminated. */
const char *incident_field_n(const struct incident *inc, const char *key,
			     size_t len);
void incident_set_field(struct incident *inc, const char *key,
			const char *value, size_t len);
/* incident_set_field for a key (klen bytes, NUL-terminated) the incident
 * is known not to have: no look for it. */
void incident_add_field(struct incident *inc, const char *key, size_t klen,
			const char *value, size_t len);
/* Puts the fields in their fixed display order. */
void incident_sort_fields(struct incident *inc);
void incident_drop_raw(struct incident *inc);
void incident_drop_fields(struct incident *inc);
void incident_free(struct incident *inc);

#endif
