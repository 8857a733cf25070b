/* What the identity tests share: facts and incidents made by hand in
 * the shapes the classifier gives them, and a look-up by pid and name. */
#ifndef PLOGTOP_TESTS_UNIT_IDENT_TEST_H
#define PLOGTOP_TESTS_UNIT_IDENT_TEST_H

#include "ident.h"
#include "model_test.h"

#define T0 (1700000000LL * 1000000)	/* a log time, microseconds */
#define SEC 1000000LL
#define SPAN ((long long)IDENT_SPAN_MS * 1000)

static inline void fact(struct model *m, long pid, const char *name,
		 enum fact_kind k, enum resource r, logtime_t t)
{
	struct fact f = { 0 };

	f.pid = pid;
	f.name = name;
	f.kind = k;
	f.resource = r;
	f.time = t;
	f.file = "/logs/plog-1.log";
	f.line = 1;
	f.device = f.rank = f.dp = f.tp = f.ep = FACT_UNSAID;
	model_fact(m, &f);
}

static inline void device_fact(struct model *m, long pid, const char *name,
			long device)
{
	struct fact f = { 0 };

	f.pid = pid;
	f.name = name;
	f.kind = FACT_DEVICE;
	f.device = device;
	f.rank = f.dp = f.tp = f.ep = FACT_UNSAID;
	f.file = "/logs/plog-1.log";
	model_fact(m, &f);
}

static inline void statistics(struct model *m, long pid, const char *name,
		       enum resource r, unsigned long long succ,
		       unsigned long long released)
{
	struct fact f = { 0 };

	f.pid = pid;
	f.name = name;
	f.kind = FACT_STATISTICS;
	f.resource = r;
	f.time = T0;
	f.apply_total = f.apply_succ = succ;
	f.release_total = f.release_succ = released;
	f.device = f.rank = f.dp = f.tp = f.ep = FACT_UNSAID;
	model_fact(m, &f);
}

static inline void field(struct incident *inc, const char *k, const char *v)
{
	incident_set_field(inc, k, v, strlen(v));
}

static inline const struct ident *find(const struct model *m, long pid,
				const char *name)
{
	const struct ident *const *v;
	size_t n = model_idents(m, &v);

	for (size_t i = 0; i < n; i++)
		if (v[i]->pid == pid && strcmp(v[i]->name, name) == 0)
			return v[i];
	return NULL;
}

#endif
