/* The text format's pieces every prom writer uses (prom.h). */
#include "config.h"

#include <string.h>

#include "prom.h"
#include "sanitize.h"

/* A label value: sanitised, then escaped as the text format asks. */
void prom_label(struct strbuf *out, const char *value)
{
	struct strbuf clean = STRBUF_INIT;

	sanitize(&clean, value, strlen(value));
	for (size_t i = 0; i < clean.len; i++) {
		char c = clean.buf[i];
		if (c == '\\' || c == '"')
			sb_addc(out, '\\');
		sb_addc(out, c);
	}
	sb_free(&clean);
}

void prom_metric_head(struct strbuf *out, const char *name,
			const char *type, const char *help)
{
	sb_addf(out, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}
