/* What an identity learns: from facts (the device it set, its rank, its
 * creates and destroys, its finalize statistics) and from its incidents'
 * fields; and what an incident takes from its identity (its device and
 * rank when its own lines name none, the name of a pid-only block). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ident_int.h"
#include "xalloc.h"

/* ---- devices ---- */

/* Its slot for device in dev[] (added when new; when all are taken,
 * the oldest goes, with its counts). */
static size_t dev_slot(struct ident *id, long device)
{
	int32_t key = ident_num(device);	/* a fact's may be longer */

	for (size_t i = 0; i < id->ndevices; i++)
		if (id->dev[i].device == key)
			return i;
	if (id->ndevices == IDENT_DEVICES) {
		memmove(id->dev, id->dev + 1,
			(IDENT_DEVICES - 1) * sizeof *id->dev);
		id->ndevices--;
	} else {
		/* Grown one at a time: most processes use one device. */
		ident_devs_room(id, id->ndevices + 1);
	}
	size_t i = id->ndevices++;
	memset(&id->dev[i], 0, sizeof id->dev[i]);
	id->dev[i].device = key;
	id->dev[i].last = LOGTIME_UNKNOWN;
	return i;
}

void ident_map_phys(struct ident *id)
{
	if (id->phys_from == PHYS_NPU_SMI)
		return;		/* npu-smi's table wins (ident_apply_npu) */
	const struct ident_env *env = ident_env(id);

	if (env->nmap && id->device >= 0 && id->device < env->nmap) {
		id->phys = env->map[id->device];
		id->phys_from = PHYS_ENVIRON;
	} else {
		id->phys = IDENT_UNKNOWN;
		id->phys_from = PHYS_NONE;
	}
}

size_t ident_set_device(struct ident *id, long device)
{
	size_t i = dev_slot(id, device);

	id->device = device;
	ident_map_phys(id);
	return i;
}

/* ---- facts ---- */

/* A number as the logs write an id: digits only, not too many. */
static long parse_id(const char *s)
{
	long v = 0;

	if (!s || !*s)
		return IDENT_UNKNOWN;
	for (int n = 0; *s; s++, n++) {
		if (*s < '0' || *s > '9' || n >= 9)
			return IDENT_UNKNOWN;
		v = v * 10 + (*s - '0');
	}
	return v;
}

static void set_if_said(int32_t *dst, long v)
{
	if (v >= 0)
		*dst = ident_num(v);
}

static void learn_ledger(struct ident *id, const struct fact *f)
{
	enum ledger_res r = ledger_of_resource(f->resource);

	if (r == LEDGER_COUNT)
		return;
	struct ledger *l = ident_ledger_mut(id, r);
	switch (f->kind) {
	case FACT_CREATE:
		ledger_create(id, l, r, f->time);
		break;
	case FACT_CREATED:
		ledger_created(id, l, r, f->time);
		break;
	case FACT_DESTROYED:
		ledger_destroyed(id, l, f->time);
		break;
	case FACT_STATISTICS:
		ledger_statistics(l, r, f);
		break;
	default:
		break;
	}
}

/* What a pid-only block taught before the process it was of came
 * (captured output read before the plog files): the first named one of
 * that pid takes it, where it knows nothing itself. */
static void inherit(struct model *m, struct ident *id)
{
	const struct ident *anon = ident_find(m, id->host, id->pid, "");

	if (!anon || anon == id)
		return;
	set_if_said(&id->rank, id->rank < 0 ? anon->rank : -1);
	set_if_said(&id->dp, id->dp < 0 ? anon->dp : -1);
	set_if_said(&id->tp, id->tp < 0 ? anon->tp : -1);
	set_if_said(&id->ep, id->ep < 0 ? anon->ep : -1);
	if (id->device < 0 && anon->device >= 0) {
		for (size_t i = 0; i < anon->ndevices; i++)
			dev_slot(id, anon->dev[i].device);
		ident_set_device(id, anon->device);
	}
}

/* A rank is the process's for all its life: incidents it kept from
 * before the rank was learned (a launcher's captured output read after
 * the plog files) take it too, so that an incident and its process
 * never disagree in a report. */
