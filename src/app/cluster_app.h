/* --from-prometheus: a cluster's report (--once) or dashboard, read from
 * a Prometheus server's API (src/cluster/) instead of local files. */
#ifndef PLOGTOP_CLUSTER_APP_H
#define PLOGTOP_CLUSTER_APP_H

#include "catalog.h"
#include "options.h"

/* The dashboard refreshes every --interval, but not more often than
 * this: each refresh asks the server a few queries over every node. */
#define CLUSTER_REFRESH_MIN_MS 2000

/* Return the exit status. */
int run_cluster_once(const struct options *o, const struct catalog *cat);
int run_cluster_dashboard(const struct options *o, const struct catalog *cat);

#endif
