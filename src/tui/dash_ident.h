/* Who a process was and what it holds, in the dashboard's words
 * (dash_ident.c): the detail's identity and ledger lines, the ledger's
 * sentence in an EE1023 fix, and their pieces the device view shares. */
#ifndef PLOGTOP_DASH_IDENT_H
#define PLOGTOP_DASH_IDENT_H

#include <stddef.h>

#include "dash_int.h"

/* v with thousands grouped: "1,983". */
void group_digits(char *buf, size_t n, unsigned long long v);
/* The ledger knows something of some resource. */
int ident_has_ledger(const struct ident *id);
/* "rank 3 of 8, local rank 3, dp 0, tp 5", or that it is not known. */
void rank_text(const struct ident *id, struct strbuf *sb);
/* The detail's line on id: device, NPU and its evidence, rank, job;
 * nothing when neither a device nor a rank is known (id NULL too). */
void ident_lines(const struct tui *t, const struct ident *id,
		 struct strbuf *out);
/* The ledger per resource (created, destroyed, held, from, complete,
 * trend, leak); nothing when it is empty (the fix says how to fill it). */
void ledger_lines(const struct ident *id, struct strbuf *out);
/* The ledger's sentence for inc's fix (no newline); 0 when inc is not
 * an EE1023 on a resource a ledger keeps (nothing appended).  The views'
 * sentence (src/views/) replaces it once it lands. */
int ledger_sentence(const struct ident *id, const struct incident *inc,
		    struct strbuf *out);

#endif
