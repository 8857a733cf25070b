/* What the ledger of a process knows, in words, for every view that
 * says it (the text report's fix and Leaks:, the dashboard): one place
 * makes the sentences, translated, with plogtop's own numbers only (a
 * name from the logs goes through the sanitiser here). */
#ifndef PLOGTOP_LEDGER_TEXT_H
#define PLOGTOP_LEDGER_TEXT_H

#include "ident.h"
#include "incident.h"
#include "npusmi.h"
#include "strbuf.h"
#include "taxonomy.h"

/* "1,983": n with its thousands grouped. */
void ledger_count(struct strbuf *sb, unsigned long long n);

/* "1,983 streams": n of resource r, counted, translated. */
void ledger_counted(struct strbuf *sb, enum resource r, unsigned long long n);

/* For the fix of an incident of resource r by the process id (NULL: no
 * identity): "This process created 1,983 streams and destroyed 3 (the
 * aclFinalize statistics)." or, when the ledger knows nothing of r, how
 * to make it know.  Returns 1 when the ledger knew, 0 when it was empty,
 * -1 (nothing appended) for a resource no ledger keeps. */
int ledger_fix_sentence(struct strbuf *sb, const struct ident *id,
		    enum resource r);

/* A leak finding: "pid 200104 (python3) created 1,983 streams and
 * destroyed 3 (statistics)", and the rise or the end it was seen by. */
void leak_sentence(struct strbuf *sb, const struct ident *id,
		   enum ledger_res r);

/* The per-device limit of r that the fix uses: npu-smi's chip model when
 * known (the chip of id's NPU, else the one model every chip of the table
 * is), which wins over the stream_limit inferred from a stream id, and
 * says which it used.  Returns 0 (nothing appended) when neither is
 * known. */
int limit_sentence(struct strbuf *sb, const struct incident *inc,
		   const struct ident *id, const struct npu_table *npu);

/* A device's orphan (struct device_row): who it is, what it held there
 * when its log ended, and what to do: end it if it runs. */
void orphan_sentence(struct strbuf *sb, const struct device_row *d);

/* The chip name npu-smi gives for id's device (as above), or NULL. */
const char *ledger_chip(const struct ident *id, const struct npu_table *npu);

#endif
