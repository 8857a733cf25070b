/* --once over hosts: each host's plogtop --once --format=json report,
 * read whole (at most FLEET_DOC_MAX) and merged into the one model: its
 * incidents with their host, what it read, its problems. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "fleet_int.h"
#include "follow.h"
#include "jsonparse.h"
#include "remote_incident.h"
#include "xalloc.h"
#include "report.h"

static size_t count_of(const struct jval *o, const char *key)
{
	const struct jval *v = json_get(o, key);

	return v && v->type == J_NUMBER && v->is_int && v->integer >= 0
	       ? (size_t)v->integer : 0;
}

static void host_path(struct strbuf *sb, const char *host, const char *path)
{
	sb_reset(sb);
	sb_addf(sb, "%s:%s", host, path);
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

	mh->files = count_of(scan, "files");
	mh->lines = count_of(scan, "lines");
	mh->bytes = count_of(scan, "bytes");
	m->stats.files += mh->files;
	m->stats.lines += mh->lines;
	m->stats.bytes += mh->bytes;
	m->stats.truncated_lines += count_of(scan, "truncated_lines");
	m->filtered += count_of(scan, "filtered");
	if ((v = json_get(scan, "roots")) && v->type == J_ARRAY) {
		for (size_t i = 0; i < v->n && i < 1000; i++) {
			const char *path = json_get_str(&v->items[i], "path");
			if (!path)
				continue;
			host_path(&p, mh->name, path);
			model_add_root(m, p.buf);
			m->root_files[m->nroots - 1] =
				count_of(&v->items[i], "files");
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
	size_t problems = count_of(scan, "problems_total");
	if (problems > nproblems)
		m->problems_total += problems - nproblems;
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
	size_t total = count_of(scan, "skipped_total");
	if (total > listed)
		m->nskipped += total - listed;
	sb_free(&p);
}

/* Returns -1 with why when the document is not a report plogtop reads. */
static int take_report(struct fleet *fl, struct fleet_host *fh,
		       const struct jval *doc, struct strbuf *why)
{
	const char *schema = json_get_str(doc, "schema");
	const struct jval *ver = json_get(doc, "schema_version");
	const struct jval *incs = json_get(doc, "incidents");
	const struct jval *scan = json_get(doc, "scan");

	if (!schema || strcmp(schema, "plogtop.snapshot") != 0 || !ver ||
	    !ver->is_int) {
		sb_adds(why, "protocol error: not a plogtop report");
		return -1;
	}
	if (ver->integer < 1 || ver->integer > REPORT_SCHEMA_VERSION) {
		sb_addf(why, "plogtop there writes schema version %lld, this "
			"one reads 1 to %d", ver->integer, REPORT_SCHEMA_VERSION);
		return -1;
	}
	if (!incs || incs->type != J_ARRAY || !scan || scan->type != J_OBJECT) {
		sb_adds(why, "protocol error: no incidents or scan");
		return -1;
	}
	take_scan(fl, fh, scan);
	size_t refused = 0;
	struct strbuf err = STRBUF_INIT;
	for (size_t i = 0; i < incs->n; i++) {
		struct strbuf e = STRBUF_INIT;
		if (fleet_take_incident(fl, fh, &incs->items[i], &e) < 0) {
			if (!refused++)
				sb_addf(&err, "%s", e.buf);
		}
		sb_free(&e);
	}
	if (refused) {
		fh->mh->dropped += refused;
		struct strbuf p = STRBUF_INIT;
		sb_addf(&p, "%s:", fh->mh->name);
		model_problem(fl->m, p.buf, "%zu incident%s refused: %s",
			      refused, refused == 1 ? "" : "s", err.buf);
		sb_free(&p);
	}
	sb_free(&err);
	return 0;
}

void fleet_once_finished(struct fleet *fl, struct fleet_host *fh,
			 unsigned long long now)
{
	const struct json_limits lim = { 65536, FLEET_DOC_MAX / 2 };
	int st = fh->r.status;
	int code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	struct strbuf why = STRBUF_INIT, err = STRBUF_INIT;
	struct jval doc;

	/* 0 clean, 1 incidents, 2 with a report: a PATH there gave
	 * nothing readable (its report says so). */
	if ((code < 0 || code > 2) || fh->doc.len == 0) {
		remote_reason(&fh->r, &why);
	} else if (json_parse(fh->doc.buf, fh->doc.len, &lim, &doc, &err) < 0) {
		sb_addf(&why, "protocol error: %s", err.buf);
	} else {
		if (take_report(fl, fh, &doc, &why) == 0) {
			model_host_set(fl->m, fh->mh, HOST_DONE, NULL);
			fl->gen++;
			if (code == 2 && *remote_lasterr(&fh->r)) {
				struct strbuf p = STRBUF_INIT;
				sb_addf(&p, "%s:", fh->mh->name);
				model_problem(fl->m, p.buf, "%s",
					      remote_lasterr(&fh->r));
				sb_free(&p);
			}
		}
		jval_free(&doc);
	}
	sb_free(&fh->doc);
	if (why.len)
		fleet_host_down(fl, fh, why.buf, now);
	sb_free(&why);
	sb_free(&err);
}

size_t fleet_run_once(struct fleet *fl)
{
	size_t np = fleet_npoll(fl);
	struct pollfd *p = xcalloc(np ? np : 1, sizeof *p);

	fleet_start(fl, monotonic_ms());
	while (!fleet_done(fl)) {
		size_t n = fleet_pollfds(fl, p, np);
		int rc = poll(p, n, fleet_timeout(fl, monotonic_ms()));
		if (rc < 0)
			memset(p, 0, n * sizeof *p);
		fleet_handle(fl, p, rc > 0 ? n : 0, monotonic_ms());
	}
	free(p);
	return model_hosts_in(fl->m, HOST_DOWN);
}
