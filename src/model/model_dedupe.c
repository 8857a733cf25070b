/* One failure, one incident, however many copies hold it: the same chain
 * read from two files of the same name (a top-level copy beside run/ and
 * debug/, a `cp -r` backup, a bundle unpacked beside its source) is
 * counted once.  A chain is known by its fingerprint: its host, pid,
 * thread, name, and the log time and text of its first line.  The same
 * fingerprint from the SAME file is another failure (a retry loop writes
 * the same chain, and even then microseconds apart): it is counted.
 *
 * The fullest copy is the one counted because it comes first: the
 * history's plan puts the copies of a stream next to each other, the one
 * with the most bytes in the files they share first (follow_copies.c),
 * in --once and in the live modes' history alike.  A copy arriving later is dropped even when
 * it is fuller (a copy the plan could not see): counters never fall, and
 * the counted incident stays as it was read.
 *
 * Memory: fingerprints, never lines, bounded as model.h says
 * (DEDUPE_WINDOW_USEC, DEDUPE_MAX). */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model_int.h"
#include "xalloc.h"

/* 56 bytes: the key (node.hash) is a 64-bit hash of every field of the
 * chain and of its file's name; two chains that are not copies share
 * one with a chance of 2^-64. */
struct fingerprint {
	struct hnode node;		/* by key */
	struct dlink order;		/* kept first, first */
	logtime_t first;		/* for the window */
	const char *file;		/* interned: a reference held */
	unsigned long line;
};

/* A name a file is found under in more than one place (--once). */
struct expected {
	struct hnode node;
	char *name;
};

struct dedupe {
	struct htab fps;
	struct dlist order;
	struct htab expected;
	int expect_all;
	logtime_t newest;	/* the newest first line seen (as counted) */
	logtime_t swept;	/* newest when the window was last applied */
};

/* A file's name without its directory, an archive's name before its
 * member, or a compressed suffix: what a copy keeps of its original. */
static size_t copy_name(const char *path, size_t *len)
{
	const char *b = path;

	for (const char *p = path; *p; p++)
		if (*p == '/' || *p == ':')
			b = p + 1;
	size_t n = strlen(b);
	static const char *const sfx[] = { ".gz", ".xz", ".zst" };
	for (size_t i = 0; i < sizeof sfx / sizeof sfx[0]; i++) {
		size_t k = strlen(sfx[i]);
		if (n > k && memcmp(b + n - k, sfx[i], k) == 0) {
			n -= k;
			break;
		}
	}
	size_t h = 1469598103934665603ULL;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)b[i]) * 1099511628211ULL;
	if (len)
		*len = n;
	return h;
}

static struct dedupe *dd_of(struct model *m)
{
	if (!m->dedupe)
		m->dedupe = xcalloc(1, sizeof *m->dedupe);
	return m->dedupe;
}

static int expected_eq(const struct hnode *n, const void *key)
{
	return strcmp(((const struct expected *)n)->name, key) == 0;
}

void model_dedupe_expect(struct model *m, const char *path)
{
	struct dedupe *d = dd_of(m);
	size_t len;

	if (!path) {
		d->expect_all = 1;
		return;
	}
	const char *b = path + strlen(path);
	size_t h = copy_name(path, &len);
	while (b > path && b[-1] != '/' && b[-1] != ':')
		b--;
	struct expected *e = xcalloc(1, sizeof *e);
	e->name = xstrndup(b, len);
	if (htab_find(&d->expected, h, expected_eq, e->name)) {
		free(e->name);
		free(e);
		return;
	}
	e->node.hash = h;
	htab_insert(&d->expected, &e->node);
}

/* --once keeps only the fingerprints of files a copy may be of. */
static int wanted(const struct model *m, const struct dedupe *d,
		  const char *file)
{
	if (m->live || d->expect_all)
		return 1;
	if (!d->expected.n)
		return 0;
	size_t len;
	size_t h = copy_name(file, &len);
	const char *b = file + strlen(file);
	while (b > file && b[-1] != '/' && b[-1] != ':')
		b--;
	char *name = xstrndup(b, len);
	int found = htab_find(&d->expected, h, expected_eq, name) != NULL;
	free(name);
	return found;
}

static size_t mix(size_t h, size_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdULL;
}

static size_t key_of(const struct model *m, const struct incident *inc)
{
	size_t h = htab_hash_str(inc->name ? inc->name : "", 7);

	/* The host by its name: before it is counted, inc->host may be a
	 * string of the incident's own (a host's JSON, a path's host). */
	h = mix(h, copy_name(inc->file, NULL));
	h = mix(h, (size_t)inc->pid);
	h = mix(h, (size_t)inc->tid);
	h = mix(h, (size_t)inc->first);
	/* A host a path named is read here: a pod's tree and a copy of it
	 * collected where no path names the pod (err_log_info/) are one
	 * reading host's files. */
	const char *host = model_reading_host(m, inc->host);
	h = mix(h, host ? htab_hash_str(host, 13) : 0);
	return mix(h, inc->head_hash);
}

