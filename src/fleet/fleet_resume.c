/* What a reconnect needs so that a host's incidents are counted once:
 * the last cursor the host sent (given back to it on reconnect), the
 * identities of the incidents it sent that a reconnect may send again,
 * and the timing rules (backoff, when a host counts as stable). */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "fleet_int.h"
#include "i18n.h"
#include "stream.h"
#include "xalloc.h"

/* ---- timing, overridable for tests ---- */

static unsigned env_ms(const char *name, unsigned dflt)
{
	const char *s = getenv(name);
	char *end;

	if (!s || !*s)
		return dflt;
	unsigned long v = strtoul(s, &end, 10);
	if (*end || v > 3600000ul)
		return dflt;
	return (unsigned)v;
}

void fleet_times_init(struct fleet *fl)
{
	fl->backoff_min_ms = env_ms("PLOGTOP_FLEET_BACKOFF_MS",
				    FLEET_BACKOFF_MIN_MS);
	if (!fl->backoff_min_ms)
		fl->backoff_min_ms = 1;
	fl->stable_ms = env_ms("PLOGTOP_FLEET_STABLE_MS", FLEET_STABLE_MS);
	fl->note_ms = env_ms("PLOGTOP_FLEET_NOTE_MS", FLEET_NOTE_MS);
}

/* ---- incident identities: 64-bit hashes in an open-addressed table ---- */

static uint64_t mix(uint64_t h, const void *data, size_t n)
{
	const unsigned char *p = data;

	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}

/* Each member as its type, its length and its bytes: no two different
 * tuples hash the same text. */
static uint64_t mix_member(uint64_t h, const struct jval *o, const char *key)
{
	const struct jval *v = json_get(o, key);
	unsigned char tag = v ? (unsigned char)(v->type + 1) : 0;
	uint64_t len = 0;

	h = mix(h, &tag, 1);
	if (!v)
		return h;
	if (v->type == J_STRING) {
		len = v->len;
		h = mix(h, &len, sizeof len);
		return mix(h, v->str, v->len);
	}
	if (v->type == J_NUMBER && v->is_int)
		return mix(h, &v->integer, sizeof v->integer);
	if (v->type == J_NUMBER)
		return mix(h, &v->number, sizeof v->number);
	if (v->type == J_BOOL)
		return mix(h, &v->boolean, sizeof v->boolean);
	return h;
}

uint64_t fleet_incident_id(const struct jval *o)
{
	static const char *const keys[] = { "file", "line", "pid", "tid",
					    "first_seen" };
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		h = mix_member(h, o, keys[i]);
	/* A final avalanche: the table uses the low bits. */
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	return h ? h : 1;	/* 0 marks an empty slot */
}

static size_t slot_of(const struct fleet_seen *s, uint64_t id)
{
	size_t i = (size_t)id & (s->cap - 1);

	while (s->slot[i] && s->slot[i] != id)
		i = (i + 1) & (s->cap - 1);
	return i;
}

int fleet_seen_has(const struct fleet_seen *s, uint64_t id)
{
	return s->cap && s->slot[slot_of(s, id)] == id;
}

static void grow(struct fleet_seen *s)
{
	struct fleet_seen g = { NULL, s->cap ? s->cap * 2 : 1024, 0, s->full };

	g.slot = xcalloc(g.cap, sizeof *g.slot);
	for (size_t i = 0; i < s->cap; i++)
		if (s->slot[i]) {
			g.slot[slot_of(&g, s->slot[i])] = s->slot[i];
			g.n++;
		}
	free(s->slot);
	*s = g;
}

int fleet_seen_add(struct fleet_seen *s, uint64_t id)
{
	if (fleet_seen_has(s, id))
		return 1;
	if (s->n >= FLEET_SEEN_MAX) {
		s->full = 1;
		return -1;
	}
	/* At most 3/4 full: short probes. */
	if ((s->n + 1) * 4 > s->cap * 3)
		grow(s);
	s->slot[slot_of(s, id)] = id;
	s->n++;
	return 0;
}

void fleet_seen_clear(struct fleet_seen *s)
{
	free(s->slot);
	memset(s, 0, sizeof *s);
}

/* ---- the cursor, kept as JSON text to give back ---- */

int fleet_is_cursor(const struct jval *v)
{
	struct stream_cursor_line c;

	return stream_cursor_read(v, &c);
}

/* What the host read, for the header: the files it follows now, and
 * the lines and bytes it read, kept growing across its reconnects (a
 * plogtop started again counts from 0). */
static unsigned long long grown(unsigned long long now,
				unsigned long long *last)
{
	unsigned long long d = now >= *last ? now - *last : now;

	*last = now;
	return d;
}

static void take_read(struct fleet_host *fh, const struct stream_read *rd)
{
	struct model_host *mh = fh->mh;
	unsigned long long dl = grown(rd->lines, &fh->read_lines);

	mh->files = rd->files;
	mh->lines = dl > SIZE_MAX - mh->lines ? SIZE_MAX
		    : mh->lines + (size_t)dl;
	mh->bytes += grown(rd->bytes, &fh->read_bytes);
}

void fleet_take_cursor(struct fleet *fl, struct fleet_host *fh,
		       const struct jval *v)
{
	(void)fl;
	struct stream_cursor_line c;
	struct strbuf sb = STRBUF_INIT;

	if (!stream_cursor_read(v, &c))
		return;
	/* "settled": nothing of the host's history is held back. */
	if (c.settled)
		fh->history_sent = 1;
	if (c.has_read)
		take_read(fh, &c.read);

	/* Only a host that said it resumes is given its cursor back; any
	 * other keeps every identity. */
	if (!fh->resume || !c.cursor)
		return;
	json_write_parsed(&sb, c.cursor);
	if (sb.len + 1 > REMOTE_LINE_MAX) {
		/* Not kept: the previous cursor and the identities since it
		 * still hold. */
		sb_free(&sb);
		return;
	}
	sb_free(&fh->cursor);
	fh->cursor = sb;
	/* A cursor that left files out (over REMOTE_LINE_MAX of positions)
	 * says "partial": true beside it: those files come again whole, so
	 * from then on every identity is kept, as for an older host. */
	if (c.partial)
		fh->seen_all = 1;
	/* Otherwise everything sent so far is behind the cursor: a resumed
	 * stream sends none of it again. */
	if (!fh->seen_all)
		fleet_seen_clear(&fh->seen);
}

void fleet_resume_refused(struct fleet *fl, struct fleet_host *fh)
{
	int st = fh->r.status;

	/* plogtop there was replaced by an older one, which refuses the
	 * option (exit 2, "unrecognized option '--resume=-'"): tried again
	 * without it, or the host would be down for ever.  Its history comes
	 * again; what came since the last cursor is dropped. */
	if (fh->header_seen || !fh->resume || !fh->cursor.len || !WIFEXITED(st) ||
	    WEXITSTATUS(st) != 2 || !strstr(remote_lasterr(&fh->r), "resume"))
		return;
	fh->resume = 0;
	sb_reset(&fh->cursor);
	msglog_about(fl->o.log, fh->mh->name,
		     _("plogtop there does not know --resume: reading "
		       "it without"));
}

void fleet_resume_free(struct fleet_host *fh)
{
	fleet_seen_clear(&fh->seen);
	sb_free(&fh->cursor);
}
