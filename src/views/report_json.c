#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ident_json.h"
#include "ident_view.h"
#include "incident_json.h"
#include "json.h"
#include "report.h"
#include "taxonomy.h"
#include "wire_limits.h"

/* A string of the wire's, as an incident names it (incident_json.h). */
static void kv_wire(struct strbuf *sb, const char *key, const char *value)
{
	json_member_max(sb, key, value, WIRE_STRING_MAX);
}

static void scan_part(struct strbuf *sb, const struct model *m)
{
	sb_addf(sb, "  \"scan\": {\"files\": %zu, \"bytes\": %llu, "
		"\"lines\": %zu, \"seconds\": %.3f, \"truncated_lines\": %zu, "
		"\"unfinished_lines\": %zu, "
		"\"match_limit_hits\": %lu, \"since\": ", m->stats.files,
		m->stats.bytes, m->stats.lines, m->stats.seconds,
		m->stats.truncated_lines, m->stats.unfinished_lines,
		m->stats.match_limit_hits);
	json_time(sb, m->since);
	sb_addf(sb, ", \"filtered\": %zu, \"problems_total\": %zu, "
		"\"problems\": [", m->filtered, m->problems_total);
	for (size_t i = 0; i < m->nproblems; i++) {
		sb_adds(sb, i ? ", {" : "{");
		json_member(sb, "path", m->problems[i].path);
		sb_adds(sb, ", ");
		json_member(sb, "error", m->problems[i].error);
		sb_adds(sb, "}");
	}
	sb_addf(sb, "], \"skipped_total\": %zu, \"skipped\": [", m->nskipped);
	for (size_t i = 0; i < m->nskipped_listed; i++) {
		sb_adds(sb, i ? ", {" : "{");
		json_member(sb, "path", m->skipped[i].path);
		sb_adds(sb, ", ");
		json_member(sb, "reason", m->skipped[i].why);
		sb_adds(sb, "}");
	}
	sb_addf(sb, "], \"duplicates_total\": %zu, \"duplicates\": [",
		m->duplicates_total);
	for (size_t i = 0; i < m->nduplicates; i++) {
		const struct duplicate *d = &m->duplicates[i];
		sb_adds(sb, i ? ", {" : "{");
		json_member(sb, "file", d->file);
		sb_addf(sb, ", \"line\": %lu, ", d->line);
		json_member(sb, "kept_file", d->kept_file);
		sb_addf(sb, ", \"kept_line\": %lu}", d->kept_line);
	}
	sb_adds(sb, "], \"roots\": [");
	for (size_t i = 0; i < m->nroots; i++) {
		sb_adds(sb, i ? ", {" : "{");
		json_member(sb, "path", m->roots[i]);
		sb_addf(sb, ", \"files\": %zu}", m->root_files[i]);
	}
	sb_adds(sb, "]},\n");
}

static void process_part(struct strbuf *sb, const struct process *p,
			 const struct ident *id)
{
	sb_adds(sb, "    {");
	if (p->host)
		json_member(sb, "host", p->host->name);
	else
		sb_adds(sb, "\"host\": null");
	sb_adds(sb, ", \"pid\": ");
	json_id(sb, p->pid);
	sb_adds(sb, ", ");
	kv_wire(sb, "name", p->name);	/* as its incidents name it */
	sb_adds(sb, ", \"first_seen\": ");
	json_time(sb, p->first);
	sb_adds(sb, ", \"last_seen\": ");
	json_time(sb, p->last);
	sb_addf(sb, ", \"incidents\": %zu, \"counts\": [",
		process_total(p));
	for (size_t i = 0; i < p->nclasses; i++) {
		const struct class_count *c = &p->classes[i];
		sb_addf(sb, "%s{\"" TAX_KEY_CODE "\": \"%s\", \""
			TAX_KEY_RESOURCE "\": \"%s\", \"" TAX_KEY_CAUSE
			"\": \"%s\", \"incidents\": %zu}",
			i ? ", " : "", code_name(c->k.code),
			resource_name(c->k.resource), cause_name(c->k.cause),
			c->n);
	}
	sb_adds(sb, "]");
	ident_json_process(sb, id);
	sb_adds(sb, "}");
}

