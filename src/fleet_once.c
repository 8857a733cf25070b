/* --once over hosts: each host's plogtop --once --format=json report,
 * read as it streams (report_json_read.h: one incident at a time, so
 * memory does not grow with the report's bytes) and merged into the one
 * model: its incidents with their host, what it read, its problems.  A
 * count the host claims beyond the bounds (wire_limits.h) is refused
 * with a problem, and sums over hosts saturate. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "fleet_int.h"
#include "i18n.h"
#include "follow.h"
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

static size_t sat_add(size_t a, size_t b)
{
	return a > SIZE_MAX - b ? SIZE_MAX : a + b;
}

/* A path of the host's, named HOST:PATH. */
static void host_path(struct strbuf *sb, const char *host, const char *path)
{
	sb_reset(sb);
	sb_addf(sb, "%s:%s", host, path);
}

static void on_incident(void *ctx, const struct jval *o)
{
	struct fleet_once *fo = ctx;
	struct strbuf e = STRBUF_INIT;

	if (fleet_take_incident(fo->fl, fo->fh, o, &e) < 0 && !fo->refused++)
		sb_addf(&fo->refusal, "%s", e.buf);
	sb_free(&e);
}

/* A count refused: a problem of the host's. */
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

static void on_counts(void *ctx, const struct snapshot_counts *c)
{
	struct fleet_once *fo = ctx;
	struct model *m = fo->fl->m;
	struct model_host *mh = fo->fh->mh;

	mh->files = c->files;
	mh->lines = c->lines;
	mh->bytes = c->bytes;
	m->stats.files = sat_add(m->stats.files, mh->files);
	m->stats.lines = sat_add(m->stats.lines, mh->lines);
	m->stats.bytes = sat_add(m->stats.bytes, mh->bytes);
	m->stats.truncated_lines = sat_add(m->stats.truncated_lines,
					   c->truncated_lines);
	m->filtered = sat_add(m->filtered, c->filtered);
}

static void on_root(void *ctx, const char *path, size_t files)
{
	struct fleet_once *fo = ctx;
	struct model *m = fo->fl->m;
	struct strbuf p = STRBUF_INIT;

	host_path(&p, fo->fh->mh->name, path);
	model_add_root(m, p.buf);
	m->root_files[m->nroots - 1] = files;
	if (!files && fo->fh->npaths) {
		/* As a local PATH that gave nothing. */
		struct strbuf c = STRBUF_INIT;
		sb_addf(&c, _("%s: nothing readable there"), p.buf);
		msglog_add(fo->fl->o.log, c.buf);
		sb_free(&c);
		fo->fh->mh->empty_roots++;
	}
	sb_free(&p);
}

static void on_problem(void *ctx, const char *path, const char *error)
{
	struct fleet_once *fo = ctx;
	struct strbuf p = STRBUF_INIT;

	host_path(&p, fo->fh->mh->name, path);
	model_problem(fo->fl->m, p.buf, "%s", error);
	sb_free(&p);
}

static void on_skipped(void *ctx, const char *path)
{
	struct fleet_once *fo = ctx;
	struct strbuf p = STRBUF_INIT;

	host_path(&p, fo->fh->mh->name, path);
	model_skip(fo->fl->m, p.buf, "skipped there (its own report says "
		   "why)");
	sb_free(&p);
}

static void on_unlisted(void *ctx, size_t problems, size_t skipped)
{
	struct fleet_once *fo = ctx;
	struct model *m = fo->fl->m;

	m->problems_total = sat_add(m->problems_total, problems);
	m->nskipped = sat_add(m->nskipped, skipped);
}

static const struct snapshot_read_ops read_ops = {
	on_incident, on_bad_claim, on_counts, on_root, on_problem,
	on_skipped, on_unlisted,
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

void fleet_once_finished(struct fleet *fl, struct fleet_host *fh,
			 unsigned long long now)
{
	int st = fh->r.status;
	int code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	struct fleet_once *fo = fh->once;
	struct strbuf why = STRBUF_INIT;

	/* 0 clean, 1 incidents, 2 with a report: a PATH there gave
	 * nothing readable (its report says so).  The incidents read
	 * before a report broke stay counted; the host is down. */
	report_problem(fh, code, &why);
	if (fo->refused)
		say_refused(fl, fh);
	if (!why.len) {
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
	if (why.len)
		fleet_host_down(fl, fh, why.buf, now);
	sb_free(&why);
}

void fleet_once_broken(struct fleet *fl, struct fleet_host *fh,
		       struct strbuf *why)
{
	report_problem(fh, 0, why);
	if (fh->once->refused)
		say_refused(fl, fh);
	fleet_once_free(fh);
}

size_t fleet_run_once(struct fleet *fl)
{
	fleet_start(fl, monotonic_ms());
	size_t np = fleet_npoll(fl);
	struct pollfd *p = xcalloc(np ? np : 1, sizeof *p);

	while (!fleet_done(fl)) {
		size_t n = fleet_pollfds(fl, p, np);
		int rc = poll(p, n, fleet_timeout(fl, monotonic_ms()));
		if (rc < 0)
			memset(p, 0, n * sizeof *p);
		fleet_handle(fl, p, rc > 0 ? n : 0, monotonic_ms());
	}
	free(p);
	size_t bad = model_hosts_in(fl->m, HOST_DOWN);
	for (size_t i = 0; i < fl->n; i++)
		bad += fl->h[i].mh->state == HOST_DONE && fl->h[i].mh->trouble;
	return bad;
}
