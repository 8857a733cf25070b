/* Who an incident or a process was, as every view says it: the device
 * and rank of an incident (its own, or its process's as the model set
 * them; the incident's own fields when the model has not been asked yet,
 * as in a JSON object rendered where it was read), their sources' names,
 * and a process's identity (src/model/ident.h) found once per view. */
#ifndef PLOGTOP_IDENT_VIEW_H
#define PLOGTOP_IDENT_VIEW_H

#include <stddef.h>

#include "ident.h"
#include "incident.h"
#include "model.h"

/* The bounds of a device id and a rank a view shows or a reader takes:
 * anything else is hostile (or not said), never a number. */
#define VIEW_DEVICE_MAX 65535L
#define VIEW_RANK_MAX 16777215L

/* "lines", "process", or NULL for FROM_NONE (null in JSON). */
const char *ident_from_name(enum ident_from f);
/* FROM_NONE for a name that is none of them. */
enum ident_from ident_from_of_name(const char *s);

/* The incident's device and where it came from; 0 when not known. */
int view_incident_device(const struct incident *inc, long *dev,
			 enum ident_from *from);
int view_incident_rank(const struct incident *inc, long *rank,
		       enum ident_from *from);

/* A process's known device (the last it set) and rank, or -1. */
long view_ident_device(const struct ident *id);
long view_ident_rank(const struct ident *id);

/* The identities of a model's processes, looked up by process: the
 * model's answer, else the identity that names the process as its row
 * (struct ident's proc). */
struct ident_map {
	const struct model *m;
	const struct ident **by_proc;	/* sorted by proc */
	size_t n;
};
void ident_map_init(struct ident_map *im, const struct model *m);
const struct ident *ident_map_get(const struct ident_map *im,
				  const struct process *p);
void ident_map_free(struct ident_map *im);

#endif
