/* --once over hosts: each host's plogtop --once --format=json report,
 * read as it streams (json_reader: one incident at a time, so memory
 * does not grow with the report's bytes) and merged into the one model:
 * its incidents with their host, what it read, its problems.  What a
 * host claims it read is checked (wire_limits.h): a count beyond the
 * bounds is refused with a problem, and sums over hosts saturate. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "fleet_int.h"
#include "i18n.h"
#include "json_reader.h"
#include "jsonparse.h"
#include "remote_incident.h"
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

/* A JSON array of the scan, or NULL. */
static const struct jval *array(const struct jval *scan, const char *key)
{
	const struct jval *v = json_get(scan, key);

	return v && v->type == J_ARRAY ? v : NULL;
}

/* The host's roots (at most 1000), each with the files it claims; a
 * PATH named there that gave nothing is said as a local one. */
static void scan_roots(struct fleet *fl, struct fleet_host *fh,
		       const struct jval *scan, struct scan_part *sp)
{
	const struct jval *v = array(scan, "roots");
	const char **roots = xcalloc(v ? v->n + 1 : 1, sizeof *roots);
	size_t *files = xcalloc(v ? v->n + 1 : 1, sizeof *files);
	struct strbuf p = STRBUF_INIT;

	for (size_t i = 0; v && i < v->n && i < 1000; i++) {
		const char *path = json_get_str(&v->items[i], "path");
		if (!path)
			continue;
		files[sp->nroots] = claim(fl, fh, &v->items[i], "files");
		roots[sp->nroots] = path;
		if (!files[sp->nroots++] && fh->npaths) {
			/* As a local PATH that gave nothing: the same text. */
			host_path(&p, fh->mh->name, path);
			struct strbuf c = STRBUF_INIT, msg = STRBUF_INIT;
			clean_for(&c, p.buf, p.len, CLEAN_LOCALE);
			sb_addf(&msg, _("plogtop: %s: nothing readable "
					"there\n"), c.buf);
			msglog_usage(msg.buf);
			sb_free(&c);
			sb_free(&msg);
			fh->mh->empty_roots++;
		}
	}
	sp->roots = roots;
	sp->root_files = files;
	sb_free(&p);
}

/* The problems (at most 1000) and skipped files (at most MODEL_LISTED)
 * the host lists, by the paths it names. */
static void scan_lists(const struct jval *scan, struct scan_part *sp)
{
	const struct jval *v = array(scan, "problems");
	struct problem *pr = xcalloc(v ? v->n + 1 : 1, sizeof *pr);

	for (size_t i = 0; v && i < v->n && i < 1000; i++) {
		const char *path = json_get_str(&v->items[i], "path");
		const char *e = json_get_str(&v->items[i], "error");
		if (path && e)
			pr[sp->nproblems++] = (struct problem){
				(char *)path, (char *)e
			};
	}
	sp->problems = pr;
	v = array(scan, "skipped");
	struct skipped *sk = xcalloc(v ? v->n + 1 : 1, sizeof *sk);
	for (size_t i = 0; v && i < v->n && i < MODEL_LISTED; i++) {
		const char *path = json_get_str(&v->items[i], "path");
		if (path)
			sk[sp->nskipped_listed++] = (struct skipped){
				(char *)path,
				"skipped there (its own report says why)"
			};
	}
	sp->skipped = sk;
}

/* What the host read: its counts, roots, problems and skipped files,
 * each count checked, merged as a reading thread's are (HOST:PATH). */
static void take_scan(struct fleet *fl, struct fleet_host *fh,
		      const struct jval *scan)
{
	struct model_host *mh = fh->mh;
	struct scan_part sp = { .stats = { 0 } };

	sp.stats.files = mh->files = claim(fl, fh, scan, "files");
	sp.stats.lines = mh->lines = claim(fl, fh, scan, "lines");
	sp.stats.bytes = mh->bytes = claim(fl, fh, scan, "bytes");
	sp.stats.truncated_lines = claim(fl, fh, scan, "truncated_lines");
	sp.filtered = claim(fl, fh, scan, "filtered");
	scan_roots(fl, fh, scan, &sp);
	scan_lists(scan, &sp);
	sp.problems_total = claim(fl, fh, scan, "problems_total");
	sp.nskipped = claim(fl, fh, scan, "skipped_total");
	model_merge_scan(fl->m, &sp, mh->name);
	free((void *)sp.roots);
	free((void *)sp.root_files);
	free((void *)sp.problems);
	free((void *)sp.skipped);
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
		if (v && fleet_add_incident(fo->fl->m, fo->fh->mh->name, v,
					       &e) < 0 &&
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
	if (!why->len) {
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
