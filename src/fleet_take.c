/* A host's incidents into the model: each as it came over the wire,
 * and, from a stream, each identity once. */
#include "config.h"

#include "fleet_int.h"
#include "i18n.h"
#include "model.h"
#include "remote_incident.h"

int fleet_take_incident(struct fleet *fl, struct fleet_host *fh,
			const struct jval *o, struct strbuf *err)
{
	struct incident *inc = remote_incident(fl->m, o, fh->mh->name, err);

	if (!inc)
		return -1;
	const char *file = inc->file;
	model_add(fl->m, inc);
	model_release_path(fl->m, file);
	fl->gen++;
	if (fl->o.on_incident)
		fl->o.on_incident(fl->o.ctx, inc);
	return 0;
}

/* A stream's incident: each identity once (a reconnect sends again
 * what came since the last cursor). */
int fleet_stream_incident(struct fleet *fl, struct fleet_host *fh,
			  const struct jval *o, struct strbuf *err)
{
	uint64_t id = fleet_incident_id(o);

	if (fleet_seen_has(&fh->seen, id)) {
		fh->overlap++;
		return 0;
	}
	if (fleet_take_incident(fl, fh, o, err) < 0)
		return -1;
	if (fleet_seen_add(&fh->seen, id) < 0 && !fh->seen_full_said) {
		fh->seen_full_said = 1;
		msglog_about(fl->o.log, fh->mh->name,
			     _("remembers no more incidents of this host: "
			       "a reconnect may count some again"));
	}
	return 0;
}
