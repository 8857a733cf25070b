/* A host's --once report read as it streams (json_reader), fed in
 * pieces whose sizes come from the input's first byte: never a crash or
 * a leak, the same values whatever the pieces, and every document that
 * the whole-document parser takes (an object) taken too. */
#include "config.h"

#include <string.h>

#include "fuzz.h"
#include "json_reader.h"
#include "jsonparse.h"

static const struct json_limits lim = { 4096, 100000 };

static int count(void *ctx, const char *key, int in_array,
		 const struct jval *v, struct strbuf *err)
{
	size_t *n = ctx;

	(void)key, (void)in_array, (void)err;
	FUZZ_ASSERT(!v || v->type <= J_OBJECT);
	++*n;
	return 0;
}

/* Reads text in pieces of step bytes: -1 refused, else the values. */
static long read_in(const char *text, size_t len, size_t step)
{
	struct json_reader r;
	size_t n = 0;
	int rc = 0;

	json_reader_init(&r, &lim, 1u << 20, count, &n);
	for (size_t i = 0; i < len && rc == 0; i += step)
		rc = json_reader_feed(&r, text + i, len - i < step ? len - i
								   : step);
	if (rc == 0)
		rc = json_reader_end(&r);
	if (rc < 0)
		FUZZ_ASSERT(r.err.len > 0);
	json_reader_free(&r);
	return rc < 0 ? -1 : (long)n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	size_t step = data[0] % 16 + 1;
	const char *text = (const char *)data + 1;
	size_t len = size - 1;

	long whole = read_in(text, len, len ? len : 1);
	FUZZ_ASSERT(read_in(text, len, step) == whole);
	FUZZ_ASSERT(read_in(text, len, 1) == whole);
	struct jval v;
	struct strbuf err = STRBUF_INIT;
	if (json_parse(text, len, &lim, &v, &err) == 0) {
		if (v.type == J_OBJECT)
			FUZZ_ASSERT(whole >= 0);
		jval_free(&v);
	}
	sb_free(&err);
	return 0;
}
