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
#include "ident.h"
#include "ident_view.h"
#include "prom.h"
#include "sanitize.h"
#include "xalloc.h"

/* ---- the counts ---- */

static int key_eq(const struct hnode *n, const void *key)
{
	const struct prom_count *c = (const struct prom_count *)n;
	const struct prom_key *k = key;

	if (!c->host != !k->host || (c->host && strcmp(c->host, k->host)))
		return 0;
	return c->device == k->device && c->npu == k->npu &&
	       strcmp(c->name, k->name) == 0;
}

static size_t key_hash(const struct prom_key *k)
{
	size_t h = htab_hash_str(k->name, k->host ? htab_hash_str(k->host, 3)
						  : 1);

	return h * 31 + (size_t)(k->device + 1) * 7919 + (size_t)(k->npu + 1);
}

/* A name per pid would otherwise make the prom file grow for ever. */
static struct prom_count *find_key(struct prom_counts *pc,
				   const struct prom_key *k)
{
	size_t h = key_hash(k);
	struct prom_count *c = (struct prom_count *)
		htab_find(&pc->index, h, key_eq, k);

	if (c)
		return c;
	if (pc->n >= PROM_MAX_NAMES && (strcmp(k->name, PROM_OTHER_NAME) ||
					k->device >= 0 || k->npu >= 0)) {
		struct prom_key other = { k->host, PROM_OTHER_NAME, -1, -1 };
		return find_key(pc, &other);
	}
	c = xcalloc(1, sizeof *c);
	c->host = k->host ? xstrdup(k->host) : NULL;
	c->name = xstrdup(k->name);
	c->device = k->device;
	c->npu = k->npu;
	c->node.hash = h;
	htab_insert(&pc->index, &c->node);
	pc->v = xrealloc(pc->v, (pc->n + 1) * sizeof *pc->v);
	pc->v[pc->n++] = c;
	return c;
}

void prom_counts_add(struct prom_counts *pc, const struct prom_key *key,
		     const struct class_key *k, size_t n)
{
	struct prom_count *c = find_key(pc, key);

	for (size_t i = 0; i < c->nclasses; i++) {
		struct class_key *x = &c->classes[i].k;
		if (class_key_cmp(x, k) == 0) {
			c->classes[i].n += n;
			return;
		}
	}
	c->classes = xrealloc(c->classes,
			      (c->nclasses + 1) * sizeof *c->classes);
	c->classes[c->nclasses++] = (struct class_count){ *k, 0, n };
}

/* Its labels as they are now: the logged device, and the NPU of it when
 * its identity has the evidence already. */
static void count_incident(void *ctx, const struct incident *inc)
{
	struct prom_counts *pc = ctx;
	struct class_key k = { inc->code, inc->resource, inc->cause };
	struct prom_key key = { inc->host, inc->name, -1, -1 };
	enum ident_from from;
	long dev;

	if (view_incident_device(inc, &dev, &from)) {
		key.device = dev;
		key.npu = prom_npu_of(model_ident_find(pc->m, inc->host,
						       inc->pid, inc->name),
				      dev);
	}
	prom_counts_add(pc, &key, &k, 1);
}

void prom_counts_init(struct prom_counts *pc, struct model *m)
{
	memset(pc, 0, sizeof *pc);
	pc->m = m;
	if (m)
		model_watch(m, count_incident, pc);
}

void prom_counts_free(struct prom_counts *pc)
{
	if (pc->m)
		model_unwatch(pc->m, pc);
	for (size_t i = 0; i < pc->n; i++) {
		free(pc->v[i]->host);
		free(pc->v[i]->name);
		free(pc->v[i]->classes);
		free(pc->v[i]);
	}
	free(pc->v);
	htab_free(&pc->index);
	memset(pc, 0, sizeof *pc);
}

/* ---- the file ---- */

struct series {
	struct class_key k;
	const struct prom_count *c;
	size_t n;
};

/* By name, then host (local first), device, NPU, then class. */
static int series_cmp(const void *a, const void *b)
{
	const struct series *x = a, *y = b;
	const struct prom_count *cx = x->c, *cy = y->c;
	int c = strcmp(cx->name, cy->name);

	if (c)
		return c;
	if (!cx->host != !cy->host)
		return cx->host ? 1 : -1;
	if (cx->host && (c = strcmp(cx->host, cy->host)) != 0)
		return c;
	if (cx->device != cy->device)
		return cx->device < cy->device ? -1 : 1;
	if (cx->npu != cy->npu)
		return cx->npu < cy->npu ? -1 : 1;
	if (x->k.code != y->k.code)
		return x->k.code < y->k.code ? -1 : 1;
	if (x->k.resource != y->k.resource)
		return x->k.resource < y->k.resource ? -1 : 1;
	return x->k.cause < y->k.cause ? -1 : x->k.cause > y->k.cause;
}

static struct series *all_series(const struct prom_counts *pc, size_t *count)
{
	struct series *v = NULL;
	size_t n = 0, cap = 0;

