/* The Prometheus text-format file for node_exporter's textfile collector:
 * incidents by class and process name, and what plogtop reads. */
#ifndef PLOGTOP_PROM_H
#define PLOGTOP_PROM_H

#include <stddef.h>

#include "model.h"
#include "strbuf.h"

/* --follow and the dashboard rewrite the file at least this often, even
 * when nothing was read: plogtop_last_update_timestamp_seconds is their
 * heartbeat (--interval, when longer, is used instead). */
#define PROM_HEARTBEAT_MS 30000
/* Their first file waits, after the history, until the chains it left
 * open are closed, this long at most: the first file holds the history,
 * which the alert rules never page for. */
#define PROM_SETTLE_MS 30000

/* Renders the metrics. */
void prom_render(struct strbuf *out, const struct model *m,
		 size_t files_watched, double now_seconds);

/* Writes them to path atomically: a temporary file created exclusively
 * (no symlink followed) in the same directory with mode 0644, then
 * renamed over path.  Returns 0, or -1 with "PATH: why" in err. */
int prom_write(const char *path, const struct model *m, size_t files_watched,
	       struct strbuf *err);

#endif
