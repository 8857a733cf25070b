#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "literals.h"
#include "prefilter.h"
#include "xalloc.h"

#define SLOTS 4096

struct lit {
	char *s;		/* case folded */
	size_t len;
	size_t rule;
	struct lit *next;
};

struct prefilter {
	size_t nrules;
	unsigned char *always;	/* rules without literals */
	struct lit *slot[SLOTS];
	uint64_t seen[65536 / 64];	/* which 16-bit hashes have a literal */
};

static unsigned char fold(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c;
}

static uint32_t hash4(uint32_t k)
{
	return (k * 2654435761u) >> 16;
}

static uint32_t key4(const char *s)
{
	return (uint32_t)fold((unsigned char)s[0]) << 24 |
	       (uint32_t)fold((unsigned char)s[1]) << 16 |
	       (uint32_t)fold((unsigned char)s[2]) << 8 |
	       (uint32_t)fold((unsigned char)s[3]);
}

struct prefilter *prefilter_new(size_t nrules)
{
	struct prefilter *pf = xcalloc(1, sizeof *pf);

	pf->nrules = nrules;
	pf->always = xcalloc(nrules ? nrules : 1, 1);
	return pf;
}

void prefilter_free(struct prefilter *pf)
{
	if (!pf)
		return;
	for (size_t i = 0; i < SLOTS; i++) {
		struct lit *l = pf->slot[i];
		while (l) {
			struct lit *next = l->next;
			free(l->s);
			free(l);
			l = next;
		}
	}
	free(pf->always);
	free(pf);
}

int prefilter_add(struct prefilter *pf, size_t rule, const char *pattern)
{
	struct litset set = { 0 };

	if (!pattern_literals(pattern, &set)) {
		pf->always[rule] = 1;
		return 0;
	}
	for (size_t i = 0; i < set.n; i++) {
		struct lit *l = xcalloc(1, sizeof *l);
		l->len = strlen(set.v[i]);
		l->s = xstrdup(set.v[i]);
		for (size_t j = 0; j < l->len; j++)
			l->s[j] = (char)fold((unsigned char)l->s[j]);
		l->rule = rule;
		uint32_t h = hash4(key4(l->s));
		pf->seen[h / 64] |= 1ull << (h % 64);
		l->next = pf->slot[h % SLOTS];
		pf->slot[h % SLOTS] = l;
	}
	litset_free(&set);
	return 1;
}

static int equal_folded(const char *text, const char *lit, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (fold((unsigned char)text[i]) != (unsigned char)lit[i])
			return 0;
	return 1;
}

void prefilter_scan(const struct prefilter *pf, const char *text, size_t len,
		    unsigned char *cand)
{
	memcpy(cand, pf->always, pf->nrules);
	if (len < LITERAL_MIN)
		return;
	uint32_t k = key4(text) >> 8;
	for (size_t i = 0; i + LITERAL_MIN <= len; i++) {
		k = k << 8 | fold((unsigned char)text[i + 3]);
		uint32_t h = hash4(k);
		if (!(pf->seen[h / 64] >> (h % 64) & 1))
			continue;
		for (const struct lit *l = pf->slot[h % SLOTS]; l; l = l->next)
			if (!cand[l->rule] && l->len <= len - i &&
			    equal_folded(text + i, l->s, l->len))
				cand[l->rule] = 1;
	}
}
