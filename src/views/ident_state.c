/* One identity whole, as JSON, written and read (ident_state.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "ident_state.h"
#include "ident_view.h"
#include "json.h"
#include "taxonomy.h"
#include "xalloc.h"

/* A count read back: beyond what any run counts, refused. */
#define IDENT_STATE_COUNT_MAX (1LL << 62)

/* ---- writing ---- */

static void write_ledger(struct strbuf *sb, const struct ledger *l)
{
	sb_addf(sb, "{\"from\": \"%s\", \"created\": %llu, \"destroyed\": "
		"%llu, \"attempts\": %llu, \"failed\": %llu, \"failed_at\": "
		"%llu, \"unmatched\": %llu, \"complete\": %s, \"leak\": ",
		ledger_from_name(l->from), l->created, l->destroyed,
		l->attempts, l->failed, l->failed_at, l->unmatched,
		l->complete ? "true" : "false");
	if (l->leak == LEAK_ENDED)
		sb_adds(sb, "\"ended\"");
	else if (l->leak == LEAK_RISING)
		sb_adds(sb, "\"rising\"");
	else
		sb_adds(sb, "null");
	sb_adds(sb, ", \"trend\": [");
	for (int i = 0; i < IDENT_TREND; i++)
		sb_addf(sb, "%s%llu", i ? ", " : "", l->trend[i]);
	sb_addf(sb, "], \"span\": %lld, \"nspans\": %u, \"warm_span\": %lld}",
		l->span, l->nspans, l->warm_span);
}

static void write_devices(struct strbuf *sb, const struct ident *id)
{
	sb_adds(sb, ", \"devices\": [");
	for (size_t i = 0; i < id->ndevices; i++)
		sb_addf(sb, "%s%ld", i ? ", " : "", (long)id->dev[i].device);
	sb_adds(sb, "], \"dev\": [");
	for (size_t i = 0; id->dev && i < id->ndevices; i++) {
		const struct ident_dev *d = &id->dev[i];
		sb_addf(sb, "%s{\"n\": %lu, \"last\": %lld, \"by\": {",
			i ? ", " : "", (unsigned long)d->n, (long long)d->last);
		for (int r = RES_NONE + 1, k = 0; r < RES_COUNT; r++)
			if (d->by_resource[r])
				sb_addf(sb, "%s\"%s\": %lu", k++ ? ", " : "",
					resource_name((enum resource)r),
					(unsigned long)d->by_resource[r]);
		sb_adds(sb, "}}");
	}
	sb_adds(sb, "]");
}

void ident_state_write(struct strbuf *sb, const struct ident *id,
		       int with_host)
{
	sb_adds(sb, "{");
	if (id->host && with_host)
		json_member(sb, "host", id->host->name);
	else
		sb_adds(sb, "\"host\": null");
	/* A host a path named: where and how, for the next run to show it
	 * so before its files say it again (model_path_host_restored). */
	if (id->host && with_host && id->host->origin) {
		sb_adds(sb, ", ");
		json_member_max(sb, "host_path", id->host->origin,
				IDENT_STATE_STRING_MAX);
		sb_adds(sb, ", ");
		json_member(sb, "host_rule", id->host->rule);
	}
	if (id->job && id->job_rule) {
		sb_adds(sb, ", ");
		json_member(sb, "job_rule", id->job_rule);
	}
	sb_addf(sb, ", \"pid\": %ld, ", id->pid);
	json_member_max(sb, "name", id->name ? id->name : "",
			IDENT_STATE_STRING_MAX);
	json_more_count(sb, "device", id->device);
	write_devices(sb, id);
	json_more_count(sb, "rank", id->rank);
	json_more_count(sb, "local_rank", id->local_rank);
	json_more_count(sb, "world_size", id->world_size);
	json_more_count(sb, "dp", id->dp);
	json_more_count(sb, "tp", id->tp);
	json_more_count(sb, "ep", id->ep);
	sb_adds(sb, ", ");
	if (id->job)
		json_member_max(sb, "job", id->job, IDENT_STATE_STRING_MAX);
	else
		sb_adds(sb, "\"job\": null");
	sb_addf(sb, ", \"first\": %lld, \"last\": %lld, \"dev_seen\": %s",
		(long long)id->first, (long long)id->last,
		id->dev_seen ? "true" : "false");
	json_more_count(sb, "npu", id->phys_from != PHYS_NONE ? id->phys : -1);
	sb_adds(sb, ", \"npu_from\": ");
	if (id->phys_from != PHYS_NONE && id->phys >= 0)
		sb_addf(sb, "\"%s\"", phys_from_name(id->phys_from));
	else
		sb_adds(sb, "null");
	sb_adds(sb, ", \"ledger\": {");
	for (int r = 0, k = 0; r < LEDGER_COUNT; r++) {
		if (ident_ledger(id, r)->from == LEDGER_NONE)
			continue;
		sb_addf(sb, "%s\"%s\": ", k++ ? ", " : "",
			resource_name(ledger_resource((enum ledger_res)r)));
		write_ledger(sb, ident_ledger(id, r));
	}
	sb_adds(sb, "}}");
}

