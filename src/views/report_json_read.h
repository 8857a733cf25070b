/* The JSON snapshot read back, as another plogtop (a host's --once
 * --format=json) wrote it with report_json.c: read as it streams
 * (json_reader: one incident at a time, so that memory does not grow
 * with the snapshot's bytes), its schema checked, each incident and what
 * its scan claims handed to the caller in the order written.  A count
 * claimed that is not an integer from 0 to WIRE_CLAIM_MAX is taken as 0
 * and said (bad_claim), so that sums over hosts cannot wrap. */
#ifndef PLOGTOP_REPORT_JSON_READ_H
#define PLOGTOP_REPORT_JSON_READ_H

#include <stddef.h>

#include "json_reader.h"
#include "jsonparse.h"
#include "fact.h"
#include "model.h"
#include "strbuf.h"

/* What the caller does with what is read, in the order the snapshot
 * holds it. */
struct snapshot_read_ops {
	/* An object of "incidents" (incident_json_read reads it).  A bad
	 * one is the caller's to count: the reading goes on. */
	void (*incident)(void *ctx, const struct jval *o);
	/* A count claimed out of bounds, by its key (taken as 0). */
	void (*bad_claim)(void *ctx, const char *key);
	/* What the scan says was read, as the model merges it (paths as
	 * the host names them; at most 1000 roots and problems and
	 * MODEL_LISTED skipped files are listed).  Its strings are the
	 * snapshot's (valid UTF-8, not sanitised), good for the call. */
	void (*scan)(void *ctx, const struct scan_part *sp);
	/* Optional (NULL: "leaks" are let be): each leak the host found by
	 * the aclFinalize statistics, as the FACT_STATISTICS fact it came
	 * from, for model_fact (the caller sets its host; its name is good
	 * for the call).  A leak of "calls" gives none: its creates and
	 * destroys are not in the snapshot.  "devices" are the host's view
	 * of what this side's model makes from the incidents and facts: not
	 * read. */
	void (*fact)(void *ctx, const struct fact *f);
	/* Optional (NULL: let be): each other leak object (its "from" not
	 * "statistics": a ledger of calls), as it is, for the caller to
	 * check and take (fleet_once.c). */
	void (*leak)(void *ctx, const struct jval *o);
};

struct snapshot_reader {
	struct json_reader rd;
	const struct snapshot_read_ops *ops;
	void *ctx;
	int schema, version, incidents, scan;	/* seen */
};

/* item_max: the longest value (a line of the snapshot as the writer puts
 * it: no line of it is longer). */
void snapshot_read_init(struct snapshot_reader *r, size_t item_max,
			const struct snapshot_read_ops *ops, void *ctx);
void snapshot_read_free(struct snapshot_reader *r);
/* The next n bytes; -1 once the snapshot is refused. */
int snapshot_read_feed(struct snapshot_reader *r, const char *buf, size_t n);
/* Whether any byte came. */
int snapshot_read_begun(const struct snapshot_reader *r);
/* 1 with why in why when the snapshot was refused, else 0. */
int snapshot_read_failed(const struct snapshot_reader *r, struct strbuf *why);
/* At the end of the output: 0 when the snapshot is whole, else -1 with
 * why in why. */
int snapshot_read_end(struct snapshot_reader *r, struct strbuf *why);

#endif
