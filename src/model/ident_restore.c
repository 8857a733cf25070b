/* An identity given whole (a state file's "identities", a host's
 * identity line): the model takes its absolute values, so that reading
 * it again (a resend, a reconnect) changes nothing, and a restart goes
 * on from what the last run knew (ident.h: model_ident_restore). */
#include "config.h"

#include <string.h>

#include "ident_int.h"
#include "xalloc.h"

static struct model_host *host_of(struct model *m, const char *name)
{
	if (!name)
		return NULL;
	struct model_host *h = model_host_find(m, name);
	return h ? h : model_host_add(m, name);
}

static long known(long v)
{
	return v >= 0 ? v : IDENT_UNKNOWN;
}

/* Its devices and their counts, replaced by the snapshot's. */
static void take_devices(struct ident *id, const struct ident *snap)
{
	size_t n = snap->ndevices > IDENT_DEVICES ? IDENT_DEVICES
						  : snap->ndevices;

	if (!snap->dev)
		n = 0;	/* nothing to take (a snapshot's has them) */

	id->ndevices = 0;
	ident_devs_room(id, n ? n : 1);
	for (size_t i = 0; i < n; i++) {
		if (snap->dev[i].device < 0)
			continue;
		id->dev[id->ndevices++] = snap->dev[i];
	}
	id->device = known(snap->device);
	/* The device it set is among those it used. */
	if (id->device >= 0 && !id->ndevices) {
		memset(&id->dev[0], 0, sizeof *id->dev);
		id->dev[0].device = id->device;
		id->dev[0].last = LOGTIME_UNKNOWN;
		id->ndevices = 1;
	}
}

struct ident *model_ident_restore(struct model *m, const char *host,
				  const struct ident *snap, int keep_phys)
{
	struct ident *id = ident_get(m, host_of(m, host), snap->pid,
				     snap->name ? snap->name : "",
				     LOGTIME_UNKNOWN);

	take_devices(id, snap);
	id->rank = known(snap->rank);
	id->local_rank = known(snap->local_rank);
	id->world_size = known(snap->world_size);
	id->dp = known(snap->dp);
	id->tp = known(snap->tp);
	id->ep = known(snap->ep);
	if (snap->job && snap->job[0])
		ident_set_job_by(m, id, snap->job, snap->job_rule);
	ident_saw(id, snap->first);
	ident_saw(id, snap->last);
	id->dev_seen = snap->dev_seen ? 1 : id->dev_seen;
	for (int r = 0; r < LEDGER_COUNT; r++) {
		/* Absolute, as the snapshot has it: none stays none. */
		enum ledger_res lr = (enum ledger_res)r;

		const struct ledger *from = ident_ledger_made(snap, lr);
		struct ledger *to = ident_ledger_made(id, lr);

		if (from)
			memcpy(ident_ledger_mut(id, lr), from,
			       sizeof (struct ledger));
		else if (to)
			memcpy(to, ident_ledger(snap, lr),
			       sizeof (struct ledger));
		if (!from)
			id->failed_only[r] = 0;
	}
	if (keep_phys && snap->phys_from != PHYS_NONE && snap->phys >= 0) {
		id->phys = snap->phys;
		id->phys_from = snap->phys_from;
	} else if (!keep_phys) {
		/* A live process's map or npu-smi's row is asked again. */
		ident_map_phys(id);
	}
	m->generation++;
	return id;
}

void model_ident_ledger(struct model *m, const char *host, long pid,
			const char *name, enum ledger_res r,
			const struct ledger *l, long device)
{
	if (r >= LEDGER_COUNT)
		return;
	struct ident *id = ident_get(m, host_of(m, host), pid,
				     name ? name : "", LOGTIME_UNKNOWN);
	struct ledger *to = ident_ledger_mut(id, r);

	to->from = l->from;
	to->created = l->created;
	to->destroyed = l->destroyed;
	to->complete = l->complete;
	to->leak = l->leak;
	if (id->device < 0 && device >= 0)
		ident_set_device(id, device);
	m->generation++;
}
