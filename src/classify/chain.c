/* One chain of a classifier: opened for a record, grown by records,
 * closed into an incident (or nothing), and what code a closed chain
 * is.  classifier.c (plog chains) and screenblock.c (screen-print
 * blocks) both call down to it; it calls only the chain's index and
 * facts below it. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chain.h"
#include "decode.h"
#include "xalloc.h"

/* A TraceBack cut from its heading is an incident only with evidence at
 * least this heavy (an inner code that names a resource, see the rules'
 * weights) and a line that names the call that failed. */
#define HEADLESS_WEIGHT 50

/* The lines a chain has room for at first: a failed call writes up to
 * ten (a power of two, for the raw lines' doubling). */
#define CHAIN_ROOM 8

void chain_free(struct chain *ch)
{
	for (size_t i = 0; i < ch->nseen; i++) {
		if (ch->seen[i].own)
			free(ch->seen[i].text);
		free(ch->seen[i].cap);	/* and caps */
	}
	free(ch->seen);
	free(ch->locs);
	incident_free(ch->inc);
	free(ch->name);
	free(ch->prefix);
	free(ch);
}

/* The heading decides: EE1023 and EE1001 headings are what they say
 * whatever their body holds; under any other code (EE9999, EL0009, a
 * code no rule knows) the evidence decides, but only for EE1023, since
 * "The argument is invalid" under another code is that code's own
 * complaint. */
static enum code screen_code(const struct chain *ch)
{
	enum code said = code_from_name(ch->hcode);
	int heaviest;

	if (said != CODE_NONE)
		return said;
	if (ch->veto)
		return CODE_NONE;
	if (ch->hcode[0])
		return ch->code_w[CODE_EE1023] ? CODE_EE1023 : CODE_NONE;
	enum code best = code_heaviest(ch->code_w, &heaviest);
	if (ch->headless && (!ch->call || heaviest < HEADLESS_WEIGHT))
		return CODE_NONE;
	return best;
}

/* What a closed plog chain is: a veto makes it nothing, else the code
 * of the heaviest evidence. */
enum code chain_code(const struct chain *ch)
{
	if (ch->screen)
		return screen_code(ch);
	return ch->veto ? CODE_NONE : code_heaviest(ch->code_w, NULL);
}

static void finish_incident(struct chain *ch, struct incident *inc,
			    enum code code)
{
	enum resource res = ch->res[code];
	enum cause cause = ch->cause[code];

	/* A cause names its resource; when they disagree the stronger
	 * evidence decides which of the two stands. */
	enum resource implied = resource_of_cause(cause);
	if (implied && res && implied != res) {
		if (ch->cause_w[code] >= ch->res_w[code])
			res = implied;
		else
			cause = CAUSE_UNKNOWN;
	}
	if (!res)
		res = implied ? implied : resource_fallback(code);
	inc->code = code;
	inc->resource = res;
	inc->cause = cause ? cause : CAUSE_UNKNOWN;
	/* reported_code stays NULL when the log printed no code: it is
	 * what the log said, never what plogtop inferred. */
	if (!inc->name)
		inc->name = xstrdup("");
	chain_normalise_inner_code(inc);
	decode_incident(inc);
	incident_sort_fields(inc);
}

/* Open chains in order of last use, so the stalest is found at once. */
void chain_touch(struct classifier *c, struct chain *ch)
{
	ch->order = ++c->order;
	if (c->lru.last == &ch->lru)
		return;
	dlist_remove(&c->lru, &ch->lru);
	dlist_push_back(&c->lru, &ch->lru);
}

/* A screen block whose lines name no device takes the one its file's
 * output stated last (llama.cpp's "current device: 3" before it). */
static void file_device(const struct classifier *c, struct chain *ch)
{
	char buf[24];
	long dev;

	if (!ch->screen || incident_field(ch->inc, "device_id") ||
	    (dev = fact_file_device(c, ch->file)) < 0)
		return;
	snprintf(buf, sizeof buf, "%ld", dev);
	incident_set_field(ch->inc, "device_id", buf, strlen(buf));
}

