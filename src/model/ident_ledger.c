/* The ledger of one resource of a process (ident.h): creates that did
 * not fail, destroys, held (never below zero), the trend of held by span
 * of log time, and the leak findings.  Counters only, never lines.
 *
 * Counting the calls (INFO lines):
 *  - streams and events: "start to execute aclrtCreateX" is a create
 *    (ACL writes no success line for them); a failed-create incident
 *    that follows (EE1023 whose API is the create) takes it back, once
 *    per attempt (the captured output's copy of the same failure is not
 *    a second one).  A
 *    success line, where one is seen with no start line at all, counts.
 *  - notifies: the start line is an attempt; "successfully execute
 *    aclrtCreateNotify" is the create.
 *  - a destroy with nothing held destroys what the ledger never saw
 *    created: counted in destroyed and in unmatched, held stays at zero,
 *    and the ledger is no longer complete.
 * The finalize statistics, once read, are the ledger: later calls do not
 * change it. */
#include "config.h"

#include <string.h>

#include "ident_int.h"
#include "xalloc.h"

#define SPAN_USEC ((long long)IDENT_SPAN_MS * 1000)

int ident_leaks(const struct ident *id)
{
	int n = 0;

	for (int r = 0; r < LEDGER_COUNT; r++)
		n += ident_ledger(id, r)->leak != LEAK_NO;
	return n;
}

/* What a ledger not yet counted in reads as. */
static const struct ledger no_ledger = { .warm_span = -1 };

struct ledger *ident_ledger_made(const struct ident *id, enum ledger_res r)
{
	return id->more ? id->more->ledger[r] : NULL;
}

const struct ledger *ident_ledger(const struct ident *id, enum ledger_res r)
{
	const struct ledger *l = ident_ledger_made(id, r);

	return l ? l : &no_ledger;
}

void ident_ledger_get(const struct ident *id, enum ledger_res r,
		      struct ledger *out)
{
	/* memcpy, not =: the padding too (views hash the bytes). */
	memcpy(out, ident_ledger(id, r), sizeof *out);
	if (!ident_ledger_made(id, r))
		out->failed = id->failed_only[r];
}

struct ledger *ident_ledger_mut(struct ident *id, enum ledger_res r)
{
	struct ledger *l = ident_ledger_made(id, r);

	if (!l) {
		l = xmalloc(sizeof *l);
		ident_ledger_get(id, r, l);
		ident_more_mut(id)->ledger[r] = l;
		id->failed_only[r] = 0;
	}
	return l;
}

void ident_ledger_failed(struct ident *id, enum ledger_res r, logtime_t t)
{
	/* Without a ledger nothing was counted to take back (no call line
	 * came): a count is all it keeps, until it would overflow. */
	if (!ident_ledger_made(id, r) && id->failed_only[r] < UINT32_MAX) {
		id->failed_only[r]++;
		return;
	}
	ledger_failed(id, ident_ledger_mut(id, r), r, t);
}

unsigned long long ledger_held(const struct ledger *l)
{
	unsigned long long d = l->destroyed >= l->unmatched
			       ? l->destroyed - l->unmatched : 0;

	return l->created > d ? l->created - d : 0;
}

int ident_has_finding(const struct ident *id)
{
	for (int r = 0; r < LEDGER_COUNT; r++)
		if (ident_ledger(id, r)->leak != LEAK_NO)
			return 1;
	return 0;
}

/* ---- the trend ---- */

/* Held rose in each of the last IDENT_LEAK_SPANS spans (the current one
 * counts when it rose already), and all of them came after the span in
 * which the warm-up ended. */
static int rising(const struct ledger *l)
{
	const int last = IDENT_TREND - 1;

	if (l->from != LEDGER_CALLS || l->warm_span < 0 ||
	    l->nspans <= IDENT_LEAK_SPANS ||
	    l->span - IDENT_LEAK_SPANS < l->warm_span)
		return 0;
	for (int i = 0; i < IDENT_LEAK_SPANS; i++)
		if (l->trend[last - i] <= l->trend[last - i - 1])
			return 0;
	return 1;
}

