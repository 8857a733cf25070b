#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "i18n.h"
#include "json.h"
#include "state_positions.h"
#include "xalloc.h"

void posset_free(struct posset *ps)
{
	for (size_t i = 0; i < ps->n; i++) {
		free(ps->v[i].path);
		free(ps->v[i].given);
	}
	free(ps->v);
	free(ps->by_path);
	free(ps->by_ino);
	memset(ps, 0, sizeof *ps);
}

static int get_uint(const struct jval *o, const char *key,
		    unsigned long long max, unsigned long long *out)
{
	const struct jval *v = json_get(o, key);

	if (!v || v->type != J_NUMBER || !v->is_int || v->integer < 0 ||
	    (unsigned long long)v->integer > max)
		return -1;
	*out = (unsigned long long)v->integer;
	return 0;
}

/* Inodes and devices are 64-bit unsigned: written as decimal strings. */
static int get_u64_str(const struct jval *o, const char *key,
		       unsigned long long *out)
{
	const char *s = json_get_str(o, key);
	char *end;

	if (!s || !*s || strlen(s) > 20 || strspn(s, "0123456789") !=
	    strlen(s))
		return -1;
	errno = 0;
	*out = strtoull(s, &end, 10);
	return errno || *end ? -1 : 0;
}

static int get_hash(const struct jval *o, const char *key, uint64_t *out)
{
	const char *s = json_get_str(o, key);

	if (!s || strlen(s) != 16 || strspn(s, "0123456789abcdef") != 16)
		return -1;
	*out = (uint64_t)strtoull(s, NULL, 16);
	return 0;
}

static int parse_entry(struct posentry *e, const struct jval *o)
{
	unsigned long long off, line, hl, bl;
	const char *path = json_get_str(o, "path");
	const struct jval *seen = json_get(o, "seen");

	if (o->type != J_OBJECT || !path || !*path || strlen(path) > 4096 ||
	    get_u64_str(o, "ino", &e->id.ino) < 0 ||
	    get_u64_str(o, "dev", &e->id.dev) < 0 ||
	    get_uint(o, "offset", (unsigned long long)INT64_MAX, &off) < 0 ||
	    get_uint(o, "line", (unsigned long long)INT64_MAX, &line) < 0 ||
	    get_uint(o, "headlen", FILEID_HEAD, &hl) < 0 ||
	    get_uint(o, "beforelen", FILEID_BEFORE, &bl) < 0 ||
	    get_hash(o, "head", &e->id.head) < 0 ||
	    get_hash(o, "before", &e->id.before) < 0 ||
	    !seen || seen->type != J_NUMBER || bl > off || line > off)
		return -1;
	const struct jval *given = json_get(o, "given");
	unsigned long long facts = 0;
	if (given && (given->type != J_ARRAY || given->n > RESUME_GIVEN_MAX))
		return -1;
	/* Absent in a state of an older plogtop: its facts were counted
	 * twice then, and may be now. */
	if (json_get(o, "facts_to") &&
	    (get_uint(o, "facts_to", (unsigned long long)INT64_MAX,
		      &facts) < 0 || (facts && facts <= line)))
		return -1;
	e->facts_to = (unsigned long)facts;
	for (size_t i = 0; given && i < given->n; i++) {
		const struct jval *g = &given->items[i];
		if (g->type != J_NUMBER || !g->is_int ||
		    g->integer <= (long long)line)
			return -1;
	}
	if (given && given->n) {
		e->given = xmalloc(given->n * sizeof *e->given);
		for (size_t i = 0; i < given->n; i++)
			e->given[i] = (unsigned long)given->items[i].integer;
		e->ngiven = given->n;
	}
	e->id.offset = off;
	e->id.line = (unsigned long)line;
	e->id.headlen = (unsigned)hl;
	e->id.beforelen = (unsigned)bl;
	e->seen = seen->number;
	e->path = xstrdup(path);
	return 0;
}

static int by_path_cmp(const void *a, const void *b)
{
	const struct posentry *x = *(struct posentry *const *)a;
	const struct posentry *y = *(struct posentry *const *)b;

	return strcmp(x->path, y->path);
}

static int by_ino_cmp(const void *a, const void *b)
{
	const struct posentry *x = *(struct posentry *const *)a;
	const struct posentry *y = *(struct posentry *const *)b;

	return x->id.ino < y->id.ino ? -1 : x->id.ino > y->id.ino;
}

int posset_parse(struct posset *ps, const struct jval *v, struct strbuf *err)
{
	const struct jval *ver = json_get(v, "version");
	const struct jval *files = json_get(v, "files");

	memset(ps, 0, sizeof *ps);
	if (!v || v->type != J_OBJECT || !ver || ver->type != J_NUMBER ||
	    !ver->is_int) {
		sb_adds(err, _("positions: no version"));
		return -1;
	}
	if (ver->integer != POSITIONS_VERSION) {
		sb_addf(err, _("positions: version %lld, not %d"), ver->integer,
			POSITIONS_VERSION);
		return -1;
	}
	if (!files || files->type != J_ARRAY || files->n > POSITIONS_MAX) {
		sb_adds(err, _("positions: no list of files, or too long a one"));
		return -1;
	}
	ps->v = xcalloc(files->n + 1, sizeof *ps->v);
	for (size_t i = 0; i < files->n; i++) {
		if (parse_entry(&ps->v[ps->n], &files->items[i]) < 0) {
			free(ps->v[ps->n].given);
			sb_addf(err, _("positions: file %zu is not a position"), i);
			posset_free(ps);
			return -1;
		}
		ps->n++;
	}
	ps->by_path = xcalloc(ps->n + 1, sizeof *ps->by_path);
	ps->by_ino = xcalloc(ps->n + 1, sizeof *ps->by_ino);
	for (size_t i = 0; i < ps->n; i++)
		ps->by_path[i] = ps->by_ino[i] = &ps->v[i];
	qsort(ps->by_path, ps->n, sizeof *ps->by_path, by_path_cmp);
	qsort(ps->by_ino, ps->n, sizeof *ps->by_ino, by_ino_cmp);
	return 0;
}

