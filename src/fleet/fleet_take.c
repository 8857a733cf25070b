/* A stream's incidents into the model, each identity once (the one
 * way in for each is fleet_incident.c). */
#include "config.h"

#include "fleet_int.h"
#include "i18n.h"
#include "model.h"

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
	if (fleet_add_incident(fl->m, fh->mh->name, o, err) < 0)
		return -1;
	if (fleet_seen_add(&fh->seen, id) < 0 && !fh->seen_full_said) {
		fh->seen_full_said = 1;
		msglog_about(fl->o.log, fh->mh->name,
			     _("remembers no more incidents of this host: "
			       "a reconnect may count some again"));
	}
	return 0;
}