void ident_state_section(struct strbuf *sb, const struct model *m)
{
	const struct ident *const *v;
	size_t n = model_idents(m, &v);

	sb_adds(sb, "\"identities\": [");
	for (size_t i = 0; i < n && i < IDENT_MAX; i++) {
		sb_adds(sb, i ? ",\n  " : "\n  ");
		ident_state_write(sb, v[i], 1);
	}
	sb_adds(sb, "]");
}

/* ---- reading ---- */

/* A member that is an integer in [lo, hi] (or null / absent when
 * nullable: then *out = -1).  0, or -1. */
static int get_int(const struct jval *o, const char *key, long long lo,
		   long long hi, int nullable, long long *out)
{
	const struct jval *v = json_get(o, key);

	if ((!v || v->type == J_NULL) && nullable) {
		*out = -1;
		return 0;
	}
	if (!v || v->type != J_NUMBER || !v->is_int || v->integer < lo ||
	    v->integer > hi)
		return -1;
	*out = v->integer;
	return 0;
}

static int get_long(const struct jval *o, const char *key, long hi,
		    long *out)
{
	long long v;

	if (get_int(o, key, 0, hi, 1, &v) < 0)
		return -1;
	*out = v < 0 ? IDENT_UNKNOWN : (long)v;
	return 0;
}

/* A rank or a parallel degree (at most VIEW_RANK_MAX: 32 bits). */
static int get_rank(const struct jval *o, const char *key, int32_t *out)
{
	long v;

	if (get_long(o, key, VIEW_RANK_MAX, &v) < 0)
		return -1;
	*out = (int32_t)v;
	return 0;
}

static int get_u(const struct jval *o, const char *key,
		 unsigned long long *out)
{
	long long v;

	if (get_int(o, key, 0, IDENT_STATE_COUNT_MAX, 0, &v) < 0)
		return -1;
	*out = (unsigned long long)v;
	return 0;
}

static int get_bool(const struct jval *o, const char *key, int *out)
{
	const struct jval *v = json_get(o, key);

	if (!v || v->type != J_BOOL)
		return -1;
	*out = v->boolean;
	return 0;
}

/* A string member of at most IDENT_STATE_STRING_MAX bytes, or null
 * (*out NULL) when nullable. */
static int get_str(const struct jval *o, const char *key, int nullable,
		   const char **out)
{
	const struct jval *v = json_get(o, key);

	*out = NULL;
	if ((!v || v->type == J_NULL) && nullable)
		return 0;
	if (!v || v->type != J_STRING || v->len > IDENT_STATE_STRING_MAX)
		return -1;
	*out = v->str;
	return 0;
}

static int read_trend(const struct jval *o, struct ledger *l)
{
	const struct jval *t = json_get(o, "trend");

	if (!t || t->type != J_ARRAY || t->n != IDENT_TREND)
		return -1;
	for (int i = 0; i < IDENT_TREND; i++) {
		const struct jval *e = &t->items[i];
		if (e->type != J_NUMBER || !e->is_int || e->integer < 0)
			return -1;
		l->trend[i] = (unsigned long long)e->integer;
	}
	return 0;
}