static int try_entry(struct posentry *e, int fd, struct resume_at *at)
{
	if (e->claimed || !fileid_matches(&e->id, fd))
		return 0;
	e->claimed = 1;
	at->id = e->id;
	at->given = e->given;
	at->ngiven = e->ngiven;
	at->facts_to = e->facts_to;
	return 1;
}

int posset_resume_for(void *ctx, const char *path, struct resume_at *id)
{
	struct posset *ps = ctx;
	struct stat sb;

	if (!ps || !ps->n)
		return 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return 0;
	int found = 0;
	/* Its own name first, then its inode under another name (a
	 * rotation that renamed it). */
	struct posentry key = { .path = (char *)path }, *kp = &key;
	size_t lo = 0, hi = ps->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(ps->by_path[mid]->path, path) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; !found && lo < ps->n && by_path_cmp(&ps->by_path[lo], &kp) == 0;
	     lo++)
		found = try_entry(ps->by_path[lo], fd, id);
	if (!found && fstat(fd, &sb) == 0) {
		key.id.ino = (unsigned long long)sb.st_ino;
		lo = 0;
		hi = ps->n;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (ps->by_ino[mid]->id.ino < key.id.ino)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (; !found && lo < ps->n &&
		       ps->by_ino[lo]->id.ino == key.id.ino; lo++)
			found = try_entry(ps->by_ino[lo], fd, id);
	}
	close(fd);
	return found;
}

static void entry_json(struct strbuf *out, const char *path,
		       const struct fileid *id, double seen,
		       const unsigned long *given, size_t ngiven,
		       unsigned long facts_to)
{
	sb_adds(out, "{\"path\": ");
	json_cstring(out, path);
	sb_addf(out, ", \"ino\": \"%llu\", \"dev\": \"%llu\", \"offset\": %llu, "
		"\"line\": %lu, \"head\": \"%016" PRIx64 "\", \"headlen\": %u, "
		"\"before\": \"%016" PRIx64 "\", \"beforelen\": %u, "
		"\"seen\": %.3f", id->ino, id->dev, id->offset, id->line,
		id->head, id->headlen, id->before, id->beforelen, seen);
	if (ngiven) {
		sb_adds(out, ", \"given\": [");
		for (size_t i = 0; i < ngiven; i++)
			sb_addf(out, i ? ", %lu" : "%lu", given[i]);
		sb_addc(out, ']');
	}
	if (facts_to > id->line)
		sb_addf(out, ", \"facts_to\": %lu", facts_to);
	sb_addc(out, '}');
}

static int newest_first(const void *a, const void *b)
{
	const struct position *x = a, *y = b;

	return x->last_ms > y->last_ms ? -1 : x->last_ms < y->last_ms;
}

static int seen_desc(const void *a, const void *b)
{
	const struct posentry *x = *(struct posentry *const *)a;
	const struct posentry *y = *(struct posentry *const *)b;

	return x->seen > y->seen ? -1 : x->seen < y->seen;
}

/* Appends one entry unless it would pass max_bytes; returns 0 when full. */
static int add_bounded(struct strbuf *out, struct strbuf *one, size_t *n,
		       size_t max_bytes)
{
	if (*n >= POSITIONS_MAX ||
	    (max_bytes && out->len + one->len + 4 > max_bytes))
		return 0;
	if ((*n)++)
		sb_adds(out, ", ");
	sb_add(out, one->buf, one->len);
	return 1;
}

size_t positions_json(struct strbuf *out, const struct position *cur,
		    size_t ncur, const struct posset *old, double now,
		    size_t max_bytes)
{
	struct position *v = xcalloc(ncur + 1, sizeof *v);
	struct posentry **rest = xcalloc((old ? old->n : 0) + 1, sizeof *rest);
	struct strbuf one = STRBUF_INIT;
	size_t n = 0, nrest = 0;

	if (ncur)
		memcpy(v, cur, ncur * sizeof *v);
	qsort(v, ncur, sizeof *v, newest_first);
	for (size_t i = 0; old && i < old->n; i++)
		if (!old->v[i].claimed &&
		    now - old->v[i].seen < POSITIONS_FORGET_SEC)
			rest[nrest++] = &old->v[i];
	qsort(rest, nrest, sizeof *rest, seen_desc);
	sb_addf(out, "{\"version\": %d, \"files\": [", POSITIONS_VERSION);
	size_t room = max_bytes > 3 ? max_bytes - 3 : max_bytes;
	int open = 1;
	for (size_t i = 0; open && i < ncur; i++) {
		sb_reset(&one);
		entry_json(&one, v[i].path, &v[i].id, now, v[i].given,
			   v[i].ngiven, v[i].facts_to);
		open = add_bounded(out, &one, &n, room);
	}
	for (size_t i = 0; open && i < nrest; i++) {
		sb_reset(&one);
		entry_json(&one, rest[i]->path, &rest[i]->id, rest[i]->seen,
			   rest[i]->given, rest[i]->ngiven, rest[i]->facts_to);
		open = add_bounded(out, &one, &n, room);
	}
	sb_adds(out, "]}");
	sb_free(&one);
	free(rest);
	free(v);
	/* The last one tried did not fit when the list was cut. */
	return ncur + nrest - (n < ncur + nrest ? n : ncur + nrest);
}
