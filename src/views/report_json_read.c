#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ident.h"
#include "incident_json.h"
#include "model.h"
#include "report.h"
#include "report_json_read.h"
#include "wire_limits.h"
#include "xalloc.h"

/* A count the snapshot claims: an integer from 0 to WIRE_CLAIM_MAX; any
 * other is refused (0) and said. */
static size_t claim(struct snapshot_reader *r, const struct jval *o,
		    const char *key)
{
	const struct jval *v = json_get(o, key);

	if (!v)
		return 0;
	if (v->type == J_NUMBER && v->is_int && v->integer >= 0 &&
	    (unsigned long long)v->integer <= WIRE_CLAIM_MAX)
		return (size_t)v->integer;
	r->ops->bad_claim(r->ctx, key);
	return 0;
}

/* A JSON array of the scan, or NULL. */
static const struct jval *array(const struct jval *scan, const char *key)
{
	const struct jval *v = json_get(scan, key);

	return v && v->type == J_ARRAY ? v : NULL;
}

/* The roots (at most 1000), each with the files claimed. */
static void read_roots(struct snapshot_reader *r, const struct jval *scan,
		       struct scan_part *sp, const char **roots,
		       size_t *files)
{
	const struct jval *v = array(scan, "roots");

	for (size_t i = 0; v && i < v->n && i < 1000; i++) {
		const char *path = json_get_str(&v->items[i], "path");
		if (!path)
			continue;
		files[sp->nroots] = claim(r, &v->items[i], "files");
		roots[sp->nroots++] = path;
	}
	sp->roots = roots;
	sp->root_files = files;
}

/* The problems (at most 1000) and skipped files (MODEL_LISTED) listed. */
static void read_lists(const struct jval *scan, struct scan_part *sp,
		       struct problem *pr, struct skipped *sk)
{
	const struct jval *v = array(scan, "problems");

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

/* The copies it did not count (MODEL_LISTED) listed. */
static void read_duplicates(const struct jval *scan, struct scan_part *sp,
			    struct duplicate *du)
{
	const struct jval *v = array(scan, "duplicates");

