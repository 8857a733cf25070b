/* What the rules say of a record (its evidence and captures), and the
 * fields an incident takes from its lines' captures once its chain
 * turns out to be one. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chain.h"
#include "xalloc.h"

static void on_rule(void *ctx, const struct rule_info *info)
{
	struct facts *f = ctx;

	f->roles |= 1u << info->role;
	f->weight = info->weight;
	enum code code = info->code;
	if (!code)
		code = code_of_resource(info->resource);
	if (!code)
		code = code_of_resource(resource_of_cause(info->cause));
	if (!code || f->nev == MAX_EVIDENCE)
		return;
	f->ev[f->nev++] = (struct evidence){
		code, info->resource, info->cause, info->weight
	};
}

static void grow_caps(struct facts *f, size_t n)
{
	if (n <= f->capcap)
		return;
	while (f->capcap < n)
		f->capcap = f->capcap ? 2 * f->capcap : 16;
	f->cap = xrealloc(f->cap, f->capcap * sizeof *f->cap);
}

static void on_capture(void *ctx, const char *name, const char *value,
		       size_t len)
{
	struct facts *f = ctx;

	grow_caps(f, f->ncap + 1);
	struct capture *cp = &f->cap[f->ncap++];
	cp->name = (uint32_t)f->caps.len;
	sb_add(&f->caps, name, strlen(name) + 1);
	cp->value = (uint32_t)f->caps.len;
	cp->len = (uint32_t)len;
	sb_add(&f->caps, value, len);
	sb_addc(&f->caps, '\0');
	cp->weight = f->weight;
}

void chain_read_facts(struct classifier *c, const struct record *rec)
{
	struct facts *f = &c->facts;

	f->roles = 0;
	f->nev = 0;
	f->ncap = 0;
	sb_reset(&f->caps);
	ruleset_match_line(c->rs, rec->level, rec->text, rec->len, on_rule,
			   on_capture, f);
}

int chain_has_role(const struct facts *f, enum role r)
{
	return (f->roles >> r) & 1;
}

/* A block's "[PID: N]": one out of range (negative, above LONG_MAX, which
 * strtol would clamp to LONG_MAX) is no pid the system could have: 0, as
 * when the block does not say, never a pid made up. */
static long screen_pid(const char *value)
{
	errno = 0;
	long v = strtol(value, NULL, 10);

	return errno == ERANGE || v < 0 ? 0 : v;
}

/* Whether the klen bytes of name are lit: a length and an inlined
 * compare, for each capture of each line of every incident. */
static int is_key(const char *name, size_t klen, const char *lit)
{
	return klen == strlen(lit) && memcmp(name, lit, klen) == 0;
}

/* Named captures: pid, name, time and reported describe the incident;
 * every other name is a field.  The first value of a field wins: the
 * first line of a chain is the place that failed. */
static void merge_captures(struct chain *ch, const struct facts *f)
{
	struct incident *inc = ch->inc;

	for (size_t i = 0; i < f->ncap; i++) {
		const struct capture *cp = &f->cap[i];
		const char *name = f->caps.buf + cp->name;
		const char *value = f->caps.buf + cp->value;
		/* The value follows the name and its NUL. */
		size_t klen = cp->value - cp->name - 1;
		if (is_key(name, klen, "reported")) {
			if (cp->weight > ch->reported_w) {
				free(inc->reported_code);
				inc->reported_code = xstrndup(value, cp->len);
				ch->reported_w = cp->weight;
			}
		} else if (is_key(name, klen, "pid")) {
			if (ch->screen && !inc->pid)
				inc->pid = screen_pid(value);
		} else if (is_key(name, klen, "name")) {
			if (ch->screen && !inc->name)
				inc->name = xstrndup(value, cp->len);
		} else if (is_key(name, klen, "time")) {
			logtime_t t = logtime_parse(value, cp->len);
			if (ch->screen && t != LOGTIME_UNKNOWN) {
				if (inc->first == LOGTIME_UNKNOWN)
					inc->first = t;
				inc->last = t;
			}
		} else if (!incident_field_n(inc, name, klen)) {
			incident_add_field(inc, name, klen, value, cp->len);
		}
	}
}

/* The fields of an incident, taken once it is one (most chains are not):
 * every rule's captures, line by line in the order read, so that the
 * first value of a field wins and the heaviest reported code wins. */
void chain_capture_fields(struct classifier *c, struct chain *ch)
{
	/* Not c->facts: a chain closes while the next record is fed. */
	struct facts *f = &c->deferred;

	for (size_t i = 0; i < ch->nseen; i++) {
		const struct seen *sn = &ch->seen[i];
		f->ncap = 0;
		sb_reset(&f->caps);
		if (sn->ncap) {
			size_t n = sn->cap[sn->ncap - 1].value +
				   sn->cap[sn->ncap - 1].len + 1;
			sb_add(&f->caps, sn->caps, n);
			grow_caps(f, sn->ncap);
			memcpy(f->cap, sn->cap, sn->ncap * sizeof *f->cap);
			f->ncap = sn->ncap;
		}
		f->weight = 0;
		ruleset_match_fields(c->rs, sn->level, sn->text, sn->len,
				     on_capture, f);
		merge_captures(ch, f);
	}
}

/* One allocation: the array, then the names and values it points into
 * (a flood holds thousands of chains open, each with a few lines). */
void chain_keep_captures(struct seen *sn, const struct facts *f)
{
	if (!f->ncap)
		return;
	size_t size = f->ncap * sizeof *sn->cap;
	sn->cap = xmalloc(size + f->caps.len + 1);
	memcpy(sn->cap, f->cap, size);
	sn->caps = (char *)sn->cap + size;
	memcpy(sn->caps, f->caps.buf, f->caps.len + 1);
	sn->ncap = f->ncap;
}

/* Inner codes are printed in hex by new releases and in decimal by old
 * ones; incidents always show hex so they can be compared. */
void chain_normalise_inner_code(struct incident *inc)
{
	const char *v = incident_field(inc, "inner_code");
	char buf[32];

	if (!v || !*v || strncmp(v, "0x", 2) == 0 || strlen(v) > 12)
		return;
	for (const char *p = v; *p; p++)
		if (*p < '0' || *p > '9')
			return;
	snprintf(buf, sizeof buf, "0x%llx", strtoull(v, NULL, 10));
	incident_set_field(inc, "inner_code", buf, strlen(buf));
}

