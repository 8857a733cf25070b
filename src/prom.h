/* The Prometheus text-format file for node_exporter's textfile collector:
 * incidents by class and process name, and what plogtop reads. */
#ifndef PLOGTOP_PROM_H
#define PLOGTOP_PROM_H

#include <stddef.h>

#include "model.h"
#include "strbuf.h"

/* Renders the metrics. */
void prom_render(struct strbuf *out, const struct model *m,
		 size_t files_watched, double now_seconds);

/* Writes them to path atomically: a temporary file created exclusively
 * (no symlink followed) in the same directory with mode 0644, then
 * renamed over path.  Returns 0, or -1 with "PATH: why" in err. */
int prom_write(const char *path, const struct model *m, size_t files_watched,
	       struct strbuf *err);

#endif