	for (size_t i = 0; pc && i < pc->n; i++) {
		const struct prom_count *c = pc->v[i];
		for (size_t j = 0; j < c->nclasses; j++) {
			if (n == cap) {
				cap = cap ? 2 * cap : 64;
				v = xrealloc(v, cap * sizeof *v);
			}
			v[n++] = (struct series){
				c->classes[j].k, c, c->classes[j].n
			};
		}
	}
	if (n)
		qsort(v, n, sizeof *v, series_cmp);
	*count = n;
	return v;
}

void prom_render(struct strbuf *out, const struct model *m,
		 const struct prom_counts *pc, size_t files_watched,
		 double now_seconds)
{
	size_t n;
	struct series *v = all_series(pc, &n);

	prom_metric_head(out, TAX_PROM_INCIDENTS, "counter",
		    "Failed runtime API calls (EE1023 resource exhaustion, "
		    "EE1001 invalid argument) found in plog logs.");
	for (size_t i = 0; i < n; i++) {
		sb_addf(out, TAX_PROM_INCIDENTS "{" TAX_KEY_CODE "=\"%s\","
			TAX_KEY_RESOURCE "=\"%s\"," TAX_KEY_CAUSE "=\"%s\","
			TAX_KEY_PROCESS "=\"", code_name(v[i].k.code),
			resource_name(v[i].k.resource), cause_name(v[i].k.cause));
		prom_label(out, v[i].c->name);
		sb_addc(out, '"');
		if (v[i].c->device >= 0)
			sb_addf(out, "," TAX_KEY_DEVICE "=\"%ld\"",
				v[i].c->device);
		if (v[i].c->npu >= 0)
			sb_addf(out, "," TAX_KEY_NPU "=\"%ld\"", v[i].c->npu);
		/* A host's incidents: local ones have no host label. */
		if (v[i].c->host) {
			sb_adds(out, "," TAX_KEY_HOST "=\"");
			prom_label(out, v[i].c->host);
			sb_addc(out, '"');
		}
		sb_addf(out, "} %zu\n", v[i].n);
	}
	free(v);
	prom_metric_head(out, "plogtop_files_watched", "gauge",
		    "Log files plogtop is reading.");
	sb_addf(out, "plogtop_files_watched %zu\n", files_watched);
	prom_metric_head(out, "plogtop_read_bytes_total", "counter",
		    "Bytes of log read.");
	/* Counters add what earlier runs counted (--state). */
	sb_addf(out, "plogtop_read_bytes_total %llu\n",
		m->base.bytes + m->stats.bytes);
	prom_metric_head(out, "plogtop_read_lines_total", "counter",
		    "Lines of log read.");
	sb_addf(out, "plogtop_read_lines_total %llu\n",
		m->base.lines + (unsigned long long)m->stats.lines);
	/* A catastrophic user rule in a service that runs for months shows
	 * here, not only in a --once report. */
	prom_metric_head(out, "plogtop_match_limit_hits_total", "counter",
		    "Rule matches PCRE2 gave up on at its match, depth or "
		    "heap limit (each counted as no match).");
	sb_addf(out, "plogtop_match_limit_hits_total %llu\n",
		m->base.match_limit_hits +
		(unsigned long long)m->stats.match_limit_hits);
	prom_metric_head(out, "plogtop_unfinished_lines_total", "counter",
		    "Lines whose writer stopped mid-line for longer than "
		    "plogtop waits (30 s), taken as they stood.");
	sb_addf(out, "plogtop_unfinished_lines_total %llu\n",
		m->base.unfinished_lines +
		(unsigned long long)m->stats.unfinished_lines);
	/* Copies of counted chains (model_dedupe.c): since this start, not
	 * kept in a state file. */
	prom_metric_head(out, "plogtop_duplicates_total", "counter",
		    "Incidents read again from a copy of their file (a "
		    "backup, a top-level copy) and not counted.");
	sb_addf(out, "plogtop_duplicates_total %zu\n", m->duplicates_total);
	prom_metric_head(out, "plogtop_last_update_timestamp_seconds", "gauge",
		    "When plogtop last wrote this file (Unix time).");
	sb_addf(out, "plogtop_last_update_timestamp_seconds %.3f\n", now_seconds);
	/* The rules' baseline: what the first file of a counting holds is
	 * its history, whatever came after is new (plogtop.rules.yml). */
	prom_metric_head(out, "plogtop_counted_since_timestamp_seconds", "gauge",
		    "When the incident counters started from nothing (Unix "
		    "time): a first start, or a state file set aside; kept "
		    "across restarts that resume from a state file.");
	sb_addf(out, "plogtop_counted_since_timestamp_seconds %.3f\n",
		m->counted_since);
	prom_render_devices(out, m);
	prom_render_processes(out, m);
}

int prom_write(const char *path, const struct model *m,
	       const struct prom_counts *pc, size_t files_watched,
	       struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT;
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	prom_render(&text, m, pc, files_watched,
		    (double)ts.tv_sec + (double)ts.tv_nsec / 1e9);
	int rc = write_file_atomic(path, text.buf, text.len, 0644, 0, err);
	sb_free(&text);
	return rc;
}
