/* What the model's tests share: an incident made by hand in the shape
 * the classifier gives it. */
#ifndef PLOGTOP_TESTS_UNIT_MODEL_TEST_H
#define PLOGTOP_TESTS_UNIT_MODEL_TEST_H

#include "model.h"
#include "xalloc.h"

/* Above any Linux pid (PID_MAX_LIMIT is 4194304): never alive. */
#define DEAD_PID 5000000L

static inline struct incident *make(long pid, const char *name, enum resource r,
			     logtime_t t, const char *file)
{
	struct incident *inc = xcalloc(1, sizeof *inc);

	inc->pid = pid;
	inc->name = xstrdup(name);
	inc->code = r == RES_MEMCPY ? CODE_EE1001 : CODE_EE1023;
	inc->resource = r;
	inc->cause = CAUSE_UNKNOWN;
	inc->first = inc->last = t;
	inc->file = file ? file : "/logs/plog-1.log";
	inc->line = 1;
	inc->nlines = 1;
	return inc;
}

#endif