static int read_ledger(const struct jval *o, struct ledger *l)
{
	const char *from, *leak;
	long long span, nspans, warm;

	if (!o || o->type != J_OBJECT || get_str(o, "from", 0, &from) < 0 ||
	    get_str(o, "leak", 1, &leak) < 0 ||
	    get_u(o, "created", &l->created) < 0 ||
	    get_u(o, "destroyed", &l->destroyed) < 0 ||
	    get_u(o, "attempts", &l->attempts) < 0 ||
	    get_u(o, "failed", &l->failed) < 0 ||
	    get_u(o, "failed_at", &l->failed_at) < 0 ||
	    get_u(o, "unmatched", &l->unmatched) < 0 ||
	    get_bool(o, "complete", &l->complete) < 0 ||
	    read_trend(o, l) < 0 ||
	    get_int(o, "span", -(1LL << 50), 1LL << 50, 0, &span) < 0 ||
	    get_int(o, "nspans", 0, IDENT_TREND, 0, &nspans) < 0 ||
	    get_int(o, "warm_span", -(1LL << 50), 1LL << 50, 0, &warm) < 0)
		return -1;
	if (strcmp(from, ledger_from_name(LEDGER_CALLS)) == 0)
		l->from = LEDGER_CALLS;
	else if (strcmp(from, ledger_from_name(LEDGER_STATISTICS)) == 0)
		l->from = LEDGER_STATISTICS;
	else
		return -1;
	if (!leak)
		l->leak = LEAK_NO;
	else if (strcmp(leak, "ended") == 0)
		l->leak = LEAK_ENDED;
	else if (strcmp(leak, "rising") == 0)
		l->leak = LEAK_RISING;
	else
		return -1;
	l->span = span;
	l->nspans = (unsigned)nspans;
	l->warm_span = warm;
	return 0;
}

static int read_ledgers(const struct jval *o, struct ident *id)
{
	if (!o || o->type != J_OBJECT)
		return -1;
	for (size_t i = 0; i < o->n; i++) {
		enum ledger_res r = ledger_of_resource(
			resource_from_name(o->members[i].key));
		if (r == LEDGER_COUNT ||
		    read_ledger(&o->members[i].value,
				   ident_ledger_mut(id, r)) < 0)
			return -1;
	}
	return 0;
}

static int read_dev(const struct jval *e, struct ident_dev *d)
{
	const struct jval *by = json_get(e, "by");
	long long n, last;

	if (e->type != J_OBJECT ||
	    get_int(e, "n", 0, IDENT_STATE_COUNT_MAX, 0, &n) < 0 ||
	    get_int(e, "last", 0, 1LL << 62, 0, &last) < 0 ||
	    !by || by->type != J_OBJECT)
		return -1;
	d->n = ident_dev_add(0, (size_t)n);	/* at most UINT32_MAX */
	d->last = (logtime_t)last;
	for (size_t i = 0; i < by->n; i++) {
		const struct jval *c = &by->members[i].value;
		enum resource r = resource_from_name(by->members[i].key);
		if (r == RES_NONE || c->type != J_NUMBER || !c->is_int ||
		    c->integer < 0 || c->integer > IDENT_STATE_COUNT_MAX)
			return -1;
		d->by_resource[r] = ident_dev_add(0, (size_t)c->integer);
	}
	return 0;
}

static int read_devices(const struct jval *o, struct ident *id)
{
	const struct jval *dv = json_get(o, "devices");
	const struct jval *dc = json_get(o, "dev");

	if (!dv || dv->type != J_ARRAY || dv->n > IDENT_DEVICES || !dc ||
	    dc->type != J_ARRAY || dc->n != dv->n ||
	    get_long(o, "device", VIEW_DEVICE_MAX, &id->device) < 0)
		return -1;
	ident_devs_room(id, dv->n ? dv->n : 1);
	memset(id->dev, 0, (dv->n ? dv->n : 1) * sizeof *id->dev);
	for (size_t i = 0; i < dv->n; i++) {
		const struct jval *e = &dv->items[i];
		if (e->type != J_NUMBER || !e->is_int || e->integer < 0 ||
		    e->integer > VIEW_DEVICE_MAX ||
		    read_dev(&dc->items[i], &id->dev[i]) < 0)
			return -1;
		id->dev[i].device = (int32_t)e->integer;	/* <= VIEW_DEVICE_MAX */
	}
	id->ndevices = (uint32_t)dv->n;	/* at most IDENT_DEVICES */
	return 0;
}

static int read_npu(const struct jval *o, struct ident *id)
{
	const char *from;

	if (get_long(o, "npu", VIEW_DEVICE_MAX, &id->phys) < 0 ||
	    get_str(o, "npu_from", 1, &from) < 0)
		return -1;
	id->phys_from = PHYS_NONE;
	if (from && strcmp(from, phys_from_name(PHYS_ENVIRON)) == 0)
		id->phys_from = PHYS_ENVIRON;
	else if (from && strcmp(from, phys_from_name(PHYS_NPU_SMI)) == 0)
		id->phys_from = PHYS_NPU_SMI;
	else if (from)
		return -1;
	if (id->phys_from == PHYS_NONE)
		id->phys = IDENT_UNKNOWN;
	return 0;
}