/* Into span s: the spans between held what the last one ended with. */
static void shift_to(struct ledger *l, long long s)
{
	const int last = IDENT_TREND - 1;
	unsigned long long ended = l->trend[last];
	long long k = s - l->span;

	if (k > IDENT_TREND)
		k = IDENT_TREND;
	memmove(l->trend, l->trend + k,
		(size_t)(IDENT_TREND - k) * sizeof *l->trend);
	for (int i = IDENT_TREND - (int)k; i < IDENT_TREND; i++)
		l->trend[i] = ended;
	l->nspans = l->nspans + k > IDENT_TREND ? IDENT_TREND
						: l->nspans + (unsigned)k;
	l->span = s;
	/* A span that ended without a rise ends the suspicion: it kept
	 * rising no longer. */
	if (l->leak == LEAK_RISING && l->trend[last - 1] <= l->trend[last - 2])
		l->leak = LEAK_NO;
}

static void note(struct ledger *l, logtime_t t)
{
	const int last = IDENT_TREND - 1;
	unsigned long long held = ledger_held(l);

	if (t != LOGTIME_UNKNOWN) {
		long long s = t / SPAN_USEC;
		if (l->warm_span < 0 && l->created >= IDENT_WARMUP)
			l->warm_span = s;
		if (!l->nspans) {
			l->nspans = 1;
			l->span = s;
		} else if (s > l->span) {
			shift_to(l, s);
		}
	} else if (!l->nspans) {
		l->nspans = 1;
	}
	l->trend[last] = held;
	if (rising(l))
		l->leak = LEAK_RISING;
}

/* ---- calls ---- */

/* The first call starts a ledger of calls: complete when the process's
 * device was set before it (ident.h). */
static int start(const struct ident *id, struct ledger *l)
{
	if (l->from == LEDGER_STATISTICS)
		return 0;
	if (l->from == LEDGER_NONE) {
		l->from = LEDGER_CALLS;
		l->complete = id->dev_seen;
	}
	return 1;
}

void ledger_create(struct ident *id, struct ledger *l, enum ledger_res r,
		   logtime_t t)
{
	if (!start(id, l))
		return;
	l->attempts++;
	if (r != LEDGER_NOTIFY)
		l->created++;
	note(l, t);
}

void ledger_created(struct ident *id, struct ledger *l, enum ledger_res r,
		    logtime_t t)
{
	if (!start(id, l))
		return;
	if (r != LEDGER_NOTIFY && l->attempts)
		return;	/* start lines are seen: they counted it */
	l->created++;
	if (r == LEDGER_NOTIFY && l->attempts < l->created)
		l->attempts = l->created;
	note(l, t);
}

void ledger_destroyed(struct ident *id, struct ledger *l, logtime_t t)
{
	if (!start(id, l))
		return;
	if (!ledger_held(l)) {
		l->unmatched++;
		l->complete = 0;
	}
	l->destroyed++;
	note(l, t);
}

void ledger_failed(struct ident *id, struct ledger *l, enum ledger_res r,
		   logtime_t t)
{
	(void)id;
	if (l->from == LEDGER_STATISTICS)
		return;
	if (l->from != LEDGER_CALLS) {
		l->failed++;
		return;	/* no call lines: nothing was counted to take back */
	}
	/* No attempt since the last failure: the same one told again. */
	if (l->attempts && l->attempts <= l->failed_at)
		return;
	l->failed_at = l->attempts;
	l->failed++;
	/* The attempt it failed was counted as a create. */
	if (r != LEDGER_NOTIFY && l->created && l->attempts >= l->failed)
		l->created--;
	note(l, t);
}

void ledger_statistics(struct ledger *l, enum ledger_res r,
		       const struct fact *f)
{
	l->from = LEDGER_STATISTICS;
	l->created = f->apply_succ;
	l->destroyed = f->release_succ;
	l->attempts = f->apply_total;
	l->failed = f->apply_total > f->apply_succ
		    ? f->apply_total - f->apply_succ : 0;
	l->unmatched = 0;
	l->complete = 1;
	l->leak = r != LEDGER_NOTIFY && f->apply_succ > f->release_succ
		  ? LEAK_ENDED : LEAK_NO;
	unsigned long long held = ledger_held(l);
	l->trend[IDENT_TREND - 1] = held;
	if (!l->nspans)
		l->nspans = 1;
}
