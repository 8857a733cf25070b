/* The message catalog loader on arbitrary text, then every text of every
 * class rendered for an incident with fields (templates nest {?field:}
 * and {!field:}) for an incident whose name and code carry escapes. */
#include "config.h"

#include <string.h>

#include "catalog.h"
#include "fuzz.h"
#include "xalloc.h"

static void render_all(const struct catalog *cat, struct incident *inc)
{
	static const char *const keys[] = { "title", "summary", "fix" };
	struct strbuf out = STRBUF_INIT;

	for (enum resource r = RES_NONE; r < RES_COUNT; r++) {
		for (enum cause c = CAUSE_NONE; c < CAUSE_COUNT; c++) {
			inc->code = r >= RES_MEMCPY && r != RES_UNKNOWN
				    ? CODE_EE1001 : CODE_EE1023;
			inc->resource = r;
			inc->cause = c;
			for (size_t k = 0; k < 3; k++)
				catalog_render(cat, keys[k], inc, &out);
		}
	}
	catalog_text(cat, "incidents");
	sb_free(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf err = STRBUF_INIT, sink = STRBUF_INIT;
	struct catalog *cat = catalog_load_text("fuzz.txt", (const char *)data,
						size, &err);

	if (!cat) {
		FUZZ_ASSERT(strncmp(err.buf, "fuzz.txt:", 9) == 0);
	} else {
		struct incident *inc = xcalloc(1, sizeof *inc);
		inc->pid = 4242;
		inc->name = xstrdup("python3\x1b]52;c;\x07");
		inc->reported_code = xstrdup("EE1023\x1b[2J");
		incident_set_field(inc, "api", "rtStreamCreate", 14);
		incident_set_field(inc, "limit", "2048", 4);
		render_all(cat, inc);
		catalog_check_complete(cat, &sink);
		incident_free(inc);
		catalog_free(cat);
	}
	sb_free(&err);
	sb_free(&sink);
	return 0;
}