/* Who else is on each device, and what leaked (schema 3). */
static void devices_part(struct strbuf *sb, const struct model *m)
{
	struct device_row *rows;
	size_t n = model_devices(m, &rows);
	const struct ident *const *ids;
	size_t nids = model_idents(m, &ids);

	sb_adds(sb, ",\n");
	ident_json_devices(sb, rows, n, m->idents.npu);
	model_devices_free(rows, n);
	sb_adds(sb, ",\n");
	ident_json_leaks(sb, ids, nids);
	sb_adds(sb, "\n}\n");
}

/* Each host of a fleet: its state and counts. */
static void hosts_part(struct strbuf *sb, const struct model *m)
{
	sb_adds(sb, "  \"hosts\": [");
	for (size_t i = 0; i < m->nhosts; i++) {
		const struct model_host *h = m->hosts[i];
		sb_adds(sb, i ? ",\n    {" : "\n    {");
		json_member(sb, "host", h->name);
		sb_adds(sb, ", ");
		json_member(sb, "status", host_state_name(h->state));
		sb_adds(sb, ", ");
		if (h->reason)
			json_member(sb, "reason", h->reason);
		else
			sb_adds(sb, "\"reason\": null");
		/* A host named by a local file's path: where, and by which
		 * rule (doc/json-schema.md). */
		sb_adds(sb, ", ");
		if (h->origin) {
			json_member(sb, "from", "path");
			sb_adds(sb, ", ");
			json_member(sb, "path", h->origin);
			sb_adds(sb, ", ");
			json_member(sb, "rule", h->rule);
		} else {
			sb_adds(sb, "\"from\": null, \"path\": null, "
				"\"rule\": null");
		}
		sb_addf(sb, ", \"incidents\": %zu, \"processes\": %zu, "
			"\"files\": %zu, \"attempts\": %u}", h->n, h->nprocs,
			h->files, h->attempts);
	}
	sb_adds(sb, m->nhosts ? "\n  ],\n" : "],\n");
}

/* Writes what the buffer holds; returns -1 on a write error.  One line
 * (ndjson's summary): without the line breaks, which JSON text holds
 * only between tokens (a string's are "\n"). */
static int flush_to(struct strbuf *sb, FILE *out, int one_line)
{
	if (one_line) {
		size_t k = 0;
		for (size_t i = 0; i < sb->len; i++)
			if (sb->buf[i] != '\n')
				sb->buf[k++] = sb->buf[i];
		sb->len = k;
	}
	size_t w = sb->len ? fwrite(sb->buf, 1, sb->len, out) : 0;
	int rc = w == sb->len ? 0 : -1;

	sb_reset(sb);
	return rc;
}

/* What the snapshot starts with, known before anything is read. */
static void head_part(struct strbuf *sb, const struct report_opts *o)
{
	char now[32];
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(now, sizeof now, "%Y-%m-%dT%H:%M:%SZ", &tm);
	/* --once --format=ndjson: the summary line says it is one. */
	sb_adds(sb, o->ndjson ? "{\"type\": \"summary\", " : "{\n  ");
	sb_adds(sb, "\"schema\": \"plogtop.snapshot\",\n"
		"  \"schema_version\": ");
	sb_addf(sb, "%d,\n  ", REPORT_SCHEMA_VERSION);
	json_member(sb, "tool_version", o->version);
	sb_adds(sb, ",\n  ");
	json_member(sb, "host", o->host);
	if (o->state_file) {
		/* What the report covers and what the counters do. */
		time_t since = (time_t)o->counted_since;
		char iso[32];
		gmtime_r(&since, &tm);
		strftime(iso, sizeof iso, "%Y-%m-%dT%H:%M:%SZ", &tm);
		sb_adds(sb, ",\n  \"state\": {");
		json_member(sb, "file", o->state_file);
		sb_addf(sb, ", \"report_covers\": \"read this run\", "
			"\"counters_cover\": \"counted since\", "
			"\"counted_since\": \"%s\"}", iso);
	}
	sb_addf(sb, ",\n  \"generated_at\": \"%s\"%s", now,
		o->ndjson ? "" : ",\n  \"incidents\": [");
}

