/* The --follow mode: the event loop around the follower, printing each
 * incident as it completes and keeping the prom file up to date. */
#ifndef PLOGTOP_LIVE_H
#define PLOGTOP_LIVE_H

#include "catalog.h"
#include "options.h"
#include "rules.h"

/* Runs until interrupted; returns the exit status. */
int run_follow(const struct options *o, struct ruleset *rs,
	       const struct catalog *cat);

/* The dashboard: the same loop, drawn on the terminal. */
int run_dashboard(const struct options *o, struct ruleset *rs,
		  const struct catalog *cat);

#endif
