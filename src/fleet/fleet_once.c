/* --once over hosts: each host's plogtop --once --format=json report,
 * read as it streams (report_json_read.h: one incident at a time, so
 * memory does not grow with the report's bytes) and merged into the one
 * model: its incidents with their host, what it read, its problems.  A
 * count the host claims beyond the bounds (wire_limits.h) is refused
 * with a problem, and sums over hosts saturate. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "fleet_int.h"
#include "i18n.h"
#include "ident.h"
#include "jsonparse.h"
#include "report_json_read.h"
#include "sanitize.h"
#include "wire_limits.h"
#include "xalloc.h"
#include "report.h"

/* The largest value of a report read whole: its scan (problems and
 * skipped files are listed at most MODEL_LISTED each), one line of the
 * report as the writer puts it, and no line is longer. */
#define ONCE_ITEM_MAX REMOTE_LINE_MAX

struct fleet_once {
	struct snapshot_reader rd;
	struct fleet *fl;
	struct fleet_host *fh;
	size_t refused;
	struct strbuf refusal;			/* the first one's why */
};

static void host_path(struct strbuf *sb, const char *host, const char *path)
{
	sb_reset(sb);
	sb_addf(sb, "%s:%s", host, path);
}

static void on_incident(void *ctx, const struct jval *o)
{
	struct fleet_once *fo = ctx;
	struct strbuf e = STRBUF_INIT;

	if (fleet_add_incident(fo->fl->m, fo->fh->mh->name, o, &e) < 0 &&
	    !fo->refused++)
		sb_addf(&fo->refusal, "%s", e.buf);
	sb_free(&e);
}

/* A count the host claims out of bounds: a problem of the host's. */
static void on_bad_claim(void *ctx, const char *key)
{
	struct fleet_once *fo = ctx;
	struct strbuf p = STRBUF_INIT;

	sb_addf(&p, "%s:", fo->fh->mh->name);
	model_problem(fo->fl->m, p.buf, "its report claims a count of %s that "
		      "is not an integer from 0 to %llu: not counted", key,
		      WIRE_CLAIM_MAX);
	sb_free(&p);
	fo->fh->mh->bad_claims++;
}

/* What the host read, merged as a reading thread's is (HOST:PATH); a
 * PATH named there that gave nothing is said as a local one. */
static void on_scan(void *ctx, const struct scan_part *sp)
{
	struct fleet_once *fo = ctx;
	struct fleet_host *fh = fo->fh;
	struct model_host *mh = fh->mh;
	struct strbuf p = STRBUF_INIT;

	mh->files = sp->stats.files;
	mh->lines = sp->stats.lines;
	mh->bytes = sp->stats.bytes;
	for (size_t i = 0; i < sp->nroots; i++) {
		if (sp->root_files[i] || !fh->npaths)
			continue;
		/* As a local PATH that gave nothing: the same whole text. */
		host_path(&p, mh->name, sp->roots[i]);
		struct strbuf c = STRBUF_INIT, msg = STRBUF_INIT;
		clean_for(&c, p.buf, p.len, CLEAN_LOCALE);
		sb_addf(&msg, _("plogtop: %s: nothing readable there\n"),
			c.buf);
		msglog_usage(msg.buf);
		sb_free(&c);
		sb_free(&msg);
		mh->empty_roots++;
	}
	sb_free(&p);
	model_merge_scan(fo->fl->m, sp, mh->name);
}

/* A leak the host found by the statistics: its fact, this side's model
 * keeps the ledger (report_json_read.h). */
static void on_fact(void *ctx, const struct fact *f)
{
	struct fleet_once *fo = ctx;
	struct fact g = *f;

	g.host = fo->fh->mh->name;
	model_fact(fo->fl->m, &g);
}

/* A rising leak the host found from the calls: its ledger. */
static void on_leak(void *ctx, const struct jval *o)
{
	struct fleet_once *fo = ctx;

	if (fleet_once_leak(fo->fl, fo->fh, o) < 0)
		on_bad_claim(ctx, "leaks");
}

static const struct snapshot_read_ops read_ops = {
	on_incident, on_bad_claim, on_scan, on_fact, on_leak,
};

void fleet_once_begin(struct fleet *fl, struct fleet_host *fh)
{
	struct fleet_once *fo = fh->once;

	if (fo) {
		snapshot_read_free(&fo->rd);
		sb_free(&fo->refusal);
	} else {
		fo = fh->once = xmalloc(sizeof *fo);
	}
	memset(fo, 0, sizeof *fo);
	fo->fl = fl;
	fo->fh = fh;
	snapshot_read_init(&fo->rd, ONCE_ITEM_MAX, &read_ops, fo);
}

int fleet_once_line(struct fleet_host *fh, const char *line, size_t len)
{
	struct fleet_once *fo = fh->once;

	if (snapshot_read_feed(&fo->rd, line, len) < 0 ||
	    snapshot_read_feed(&fo->rd, "\n", 1) < 0)
		return -1;
	return 0;
}

void fleet_once_free(struct fleet_host *fh)
{
	if (!fh->once)
		return;
	snapshot_read_free(&fh->once->rd);
	sb_free(&fh->once->refusal);
	free(fh->once);
	fh->once = NULL;
}

