/* The rules loader on arbitrary text: it loads, or it fails with
 * "FILE:LINE: what is wrong"; a set that loads is then run over a few
 * lines, its own samples among them. */
#include "config.h"

#include <string.h>

#include "fuzz.h"
#include "rules.h"

static const char *const lines[] = {
	("[ERROR] RUNTIME(4242,python3):2026-07-09-21:52:00.000.001 "
	 "[stream.cc:12]4243 StreamCreate: stream resources are exhausted"),
	"EE1023: Failed to create stream. The resource is exhausted.",
	"RuntimeError: ACL error 107002",
	"",
};

static void on_rule(void *ctx, const struct rule_info *info)
{
	(void)ctx;
	FUZZ_ASSERT(info->name && *info->name);
}

static void on_capture(void *ctx, const char *name, const char *value,
		       size_t len)
{
	(void)ctx, (void)value, (void)len;
	FUZZ_ASSERT(name != NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ruleset *rs = ruleset_new();
	struct strbuf err = STRBUF_INIT;

	if (ruleset_load_text(rs, "fuzz.rules", (const char *)data, size,
			      &err) < 0) {
		FUZZ_ASSERT(strncmp(err.buf, "fuzz.rules:", 11) == 0);
		FUZZ_ASSERT(ruleset_count(rs) == 0);
	} else {
		FUZZ_ASSERT(ruleset_count(rs) > 0);
		for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
			const char *l = lines[i];
			size_t off, start;
			enum plog_level level;
			line_message(l, strlen(l), &off, &level);
			ruleset_match_line(rs, level, l + off, strlen(l) - off,
					   on_rule, on_capture, NULL);
			ruleset_match_fields(rs, level, l + off,
					     strlen(l) - off, on_capture,
					     NULL);
			ruleset_find(rs, ROLE_HEADING, level, l + off,
				     strlen(l) - off, &start);
			ruleset_prefix_process(rs, l, strlen(l), on_capture,
					       NULL);
		}
	}
	ruleset_free(rs);
	sb_free(&err);
	return 0;
}
