/* What every fuzz harness shares: the libFuzzer entry points and the
 * path of the shipped data files. */
#ifndef PLOGTOP_TESTS_FUZZ_H
#define PLOGTOP_TESTS_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* A harness's own check failed: libFuzzer (or the driver) reports the
 * abort with the input that caused it. */
#define FUZZ_ASSERT(cond)                                                  \
	do {                                                               \
		if (!(cond)) {                                             \
			fprintf(stderr, "%s:%d: assertion failed: %s\n",   \
				__FILE__, __LINE__, #cond);                \
			abort();                                           \
		}                                                          \
	} while (0)

/* The path of a shipped data file: under $PLOGTOP_DATADIR, else the
 * source tree the harness was built from. */
static inline void fuzz_data_path(struct strbuf *out, const char *rel)
{
	const char *dir = getenv("PLOGTOP_DATADIR");

	sb_reset(out);
	sb_addf(out, "%s/%s", dir && *dir ? dir : ABS_TOP_SRCDIR, rel);
}

#endif
