#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "incident.h"
#include "xalloc.h"

const char *incident_field(const struct incident *inc, const char *key)
{
	for (size_t i = 0; i < inc->nfields; i++)
		if (strcmp(inc->fields[i].key, key) == 0)
			return inc->fields[i].value;
	return NULL;
}

void incident_set_field(struct incident *inc, const char *key,
			const char *value, size_t len)
{
	for (size_t i = 0; i < inc->nfields; i++) {
		if (strcmp(inc->fields[i].key, key) == 0) {
			free(inc->fields[i].value);
			inc->fields[i].value = xstrndup(value, len);
			return;
		}
	}
	inc->fields = xrealloc(inc->fields,
			       (inc->nfields + 1) * sizeof *inc->fields);
	inc->fields[inc->nfields++] = (struct field){
		xstrdup(key), xstrndup(value, len)
	};
}

void incident_drop_raw(struct incident *inc)
{
	for (size_t i = 0; i < inc->nraw; i++)
		free(inc->raw[i].text);
	free(inc->raw);
	inc->raw = NULL;
	inc->nraw = 0;
}

void incident_free(struct incident *inc)
{
	if (!inc)
		return;
	incident_drop_raw(inc);
	for (size_t i = 0; i < inc->nfields; i++) {
		free(inc->fields[i].key);
		free(inc->fields[i].value);
	}
	free(inc->fields);
	free(inc->name);
	free(inc->reported_code);
	free(inc);
}