void chain_close_at(struct classifier *c, size_t i)
{
	struct chain *ch = c->open[i];

	enum code code = chain_code(ch);

	if (!ch->screen)
		chain_unindex(c, ch);
	dlist_remove(&c->lru, &ch->lru);
	c->open[i] = c->open[--c->nopen];
	c->open[i]->slot = i;
	if (code != CODE_NONE) {
		struct incident *inc = ch->inc;
		chain_capture_fields(c, ch);
		file_device(c, ch);
		ch->inc = NULL;
		finish_incident(ch, inc, code);
		c->emit(c->ctx, inc);
	}
	chain_free(ch);
}

void chain_close(struct classifier *c, struct chain *ch)
{
	chain_close_at(c, ch->slot);
}

/* Chains looked at for one that has ended, before the stalest goes. */
#define STALE_LOOK 256

/* At the cap: the stalest chain that has ended (its API boundary and a
 * trailer after it), else the stalest.  Reading files a budget at a time
 * can leave a chain cut mid-way in one file while thousands of ended
 * chains of another are newer; closing the cut one would split it. */
static void close_stalest(struct classifier *c)
{
	struct chain *ch = LRU_CHAIN(c->lru.first);

	for (int i = 0; ch && i < STALE_LOOK;
	     ch = LRU_CHAIN(ch->lru.next), i++) {
		if (!ch->screen && ch->trailer) {
			chain_bury(c, ch);
			chain_close(c, ch);
			return;
		}
	}
	chain_close(c, LRU_CHAIN(c->lru.first));
}

static void on_prefix_field(void *ctx, const char *name, const char *value,
			    size_t len)
{
	struct incident *inc = ctx;

	if (strcmp(name, "pid") != 0 && strcmp(name, "name") != 0 &&
	    !incident_field(inc, name))
		incident_set_field(inc, name, value, len);
}

void chain_prefix_fields(struct classifier *c, struct incident *inc,
			 const char *prefix, size_t len)
{
	if (len)
		ruleset_prefix_fields(c->rs, prefix, len, on_prefix_field, inc);
}

struct chain *chain_open(struct classifier *c, const struct record *rec)
{
	struct chain *ch = xcalloc(1, sizeof *ch);
	struct incident *inc = xcalloc(1, sizeof *inc);

	if (c->nopen == MAX_OPEN)
		close_stalest(c);
	ch->screen = rec->level == LEVEL_SCREEN;
	chain_touch(c, ch);
	if (ch->screen) {
		ch->file = rec->file;
		ch->prefix = xmalloc(rec->prefixlen + 1);
		memcpy(ch->prefix, rec->prefix, rec->prefixlen);
		ch->prefix[rec->prefixlen] = '\0';
		ch->prefixlen = ch->keep = rec->prefixlen;
		/* A launcher prefix may name the process. */
		inc->pid = rec->pid;
		if (rec->namelen)
			inc->name = xstrndup(rec->name, rec->namelen);
	} else {
		ch->pid = rec->pid;
		ch->tid = rec->tid;
		ch->name = xmalloc(rec->namelen + 1);
		memcpy(ch->name, rec->name, rec->namelen);
		ch->name[rec->namelen] = '\0';
		ch->namelen = rec->namelen;
		inc->pid = rec->pid;
		inc->tid = rec->tid;
		inc->name = xstrndup(rec->name, rec->namelen);
		chain_prefix_fields(c, inc, rec->raw, rec->lead);
	}
	if (!ch->name)
		ch->name = xstrdup("");
	inc->file = rec->file;
	inc->line = rec->line;
	inc->first = rec->time;
	ch->off = ch->screen ? c->line_off : rec->off;
	inc->off = ch->off;
	inc->last_line = rec->line;
	ch->inc = inc;
	if (c->nopen == c->capopen) {
		c->capopen = c->capopen ? 2 * c->capopen : 16;
		c->open = xrealloc(c->open, c->capopen * sizeof *c->open);
	}
	ch->slot = c->nopen;
	c->open[c->nopen++] = ch;
	if (!ch->screen)
		chain_index(c, ch);
	return ch;
}

