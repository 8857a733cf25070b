#include "config.h"

#include <string.h>

#include "ident_json.h"
#include "ident_view.h"
#include "json.h"
#include "model.h"
#include "npusmi.h"
#include "taxonomy.h"
#include "wire_limits.h"

const char *leak_kind_name(enum leak_kind k)
{
	return k == LEAK_ENDED ? "ended" : k == LEAK_RISING ? "rising"
	       : NULL;
}

static void host_member(struct strbuf *sb, const struct model_host *h)
{
	if (h)
		json_member(sb, "host", h->name);
	else
		sb_adds(sb, "\"host\": null");
}

/* The physical NPU and its evidence, or nulls. */
static void npu_part(struct strbuf *sb, long phys, enum phys_from from)
{
	int known = phys >= 0 && phys <= VIEW_DEVICE_MAX && from != PHYS_NONE;

	json_more_count(sb, "npu", known ? phys : -1);
	sb_adds(sb, ", \"npu_from\": ");
	if (known)
		sb_addf(sb, "\"%s\"", phys_from_name(from));
	else
		sb_adds(sb, "null");
}

void ident_json_ledger(struct strbuf *sb, const struct ident *id)
{
	int any = 0;

	sb_adds(sb, "\"ledger\": {");
	for (int r = 0; id && r < LEDGER_COUNT; r++) {
		const struct ledger *l = ident_ledger(id, r);
		if (l->from == LEDGER_NONE)
			continue;
		sb_addf(sb, "%s\"%s\": {\"created\": %llu, \"destroyed\": "
			"%llu, \"held\": %llu, \"from\": \"%s\", "
			"\"complete\": %s", any ? ", " : "",
			resource_name(ledger_resource((enum ledger_res)r)),
			l->created, l->destroyed, ledger_held(l),
			ledger_from_name(l->from),
			l->complete ? "true" : "false");
		if (leak_kind_name(l->leak))
			sb_addf(sb, ", \"leak\": \"%s\"",
				leak_kind_name(l->leak));
		sb_adds(sb, "}");
		any = 1;
	}
	sb_adds(sb, "}");
}

void ident_json_process(struct strbuf *sb, const struct ident *id)
{
	json_more_count(sb, "device", view_ident_device(id));
	sb_adds(sb, ", \"devices\": [");
	for (size_t i = 0, k = 0; id && i < id->ndevices &&
	     i < IDENT_DEVICES; i++) {
		long d = id->dev[i].device;
		if (d < 0 || d > VIEW_DEVICE_MAX)
			continue;
		sb_addf(sb, "%s%ld", k++ ? ", " : "", d);
	}
	sb_adds(sb, "]");
	json_more_count(sb, "rank", view_ident_rank(id));
	sb_adds(sb, ", ");
	if (id && id->job)
		json_member(sb, "job", id->job);
	else
		sb_adds(sb, "\"job\": null");
	/* Which rule named it (ident.h's IDENT_JOB_*). */
	sb_adds(sb, ", ");
	if (id && id->job && id->job_rule)
		json_member(sb, "job_rule", id->job_rule);
	else
		sb_adds(sb, "\"job_rule\": null");
	npu_part(sb, id ? id->phys : -1, id ? id->phys_from : PHYS_NONE);
	sb_adds(sb, ", ");
	ident_json_ledger(sb, id);
}

/* The live tenants of NPU phys from npu-smi's table: null when the NPU
 * is not known or there is no table. */
static void tenants_part(struct strbuf *sb, long phys,
			 const struct npu_table *npu)
{
	sb_adds(sb, ", \"tenants\": ");
	if (!npu || phys < 0) {
		sb_adds(sb, "null");
		return;
	}
	sb_adds(sb, "[");
	for (size_t i = 0, k = 0; i < npu->nprocs && i < NPU_PROCS_MAX; i++) {
		const struct npu_proc *t = &npu->procs[i];
		if (t->npu != phys)
			continue;
		sb_adds(sb, k++ ? ", {\"pid\": " : "{\"pid\": ");
		json_id(sb, t->pid);
		sb_adds(sb, ", ");
		json_member_max(sb, "name", t->name, sizeof t->name);
		json_more_count(sb, "memory_mb", t->mem_mb);
		sb_adds(sb, "}");
	}
	sb_adds(sb, "]");
}

