/* --demo: a temporary plog tree with an evolving, realistic workload
 * written into it (a job's ranks and a server, each a real process that
 * runs as long as the demo, each on its own device; every incident
 * class, rotations, quiet and busy spells), removed on exit with its
 * processes. */
#ifndef PLOGTOP_DEMO_H
#define PLOGTOP_DEMO_H

#include "strbuf.h"

struct demo;

/* Creates the tree; returns NULL with a message in err. */
struct demo *demo_new(struct strbuf *err);
const char *demo_root(const struct demo *dm);
/* Writes what is due by now_ms; returns when the next write is due. */
unsigned long long demo_step(struct demo *dm, unsigned long long now_ms);
/* Removes the tree. */
void demo_free(struct demo *dm);

#endif
