#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "incident.h"
#include "xalloc.h"

const char *incident_field_n(const struct incident *inc, const char *key,
			     size_t len)
{
	/* The first byte first: a dozen fields are looked up for each
	 * field a chain captures, and most differ there. */
	for (size_t i = 0; i < inc->nfields; i++) {
		const char *k = inc->fields[i].key;
		if (len && k[0] != key[0])
			continue;
		if (strncmp(k, key, len) == 0 && !k[len])
			return inc->fields[i].value;
	}
	return NULL;
}

const char *incident_field(const struct incident *inc, const char *key)
{
	return incident_field_n(inc, key, strlen(key));
}

/* A field's key and value share one allocation, key first: thousands of
 * incidents are kept in live modes, each with a handful of fields. */
static struct field make_field(const char *key, size_t klen,
			       const char *value, size_t len)
{
	char *buf = xmalloc(klen + 1 + len + 1);

	memcpy(buf, key, klen + 1);
	memcpy(buf + klen + 1, value, len);
	buf[klen + 1 + len] = '\0';
	return (struct field){ buf, buf + klen + 1 };
}

void incident_set_field(struct incident *inc, const char *key,
			const char *value, size_t len)
{
	size_t klen = strlen(key);

	for (size_t i = 0; i < inc->nfields; i++) {
		const char *k = inc->fields[i].key;
		if (k[0] == key[0] && strcmp(k, key) == 0) {
			struct field f = make_field(key, klen, value, len);
			free(inc->fields[i].key);
			inc->fields[i] = f;
			return;
		}
	}
	incident_add_field(inc, key, klen, value, len);
}

void incident_add_field(struct incident *inc, const char *key, size_t klen,
			const char *value, size_t len)
{
	/* No capacity is kept: only this function adds a field, and
	 * incident_drop_fields empties it.  A realloc per field was much
	 * of a chain's cost. */
	inc->fields = xgrow_pow2(inc->fields, inc->nfields, 4,
				 sizeof *inc->fields);
	inc->fields[inc->nfields++] = make_field(key, klen, value, len);
}

void incident_drop_raw(struct incident *inc)
{
	for (size_t i = 0; i < inc->nraw; i++)
		free(inc->raw[i].text);
	free(inc->raw);
	inc->raw = NULL;
	inc->nraw = 0;
}

void incident_drop_fields(struct incident *inc)
{
	for (size_t i = 0; i < inc->nfields; i++)
		free(inc->fields[i].key);	/* and its value */
	free(inc->fields);
	inc->fields = NULL;
	inc->nfields = 0;
}

void incident_free(struct incident *inc)
{
	if (!inc)
		return;
	incident_drop_raw(inc);
	incident_drop_fields(inc);
	free(inc->name);
	free(inc->reported_code);
	free(inc);
}

/* The order fields are shown in: what identifies the resource first, the
 * codes next, decoded words after the raw values; others by name. */
static const char *const field_order[] = {
	"stream_id", "model_id", "device_id", "api", "inner_code",
	"external_code", "desc", "reason", "capacity", "max_depth", "height",
	"cur_sq_num", "kind", "kind_name", "src_loc", "src_loc_name",
	"dst_loc", "dst_loc_name", "loc_numbering", "expected",
	"expected_src", "expected_dst", "src_mismatch", "dst_mismatch",
	"stream_limit",
};

static size_t field_rank(const char *key)
{
	size_t n = sizeof field_order / sizeof field_order[0];

	/* The first byte first: most keys differ there. */
	for (size_t i = 0; i < n; i++)
		if (field_order[i][0] == key[0] &&
		    strcmp(field_order[i], key) == 0)
			return i;
	return n;
}

static int field_cmp(const void *a, const void *b)
{
	const struct field *x = a, *y = b;
	size_t rx = field_rank(x->key), ry = field_rank(y->key);

	if (rx != ry)
		return rx < ry ? -1 : 1;
	return strcmp(x->key, y->key);
}

#define RANKED_MAX 64

/* An insertion sort with each key ranked once: an incident has a dozen
 * fields, and qsort ranked each key again at every comparison. */
void incident_sort_fields(struct incident *inc)
{
	size_t rank[RANKED_MAX], n = inc->nfields;

	if (n > RANKED_MAX) {
		qsort(inc->fields, n, sizeof *inc->fields, field_cmp);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		struct field f = inc->fields[i];
		size_t r = field_rank(f.key), j = i;
		for (; j > 0; j--) {
			size_t q = rank[j - 1];
			if (q < r || (q == r && strcmp(inc->fields[j - 1].key,
						       f.key) <= 0))
				break;
			inc->fields[j] = inc->fields[j - 1];
			rank[j] = q;
		}
		inc->fields[j] = f;
		rank[j] = r;
	}
}
