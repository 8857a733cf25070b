#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ident_state.h"
#include "ident_view.h"
#include "incident_json.h"
#include "json.h"
#include "report.h"
#include "sanitize.h"
#include "stream.h"

/* ---- writing ---- */

/* The line and its newline, flushed. */
static int put_line(FILE *out, struct strbuf *sb)
{
	sb_addc(sb, '\n');
	int rc = fwrite(sb->buf, 1, sb->len, out) != sb->len ||
		 fflush(out) != 0 ? -1 : 0;
	sb_free(sb);
	return rc;
}

int stream_header(FILE *out, const char *version, const char *host)
{
	struct strbuf sb = STRBUF_INIT;

	sb_addf(&sb, "{\"schema\": \"plogtop.stream\", \"schema_version\": "
		"%d, ", REPORT_SCHEMA_VERSION);
	json_member(&sb, "tool_version", version);
	sb_adds(&sb, ", ");
	json_member(&sb, "host", host);
	/* It honours --resume and writes cursor lines (doc/json-schema.md, "The --follow stream"). */
	sb_adds(&sb, ", \"resume\": true}");
	return put_line(out, &sb);
}

/* A value of a text line, sanitised; quoted when empty or when it holds
 * a space, a quote or '=' (so that key=value pairs split back). */
static void put_value(struct strbuf *sb, const char *v)
{
	struct strbuf clean = STRBUF_INIT;

	sanitize(&clean, v, strlen(v));
	if (!clean.len || strpbrk(clean.buf, " \"=")) {
		sb_addc(sb, '"');
		for (size_t i = 0; i < clean.len; i++) {
			if (clean.buf[i] == '"' || clean.buf[i] == '\\')
				sb_addc(sb, '\\');
			sb_addc(sb, clean.buf[i]);
		}
		sb_addc(sb, '"');
	} else {
		sb_add(sb, clean.buf, clean.len);
	}
	sb_free(&clean);
}

/* The order of a text line (plogtop(1), --format): time, pid, name,
 * code, resource, cause, then "dev N" and "rank N" when known, the
 * reported code when it differs, the fields. */
static void line_of(struct strbuf *sb, const struct incident *inc)
{
	char iso[LOGTIME_ISO_LEN];
	enum ident_from from;
	long v;

	logtime_iso(inc->first, iso);
	sb_adds(sb, *iso ? iso : "-");
	if (inc->pid)
		sb_addf(sb, " %ld ", inc->pid);
	else
		sb_adds(sb, " - ");
	put_value(sb, *inc->name ? inc->name : "-");
	sb_addf(sb, " %s %s %s", code_name(inc->code),
		resource_name(inc->resource), cause_name(inc->cause));
	if (view_incident_device(inc, &v, &from))
		sb_addf(sb, " dev %ld", v);
	if (view_incident_rank(inc, &v, &from))
		sb_addf(sb, " rank %ld", v);
	if (inc->reported_code &&
	    strcmp(inc->reported_code, code_name(inc->code)) != 0) {
		sb_adds(sb, " reported=");
		put_value(sb, inc->reported_code);
	}
	for (size_t i = 0; i < inc->nfields; i++) {
		sb_addc(sb, ' ');
		sb_adds(sb, inc->fields[i].key);
		sb_addc(sb, '=');
		put_value(sb, inc->fields[i].value);
	}
}

/* Under a locale whose charset is not UTF-8, every byte >= 0x80 is
 * spelt out, as in the --once text report: one may be a C1 control on an
 * 8-bit terminal (0x9b is CSI there). */
static void text_line(struct strbuf *sb, const struct incident *inc)
{
	struct strbuf line = STRBUF_INIT;

	line_of(&line, inc);
	clean_for(sb, line.buf, line.len, CLEAN_LOCALE | CLEAN_DONE);
	sb_free(&line);
}

int stream_incident(FILE *out, const struct incident *inc,
		    const struct stream_opts *so)
{
	struct strbuf sb = STRBUF_INIT;

	if (so->ndjson) {
		/* host: null for this machine's own input, as in the
		 * snapshot (the --hello header names this machine). */
		incident_json_opt(&sb, inc, so->cat, NULL, so->no_fix
				  ? INCIDENT_JSON_NO_FIX : 0);
	} else {
		if (so->with_host) {
			put_value(&sb, inc->host ? inc->host : "-");
			sb_addc(&sb, ' ');
		}
		text_line(&sb, inc);
	}
	return put_line(out, &sb);
}

int stream_cursor(FILE *out, const char *cursor, size_t len, int partial,
		  int settled, const struct stream_read *rd)
{
	struct strbuf sb = STRBUF_INIT;

	sb_adds(&sb, "{\"type\": \"cursor\", \"cursor\": ");
	sb_add(&sb, cursor, len);
	if (partial)
		sb_adds(&sb, ", \"partial\": true");
	if (settled)
		sb_adds(&sb, ", \"settled\": true");
	if (rd)
		sb_addf(&sb, ", \"read\": {\"files\": %zu, \"lines\": %llu, "
			"\"bytes\": %llu}", rd->files, rd->lines, rd->bytes);
	sb_addc(&sb, '}');
	return put_line(out, &sb);
}

struct stream_sent_one {
	size_t seq;
	long pid;
	uint64_t sum;
};

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 1099511628211ULL;
	return h;
}

