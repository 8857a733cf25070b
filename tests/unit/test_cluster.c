/* A cluster's answers into the model (src/cluster/): canned answers of
 * /api/v1/query as Prometheus writes them, the model they make (a host
 * per node, processes by name and device, counts per class, windows,
 * stale and down nodes), and hostile answers refused or skipped with a
 * reason, never a crash. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "unit.h"

#include "cluster.h"
#include "ident.h"
#include "model.h"
#include "sanitize.h"
#include "xalloc.h"

#define HEAD "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\"," \
	     "\"result\":["
#define TAIL "]}}"

static int parse(struct cluster_data *d, enum cquery q, const char *text,
		 struct strbuf *err)
{
	sb_reset(err);
	return cluster_parse(text, strlen(text), q, d, err);
}

static const char total[] = HEAD
	"{\"metric\":{\"node\":\"n1\",\"instance\":\"10.0.0.1:9466\","
	"\"process\":\"python3\",\"device\":\"0\",\"code\":\"EE1023\","
	"\"resource\":\"stream\",\"cause\":\"streams_created\"},"
	"\"value\":[1700000000,\"7\"]},"
	"{\"metric\":{\"node\":\"n1\",\"process\":\"python3\",\"device\":\"1\","
	"\"code\":\"EE1023\",\"resource\":\"stream\","
	"\"cause\":\"streams_created\"},\"value\":[1700000000,\"3\"]},"
	/* No node label: the instance names the host. */
	"{\"metric\":{\"instance\":\"10.0.0.2:9466\",\"process\":\"train\","
	"\"code\":\"EE1001\",\"resource\":\"memcpy\","
	"\"cause\":\"kind_location_mismatch\"},\"value\":[1700000000,\"2\"]}"
	TAIL;

static void fill(struct cluster_data *d)
{
	struct strbuf err = STRBUF_INIT;

	assert_int_equal(parse(d, CQ_TOTAL, total, &err), 0);
	/* 5 of the 7 grew in the hour, 1 in the last minute; the series
	 * born in the window counts whole (the query's `or`). */
	assert_int_equal(parse(d, CQ_1H, HEAD "{\"metric\":{\"node\":\"n1\","
		"\"process\":\"python3\",\"device\":\"0\",\"code\":\"EE1023\","
		"\"resource\":\"stream\",\"cause\":\"streams_created\"},"
		"\"value\":[1,\"5\"]}" TAIL, &err), 0);
	assert_int_equal(parse(d, CQ_1M, HEAD "{\"metric\":{\"node\":\"n1\","
		"\"process\":\"python3\",\"device\":\"0\",\"code\":\"EE1023\","
		"\"resource\":\"stream\",\"cause\":\"streams_created\"},"
		"\"value\":[1,\"1\"]}" TAIL, &err), 0);
	/* One live python3 on device 0 of n1: its pid; two on device 1:
	 * neither is chosen. */
	assert_int_equal(parse(d, CQ_INFO, HEAD
		"{\"metric\":{\"node\":\"n1\",\"process\":\"python3\","
		"\"device\":\"0\",\"pid\":\"4242\",\"rank\":\"3\"},"
		"\"value\":[1,\"1\"]},"
		"{\"metric\":{\"node\":\"n1\",\"process\":\"python3\","
		"\"device\":\"1\",\"pid\":\"11\"},\"value\":[1,\"1\"]},"
		"{\"metric\":{\"node\":\"n1\",\"process\":\"python3\","
		"\"device\":\"1\",\"pid\":\"12\"},\"value\":[1,\"1\"]}" TAIL,
		&err), 0);
	assert_int_equal(parse(d, CQ_AGE, HEAD
		"{\"metric\":{\"node\":\"n1\"},\"value\":[1,\"12.5\"]},"
		"{\"metric\":{\"instance\":\"10.0.0.2:9466\"},"
		"\"value\":[1,\"900\"]}" TAIL, &err), 0);
	assert_int_equal(parse(d, CQ_DOWN, HEAD
		"{\"metric\":{\"node\":\"n3\"},\"value\":[1,\"0\"]}" TAIL,
		&err), 0);
	sb_free(&err);
}

static struct process *find(struct model *m, const char *host, long pid,
			    const char *name, long dev)
{
	for (size_t i = 0; i < m->nprocs; i++) {
		struct process *p = m->procs[i];
		const struct ident *id = model_ident(m, p);
		if (strcmp(p->host->name, host) == 0 && p->pid == pid &&
		    strcmp(p->name, name) == 0 && id && id->device == dev)
			return p;
	}
	return NULL;
}

