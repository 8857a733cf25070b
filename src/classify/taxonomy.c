/* The taxonomy's rows as arrays indexed by the enums (taxonomy.h). */
#include "config.h"

#include <string.h>

#include "i18n.h"
#include "taxonomy.h"

struct code_row {
	const char *name;
	enum resource fallback;
};

struct resource_row {
	const char *name;
	enum code code;
	const char *head, *word, *legend;
};

struct cause_row {
	const char *name;
	enum resource resource;
};

#define CODE_ROW(id, name, fallback) [CODE_##id] = { name, RES_##fallback },
#define RESOURCE_ROW(id, name, code, head, word, legend) \
	[RES_##id] = { name, CODE_##code, head, word, legend },
#define CAUSE_ROW(id, name, resource) [CAUSE_##id] = { name, RES_##resource },

static const struct code_row codes[CODE_COUNT] = {
	[CODE_NONE] = { "", RES_NONE }, TAXONOMY_CODES(CODE_ROW)
};
static const struct resource_row resources[RES_COUNT] = {
	[RES_NONE] = { "", CODE_NONE, NULL, NULL, NULL },
	TAXONOMY_RESOURCES(RESOURCE_ROW)
};
static const struct cause_row causes[CAUSE_COUNT] = {
	[CAUSE_NONE] = { "", RES_NONE }, TAXONOMY_CAUSES(CAUSE_ROW)
};

/* Out of range reads as NONE: values come from state files and hosts. */
#define ROW(v, i) (&(v)[(unsigned)(i) < sizeof(v) / sizeof((v)[0]) ? (i) : 0])

const char *code_name(enum code c) { return ROW(codes, c)->name; }
const char *resource_name(enum resource r) { return ROW(resources, r)->name; }
const char *cause_name(enum cause c) { return ROW(causes, c)->name; }
enum code code_of_resource(enum resource r) { return ROW(resources, r)->code; }
enum resource resource_of_cause(enum cause c) { return ROW(causes, c)->resource; }
enum resource resource_fallback(enum code c) { return ROW(codes, c)->fallback; }
const char *resource_head(enum resource r) { return ROW(resources, r)->head; }
const char *resource_word(enum resource r) { return ROW(resources, r)->word; }
const char *resource_legend(enum resource r) { return ROW(resources, r)->legend; }

#define FROM_NAME(v, s) do { \
	for (size_t i = 1; i < sizeof(v) / sizeof((v)[0]); i++) \
		if (strcmp((v)[i].name, (s)) == 0) \
			return i; \
	return 0; \
} while (0)

enum code code_from_name(const char *s) { FROM_NAME(codes, s); }
enum resource resource_from_name(const char *s) { FROM_NAME(resources, s); }
enum cause cause_from_name(const char *s) { FROM_NAME(causes, s); }

enum code code_heaviest(const int w[CODE_COUNT], int *weight)
{
	enum code best = CODE_NONE;
	int most = 0;

	for (enum code c = CODE_NONE + 1; c < CODE_COUNT; c++)
		if (w[c] > most) {
			best = c;
			most = w[c];
		}
	if (weight)
		*weight = most;
	return best;
}

int class_key_cmp(const struct class_key *a, const struct class_key *b)
{
	if (a->code != b->code)
		return a->code < b->code ? -1 : 1;
	if (a->resource != b->resource)
		return a->resource < b->resource ? -1 : 1;
	return a->cause < b->cause ? -1 : a->cause > b->cause;
}