/* The refused incidents, said once for the host. */
static void say_refused(struct fleet *fl, struct fleet_host *fh)
{
	struct fleet_once *fo = fh->once;
	struct strbuf p = STRBUF_INIT;

	fh->mh->dropped += fo->refused;
	sb_addf(&p, "%s:", fh->mh->name);
	model_problem(fl->m, p.buf, "%zu incident%s refused: %s",
		      fo->refused, fo->refused == 1 ? "" : "s",
		      sb_str(&fo->refusal));
	sb_free(&p);
}

/* Why the report read is not whole, or "" (why is empty). */
static void report_problem(struct fleet_host *fh, int code,
			   struct strbuf *why)
{
	struct fleet_once *fo = fh->once;

	if (snapshot_read_failed(&fo->rd, why))
		return;
	if (fh->r.dropped)
		sb_addf(why, "protocol error: a line of its report over %u "
			"MiB", REMOTE_LINE_MAX >> 20);
	else if (!snapshot_read_begun(&fo->rd) || code < 0 || code > 2)
		remote_reason(&fh->r, why);
	else
		snapshot_read_end(&fo->rd, why);
}

/* A host whose plogtop ended with exit 2 before any report because what
 * it was to read is not there: not down (it answered), but "no logs
 * yet" for its default root (its plogtop's hint, in every language of
 * its catalogue, ends with "plogtop PATH"), or, for a PATH named there
 * ("plogtop: PATH: why", the prefix untranslated), trouble as a local
 * PATH missing is: a typo must not read as a clean host.  A job that has
 * not started yet is waited for by --follow.  Returns the note for the
 * host, or NULL when it is down. */
static const char *missing_root(struct fleet_host *fh, int code)
{
	const char *e = remote_lasterr(&fh->r);
	size_t n = strlen(e);
	static const char hint[] = "plogtop PATH";

	if (code != 2 || fh->r.dropped || snapshot_read_begun(&fh->once->rd))
		return NULL;
	if (!fh->npaths)
		return n >= sizeof hint - 1 &&
		       strcmp(e + n - (sizeof hint - 1), hint) == 0
		       ? N_("no logs yet") : NULL;
	for (size_t i = 0; i < fh->npaths; i++) {
		size_t k = strlen(fh->paths[i]);
		if (strncmp(e, "plogtop: ", 9) == 0 &&
		    strncmp(e + 9, fh->paths[i], k) == 0 &&
		    strncmp(e + 9 + k, ": ", 2) == 0) {
			fh->mh->trouble = 1;
			return e + 9;
		}
	}
	return NULL;
}

/* A PATH named on a host that is not there, said as a local one is:
 * "plogtop: HOST:PATH: why". */
static void say_missing(const char *host, const char *what)
{
	struct strbuf p = STRBUF_INIT, c = STRBUF_INIT;

	sb_addf(&p, "%s:%s", host, what);
	clean_for(&c, p.buf, p.len, CLEAN_LOCALE);
	sb_reset(&p);
	sb_addf(&p, "plogtop: %s\n", c.buf);
	msglog_usage(p.buf);
	sb_free(&c);
	sb_free(&p);
}

int fleet_once_finished(struct fleet *fl, struct fleet_host *fh,
			struct strbuf *why)
{
	int st = fh->r.status;
	int code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	struct fleet_once *fo = fh->once;

	/* 0 clean, 1 incidents, 2 with a report: a PATH there gave
	 * nothing readable (its report says so).  The incidents read
	 * before a report broke stay counted; the host is down. */
	report_problem(fh, code, why);
	if (fo->refused)
		say_refused(fl, fh);
	const char *missing = missing_root(fh, code);
	if (why->len && missing) {
		sb_reset(why);
		if (fh->mh->trouble)
			say_missing(fh->mh->name, missing);
		model_host_set(fl->m, fh->mh, HOST_DONE, missing);
		fl->gen++;
	} else if (!why->len) {
		/* The local rule: a PATH named there that gave nothing is
		 * trouble; the default root with no logs yet is not. */
		const char *note = NULL;
		if (fh->npaths && (code == 2 || fh->mh->empty_roots))
			fh->mh->trouble = 1;
		else if (!fh->npaths && !fh->mh->files)
			note = N_("no logs yet");
		if (fo->refused || fh->mh->bad_claims)
			fh->mh->trouble = 1;
		model_host_set(fl->m, fh->mh, HOST_DONE, note);
		fl->gen++;
		if (code == 2 && *remote_lasterr(&fh->r)) {
			struct strbuf p = STRBUF_INIT;
			sb_addf(&p, "%s:", fh->mh->name);
			model_problem(fl->m, p.buf, "%s",
				      remote_lasterr(&fh->r));
			sb_free(&p);
		}
	}
	fleet_once_free(fh);
	return why->len ? -1 : 0;
}

void fleet_once_broken(struct fleet *fl, struct fleet_host *fh,
		       struct strbuf *why)
{
	report_problem(fh, 0, why);
	if (fh->once->refused)
		say_refused(fl, fh);
	fleet_once_free(fh);
}