static void test_once_model(void **state)
{
	struct cluster_data d;
	struct model m;

	(void)state;
	cluster_data_init(&d);
	model_init(&m);
	fill(&d);
	cluster_to_model(&d, &m, HOST_DONE);
	assert_int_equal(m.nhosts, 3);
	assert_int_equal(m.n, 12);
	struct model_host *n1 = model_host_find(&m, "n1");
	struct model_host *i2 = model_host_find(&m, "10.0.0.2:9466");
	struct model_host *n3 = model_host_find(&m, "n3");
	assert_non_null(n1);
	assert_non_null(i2);
	assert_non_null(n3);
	assert_int_equal(n1->state, HOST_DONE);
	assert_int_equal(n1->n, 10);
	assert_int_equal(i2->state, HOST_DOWN);
	assert_non_null(strstr(i2->reason, "stale"));
	assert_int_equal(n3->state, HOST_DOWN);
	assert_non_null(strstr(n3->reason, "up == 0"));
	struct process *p = find(&m, "n1", 4242, "python3", 0);
	assert_non_null(p);
	assert_int_equal(process_total(p), 7);
	assert_int_equal(model_ident(&m, p)->rank, 3);
	/* Two live python3 on device 1: a process of the device, no pid. */
	p = find(&m, "n1", 0, "python3", 1);
	assert_non_null(p);
	assert_int_equal(process_total(p), 3);
	cluster_data_free(&d);
	model_free(&m);
}

static void test_live_windows(void **state)
{
	struct cluster_data d;
	struct model m;

	(void)state;
	cluster_data_init(&d);
	model_init(&m);
	model_set_live(&m, 10);
	fill(&d);
	cluster_to_model(&d, &m, HOST_UP);
	logtime_t now = logtime_now();
	struct process *p = find(&m, "n1", 4242, "python3", 0);
	size_t by[RES_COUNT];
	assert_non_null(p);
	assert_int_equal(model_window(&m, p, 60LL * 1000000, now, by), 1);
	assert_int_equal(model_window(&m, p, 300LL * 1000000, now, by), 1);
	assert_int_equal(model_window(&m, p, 3600LL * 1000000, now, by), 5);
	assert_int_equal(model_window(&m, p, 0, now, by), 7);
	/* A refresh makes the model again; the hosts stay, the same ones. */
	struct model_host *n1 = model_host_find(&m, "n1");
	cluster_to_model(&d, &m, HOST_UP);
	assert_ptr_equal(model_host_find(&m, "n1"), n1);
	assert_int_equal(m.n, 12);
	assert_int_equal(n1->n, 10);
	cluster_data_free(&d);
	model_free(&m);
}

static void refused(const char *text, const char *why)
{
	struct cluster_data d;
	struct strbuf err = STRBUF_INIT;

	cluster_data_init(&d);
	if (parse(&d, CQ_TOTAL, text, &err) == 0)
		fail_msg("accepted: %.80s", text);
	if (!strstr(sb_str(&err), why))
		fail_msg("%.80s: %s (wanted %s)", text, sb_str(&err), why);
	assert_int_equal(d.n, 0);
	cluster_data_free(&d);
	sb_free(&err);
}

static void test_hostile(void **state)
{
	(void)state;
	refused("", "offset");
	refused("[1,2]", "not a JSON object");
	refused("{\"status\":\"error\",\"error\":\"parse error\"}",
		"parse error");
	refused("{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\","
		"\"result\":[]}}", "no vector");
	refused("{\"status\":\"success\",\"data\":{\"resultType\":\"vector\","
		"\"result\":{}}}", "no vector");
	/* Invalid UTF-8 in a label: the strict parser refuses the answer. */
	refused(HEAD "{\"metric\":{\"node\":\"n\xff\"},\"value\":[1,\"1\"]}"
		TAIL, "offset");
	/* Deeper than the parser's limit. */
	struct strbuf deep = STRBUF_INIT;
	for (int i = 0; i < 100; i++)
		sb_adds(&deep, "[");
	for (int i = 0; i < 100; i++)
		sb_adds(&deep, "]");
	refused(deep.buf, "offset");
	sb_free(&deep);
}

