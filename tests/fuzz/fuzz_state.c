/* The state file's parser (--state) on arbitrary text: it is hostile
 * input like any log.  Either a state whose every value is within range,
 * or a reason; never a crash, and never half of it counted. */
#include "config.h"

#include <string.h>

#include "fuzz.h"
#include "state.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct model m;
	struct prom_counts pc;
	struct posset ps;
	struct strbuf why = STRBUF_INIT;

	model_init(&m);
	prom_counts_init(&pc, &m);
	double before = m.counted_since;
	if (state_parse((const char *)data, size, &m, &pc, &ps, &why) < 0) {
		FUZZ_ASSERT(why.len > 0);
		FUZZ_ASSERT(ps.n == 0 && pc.n == 0);
		FUZZ_ASSERT(m.counted_since == before);
	} else {
		FUZZ_ASSERT(ps.n <= POSITIONS_MAX);
		for (size_t i = 0; i < ps.n; i++) {
			const struct posentry *e = &ps.v[i];
			FUZZ_ASSERT(e->path && *e->path);
			FUZZ_ASSERT(e->id.headlen <= FILEID_HEAD);
			FUZZ_ASSERT(e->id.beforelen <= FILEID_BEFORE);
			FUZZ_ASSERT(e->id.beforelen <= e->id.offset);
			FUZZ_ASSERT(e->ngiven <= RESUME_GIVEN_MAX);
			for (size_t j = 0; j < e->ngiven; j++)
				FUZZ_ASSERT(e->given[j] > e->id.line);
		}
	}
	posset_free(&ps);
	prom_counts_free(&pc);
	model_free(&m);
	sb_free(&why);
	return 0;
}