/* The rule that named the job, as one of ident.h's own strings; NULL
 * when not said or not one of them. */
static const char *job_rule_named(const struct jval *v)
{
	static const char *const rules[] = {
		IDENT_JOB_OPTION, IDENT_JOB_ENV, IDENT_JOB_PATH, IDENT_JOB_ROOT,
	};
	const char *r;

	if (get_str(v, "job_rule", 1, &r) < 0 || !r)
		return NULL;
	for (size_t i = 0; i < sizeof rules / sizeof *rules; i++)
		if (strcmp(r, rules[i]) == 0)
			return rules[i];
	return NULL;
}

/* The fields that are numbers and strings. */
static int read_scalars(const struct jval *v, struct ident *id,
			const char **host)
{
	const char *name, *job;
	long long pid, first, last;
	int dev_seen;

	if (get_str(v, "host", 1, host) < 0 ||
	    get_int(v, "pid", 0, 1LL << 40, 0, &pid) < 0 ||
	    get_str(v, "name", 0, &name) < 0 ||
	    get_str(v, "job", 1, &job) < 0 ||
	    get_rank(v, "rank", &id->rank) < 0 ||
	    get_rank(v, "local_rank", &id->local_rank) < 0 ||
	    get_rank(v, "world_size", &id->world_size) < 0 ||
	    get_rank(v, "dp", &id->dp) < 0 ||
	    get_rank(v, "tp", &id->tp) < 0 ||
	    get_rank(v, "ep", &id->ep) < 0 ||
	    get_int(v, "first", 0, 1LL << 62, 0, &first) < 0 ||
	    get_int(v, "last", 0, 1LL << 62, 0, &last) < 0 ||
	    get_bool(v, "dev_seen", &dev_seen) < 0)
		return -1;
	id->dev_seen = (unsigned char)dev_seen;
	if ((*host && !**host) || (!pid && !name[0]))
		return -1;
	id->pid = (long)pid;
	id->name = xstrdup(name);
	id->job = job ? xstrdup(job) : NULL;
	id->job_rule = job ? job_rule_named(v) : NULL;
	id->first = (logtime_t)first;
	id->last = (logtime_t)last;
	return 0;
}

int ident_state_read(const struct jval *v, struct ident *out,
		     const char **host, struct strbuf *why)
{
	memset(out, 0, sizeof *out);
	*host = NULL;
	if (!v || v->type != J_OBJECT || read_scalars(v, out, host) < 0 ||
	    read_devices(v, out) < 0 || read_npu(v, out) < 0 ||
	    read_ledgers(json_get(v, "ledger"), out) < 0) {
		sb_adds(why, _("not an identity"));
		ident_state_clear(out);
		return -1;
	}
	return 0;
}

void ident_state_clear(struct ident *id)
{
	free(id->name);
	free(id->job);
	ident_devs_free(id);
	id->name = id->job = NULL;
	ident_more_free(id);
}

int ident_state_restore(struct model *m, const struct jval *arr,
			struct strbuf *why)
{
	if (!arr)
		return 0;	/* a state of an older plogtop */
	if (arr->type != J_ARRAY || arr->n > IDENT_MAX) {
		sb_addf(why, _("identities: not a list of at most %d"), IDENT_MAX);
		return -1;
	}
	struct ident *v = xcalloc(arr->n ? arr->n : 1, sizeof *v);
	const char **hosts = xcalloc(arr->n ? arr->n : 1, sizeof *hosts);
	size_t n = 0;
	int rc = 0;
	for (; n < arr->n; n++) {
		if (ident_state_read(&arr->items[n], &v[n], &hosts[n],
				     why) < 0) {
			sb_addf(why, _(" (identity %zu)"), n);
			rc = -1;
			break;
		}
	}
	/* Checked whole first: a bad one must not leave half of them. */
	for (size_t i = 0; rc == 0 && i < n; i++) {
		model_ident_restore(m, hosts[i], &v[i], 0);
		const char *hp, *hr;
		if (hosts[i] &&
		    get_str(&arr->items[i], "host_path", 1, &hp) == 0 &&
		    get_str(&arr->items[i], "host_rule", 1, &hr) == 0 &&
		    hp && hr)
			model_path_host_restored(m, hosts[i], hp, hr);
	}
	for (size_t i = 0; i < n; i++)
		ident_state_clear(&v[i]);
	free(v);
	free(hosts);
	return rc;
}
