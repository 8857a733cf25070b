/* Identities and ledgers (ident.h).  A placeholder the model's part of
 * issue 16 fills in: it keeps nothing yet. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ident.h"
#include "model.h"

enum resource ledger_resource(enum ledger_res r)
{
	static const enum resource res[LEDGER_COUNT] = {
		RES_STREAM, RES_EVENT, RES_NOTIFY
	};
	return (unsigned)r < LEDGER_COUNT ? res[r] : RES_NONE;
}

enum ledger_res ledger_of_resource(enum resource r)
{
	for (int i = 0; i < LEDGER_COUNT; i++)
		if (ledger_resource((enum ledger_res)i) == r)
			return (enum ledger_res)i;
	return LEDGER_COUNT;
}

const char *ledger_from_name(enum ledger_from f)
{
	return f == LEDGER_CALLS ? "calls"
	     : f == LEDGER_STATISTICS ? "statistics" : "";
}

const char *phys_from_name(enum phys_from f)
{
	return f == PHYS_ENVIRON ? "environ" : f == PHYS_NPU_SMI ? "npu-smi" : "";
}

unsigned long long ledger_held(const struct ledger *l)
{
	return l->created > l->destroyed ? l->created - l->destroyed : 0;
}

void idents_init(struct idents *ids)
{
	memset(ids, 0, sizeof *ids);
}

void idents_free(struct idents *ids)
{
	free(ids->v);
	memset(ids, 0, sizeof *ids);
}

void model_fact(struct model *m, const struct fact *f)
{
	(void)m;
	(void)f;
}

void model_ident_incident(struct model *m, struct incident *inc)
{
	(void)m;
	(void)inc;
}

const struct ident *model_ident(const struct model *m,
				const struct process *p)
{
	(void)m;
	(void)p;
	return NULL;
}

size_t model_idents(const struct model *m, const struct ident *const **out)
{
	*out = (const struct ident *const *)m->idents.v;
	return m->idents.n;
}

size_t model_devices(const struct model *m, struct device_row **out)
{
	(void)m;
	*out = NULL;
	return 0;
}

void model_devices_free(struct device_row *v, size_t n)
{
	(void)n;
	free(v);
}

void model_set_job(struct model *m, const char *job)
{
	m->idents.job = job;
}

void model_set_npu(struct model *m, const struct npu_table *t,
		   unsigned long long now_ms)
{
	(void)m;
	(void)t;
	(void)now_ms;
}