/* What an identity line says of it, summed up: a change shows. */
static uint64_t ident_sum(const struct ident *id)
{
	uint64_t h = 14695981039346656037ULL;
	long v[] = { id->device, id->rank, id->local_rank, id->world_size,
		     id->dp, id->tp, id->ep, id->phys, (long)id->phys_from,
		     (long)id->ndevices, id->dev_seen };

	h = fnv(h, v, sizeof v);
	/* Its devices and their counts, member by member (a record's
	 * padding says nothing). */
	for (size_t i = 0; id->dev && i < id->ndevices; i++) {
		const struct ident_dev *d = &id->dev[i];
		h = fnv(h, &d->device, sizeof d->device);
		h = fnv(h, &d->n, sizeof d->n);
		h = fnv(h, d->by_resource, sizeof d->by_resource);
		h = fnv(h, &d->last, sizeof d->last);
	}
	for (int r = 0; r < LEDGER_COUNT; r++) {
		struct ledger l;
		ident_ledger_get(id, (enum ledger_res)r, &l);
		h = fnv(h, &l, sizeof l);
	}
	h = fnv(h, &id->first, sizeof id->first);
	h = fnv(h, &id->last, sizeof id->last);
	if (id->job)
		h = fnv(h, id->job, strlen(id->job));
	return h;
}

int stream_identities(FILE *out, const struct model *m,
		      struct stream_sent *sent)
{
	const struct ident *const *v;
	size_t n = model_idents(m, &v), k = 0, j = 0;
	struct stream_sent_one *now = calloc(n ? n : 1, sizeof *now);
	int rc = 0;

	if (!now)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (v[i]->host)
			continue;	/* a host's: not this one's to say */
		uint64_t sum = ident_sum(v[i]);
		/* Both lists are in the order of seq. */
		while (j < sent->n && sent->v[j].seq < v[i]->seq)
			j++;
		int same = j < sent->n && sent->v[j].seq == v[i]->seq &&
			   sent->v[j].pid == v[i]->pid &&
			   sent->v[j].sum == sum;
		now[k++] = (struct stream_sent_one){ v[i]->seq, v[i]->pid, sum };
		if (same || rc < 0)
			continue;
		struct strbuf sb = STRBUF_INIT;
		sb_adds(&sb, "{\"type\": \"identity\", \"identity\": ");
		ident_state_write(&sb, v[i], 0);
		sb_addc(&sb, '}');
		rc = put_line(out, &sb);
	}
	free(sent->v);
	sent->v = now;
	sent->n = k;
	return rc;
}

void stream_sent_free(struct stream_sent *sent)
{
	free(sent->v);
	sent->v = NULL;
	sent->n = 0;
}

/* ---- reading a host's stream ---- */

static int is_true(const struct jval *v)
{
	return v && v->type == J_BOOL && v->boolean;
}

int stream_header_read(const struct jval *v, int *resumes,
		       struct strbuf *why)
{
	const struct jval *ver = json_get(v, "schema_version");
	const char *schema = json_get_str(v, "schema");

	if (!schema || strcmp(schema, "plogtop.stream") != 0 || !ver ||
	    !ver->is_int) {
		sb_adds(why, "protocol error: no stream header (is "
			"--remote-command a plogtop?)");
		return -1;
	}
	/* Version 3 differs from 4 only in what incident_json_read takes
	 * both of (fields as strings, no UTC offsets). */
	if (ver->integer < REPORT_SCHEMA_STREAM_OLDEST ||
	    ver->integer > REPORT_SCHEMA_VERSION) {
		sb_addf(why, "plogtop there writes stream version %lld, this "
			"one reads %d to %d: install the same version there",
			ver->integer, REPORT_SCHEMA_STREAM_OLDEST,
			REPORT_SCHEMA_VERSION);
		return -1;
	}
	*resumes = is_true(json_get(v, "resume"));
	return 0;
}

/* A count of "read": a whole number from 0 up (hostile input). */
static int count_of(const struct jval *o, const char *key,
		    unsigned long long *out)
{
	const struct jval *n = json_get(o, key);

	if (!n || n->type != J_NUMBER || !n->is_int || n->integer < 0)
		return 0;
	*out = (unsigned long long)n->integer;
	return 1;
}

static int read_counts(const struct jval *o, struct stream_read *rd)
{
	unsigned long long files;

	memset(rd, 0, sizeof *rd);
	if (!o || o->type != J_OBJECT || !count_of(o, "files", &files) ||
	    !count_of(o, "lines", &rd->lines) ||
	    !count_of(o, "bytes", &rd->bytes) || files > SIZE_MAX)
		return 0;
	rd->files = (size_t)files;
	return 1;
}

int stream_cursor_read(const struct jval *v, struct stream_cursor_line *c)
{
	const char *type = json_get_str(v, "type");
	const struct jval *cursor = json_get(v, "cursor");

	if (!type || strcmp(type, "cursor") != 0)
		return 0;
	c->cursor = cursor && cursor->type == J_OBJECT ? cursor : NULL;
	c->partial = is_true(json_get(v, "partial"));
	c->settled = is_true(json_get(v, "settled"));
	c->has_read = read_counts(json_get(v, "read"), &c->read);
	return 1;
}

int stream_identity_read(const struct jval *v, const struct jval **ident)
{
	const char *type = json_get_str(v, "type");
	const struct jval *id = json_get(v, "identity");

	if (!type || strcmp(type, "identity") != 0)
		return 0;
	*ident = id && id->type == J_OBJECT ? id : NULL;
	return 1;
}
