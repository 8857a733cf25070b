#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fileio.h"
#include "prom.h"
#include "sanitize.h"
#include "xalloc.h"

struct series {
	struct class_key k;
	const char *name;
	size_t n;
};

static int series_cmp(const void *a, const void *b)
{
	const struct series *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	if (x->k.code != y->k.code)
		return x->k.code < y->k.code ? -1 : 1;
	if (x->k.resource != y->k.resource)
		return x->k.resource < y->k.resource ? -1 : 1;
	return x->k.cause < y->k.cause ? -1 : x->k.cause > y->k.cause;
}

/* Processes of the same name add up: pids change with every job, and a
 * pid label would make a new series each time.  The model counts by
 * name as incidents come, so folded processes still count. */
static struct series *by_name(const struct model *m, size_t *count)
{
	struct series *v = NULL;
	size_t n = 0, cap = 0;

	for (size_t i = 0; i < m->nnames; i++) {
		const struct name_count *nc = m->names[i];
		for (size_t j = 0; j < nc->nclasses; j++) {
			if (n == cap) {
				cap = cap ? 2 * cap : 64;
				v = xrealloc(v, cap * sizeof *v);
			}
			v[n++] = (struct series){
				nc->classes[j].k, nc->name, nc->classes[j].n
			};
		}
	}
	if (n)
		qsort(v, n, sizeof *v, series_cmp);
	*count = n;
	return v;
}

/* A label value: sanitised, then escaped as the text format asks. */
static void label(struct strbuf *out, const char *value)
{
	struct strbuf clean = STRBUF_INIT;

	sanitize(&clean, value, strlen(value));
	for (size_t i = 0; i < clean.len; i++) {
		char c = clean.buf[i];
		if (c == '\\' || c == '"')
			sb_addc(out, '\\');
		sb_addc(out, c);
	}
	sb_free(&clean);
}

static void metric_head(struct strbuf *out, const char *name,
			const char *type, const char *help)
{
	sb_addf(out, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

void prom_render(struct strbuf *out, const struct model *m,
		 size_t files_watched, double now_seconds)
{
	size_t n;
	struct series *v = by_name(m, &n);

	metric_head(out, TAX_PROM_INCIDENTS, "counter",
		    "Failed runtime API calls (EE1023 resource exhaustion, "
		    "EE1001 invalid argument) found in plog logs.");
	for (size_t i = 0; i < n; i++) {
		sb_addf(out, TAX_PROM_INCIDENTS "{" TAX_KEY_CODE "=\"%s\","
			TAX_KEY_RESOURCE "=\"%s\"," TAX_KEY_CAUSE "=\"%s\","
			TAX_KEY_PROCESS "=\"", code_name(v[i].k.code),
			resource_name(v[i].k.resource), cause_name(v[i].k.cause));
		label(out, v[i].name);
		sb_addf(out, "\"} %zu\n", v[i].n);
	}
	free(v);
	metric_head(out, "plogtop_files_watched", "gauge",
		    "Log files plogtop is reading.");
	sb_addf(out, "plogtop_files_watched %zu\n", files_watched);
	metric_head(out, "plogtop_read_bytes_total", "counter",
		    "Bytes of log read.");
	/* Counters add what earlier runs counted (--state). */
	sb_addf(out, "plogtop_read_bytes_total %llu\n",
		m->base.bytes + m->stats.bytes);
	metric_head(out, "plogtop_read_lines_total", "counter",
		    "Lines of log read.");
	sb_addf(out, "plogtop_read_lines_total %llu\n",
		m->base.lines + (unsigned long long)m->stats.lines);
	/* A catastrophic user rule in a service that runs for months shows
	 * here, not only in a --once report. */
	metric_head(out, "plogtop_match_limit_hits_total", "counter",
		    "Rule matches PCRE2 gave up on at its match, depth or "
		    "heap limit (each counted as no match).");
	sb_addf(out, "plogtop_match_limit_hits_total %llu\n",
		m->base.match_limit_hits +
		(unsigned long long)m->stats.match_limit_hits);
	metric_head(out, "plogtop_unfinished_lines_total", "counter",
		    "Lines whose writer stopped mid-line for longer than "
		    "plogtop waits (30 s), taken as they stood.");
	sb_addf(out, "plogtop_unfinished_lines_total %llu\n",
		m->base.unfinished_lines +
		(unsigned long long)m->stats.unfinished_lines);
	metric_head(out, "plogtop_last_update_timestamp_seconds", "gauge",
		    "When plogtop last wrote this file (Unix time).");
	sb_addf(out, "plogtop_last_update_timestamp_seconds %.3f\n", now_seconds);
	/* The rules' baseline: what the first file of a counting holds is
	 * its history, whatever came after is new (plogtop.rules.yml). */
	metric_head(out, "plogtop_counted_since_timestamp_seconds", "gauge",
		    "When the incident counters started from nothing (Unix "
		    "time): a first start, or a state file set aside; kept "
		    "across restarts that resume from a state file.");
	sb_addf(out, "plogtop_counted_since_timestamp_seconds %.3f\n",
		m->counted_since);
}

int prom_write(const char *path, const struct model *m, size_t files_watched,
	       struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT;
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	prom_render(&text, m, files_watched,
		    (double)ts.tv_sec + (double)ts.tv_nsec / 1e9);
	int rc = write_file_atomic(path, text.buf, text.len, 0644, 0, err);
	sb_free(&text);
	return rc;
}
