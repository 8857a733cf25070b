/* The line splitter and the plog line parser: bytes arrive in pieces of
 * a size the input picks (its first byte); every line given out is at
 * most LINESPLIT_MAX bytes, and every span the parser finds lies inside
 * its line. */
#include "config.h"

#include "fuzz.h"
#include "linesplit.h"
#include "plogline.h"
#include "rules.h"

static void span_inside(struct span s, size_t len)
{
	FUZZ_ASSERT(s.off <= len && s.len <= len - s.off);
}

static void on_line(void *ctx, const char *line, size_t len,
		    unsigned long lineno)
{
	unsigned long *last = ctx;
	struct plog_header h;
	enum plog_level level;
	size_t off;

	FUZZ_ASSERT(len <= LINESPLIT_MAX);
	FUZZ_ASSERT(lineno > *last);
	*last = lineno;
	plog_peek_level(line, len, &level);
	if (plog_parse(line, len, &h)) {
		span_inside(h.module, len);
		span_inside(h.name, len);
		span_inside(h.stamp, len);
		span_inside(h.srcloc, len);
		FUZZ_ASSERT(h.msg <= len);
		FUZZ_ASSERT(plog_level_name(h.level) != NULL);
	}
	line_message(line, len, &off, &level);
	FUZZ_ASSERT(off <= len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct linesplit ls;
	unsigned long last = 0;
	int want_all = 0;

	if (size == 0)
		return 0;
	size_t step = (size_t)(data[0] & 0x3f) + 1;
	linesplit_init(&ls, on_line, &last);
	if (data[0] & 0x40)	/* only ERROR records and what follows */
		ls.want_all = &want_all;
	data++, size--;
	for (size_t i = 0; i < size; i += step)
		linesplit_feed(&ls, (const char *)data + i,
			       size - i < step ? size - i : step);
	linesplit_finish(&ls);
	linesplit_free(&ls);
	return 0;
}
