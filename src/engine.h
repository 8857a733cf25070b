/* The reading engine: rules, classifier and feeder wired to a model.
 * Both the one-shot scan and the live watcher drive it. */
#ifndef PLOGTOP_ENGINE_H
#define PLOGTOP_ENGINE_H

#include "classifier.h"
#include "feeder.h"
#include "linesplit.h"
#include "model.h"
#include "rules.h"

struct engine {
	struct ruleset *rules;
	struct classifier *classifier;
	struct feeder *feeder;
	struct model *model;
	/* Called after each incident reaches the model (e.g. --follow). */
	void (*on_incident)(void *ctx, const struct incident *inc);
	void *ctx;
};

void engine_init(struct engine *e, struct ruleset *rules, struct model *m);
void engine_free(struct engine *e);

/* Reads a whole file or standard input ("-") through the feeder.
 * Returns 0, or -1 with errno set if it could not be opened or read. */
int engine_read_path(struct engine *e, const char *path, enum file_kind kind,
		     int check_binary);

/* Ends a group of files (one process's): every chain closes. */
void engine_end_group(struct engine *e);

#endif
