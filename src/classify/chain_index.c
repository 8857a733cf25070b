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

/* The shape's bytes go in eight at a time, packed as they are made (a
 * number's run gives one '#'), so that the hash is of the shape alone
 * whatever the lengths of its numbers; every ERROR line is hashed, and a
 * multiply per byte showed in profiles. */
struct shape_acc {
	uint64_t h;	/* the hash so far */
	uint64_t w;	/* the bytes of the next word, not yet in h */
	unsigned k;	/* how many bytes w holds (0..7) */
	size_t n;	/* the shape's length so far */
};

static void shape_mix(struct shape_acc *a, uint64_t w)
{
	a->h = (a->h ^ w) * 0xff51afd7ed558ccdull;
	a->h ^= a->h >> 32;
}

/* The m low bytes of x (the rest zero), appended after the k held. */
static void shape_bytes(struct shape_acc *a, uint64_t x, unsigned m)
{
	unsigned k = a->k;

	a->n += m;
	a->w |= x << (8 * k);
	if (k + m < 8) {
		a->k = k + m;
		return;
	}
	shape_mix(a, a->w);
	a->w = k ? x >> (64 - 8 * k) : 0;
	a->k = k + m - 8;
}

/* Which bytes of x are ASCII digits: their high bits (exact per byte:
 * the high bit is masked off first, so no borrow or carry crosses
 * bytes). */
static uint64_t digits_of(uint64_t x)
{
	const uint64_t ones = 0x0101010101010101ull;
	uint64_t t = x & (ones * 127);
	/* Their high bits: t <= '9', and t >= '0'. */
	uint64_t below = ones * (127 + '9' + 1) - t;
	uint64_t above = t + ones * (127 - '0' + 1);

	return below & above & ~x & (ones * 128);
}

static int number_tail(unsigned char c)
{
	return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' &&
					  (c | 0x20) <= 'f') || c == 'x';
}

uint32_t chain_shape_hash(const char *s, size_t n)
{
	struct shape_acc a = { 0xcbf29ce484222325ull, 0, 0, 0 };
	size_t i = 0;

	while (i < n) {
		uint64_t x, d;
		if (i + 8 <= n) {
			memcpy(&x, s + i, 8);
			if (!(d = digits_of(x))) {
				shape_bytes(&a, x, 8);
				i += 8;
				continue;
			}
			/* The bytes before its first digit go in at once. */
			unsigned p = (unsigned)__builtin_ctzll(d) / 8;
			if (p) {
				shape_bytes(&a, x & ((1ull << (8 * p)) - 1), p);
				i += p;
			}
		}
		unsigned char ch = (unsigned char)s[i++];
		if (ch >= '0' && ch <= '9') {
			while (i < n && number_tail((unsigned char)s[i]))
				i++;
			ch = '#';
		}
		shape_bytes(&a, ch, 1);
	}
	shape_mix(&a, a.w ^ (uint64_t)a.k << 56);
	shape_mix(&a, a.n);
	uint32_t h = (uint32_t)(a.h ^ a.h >> 29);
	return h ? h : 1;
}

struct rec_hash chain_rec_hash(const struct classifier *c,
			       const struct record *rec)
{
	if (c->rh.rec == rec)
		return c->rh;
	return (struct rec_hash){
		rec, rec->srcloclen ? chain_hash(rec->srcloc, rec->srcloclen)
				    : 0,
		chain_shape_hash(rec->text, rec->len)
	};
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

