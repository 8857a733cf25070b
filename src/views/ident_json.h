/* Who each process was, as the JSON snapshot says it (schema 3,
 * doc/json-schema.md): a process's device, devices, rank, job, NPU and
 * ledger; the top-level "devices" and "leaks".  Each writer takes what
 * it shows as arguments (the model's answers), so that a test can give
 * them by hand. */
#ifndef PLOGTOP_IDENT_JSON_H
#define PLOGTOP_IDENT_JSON_H

#include <stddef.h>

#include "ident.h"
#include "strbuf.h"

/* The most pids a device's "processes" lists (the rest are counted in
 * "processes_total"), so that an item stays within the wire's bound. */
#define IDENT_JSON_PIDS 1000

/* The members of a process object after its counts: ", \"device\": ...";
 * id NULL writes them null (nothing known). */
void ident_json_process(struct strbuf *sb, const struct ident *id);
/* "ledger": {...} of the resources the logs told ({} when none). */
void ident_json_ledger(struct strbuf *sb, const struct ident *id);
/* "  \"devices\": [...]" (no comma after); npu: npu-smi's table for the
 * local host, or NULL. */
void ident_json_devices(struct strbuf *sb, const struct device_row *v,
			size_t n, const struct npu_table *npu);
/* "  \"leaks\": [...]", one per identity and resource with a leak. */
void ident_json_leaks(struct strbuf *sb, const struct ident *const *v,
		      size_t n);
/* "ended" (statistics), "rising" (calls), or NULL. */
const char *leak_kind_name(enum leak_kind k);

#endif