void snapshot_begin(struct snapshot *s, FILE *f, const struct report_opts *o)
{
	struct strbuf head = STRBUF_INIT;

	memset(s, 0, sizeof *s);
	s->f = f;
	s->cat = o->cat;
	s->no_fix = o->no_fix;
	s->ndjson = o->ndjson;
	head_part(&head, o);
	s->head = sb_detach(&head);
}

void snapshot_free(struct snapshot *s)
{
	free(s->head);
	s->head = NULL;
}

/* The head goes out with the first incident (or the snapshot's end), so
 * that a run that fails before reading writes nothing. */
static void put_head(struct snapshot *s)
{
	if (!s->head || s->ndjson)	/* ndjson: the summary's */
		return;
	if (fputs(s->head, s->f) < 0 && !s->err)
		s->err = errno ? errno : EIO;
	snapshot_free(s);
}

void snapshot_render(void *snapshot, struct strbuf *sb,
		     const struct incident *inc)
{
	const struct snapshot *s = snapshot;

	/* No host for local input (doc/json-schema.md, Conventions). */
	incident_json_opt(sb, inc, s->cat, NULL,
			  s->no_fix ? INCIDENT_JSON_NO_FIX : 0);
}

void snapshot_add_rendered(void *snapshot, const char *json, size_t len)
{
	struct snapshot *s = snapshot;
	const char *sep = s->n ? ",\n    " : "\n    ";

	put_head(s);
	/* ndjson: each incident a line (the object has no line break). */
	int bad = !s->ndjson && fputs(sep, s->f) < 0;
	bad = bad || fwrite(json, 1, len, s->f) != len ||
	      (s->ndjson && fputc('\n', s->f) == EOF);
	if (bad && !s->err)
		s->err = errno ? errno : EIO;
	s->n++;
}

void snapshot_on_incident(void *snapshot, const struct incident *inc)
{
	struct snapshot *s = snapshot;
	struct strbuf sb = STRBUF_INIT;

	/* Not counted: left out by --since. */
	if (!inc->proc)
		return;
	snapshot_render(s, &sb, inc);
	snapshot_add_rendered(s, sb.buf, sb.len);
	sb_free(&sb);
}

/* The incidents came first, as they were found; what needs all of them
 * counted follows. */
int snapshot_end(struct snapshot *s, const struct model *m)
{
	struct strbuf sb = STRBUF_INIT;
	FILE *out = s->f;

	put_head(s);
	int rc = s->err ? -1 : 0;
	if (s->ndjson) {
		sb_adds(&sb, s->head);
		sb_addf(&sb, ", \"incidents_total\": %zu,\n  \"roots\": [",
			s->n);
	} else {
		sb_adds(&sb, s->n ? "\n  ],\n  \"roots\": ["
				  : "],\n  \"roots\": [");
	}
	for (size_t i = 0; i < m->nroots; i++) {
		if (i)
			sb_adds(&sb, ", ");
		json_cstring(&sb, m->roots[i]);
	}
	sb_adds(&sb, "],\n");
	scan_part(&sb, m);
	hosts_part(&sb, m);
	sb_addf(&sb, "  \"status\": \"%s\",\n  \"processes\": [",
		m->n ? "incidents" : m->stats.files ? "clean" : "nothing_read");
	struct ident_map im;
	ident_map_init(&im, m);
	for (size_t i = 0; i < m->nprocs && rc == 0; i++) {
		sb_adds(&sb, i ? ",\n" : "\n");
		process_part(&sb, m->procs[i], ident_map_get(&im, m->procs[i]));
		if (sb.len > 65536)
			rc = flush_to(&sb, out, s->ndjson);
	}
	ident_map_free(&im);
	sb_adds(&sb, m->nprocs ? "\n  ]" : "]");
	devices_part(&sb, m);
	if (rc == 0)
		rc = flush_to(&sb, out, s->ndjson);
	if (rc == 0 && s->ndjson && fputc('\n', out) == EOF)
		rc = -1;
	sb_free(&sb);
	return rc;
}

int report_json(const struct model *m, const struct report_opts *o, FILE *out)
{
	struct snapshot s;

	snapshot_begin(&s, out, o);
	int rc = snapshot_end(&s, m);
	snapshot_free(&s);
	return rc;
}
