#include "config.h"

#include <string.h>

#include "model.h"
#include "report.h"
#include "report_json_read.h"
#include "wire_limits.h"

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

static void read_roots(struct snapshot_reader *r, const struct jval *scan)
{
	const struct jval *v = json_get(scan, "roots");

	if (!v || v->type != J_ARRAY)
		return;
	for (size_t i = 0; i < v->n && i < 1000; i++) {
		const char *path = json_get_str(&v->items[i], "path");
		if (!path)
			continue;
		size_t files = claim(r, &v->items[i], "files");
		r->ops->root(r->ctx, path, files);
	}
}

/* The problems listed; returns how many. */
static size_t read_problems(struct snapshot_reader *r,
			    const struct jval *scan)
{
	const struct jval *v = json_get(scan, "problems");
	size_t n = 0;

	if (!v || v->type != J_ARRAY)
		return 0;
	for (size_t i = 0; i < v->n && i < 1000; i++) {
		const char *path = json_get_str(&v->items[i], "path");
		const char *e = json_get_str(&v->items[i], "error");
		if (!path || !e)
			continue;
		r->ops->problem(r->ctx, path, e);
		n++;
	}
	return n;
}

static size_t read_skipped(struct snapshot_reader *r,
			   const struct jval *scan)
{
	const struct jval *v = json_get(scan, "skipped");
	size_t n = 0;

	if (!v || v->type != J_ARRAY)
		return 0;
	for (size_t i = 0; i < v->n && i < MODEL_LISTED; i++) {
		const char *path = json_get_str(&v->items[i], "path");
		if (!path)
			continue;
		r->ops->skipped(r->ctx, path);
		n++;
	}
	return n;
}

/* What the host read: its counts, roots, problems and skipped files. */
static void read_scan(struct snapshot_reader *r, const struct jval *scan)
{
	struct snapshot_counts c;

	c.files = claim(r, scan, "files");
	c.lines = claim(r, scan, "lines");
	c.bytes = claim(r, scan, "bytes");
	c.truncated_lines = claim(r, scan, "truncated_lines");
	c.filtered = claim(r, scan, "filtered");
	r->ops->counts(r->ctx, &c);
	read_roots(r, scan);
	size_t nproblems = read_problems(r, scan);
	size_t problems = claim(r, scan, "problems_total");
	size_t listed = read_skipped(r, scan);
	size_t skipped = claim(r, scan, "skipped_total");
	r->ops->unlisted(r->ctx, problems > nproblems ? problems - nproblems
						      : 0,
			 skipped > listed ? skipped - listed : 0);
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
