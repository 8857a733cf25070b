/* An answer of /api/v1/query, hostile like any input: parsed whole by
 * the strict parser (valid UTF-8, bounded depth and size), then each
 * sample of its vector checked for its types; a sample with a label too
 * long, a value that is no finite number or below zero, or past
 * CLUSTER_MAX_SAMPLES is skipped and counted (d->skipped), never a crash
 * and never a refusal of the rest.  Labels are kept as they came:
 * every view sanitises what it shows. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cluster.h"
#include "i18n.h"
#include "jsonparse.h"
#include "xalloc.h"

void cluster_data_init(struct cluster_data *d)
{
	memset(d, 0, sizeof *d);
}

static void sample_free(struct csample *s)
{
	free(s->host);
	free(s->process);
	free(s->device);
	free(s->code);
	free(s->resource);
	free(s->cause);
	free(s->pid);
	free(s->rank);
}

void cluster_data_free(struct cluster_data *d)
{
	for (size_t i = 0; i < d->n; i++)
		sample_free(&d->v[i]);
	free(d->v);
	sb_free(&d->err);
	memset(d, 0, sizeof *d);
}

/* A label's value: NULL when absent or empty; *bad when not a string or
 * too long. */
static char *label(const struct jval *metric, const char *key, int *bad)
{
	const struct jval *v = json_get(metric, key);

	if (!v)
		return NULL;
	if (v->type != J_STRING || v->len > CLUSTER_MAX_LABEL) {
		*bad = 1;
		return NULL;
	}
	return v->len ? xstrdup(v->str) : NULL;
}

/* Prometheus writes a sample's value as a string ("12", "NaN", "+Inf"). */
static int value_of(const struct jval *value, double *out)
{
	if (!value || value->type != J_ARRAY || value->n != 2 ||
	    value->items[1].type != J_STRING)
		return -1;
	const char *s = value->items[1].str;
	char *end;
	double v = strtod(s, &end);
	if (end == s || *end || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}

static int take_sample(const struct jval *item, enum cquery q,
		       struct cluster_data *d)
{
	const struct jval *metric = json_get(item, "metric");
	double v;
	int bad = 0;

	if (item->type != J_OBJECT || !metric || metric->type != J_OBJECT ||
	    value_of(json_get(item, "value"), &v) < 0 ||
	    (q != CQ_AGE && v < 0) || d->n >= CLUSTER_MAX_SAMPLES)
		return -1;
	struct csample s = { .q = q, .v = v };
	s.host = label(metric, "node", &bad);
	if (!s.host)
		s.host = label(metric, "instance", &bad);
	if (!s.host)
		s.host = xstrdup("");
	s.process = label(metric, "process", &bad);
	s.device = label(metric, "device", &bad);
	s.code = label(metric, "code", &bad);
	s.resource = label(metric, "resource", &bad);
	s.cause = label(metric, "cause", &bad);
	s.pid = label(metric, "pid", &bad);
	s.rank = label(metric, "rank", &bad);
	if (bad) {
		sample_free(&s);
		return -1;
	}
	if (d->n == d->cap) {
		d->cap = d->cap ? 2 * d->cap : 1024;
		d->v = xrealloc(d->v, d->cap * sizeof *d->v);
	}
	d->v[d->n++] = s;
	return 0;
}

static int check_head(const struct jval *doc, struct strbuf *err)
{
	const char *status = json_get_str(doc, "status");

	if (doc->type != J_OBJECT) {
		sb_adds(err, _("the answer is not a JSON object"));
		return -1;
	}
	if (!status || strcmp(status, "success") != 0) {
		const char *e = json_get_str(doc, "error");
		sb_addf(err, _("the query failed: %s"), e ? e : "-");
		return -1;
	}
	return 0;
}

int cluster_parse(const char *text, size_t len, enum cquery q,
		  struct cluster_data *d, struct strbuf *err)
{
	/* A value a few bytes of the answer at least: the cap on the body
	 * bounds them; strings as long as a label can be and some. */
	struct json_limits lim = { 1u << 16, len / 2 + 16 };
	struct jval doc;

	if (json_parse(text, len, &lim, &doc, err) < 0)
		return -1;
	int rc = check_head(&doc, err);
	const struct jval *data = json_get(&doc, "data");
	const struct jval *res = data ? json_get(data, "result") : NULL;
	const char *type = data ? json_get_str(data, "resultType") : NULL;
	if (rc == 0 && (!res || res->type != J_ARRAY || !type ||
			strcmp(type, "vector") != 0)) {
		sb_adds(err, _("the answer holds no vector of samples"));
		rc = -1;
	}
	for (size_t i = 0; rc == 0 && i < res->n; i++)
		if (take_sample(&res->items[i], q, d) < 0)
			d->skipped++;
	jval_free(&doc);
	return rc;
}
