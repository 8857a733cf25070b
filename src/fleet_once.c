/* --once over hosts: each host's plogtop --once --format=json report,
 * read as it streams (json_reader: one incident at a time, so memory
 * does not grow with the report's bytes) and merged into the one model:
 * its incidents with their host, what it read, its problems.  What a
 * host claims it read is checked (wire_limits.h): a count beyond the
 * bounds is refused with a problem, and sums over hosts saturate. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "fleet_int.h"
#include "i18n.h"
#include "follow.h"
#include "json_reader.h"
#include "jsonparse.h"
#include "sanitize.h"
#include "wire_limits.h"
#include "xalloc.h"
#include "report.h"

/* The largest value of a report read whole: its scan (problems and
 * skipped files are listed at most MODEL_LISTED each), one line of the
 * report as the writer puts it, and no line is longer. */
#define ONCE_ITEM_MAX REMOTE_LINE_MAX

struct fleet_once {
	struct json_reader rd;
	struct fleet *fl;
	struct fleet_host *fh;
	int schema, version, incidents, scan;	/* seen */
	size_t refused;
	struct strbuf refusal;			/* the first one's why */
};

static size_t sat_add(size_t a, size_t b)
{
	return a > SIZE_MAX - b ? SIZE_MAX : a + b;
}

static void host_path(struct strbuf *sb, const char *host, const char *path)
{
	sb_reset(sb);
	sb_addf(sb, "%s:%s", host, path);
}

/* A count the host claims: an integer from 0 to WIRE_CLAIM_MAX; any
 * other is refused (0) with a problem of the host's. */
static size_t claim(struct fleet *fl, struct fleet_host *fh,
		    const struct jval *o, const char *key)
{
	const struct jval *v = json_get(o, key);

	if (!v)
		return 0;
	if (v->type == J_NUMBER && v->is_int && v->integer >= 0 &&
	    (unsigned long long)v->integer <= WIRE_CLAIM_MAX)
		return (size_t)v->integer;
	struct strbuf p = STRBUF_INIT;
	sb_addf(&p, "%s:", fh->mh->name);
	model_problem(fl->m, p.buf, "its report claims a count of %s that "
		      "is not an integer from 0 to %llu: not counted", key,
		      WIRE_CLAIM_MAX);
	sb_free(&p);
	fh->mh->bad_claims++;
	return 0;
}

/* What the host read: its roots, counts, problems and skipped files,
 * named HOST:PATH. */
static void take_scan(struct fleet *fl, struct fleet_host *fh,
		      const struct jval *scan)
{
	struct model *m = fl->m;
	struct model_host *mh = fh->mh;
	const struct jval *v;
	struct strbuf p = STRBUF_INIT;

	mh->files = claim(fl, fh, scan, "files");
	mh->lines = claim(fl, fh, scan, "lines");
	mh->bytes = claim(fl, fh, scan, "bytes");
	m->stats.files = sat_add(m->stats.files, mh->files);
	m->stats.lines = sat_add(m->stats.lines, mh->lines);
	m->stats.bytes = sat_add(m->stats.bytes, mh->bytes);
	m->stats.truncated_lines = sat_add(m->stats.truncated_lines,
					   claim(fl, fh, scan,
						 "truncated_lines"));
	m->filtered = sat_add(m->filtered, claim(fl, fh, scan, "filtered"));
	if ((v = json_get(scan, "roots")) && v->type == J_ARRAY) {
		for (size_t i = 0; i < v->n && i < 1000; i++) {
			const char *path = json_get_str(&v->items[i], "path");
			if (!path)
				continue;
			size_t files = claim(fl, fh, &v->items[i], "files");
			host_path(&p, mh->name, path);
			model_add_root(m, p.buf);
			m->root_files[m->nroots - 1] = files;
			if (!files && fh->npaths) {
				/* As a local PATH that gave nothing. */
				struct strbuf c = STRBUF_INIT;
				sb_addf(&c, _("%s: nothing readable there"),
					p.buf);
				msglog_add(fl->o.log, c.buf);
				sb_free(&c);
				mh->empty_roots++;
			}
		}
	}
	size_t nproblems = 0;
	if ((v = json_get(scan, "problems")) && v->type == J_ARRAY) {
		for (size_t i = 0; i < v->n && i < 1000; i++) {
			const char *path = json_get_str(&v->items[i], "path");
			const char *e = json_get_str(&v->items[i], "error");
			if (!path || !e)
				continue;
			host_path(&p, mh->name, path);
			model_problem(m, p.buf, "%s", e);
			nproblems++;
		}
	}
	size_t problems = claim(fl, fh, scan, "problems_total");
	if (problems > nproblems)
		m->problems_total = sat_add(m->problems_total,
					    problems - nproblems);
	size_t listed = 0;
	if ((v = json_get(scan, "skipped")) && v->type == J_ARRAY) {
		for (size_t i = 0; i < v->n && i < MODEL_LISTED; i++) {
			const char *path = json_get_str(&v->items[i], "path");
			if (!path)
				continue;
			host_path(&p, mh->name, path);
			model_skip(m, p.buf, "skipped there (its own report "
				   "says why)");
			listed++;
		}
	}
	size_t total = claim(fl, fh, scan, "skipped_total");
	if (total > listed)
		m->nskipped = sat_add(m->nskipped, total - listed);
	sb_free(&p);
}

