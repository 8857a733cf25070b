/* The theme loader on arbitrary text: every item set within range, or
 * "FILE:LINE: what is wrong". */
#include "config.h"

#include <string.h>

#include "fuzz.h"
#include "theme.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	struct theme t;

	/* theme_load turns away text with NUL bytes before parsing. */
	if (size == 0 || memchr(data, '\0', size))
		return 0;
	sb_add(&text, data, size);
	memset(&t, 0, sizeof t);
	if (theme_parse("fuzz.theme", sb_str(&text), &t, data[0] & 1, &err) < 0) {
		FUZZ_ASSERT(strncmp(err.buf, "fuzz.theme:", 11) == 0);
	} else {
		for (int i = 0; i < TI_ITEMS; i++) {
			FUZZ_ASSERT(t.item[i].fg >= -1 && t.item[i].fg <= 255);
			FUZZ_ASSERT(t.item[i].bg >= -1 && t.item[i].bg <= 255);
		}
	}
	sb_free(&text);
	sb_free(&err);
	return 0;
}
