/* One identity whole, as JSON: what a state file's "identities" section
 * keeps of each (plogtop(1), --state) and what a --hello stream's
 * identity line carries (doc/json-schema.md, "The --follow stream").
 * Unlike the report's process object (ident_json.h), it holds what the
 * model needs to go on counting: the ledgers' trend, span, warm-up and
 * leak, the per-device counts.
 *
 *   {"host": "H" | null, "pid": N, "name": "...", "device": N | null,
 *    "devices": [N, ...], "dev": [{"n": N, "last": T, "by": {"stream": N}}],
 *    "rank": N | null, "local_rank", "world_size", "dp", "tp", "ep",
 *    "job": "..." | null, "first": T, "last": T, "dev_seen": bool,
 *    "npu": N | null, "npu_from": "environ" | "npu-smi" | null,
 *    "ledger": {"stream": {"from": "calls", "created": N, "destroyed": N,
 *       "attempts": N, "failed": N, "failed_at": N, "unmatched": N,
 *       "complete": bool, "leak": "rising" | "ended" | null,
 *       "trend": [N x IDENT_TREND], "span": N, "nspans": N,
 *       "warm_span": N}, ...}}
 *
 * T: the log time in microseconds (0: not known).  Every value is
 * checked as it is read: a file or a stream another process wrote is
 * hostile input like any log. */
#ifndef PLOGTOP_IDENT_STATE_H
#define PLOGTOP_IDENT_STATE_H

#include "ident.h"
#include "jsonparse.h"
#include "model.h"
#include "strbuf.h"

/* The bytes of a name or job kept (longer: refused). */
#define IDENT_STATE_STRING_MAX 4096

/* with_host 0: "host": null (a host's own identities, as it sends them
 * and is given them back). */
void ident_state_write(struct strbuf *sb, const struct ident *id,
		       int with_host);

/* Reads one into out (zeroed first; its name, job and dev are owned:
 * ident_state_clear frees them); *host: the host's name in v, or NULL.
 * Returns 0, or -1 with why. */
int ident_state_read(const struct jval *v, struct ident *out,
		     const char **host, struct strbuf *why);
void ident_state_clear(struct ident *id);

/* "\"identities\": [...]": every identity of the model (at most
 * IDENT_MAX: the model keeps no more). */
void ident_state_section(struct strbuf *sb, const struct model *m);
/* Checks a section (NULL: none) whole, then gives each to the model
 * (model_ident_restore).  Returns 0, or -1 with why (m untouched). */
int ident_state_restore(struct model *m, const struct jval *arr,
			struct strbuf *why);

#endif
