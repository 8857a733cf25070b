/* A Prometheus server's answer (--from-prometheus) on arbitrary bytes:
 * taken as the answer of each query of a refresh in turn, then made into
 * the model, once and live.  Either a reason or samples within their
 * bounds; the model's counts add up, its hosts are named; never a
 * crash. */
#include "config.h"

#include <string.h>

#include "cluster.h"
#include "fuzz.h"

static void check_model(const struct model *m)
{
	size_t sum = 0;

	for (size_t i = 0; i < m->nprocs; i++) {
		FUZZ_ASSERT(m->procs[i]->host && m->procs[i]->name);
		sum += process_total(m->procs[i]);
	}
	FUZZ_ASSERT(sum == m->n);
	for (size_t i = 0; i < m->nhosts; i++)
		FUZZ_ASSERT(m->hosts[i]->name != NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cluster_data d;
	struct strbuf err = STRBUF_INIT;

	cluster_data_init(&d);
	for (int q = 0; q < CQ_COUNT; q++) {
		sb_reset(&err);
		size_t before = d.n;
		if (cluster_parse((const char *)data, size, (enum cquery)q, &d,
				  &err) < 0)
			FUZZ_ASSERT(err.len > 0 && d.n == before);
	}
	FUZZ_ASSERT(d.n <= CLUSTER_MAX_SAMPLES);
	for (size_t i = 0; i < d.n; i++) {
		FUZZ_ASSERT(d.v[i].host != NULL);
		FUZZ_ASSERT(!d.v[i].process ||
			    strlen(d.v[i].process) <= CLUSTER_MAX_LABEL);
	}
	for (int live = 0; live < 2; live++) {
		struct model m;
		model_init(&m);
		if (live)
			model_set_live(&m, 4);
		cluster_to_model(&d, &m, live ? HOST_UP : HOST_DONE);
		check_model(&m);
		cluster_to_model(&d, &m, HOST_UP);	/* a refresh */
		check_model(&m);
		model_free(&m);
	}
	cluster_data_free(&d);
	sb_free(&err);
	return 0;
}
