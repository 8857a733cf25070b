/* One incident as --exec gives it to the command it runs: the same JSON
 * object as a line of --format=ndjson on its standard input, and its
 * main fields as PLOGTOP_* variables of its environment (README, "Run a
 * command for each incident"), each value sanitised. */
#ifndef PLOGTOP_EXEC_VIEW_H
#define PLOGTOP_EXEC_VIEW_H

#include "catalog.h"
#include "incident.h"
#include "strbuf.h"

/* The input: the incident's object and a newline (no_fix: "fix" null). */
void exec_view_input(struct strbuf *sb, const struct incident *inc,
		     const struct catalog *cat, int no_fix);
/* A new NULL-ended environment: base (NULL-ended, e.g. environ) without
 * its PLOGTOP_* variables, then the incident's.  host: this machine's
 * name, PLOGTOP_HOST of a local incident. */
char **exec_view_env(const struct incident *inc, const struct catalog *cat,
		     const char *host, char *const *base);
/* How messages name the incident: "EE1023 stream pid 4711 (python3)". */
char *exec_view_what(const struct incident *inc);

#endif