static void learn_rank(struct ident *id, long rank)
{
	if (rank < 0 || ident_num(rank) == id->rank)
		return;
	id->rank = ident_num(rank);
	if (!id->proc || (id->pid <= 0 && !(id->name && id->name[0])))
		return;	/* the row of blocks with neither: no process */
	if (!id->proc->lv)
		return;	/* --once: it keeps no recent incidents */
	for (struct dlink *l = id->proc->lv->recent.first; l; l = l->next) {
		struct incident *inc = DLIST_ENTRY(l, struct incident, in_proc);
		if (inc->rank_from != FROM_NONE ||
		    parse_id(incident_field(inc, "rank")) >= 0)
			continue;
		inc->rank = rank;
		inc->rank_from = FROM_PROCESS;
	}
}

/* The identity of (host, pid, name), made when new: the first named one
 * of a pid inherits what its pid-only blocks taught. */
static struct ident *get(struct model *m, struct model_host *host,
			 long pid, const char *name, logtime_t t)
{
	struct ident *id = ident_find(m, host, pid, name);

	if (id) {
		ident_saw(id, t);
		return id;
	}
	const char *other = name[0] && pid
			    ? ident_name_by_pid(m, host, pid, t) : "";
	id = ident_get(m, host, pid, name, t);
	if (!other || (other[0] && strcmp(other, name) == 0))
		inherit(m, id);
	return id;
}

/* A line that names a pid but no program (captured output) is of the
 * one identity of that pid (nearest in time when several). */
static const char *join_name(const struct model *m,
			     const struct model_host *host, long pid,
			     const char *name, logtime_t t)
{
	if (name && name[0])
		return name;
	if (!pid)
		return "";
	const char *j = ident_name_by_pid(m, host, pid, t);
	return j ? j : "";
}

static struct model_host *host_of(struct model *m, const char *name)
{
	if (!name)
		return NULL;
	struct model_host *h = model_host_find(m, name);
	return h ? h : model_host_add(m, name);
}

void model_fact(struct model *m, const struct fact *f)
{
	struct fact by_path;
	f = model_path_fact(m, f, &by_path);	/* its host by its path */
	/* No pid and no name: no process to learn it of. */
	if (!f->pid && (!f->name || !f->name[0]))
		return;
	struct model_host *host = host_of(m, f->host);
	const char *name = join_name(m, host, f->pid, f->name, f->time);
	struct ident *id = get(m, host, f->pid, name, f->time);

	ident_find_job(m, id, f->file);
	switch (f->kind) {
	case FACT_DEVICE:
		if (f->device >= 0) {
			ident_set_device(id, f->device);
			id->dev_seen = 1;
		}
		break;
	case FACT_RANK:
		learn_rank(id, f->rank);
		set_if_said(&id->dp, f->dp);
		set_if_said(&id->tp, f->tp);
		set_if_said(&id->ep, f->ep);
		break;
	default:
		learn_ledger(id, f);
		break;
	}
}

/* ---- incidents ---- */

/* The ledger whose create the API is (ACL's or RUNTIME's name of it), or
 * LEDGER_COUNT. */
static enum ledger_res create_api(const char *api)
{
	static const struct {
		const char *prefix;
		enum ledger_res r;
	} creates[] = {
		{ "aclrtCreateStream", LEDGER_STREAM },
		{ "aclrtCreateEvent", LEDGER_EVENT },
		{ "aclrtCreateNotify", LEDGER_NOTIFY },
		{ "rtStreamCreate", LEDGER_STREAM },
		{ "rtEventCreate", LEDGER_EVENT },
		{ "rtNotifyCreate", LEDGER_NOTIFY },
	};

	for (size_t i = 0; api && i < sizeof creates / sizeof creates[0]; i++)
		if (strncmp(api, creates[i].prefix,
			    strlen(creates[i].prefix)) == 0)
			return creates[i].r;
	return LEDGER_COUNT;
}

/* Its lines name a device, a rank or parallel indices, or a host's
 * report said them. */
static int teaches(const struct incident *inc)
{
	static const char *const keys[] = { "device_id", "rank", "dp", "tp",
					     "ep" };

	if (inc->device_from != FROM_NONE || inc->rank_from != FROM_NONE)
		return 1;
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (parse_id(incident_field(inc, keys[i])) >= 0)
			return 1;
	return 0;
}