static void device_part(struct strbuf *sb, const struct device_row *d,
			const struct npu_table *npu)
{
	sb_adds(sb, "{");
	host_member(sb, d->host);
	json_more_count(sb, "device", d->device);
	npu_part(sb, d->phys, d->phys_from);
	sb_adds(sb, ", \"processes\": [");
	for (size_t i = 0; i < d->nprocs && i < IDENT_JSON_PIDS; i++) {
		sb_adds(sb, i ? ", " : "");
		json_id(sb, d->procs[i]->pid);
	}
	sb_addf(sb, "], \"processes_total\": %zu, \"alive\": [", d->nprocs);
	for (size_t i = 0, k = 0; i < d->nprocs && i < IDENT_JSON_PIDS; i++)
		if (d->procs[i]->alive) {
			sb_adds(sb, k++ ? ", " : "");
			json_id(sb, d->procs[i]->pid);
		}
	sb_addf(sb, "], \"incidents\": %zu, \"counts\": [", d->incidents);
	for (int r = RES_NONE + 1, k = 0; r < RES_COUNT; r++)
		if (d->by_resource[r])
			sb_addf(sb, "%s{\"" TAX_KEY_RESOURCE "\": \"%s\", "
				"\"incidents\": %zu}", k++ ? ", " : "",
				resource_name((enum resource)r),
				d->by_resource[r]);
	sb_addf(sb, "], \"failing\": %zu, \"jobs\": %zu, \"shared\": %s, "
		"\"orphan\": %s, \"no_map\": %s", d->failing, d->jobs,
		d->jobs > 1 ? "true" : "false", d->orphan ? "true" : "false",
		d->no_map ? "true" : "false");
	/* Who the orphan is (ident.h: struct device_row). */
	sb_adds(sb, ", \"orphan_pid\": ");
	if (d->orphan_id && d->orphan_id->pid > 0)
		sb_addf(sb, "%ld", d->orphan_id->pid);
	else
		sb_adds(sb, "null");
	/* npu-smi's table is this host's: a host's device has none here. */
	tenants_part(sb, d->host || d->phys_from == PHYS_NONE ? -1 : d->phys,
		     npu);
	sb_adds(sb, "}");
}

void ident_json_devices(struct strbuf *sb, const struct device_row *v,
			size_t n, const struct npu_table *npu)
{
	sb_adds(sb, "  \"devices\": [");
	for (size_t i = 0; i < n; i++) {
		sb_adds(sb, i ? ",\n    " : "\n    ");
		device_part(sb, &v[i], npu);
	}
	sb_adds(sb, n ? "\n  ]" : "]");
}

void ident_json_leaks(struct strbuf *sb, const struct ident *const *v,
		      size_t n)
{
	size_t k = 0;

	sb_adds(sb, "  \"leaks\": [");
	for (size_t i = 0; i < n; i++) {
		for (int r = 0; r < LEDGER_COUNT; r++) {
			const struct ledger *l = ident_ledger(v[i], r);
			if (!leak_kind_name(l->leak))
				continue;
			sb_adds(sb, k++ ? ",\n    {" : "\n    {");
			host_member(sb, v[i]->host);
			sb_adds(sb, ", \"pid\": ");
			json_id(sb, v[i]->pid);
			sb_adds(sb, ", ");
			json_member_max(sb, "name", v[i]->name ? v[i]->name
					: "", WIRE_STRING_MAX);
			sb_addf(sb, ", \"" TAX_KEY_RESOURCE "\": \"%s\", "
				"\"created\": %llu, \"destroyed\": %llu, "
				"\"held\": %llu, \"from\": \"%s\", "
				"\"kind\": \"%s\", \"complete\": %s",
				resource_name(ledger_resource(
					(enum ledger_res)r)),
				l->created, l->destroyed, ledger_held(l),
				ledger_from_name(l->from),
				leak_kind_name(l->leak),
				l->complete ? "true" : "false");
			json_more_count(sb, "device", view_ident_device(v[i]));
			json_more_count(sb, "rank", view_ident_rank(v[i]));
			sb_adds(sb, "}");
		}
	}
	sb_adds(sb, k ? "\n  ]" : "]");
}
