/* What the reading tests share: the shipped rules loaded, lines fed
 * through the feeder and the classifier as plogtop reads them, and the
 * incidents and facts that come out kept for the checks. */
#ifndef PLOGTOP_TESTS_UNIT_FEED_HARNESS_H
#define PLOGTOP_TESTS_UNIT_FEED_HARNESS_H

#include "unit.h"

#include "classifier.h"
#include "fact.h"
#include "feeder.h"
#include "xalloc.h"

struct harness {
	struct ruleset *rs;
	struct classifier *c;
	struct feeder *f;
	struct incident **inc;
	size_t n;
	struct fact **facts;
	size_t nfacts;
	unsigned long lineno;
};

static inline void harness_collect(void *ctx, struct incident *inc)
{
	struct harness *h = ctx;

	h->inc = xrealloc(h->inc, (h->n + 1) * sizeof *h->inc);
	h->inc[h->n++] = inc;
}

static inline void harness_collect_fact(void *ctx, const struct fact *f)
{
	struct harness *h = ctx;

	h->facts = xrealloc(h->facts, (h->nfacts + 1) * sizeof *h->facts);
	h->facts[h->nfacts++] = fact_dup(f);
}

static inline int setup(void **state)
{
	struct harness *h = xcalloc(1, sizeof *h);
	struct strbuf path = STRBUF_INIT, err = STRBUF_INIT;

	h->rs = ruleset_new();
	unit_data_path(&path, "rules/plogtop.rules");
	int rc = ruleset_load(h->rs, path.buf, &err);
	if (rc != 0)
		fprintf(stderr, "# %s\n", sb_str(&err));
	sb_free(&path);
	sb_free(&err);
	if (rc != 0) {
		ruleset_free(h->rs);
		free(h);
		return -1;
	}
	h->c = classifier_new(h->rs, harness_collect, h);
	classifier_set_facts(h->c, harness_collect_fact, h);
	h->f = feeder_new(h->rs, h->c);
	*state = h;
	return 0;
}

static inline int teardown(void **state)
{
	struct harness *h = *state;

	feeder_free(h->f);
	classifier_free(h->c);
	ruleset_free(h->rs);
	for (size_t i = 0; i < h->n; i++)
		incident_free(h->inc[i]);
	free(h->inc);
	for (size_t i = 0; i < h->nfacts; i++)
		fact_free(h->facts[i]);
	free(h->facts);
	free(h);
	return 0;
}

/* The next lines come from this file; line numbers start again. */
static inline void open_file(struct harness *h, const char *file,
			     enum file_kind kind)
{
	feeder_set_file(h->f, file, kind);
	h->lineno = 0;
}

/* Feeds text, line by line, to the feeder. */
static inline void feed(struct harness *h, const char *text)
{
	while (*text) {
		size_t n = strcspn(text, "\n");
		feeder_line(h->f, text, n, ++h->lineno);
		text += n + (text[n] == '\n');
	}
}

/* Reads text as one whole file of this kind; its chains are closed. */
static inline void read_text(struct harness *h, const char *file,
			     enum file_kind kind, const char *text)
{
	open_file(h, file, kind);
	feed(h, text);
	feeder_flush(h->f);
	classifier_flush(h->c);
}

#endif