	for (size_t i = 0; v && i < v->n && i < MODEL_LISTED; i++) {
		const char *f = json_get_str(&v->items[i], "file");
		const char *k = json_get_str(&v->items[i], "kept_file");
		const struct jval *l = json_get(&v->items[i], "line");
		const struct jval *kl = json_get(&v->items[i], "kept_line");
		if (!f || !k)
			continue;
		du[sp->nduplicates++] = (struct duplicate){
			(char *)f,
			l && l->type == J_NUMBER && l->is_int && l->integer > 0
			? (unsigned long)l->integer : 0,
			(char *)k,
			kl && kl->type == J_NUMBER && kl->is_int &&
			kl->integer > 0 ? (unsigned long)kl->integer : 0,
		};
	}
	sp->duplicates = du;
}

static size_t items(const struct jval *scan, const char *key)
{
	const struct jval *v = array(scan, key);

	return v ? v->n + 1 : 1;
}

/* What the host read: its counts (each claim checked), roots, problems
 * and skipped files. */
static void read_scan(struct snapshot_reader *r, const struct jval *scan)
{
	struct scan_part sp = { .stats = { 0 } };
	const char **roots = xcalloc(items(scan, "roots"), sizeof *roots);
	size_t *files = xcalloc(items(scan, "roots"), sizeof *files);
	struct problem *pr = xcalloc(items(scan, "problems"), sizeof *pr);
	struct skipped *sk = xcalloc(items(scan, "skipped"), sizeof *sk);
	struct duplicate *du = xcalloc(items(scan, "duplicates"), sizeof *du);

	sp.stats.files = claim(r, scan, "files");
	sp.stats.lines = claim(r, scan, "lines");
	sp.stats.bytes = claim(r, scan, "bytes");
	sp.stats.truncated_lines = claim(r, scan, "truncated_lines");
	sp.filtered = claim(r, scan, "filtered");
	read_roots(r, scan, &sp, roots, files);
	read_lists(scan, &sp, pr, sk);
	sp.problems_total = claim(r, scan, "problems_total");
	sp.nskipped = claim(r, scan, "skipped_total");
	read_duplicates(scan, &sp, du);
	sp.duplicates_total = claim(r, scan, "duplicates_total");
	if (sp.duplicates_total < sp.nduplicates)
		sp.duplicates_total = sp.nduplicates;
	r->ops->scan(r->ctx, &sp);
	free(roots);
	free(files);
	free(pr);
	free(sk);
	free(du);
}

/* A leak of the statistics as its fact: hostile values are refused (said
 * as a bad claim of "leaks"), not taken. */
static void read_leak(struct snapshot_reader *r, const struct jval *o)
{
	const char *from = json_get_str(o, "from");
	const char *res = json_get_str(o, "resource");
	const char *name = json_get_str(o, "name");
	const struct jval *pid = json_get(o, "pid");
	const struct jval *c = json_get(o, "created");
	const struct jval *d = json_get(o, "destroyed");
	enum resource rr = res ? resource_from_name(res) : RES_NONE;

	if (!from || strcmp(from, "statistics") != 0) {
		if (from && r->ops->leak)
			r->ops->leak(r->ctx, o);
		return;
	}
	if (!name || strlen(name) > WIRE_STRING_MAX || !pid ||
	    (pid->type != J_NULL && (pid->type != J_NUMBER || !pid->is_int ||
				     pid->integer < 1)) ||
	    ledger_of_resource(rr) == LEDGER_COUNT || !c || !d ||
	    c->type != J_NUMBER || !c->is_int || c->integer < 0 ||
	    (unsigned long long)c->integer > WIRE_CLAIM_MAX ||
	    d->type != J_NUMBER || !d->is_int || d->integer < 0 ||
	    (unsigned long long)d->integer > WIRE_CLAIM_MAX) {
		r->ops->bad_claim(r->ctx, "leaks");
		return;
	}
	char *raw = wire_unsanitized(name);
	struct fact f = {
		.pid = pid->type == J_NULL ? 0 : (long)pid->integer,
		.name = raw, .time = LOGTIME_UNKNOWN, .kind = FACT_STATISTICS,
		.resource = rr, .device = FACT_UNSAID, .rank = FACT_UNSAID,
		.dp = FACT_UNSAID, .tp = FACT_UNSAID, .ep = FACT_UNSAID,
		.apply_total = (unsigned long long)c->integer,
		.apply_succ = (unsigned long long)c->integer,
		.release_total = (unsigned long long)d->integer,
		.release_succ = (unsigned long long)d->integer,
	};
	r->ops->fact(r->ctx, &f);
	free(raw);
}

/* One value of the snapshot, as it arrives.  The writer puts schema and
 * version first: an incident before them is not of a snapshot. */
static int on_item(void *ctx, const char *key, int in_array,
		   const struct jval *v, struct strbuf *err)
{
	struct snapshot_reader *r = ctx;

	if (strcmp(key, "schema") == 0) {
		if (v->type != J_STRING ||
		    strcmp(v->str, "plogtop.snapshot") != 0)
			goto not_report;
		r->schema = 1;
	} else if (strcmp(key, "schema_version") == 0) {
		if (v->type != J_NUMBER || !v->is_int)
			goto not_report;
		if (v->integer < 1 || v->integer > REPORT_SCHEMA_VERSION) {
			sb_addf(err, "plogtop there writes schema version "
				"%lld, this one reads 1 to %d", v->integer,
				REPORT_SCHEMA_VERSION);
			return -1;
		}
		r->version = 1;
	} else if (strcmp(key, "incidents") == 0) {
		if (!r->schema || !r->version)
			goto not_report;
		if (!in_array) {
			sb_adds(err, "protocol error: no incidents or scan");
			return -1;
		}
		r->incidents = 1;
		if (v)
			r->ops->incident(r->ctx, v);
	} else if (strcmp(key, "scan") == 0) {
		if (!r->schema || !r->version || in_array ||
		    v->type != J_OBJECT) {
			sb_adds(err, "protocol error: no incidents or scan");
			return -1;
		}
		r->scan = 1;
		read_scan(r, v);
	} else if (strcmp(key, "leaks") == 0 && in_array && v &&
		   v->type == J_OBJECT && r->schema && r->version &&
		   r->ops->fact) {
		read_leak(r, v);
	}
	return 0;
not_report:
	sb_adds(err, "protocol error: not a plogtop report");
	return -1;
}

void snapshot_read_init(struct snapshot_reader *r, size_t item_max,
			const struct snapshot_read_ops *ops, void *ctx)
{
	/* Every string within the wire's bound; values as many as a line
	 * of item_max bytes could hold. */
	struct json_limits lim = { WIRE_STRING_MAX, item_max / 4 };

	memset(r, 0, sizeof *r);
	r->ops = ops;
	r->ctx = ctx;
	json_reader_init(&r->rd, &lim, item_max, on_item, r);
}

void snapshot_read_free(struct snapshot_reader *r)
{
	json_reader_free(&r->rd);
}

int snapshot_read_feed(struct snapshot_reader *r, const char *buf, size_t n)
{
	return json_reader_feed(&r->rd, buf, n);
}

int snapshot_read_begun(const struct snapshot_reader *r)
{
	return r->rd.offset != 0;
}

int snapshot_read_failed(const struct snapshot_reader *r, struct strbuf *why)
{
	const struct strbuf *e = &r->rd.err;

	if (!e->len)
		return 0;
	/* What on_item said is said as it is; the parser's, which start
	 * with its offset, are protocol errors. */
	if (strncmp(e->buf, "offset ", 7) != 0)
		sb_adds(why, e->buf);
	else
		sb_addf(why, "protocol error: %s", e->buf);
	return 1;
}

int snapshot_read_end(struct snapshot_reader *r, struct strbuf *why)
{
	if (json_reader_end(&r->rd) < 0) {
		sb_addf(why, "protocol error: %s", r->rd.err.buf);
		return -1;
	}
	if (!r->schema || !r->version) {
		sb_adds(why, "protocol error: not a plogtop report");
		return -1;
	}
	if (!r->incidents || !r->scan) {
		sb_adds(why, "protocol error: no incidents or scan");
		return -1;
	}
	return 0;
}