/* Samples of the wrong types are skipped and counted; the rest kept. */
static void test_bad_samples(void **state)
{
	struct cluster_data d;
	struct strbuf err = STRBUF_INIT, big = STRBUF_INIT;

	(void)state;
	cluster_data_init(&d);
	for (int i = 0; i < 300; i++)
		sb_addc(&big, 'x');
	struct strbuf t = STRBUF_INIT;
	sb_addf(&t, HEAD
		"{\"metric\":{\"node\":\"ok\",\"process\":\"p\"},"
		"\"value\":[1,\"2\"]},"
		"{\"metric\":{\"node\":1,\"process\":\"p\"},\"value\":[1,\"2\"]},"
		"{\"metric\":{\"node\":\"a\"},\"value\":[1,2]},"
		"{\"metric\":{\"node\":\"a\"},\"value\":[1,\"NaN\"]},"
		"{\"metric\":{\"node\":\"a\"},\"value\":[1,\"+Inf\"]},"
		"{\"metric\":{\"node\":\"a\"},\"value\":[1,\"-3\"]},"
		"{\"metric\":{\"node\":\"a\"},\"value\":[1,\"12abc\"]},"
		"{\"metric\":{\"node\":\"a\"}},"
		"{\"metric\":[],\"value\":[1,\"1\"]},"
		"7,"
		"{\"metric\":{\"node\":\"%s\"},\"value\":[1,\"1\"]},"
		/* Escapes in a label: kept as they came, sanitised where
		 * shown. */
		"{\"metric\":{\"node\":\"evil\\u001b[31m\\n\",\"process\":\"q\"},"
		"\"value\":[1,\"1\"]}" TAIL, big.buf);
	assert_int_equal(parse(&d, CQ_TOTAL, t.buf, &err), 0);
	assert_int_equal(d.n, 2);
	assert_int_equal(d.skipped, 10);
	assert_string_equal(d.v[1].host, "evil\x1b[31m\n");
	struct strbuf clean = STRBUF_INIT;
	sanitize(&clean, d.v[1].host, strlen(d.v[1].host));
	assert_null(strchr(clean.buf, '\x1b'));
	assert_null(strchr(clean.buf, '\n'));
	sb_free(&clean);
	sb_free(&t);
	sb_free(&big);
	sb_free(&err);
	cluster_data_free(&d);
}

/* A huge answer: every sample read, memory bounded by the samples. */
static void test_huge(void **state)
{
	struct cluster_data d;
	struct strbuf t = STRBUF_INIT, err = STRBUF_INIT;

	(void)state;
	cluster_data_init(&d);
	sb_adds(&t, HEAD);
	for (int i = 0; i < 50000; i++)
		sb_addf(&t, "%s{\"metric\":{\"node\":\"n%d\",\"process\":\"p\","
			"\"code\":\"EE1023\"},\"value\":[1,\"1\"]}",
			i ? "," : "", i);
	sb_adds(&t, TAIL);
	assert_int_equal(parse(&d, CQ_TOTAL, t.buf, &err), 0);
	assert_int_equal(d.n, 50000);
	struct model m;
	model_init(&m);
	cluster_to_model(&d, &m, HOST_DONE);
	assert_int_equal(m.nhosts, 50000);
	assert_int_equal(m.n, 50000);
	model_free(&m);
	cluster_data_free(&d);
	sb_free(&t);
	sb_free(&err);
}

static void test_queries(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	/* Windows count series born in them and counters that restarted. */
	const char *q = cluster_query_text(CQ_5M, 0, &sb);
	assert_non_null(strstr(q, "offset 300s"));
	assert_non_null(strstr(q, ">= 0 or plogtop_incidents_total"));
	assert_null(strstr(q, "increase("));
	assert_non_null(strstr(cluster_query_text(CQ_TOTAL, 600, &sb),
			       "offset 600s"));
	assert_null(strstr(cluster_query_text(CQ_TOTAL, 0, &sb), "offset"));
	sb_free(&sb);
}

static void assert_shown(const char *url, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	httpc_url_shown(&sb, url);
	assert_string_equal(sb_str(&sb), want);
	sb_free(&sb);
}

/* A URL as people see it: never its password. */
static void test_url_shown(void **state)
{
	(void)state;
	assert_shown("http://prom:9090", "http://prom:9090");
	assert_shown("http://u:pw@prom:9090/x", "http://prom:9090/x");
	assert_shown("https://u@prom", "https://prom");
	/* The last '@' of the authority ends it (a password with an @). */
	assert_shown("http://u:p@ss@prom:9090", "http://prom:9090");
	/* An '@' after the authority is the path's or the query's. */
	assert_shown("http://prom/a@b?x=@", "http://prom/a@b?x=@");
	assert_shown("prom:9090", "prom:9090");
}

int main(void)
{
	cmocka_set_message_output(CM_OUTPUT_TAP);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_once_model),
		cmocka_unit_test(test_live_windows),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_bad_samples),
		cmocka_unit_test(test_huge),
		cmocka_unit_test(test_queries),
		cmocka_unit_test(test_url_shown),
	};
	return UNIT_RUN("cluster", tests);
}