void chain_merge_evidence(struct chain *ch, const struct facts *f)
{
	for (int i = 0; i < f->nev; i++) {
		const struct evidence *e = &f->ev[i];
		if (e->weight > ch->code_w[e->code])
			ch->code_w[e->code] = e->weight;
		if (e->resource && e->weight > ch->res_w[e->code]) {
			ch->res[e->code] = e->resource;
			ch->res_w[e->code] = e->weight;
		}
		if (e->cause && e->weight > ch->cause_w[e->code]) {
			ch->cause[e->code] = e->cause;
			ch->cause_w[e->code] = e->weight;
		}
	}
	if (chain_has_role(f, ROLE_VETO))
		ch->veto = 1;
}

void chain_append(struct classifier *c, struct chain *ch,
		  const struct record *rec)
{
	struct incident *inc = ch->inc;

	if (rec->file != inc->file && !ch->file2) {
		ch->file2 = rec->file;
		ch->off2 = ch->screen ? c->line_off : rec->off;
		ch->line2 = rec->line;
	}
	inc->nlines += rec->nlines;
	if (rec->file == inc->file && rec->nlines &&
	    rec->line + rec->nlines - 1 > inc->last_line)
		inc->last_line = rec->line + rec->nlines - 1;
	ch->lastfile = rec->file;
	if (rec->time != LOGTIME_UNKNOWN) {
		if (inc->first == LOGTIME_UNKNOWN)
			inc->first = rec->time;
		inc->last = rec->time;
		ch->last = rec->time;
	}
	ch->tick = 0;
	const char *raw = NULL;	/* the copy of this record's raw lines */
	size_t rawn = 0;
	if (inc->nraw < MAX_RAW) {
		rawn = rec->rawlen < MAX_RAW_BYTES ? rec->rawlen
						   : MAX_RAW_BYTES;
		/* No capacity is kept, as for fields: a realloc per line
		 * showed. */
		inc->raw = xgrow_pow2(inc->raw, inc->nraw, CHAIN_ROOM,
				      sizeof *inc->raw);
		inc->raw[inc->nraw++] = (struct rawline){
			rec->file, rec->line, xstrndup(rec->raw, rawn)
		};
		raw = inc->raw[inc->nraw - 1].text;
	}
	struct rec_hash rh = chain_rec_hash(c, rec);
	if (rec->srcloclen) {
		uint32_t h = rh.loc;
		if (ch->nlocs == ch->caplocs && ch->caplocs < MAX_LOCS) {
			ch->caplocs = ch->caplocs ? 2 * ch->caplocs : 8;
			ch->locs = xrealloc(ch->locs,
					    ch->caplocs * sizeof *ch->locs);
		}
		if (ch->nlocs < ch->caplocs)
			ch->locs[ch->nlocs++] = h;
		ch->lastloc = h;
	}
	ch->lastshape = rh.shape;
	if (ch->nseen == ch->capseen && ch->capseen < MAX_RAW) {
		ch->capseen = ch->capseen ? 2 * ch->capseen : CHAIN_ROOM;
		if (ch->capseen > MAX_RAW)
			ch->capseen = MAX_RAW;
		ch->seen = xrealloc(ch->seen, ch->capseen * sizeof *ch->seen);
	}
	if (ch->nseen < ch->capseen) {
		size_t n = rec->len < MAX_SEEN_BYTES ? rec->len : MAX_SEEN_BYTES;
		struct seen *sn = &ch->seen[ch->nseen++];
		*sn = (struct seen){ NULL, n, rec->level, NULL, NULL, 0, 0 };
		/* The message of a one-line record ends its raw line: that
		 * copy serves (the incident keeps it until the chain closes). */
		if (raw && n == rec->len && rawn == rec->rawlen && n <= rawn &&
		    memcmp(raw + rawn - n, rec->text, n) == 0) {
			sn->text = (char *)raw + rawn - n;
		} else {
			sn->text = xmalloc(n + 1);
			memcpy(sn->text, rec->text, n);
			sn->text[n] = '\0';
			sn->own = 1;
		}
		chain_keep_captures(sn, &c->facts);
	}
}

void chain_bury(struct classifier *c, const struct chain *ch)
{
	struct tombstone *t = &c->tomb[c->ntomb++ % TOMBSTONES];

	free(t->name);
	t->pid = ch->pid;
	t->tid = ch->tid;
	t->name = xmalloc(ch->namelen + 1);
	memcpy(t->name, ch->name, ch->namelen + 1);
	t->namelen = ch->namelen;
	t->last = ch->last;
}

