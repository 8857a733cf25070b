/* A host's incident, as the JSON object its plogtop wrote (a line of its
 * stream or an item of its --once report), into the model by the one
 * way in: what fleet.c, fleet_resume.c and fleet_once.c share, below
 * them all. */
#include "config.h"

#include "fleet_int.h"
#include "incident_json.h"

int fleet_add_incident(struct model *m, const char *host,
		       const struct jval *o, struct strbuf *err)
{
	struct incident *inc = incident_json_read(m, o, host, err);

	if (!inc)
		return -1;
	/* The host stamped its own: what it read live, it read as it was
	 * written, and gave a time. */
	const char *file = inc->file;
	model_add(m, inc, READ_BEFORE);
	model_release_path(m, file);
	return 0;
}