/* One value of the report, as it arrives.  The writer puts schema and
 * version first: an incident before them is not of a report. */
static int on_item(void *ctx, const char *key, int in_array,
		   const struct jval *v, struct strbuf *err)
{
	struct fleet_once *fo = ctx;

	if (strcmp(key, "schema") == 0) {
		if (v->type != J_STRING ||
		    strcmp(v->str, "plogtop.snapshot") != 0)
			goto not_report;
		fo->schema = 1;
	} else if (strcmp(key, "schema_version") == 0) {
		if (v->type != J_NUMBER || !v->is_int)
			goto not_report;
		if (v->integer < 1 || v->integer > REPORT_SCHEMA_VERSION) {
			sb_addf(err, "plogtop there writes schema version "
				"%lld, this one reads 1 to %d", v->integer,
				REPORT_SCHEMA_VERSION);
			return -1;
		}
		fo->version = 1;
	} else if (strcmp(key, "incidents") == 0) {
		if (!fo->schema || !fo->version)
			goto not_report;
		if (!in_array) {
			sb_adds(err, "protocol error: no incidents or scan");
			return -1;
		}
		fo->incidents = 1;
		struct strbuf e = STRBUF_INIT;
		if (v && fleet_take_incident(fo->fl, fo->fh, v, &e) < 0 &&
		    !fo->refused++)
			sb_addf(&fo->refusal, "%s", e.buf);
		sb_free(&e);
	} else if (strcmp(key, "scan") == 0) {
		if (!fo->schema || !fo->version || in_array ||
		    v->type != J_OBJECT) {
			sb_adds(err, "protocol error: no incidents or scan");
			return -1;
		}
		fo->scan = 1;
		take_scan(fo->fl, fo->fh, v);
	}
	return 0;
not_report:
	sb_adds(err, "protocol error: not a plogtop report");
	return -1;
}

void fleet_once_begin(struct fleet *fl, struct fleet_host *fh)
{
	static const struct json_limits lim = { WIRE_STRING_MAX,
						ONCE_ITEM_MAX / 4 };
	struct fleet_once *fo = fh->once;

	if (fo) {
		json_reader_free(&fo->rd);
		sb_free(&fo->refusal);
	} else {
		fo = fh->once = xmalloc(sizeof *fo);
	}
	memset(fo, 0, sizeof *fo);
	fo->fl = fl;
	fo->fh = fh;
	json_reader_init(&fo->rd, &lim, ONCE_ITEM_MAX, on_item, fo);
}

int fleet_once_line(struct fleet_host *fh, const char *line, size_t len)
{
	struct fleet_once *fo = fh->once;

	if (json_reader_feed(&fo->rd, line, len) < 0 ||
	    json_reader_feed(&fo->rd, "\n", 1) < 0)
		return -1;
	return 0;
}

void fleet_once_free(struct fleet_host *fh)
{
	if (!fh->once)
		return;
	json_reader_free(&fh->once->rd);
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

	if (fo->rd.err.len && strncmp(fo->rd.err.buf, "offset ", 7) != 0) {
		sb_adds(why, fo->rd.err.buf);	/* said by on_item */
	} else if (fo->rd.err.len) {
		sb_addf(why, "protocol error: %s", fo->rd.err.buf);
	} else if (fh->r.dropped) {
		sb_addf(why, "protocol error: a line of its report over %u "
			"MiB", REMOTE_LINE_MAX >> 20);
	} else if (fo->rd.offset == 0 || code < 0 || code > 2) {
		remote_reason(&fh->r, why);
	} else if (json_reader_end(&fo->rd) < 0) {
		sb_addf(why, "protocol error: %s", fo->rd.err.buf);
	} else if (!fo->schema || !fo->version) {
		sb_adds(why, "protocol error: not a plogtop report");
	} else if (!fo->incidents || !fo->scan) {
		sb_adds(why, "protocol error: no incidents or scan");
	}
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