void model_dedupe_head(struct incident *inc)
{
	if (!inc->head_hash && inc->nraw)
		inc->head_hash = htab_hash_str(inc->raw[0].text
					       ? inc->raw[0].text : "", 11) | 1;
}

static int fp_eq(const struct hnode *n, const void *key)
{
	const struct fingerprint *f = (const struct fingerprint *)n;

	return f->first == ((const struct incident *)key)->first;
}

static void fp_free(struct model *m, struct dedupe *d, struct fingerprint *f)
{
	htab_remove(&d->fps, &f->node);
	dlist_remove(&d->order, &f->order);
	model_release_path(m, f->file);
	free(f);
}

/* Live: what is further behind the newest than the window goes, at most
 * once a minute of log time, and never while the history is read. */
static void apply_window(struct model *m, struct dedupe *d)
{
	if (d->newest == LOGTIME_UNKNOWN ||
	    (d->swept != LOGTIME_UNKNOWN && d->newest - d->swept < 60000000LL))
		return;
	d->swept = d->newest;
	struct dlink *l = d->order.first;
	while (l) {
		struct dlink *next = l->next;
		struct fingerprint *f = DLIST_ENTRY(l, struct fingerprint,
						    order);
		if (f->first < d->newest - DEDUPE_WINDOW_USEC)
			fp_free(m, d, f);
		l = next;
	}
}

void model_duplicate(struct model *m, const char *file, unsigned long line,
		     const char *kept_file, unsigned long kept_line)
{
	m->duplicates_total++;
	if (m->nduplicates == MODEL_LISTED)
		return;
	m->duplicates = xrealloc(m->duplicates, (m->nduplicates + 1) *
				 sizeof *m->duplicates);
	m->duplicates[m->nduplicates++] = (struct duplicate){
		xstrdup(file), line, xstrdup(kept_file), kept_line
	};
}

static void remember(struct model *m, struct dedupe *d,
		     const struct incident *inc, size_t key)
{
	struct fingerprint *f = xcalloc(1, sizeof *f);

	f->node.hash = key;
	f->first = inc->first;
	f->file = model_intern(m, inc->file);
	f->line = inc->line;
	htab_insert(&d->fps, &f->node);
	dlist_push_back(&d->order, &f->order);
	/* --once is exact: it keeps what the names with copies hold. */
	while (m->live && d->order.n > DEDUPE_MAX)
		fp_free(m, d, DLIST_ENTRY(d->order.first, struct fingerprint,
					  order));
}

int model_dedupe(struct model *m, struct incident *inc, enum read_when when)
{
	/* A cluster's counts and captured output with no time of its own
	 * have no fingerprint; nor has standard input ("-"): no file is
	 * named like it. */
	if (m->weighted || !inc->file || inc->first == LOGTIME_UNKNOWN ||
	    strcmp(inc->file, "-") == 0)
		return 0;
	model_dedupe_head(inc);
	if (!inc->head_hash)
		return 0;
	struct dedupe *d = dd_of(m);
	if (!wanted(m, d, inc->file))
		return 0;
	size_t key = key_of(m, inc);
	const struct fingerprint *f = (const struct fingerprint *)
		htab_find(&d->fps, key, fp_eq, inc);
	/* The same file: another failure, counted (its first is known). */
	if (f && strcmp(f->file, inc->file) == 0)
		return 0;
	if (f) {
		model_duplicate(m, inc->file, inc->line, f->file, f->line);
		return 1;
	}
	remember(m, d, inc, key);
	if (m->live) {
		/* A time far ahead of the clock counts as now (model.h). */
		logtime_t now = logtime_now(), at = inc->first;
		if (at > now && at - now > MODEL_SKEW_USEC)
			at = now;
		if (d->newest == LOGTIME_UNKNOWN || at > d->newest)
			d->newest = at;
		if (when == READ_AS_WRITTEN)
			apply_window(m, d);
	}
	return 0;
}

size_t model_dedupe_size(const struct model *m)
{
	return m->dedupe ? m->dedupe->fps.n : 0;
}

void model_dedupe_free(struct model *m)
{
	struct dedupe *d = m->dedupe;

	for (size_t i = 0; i < m->nduplicates; i++) {
		free(m->duplicates[i].file);
		free(m->duplicates[i].kept_file);
	}
	free(m->duplicates);
	if (!d)
		return;
	while (d->order.first)
		fp_free(m, d, DLIST_ENTRY(d->order.first, struct fingerprint,
					  order));
	htab_free(&d->fps);
	for (size_t i = 0; i < d->expected.nb; i++) {
		struct hnode *n = d->expected.b[i];
		while (n) {
			struct hnode *next = n->next;
			free(((struct expected *)n)->name);
			free(n);
			n = next;
		}
	}
	htab_free(&d->expected);
	free(d);
	m->dedupe = NULL;
}