static void learn_fields(struct ident *id, const struct incident *inc)
{
	long dev = parse_id(incident_field(inc, "device_id"));

	if (dev >= 0)
		ident_set_device(id, dev);
	learn_rank(id, parse_id(incident_field(inc, "rank")));
	set_if_said(&id->dp, parse_id(incident_field(inc, "dp")));
	set_if_said(&id->tp, parse_id(incident_field(inc, "tp")));
	set_if_said(&id->ep, parse_id(incident_field(inc, "ep")));
}

/* The incident's device and rank: its own lines', else its process's
 * (id NULL: it has none). */
static void give_ident(const struct ident *id, struct incident *inc)
{
	if (inc->device_from == FROM_NONE) {
		long dev = parse_id(incident_field(inc, "device_id"));
		if (dev >= 0) {
			inc->device = dev;
			inc->device_from = FROM_LINES;
		} else if (id && id->device >= 0) {
			inc->device = id->device;
			inc->device_from = FROM_PROCESS;
		}
	}
	if (inc->rank_from == FROM_NONE) {
		long rank = parse_id(incident_field(inc, "rank"));
		if (rank >= 0) {
			inc->rank = rank;
			inc->rank_from = FROM_LINES;
		} else if (id && id->rank >= 0) {
			inc->rank = id->rank;
			inc->rank_from = FROM_PROCESS;
		}
	}
}

static void count_on_device(struct ident *id, const struct incident *inc,
			    size_t w)
{
	if (inc->device_from == FROM_NONE || inc->device < 0)
		return;
	size_t i = dev_slot(id, inc->device);	/* may allocate id->dev */
	struct ident_dev *d = &id->dev[i];
	d->n = ident_dev_add(d->n, w);
	if (inc->resource < RES_COUNT)
		d->by_resource[inc->resource] =
			ident_dev_add(d->by_resource[inc->resource], w);
	if (inc->last != LOGTIME_UNKNOWN &&
	    (d->last == LOGTIME_UNKNOWN || inc->last > d->last))
		d->last = inc->last;
}

/* A cluster's class of a process with no pid but a device
 * (model_add_counted): its own identity per device, so that the device
 * views have it. */
static void cluster_ident(struct model *m, struct model_host *host,
			  struct incident *inc)
{
	long dev = parse_id(incident_field(inc, "device_id"));

	if (dev < 0) {
		give_ident(NULL, inc);
		return;
	}
	struct ident *id = ident_get_dev(m, host, inc->name, dev, inc->first);
	learn_fields(id, inc);
	give_ident(id, inc);
	count_on_device(id, inc, m->weight);
}

void model_ident_incident(struct model *m, struct incident *inc)
{
	struct model_host *host = host_of(m, inc->host);

	if (!inc->name)
		inc->name = xstrdup("");
	const char *name = join_name(m, host, inc->pid, inc->name, inc->first);

	if (name != inc->name && strcmp(name, inc->name) != 0) {
		char *n = xstrdup(name);
		free(inc->name);
		inc->name = n;
	}
	/* No pid: no one process it is of (the screen prints of many
	 * processes share the row "-"), so it takes nothing from one and
	 * teaches none: its own lines only. */
	if (!inc->pid && m->weighted) {
		cluster_ident(m, host, inc);
		return;
	}
	if (!inc->pid) {
		give_ident(NULL, inc);
		return;
	}
	/* An identity is made when the incident teaches something (memory
	 * grows with what is known: a flood of one-off pids that say
	 * nothing but their failure costs no identity each). */
	struct ident *id = ident_find(m, host, inc->pid, inc->name);
	if (!id && !teaches(inc) &&
	    (!inc->name[0] || !ident_find(m, host, inc->pid, "")))
		return;
	if (!id)
		id = get(m, host, inc->pid, inc->name, inc->first);
	ident_saw(id, inc->first);
	ident_saw(id, inc->last);
	ident_find_job(m, id, inc->file);
	learn_fields(id, inc);
	give_ident(id, inc);
	count_on_device(id, inc, m->weight);
	enum ledger_res r = create_api(incident_field(inc, "api"));
	if (inc->code == CODE_EE1023 && r != LEDGER_COUNT &&
	    ledger_of_resource(inc->resource) != LEDGER_COUNT)
		ident_ledger_failed(id, r, inc->first);
}

void ident_link_proc(struct model *m, struct process *p)
{
	struct ident *id = p->key_dev >= 0
		? ident_find_dev(m, p->host, p->name, p->key_dev)
		: ident_find(m, p->host, p->pid, p->name);

	if (id)
		id->proc = p;
}
