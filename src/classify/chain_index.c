/* Finding a chain: plog chains by a hash of their key (pid, thread and
 * process name), screen blocks by their file and prefix.  With thousands
 * of threads failing at once a walk of every open chain per line would
 * make a scan quadratic. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "chain.h"
#include "xalloc.h"

/* Eight bytes a step: every ERROR line is hashed (its text and its
 * source location), so a byte-at-a-time hash showed in profiles. */
uint32_t chain_hash(const char *s, size_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ n;
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t w;
		memcpy(&w, s + i, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	for (; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
	h ^= h >> 29;
	h *= 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 32;
	return (uint32_t)h ? (uint32_t)h : 1;
}

uint32_t chain_shape_hash(const char *s, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];
		if (ch >= '0' && ch <= '9') {
			while (i + 1 < n && (((unsigned char)s[i + 1] >= '0' &&
					      (unsigned char)s[i + 1] <= '9') ||
					     ((s[i + 1] | 0x20) >= 'a' &&
					      (s[i + 1] | 0x20) <= 'f') ||
					     s[i + 1] == 'x'))
				i++;
			ch = '#';
		}
		h = (h ^ ch) * 0x100000001b3ull;
	}
	h ^= h >> 32;
	return (uint32_t)h ? (uint32_t)h : 1;
}

static size_t key_hash(long pid, long tid, const char *name, size_t n)
{
	uint32_t h = chain_hash(name, n);

	h ^= (uint32_t)pid * 2654435761u;
	h ^= (uint32_t)tid * 40503u;
	return h;
}

static int same_key(const struct chain *ch, const struct record *rec)
{
	return ch->pid == rec->pid && ch->tid == rec->tid &&
	       ch->namelen == rec->namelen &&
	       memcmp(ch->name, rec->name, rec->namelen) == 0;
}

static struct chain **bucket_of(struct classifier *c, long pid, long tid,
				const char *name, size_t n)
{
	return &c->bucket[key_hash(pid, tid, name, n) & (c->nbuckets - 1)];
}

void chain_index(struct classifier *c, struct chain *ch)
{
	if (c->nopen >= c->nbuckets) {
		size_t n = c->nbuckets ? 2 * c->nbuckets : 64;
		struct chain **old = c->bucket;
		size_t oldn = c->nbuckets;
		c->bucket = xcalloc(n, sizeof *c->bucket);
		c->nbuckets = n;
		for (size_t i = 0; i < oldn; i++) {
			for (struct chain *p = old[i], *next; p; p = next) {
				next = p->hnext;
				struct chain **b = bucket_of(c, p->pid, p->tid,
							     p->name, p->namelen);
				p->hnext = *b;
				*b = p;
			}
		}
		free(old);
	}
	struct chain **b = bucket_of(c, ch->pid, ch->tid, ch->name,
				     ch->namelen);
	ch->hnext = *b;
	*b = ch;
}

void chain_unindex(struct classifier *c, struct chain *ch)
{
	struct chain **pp = bucket_of(c, ch->pid, ch->tid, ch->name,
				      ch->namelen);

	while (*pp && *pp != ch)
		pp = &(*pp)->hnext;
	if (*pp)
		*pp = ch->hnext;
}

struct chain *chain_find(struct classifier *c, const struct record *rec,
				size_t *index)
{
	if (rec->level != LEVEL_SCREEN) {
		if (!c->nbuckets)
			return NULL;
		for (struct chain *ch = *bucket_of(c, rec->pid, rec->tid,
						   rec->name, rec->namelen);
		     ch; ch = ch->hnext) {
			if (same_key(ch, rec)) {
				*index = ch->slot;
				return ch;
			}
		}
		return NULL;
	}
	for (size_t i = 0; i < c->nopen; i++) {
		struct chain *ch = c->open[i];
		if (ch->screen && ch->file == rec->file &&
		    ch->prefixlen == rec->prefixlen &&
		    memcmp(ch->prefix, rec->prefix, rec->prefixlen) == 0) {
			*index = i;
			return ch;
		}
	}
	return NULL;
}

