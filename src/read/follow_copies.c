/* Copies in the history's plan: streams that hold a file of the same name
 * in different places (a top-level copy beside run/ and debug/, a
 * `cp -r` backup, a bundle unpacked beside its source) are read one after
 * the other, the one with the most bytes in the files they share first,
 * at the place of the first of them.  The fullest copy of a chain is
 * then the one the model counts (model_dedupe.c), in --once and in the
 * live modes' history alike, whatever order the files are named or found in; a plan with no
 * copies keeps its order.  --once is told which names have copies
 * (model_dedupe_expect), so that only their incidents' fingerprints are
 * kept. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "codec.h"
#include "follow_int.h"
#include "xalloc.h"

/* 16 bytes a file: a plan of 200,000 files sorts 3 MiB of them (and
 * qsort's copy).  A name is shorter than NAME_MAX, a plan than 2^32. */
struct shared_name {
	const char *name;	/* the file's name, without a compressed suffix */
	unsigned len;
	unsigned idx;		/* in the plan: its stream's order too */
};

static int named_cmp(const void *a, const void *b)
{
	const struct shared_name *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->name, y->name, n);

	if (c)
		return c;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static size_t find(size_t *up, size_t s)
{
	while (up[s] != s)
		s = up[s] = up[up[s]];
	return s;
}

/* Joins the streams that share a file's name; returns whether any did,
 * and tells the model the names shared. */
static int join_streams(struct follower *fw, const struct order *v,
			size_t n, const unsigned *stream_of, size_t *up,
			unsigned char *shared)
{
	struct shared_name *nm = xcalloc(n + 1, sizeof *nm);
	struct strbuf path = STRBUF_INIT;
	int joined = 0;

	for (size_t i = 0; i < n; i++) {
		const char *b = order_name(&v[i]);
		nm[i] = (struct shared_name){
			b, (unsigned)(strlen(b) - codec_suffix(b)),
			(unsigned)i };
	}
	qsort(nm, n, sizeof *nm, named_cmp);
	for (size_t i = 1; i < n; i++) {
		if (nm[i].len != nm[i - 1].len ||
		    memcmp(nm[i].name, nm[i - 1].name, nm[i].len) != 0 ||
		    stream_of[nm[i].idx] == stream_of[nm[i - 1].idx])
			continue;
		size_t a = find(up, stream_of[nm[i - 1].idx]),
		       b = find(up, stream_of[nm[i].idx]);
		if (a != b)
			up[a > b ? a : b] = a < b ? a : b;
		joined = 1;
		shared[nm[i].idx] = shared[nm[i - 1].idx] = 1;
		model_dedupe_expect(fw->m, order_path(&v[nm[i].idx], &path));
	}
	free(nm);
	sb_free(&path);
	return joined;
}

struct stream_size {
	size_t stream, first;	/* its first entry in v */
	unsigned long long shared, bytes;
	int named;	/* its path names a host (a pod's tree) */
};

/* The order of a group's streams: most bytes in the files whose names
 * others hold too first (an older backup may hold more rotations, and
 * the last one cut), then one whose path names its host (the pod's own
 * tree before a copy collected outside it: the incident keeps its
 * host), then most bytes, then as planned. */
static int size_cmp(const void *a, const void *b)
{
	const struct stream_size *x = a, *y = b;

	if (x->shared != y->shared)
		return x->shared > y->shared ? -1 : 1;
	if (x->named != y->named)
		return x->named ? -1 : 1;
	if (x->bytes != y->bytes)
		return x->bytes > y->bytes ? -1 : 1;
	return x->first < y->first ? -1 : x->first > y->first;
}

static unsigned long long file_bytes(const struct order *o)
{
	const struct tail *t = o->t;
	struct stat sb;

	if (!t)
		return o->l->size;	/* listed, with its size */
	if (t->scan_sized)
		return t->scan_size;
	return stat(t->path, &sb) == 0 ? (unsigned long long)sb.st_size : 0;
}

/* Streams by group (the root of each), then as planned. */
static int group_cmp(const void *a, const void *b)
{
	const size_t *x = a, *y = b;

	if (x[0] != y[0])
		return x[0] < y[0] ? -1 : 1;
	return x[1] < y[1] ? -1 : x[1] > y[1];
}

/* v: the plan, stream by stream; its streams are put in the new order. */
static void regroup(const struct model *m, struct order *v, size_t n,
		    const unsigned *stream_of,
		    size_t nstreams, size_t *up, const unsigned char *shared)
{
	struct stream_size *ss = xcalloc(nstreams + 1, sizeof *ss);
	struct order *out = xcalloc(n + 1, sizeof *out);
	size_t *count = xcalloc(nstreams + 1, sizeof *count);
	size_t *by = xcalloc(2 * nstreams + 2, sizeof *by);
	size_t *start = xcalloc(nstreams + 1, sizeof *start);
	struct strbuf path = STRBUF_INIT;
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		size_t s = stream_of[i];
		if (!count[s]++)
			ss[s] = (struct stream_size){
				s, i, 0, 0,
				model_path_names_host(m, order_path(&v[i],
								   &path)) };
		unsigned long long b = file_bytes(&v[i]);
		ss[s].bytes += b;
		if (shared[i])
			ss[s].shared += b;
	}
	for (size_t s = 0; s < nstreams; s++) {
		by[2 * s] = find(up, s);
		by[2 * s + 1] = s;
	}
	qsort(by, nstreams, 2 * sizeof *by, group_cmp);
	for (size_t j = nstreams; j-- > 0;)
		start[by[2 * j]] = j;
	unsigned char *done = xcalloc(nstreams + 1, 1);
	struct stream_size *g = xcalloc(nstreams + 1, sizeof *g);
	for (size_t s = 0; s < nstreams; s++) {
		size_t root = find(up, s), ng = 0;
		if (done[root])
			continue;
		done[root] = 1;
		for (size_t j = start[root]; j < nstreams && by[2 * j] == root;
		     j++)
			g[ng++] = ss[by[2 * j + 1]];
		qsort(g, ng, sizeof *g, size_cmp);
		for (size_t j = 0; j < ng; j++)
			for (size_t i = g[j].first;
			     i < g[j].first + count[g[j].stream]; i++)
				out[k++] = v[i];
	}
	memcpy(v, out, n * sizeof *v);
	sb_free(&path);
	free(done);
	free(g);
	free(by);
	free(start);
	free(count);
	free(out);
	free(ss);
}

void follow_group_copies(struct follower *fw, struct order *v, size_t n)
{
	unsigned *stream_of = xcalloc(n + 1, sizeof *stream_of);
	size_t nstreams = 0;
	int archive = 0;

	for (size_t i = 0; i < n; i++) {
		if (i && strcmp(v[i].stream, v[i - 1].stream) != 0)
			nstreams++;
		stream_of[i] = (unsigned)nstreams;	/* a plan is below 2^32 */
		const char *name = order_name(&v[i]);
		archive |= codec_archive_name(name, strlen(name));
	}
	if (n)
		nstreams++;
	/* An archive's members are known only when it is read: every
	 * fingerprint is kept. */
	if (archive && n > 1)
		model_dedupe_expect(fw->m, NULL);
	size_t *up = xcalloc(nstreams + 1, sizeof *up);
	for (size_t s = 0; s < nstreams; s++)
		up[s] = s;
	unsigned char *shared = xcalloc(n + 1, 1);
	if (join_streams(fw, v, n, stream_of, up, shared))
		regroup(fw->m, v, n, stream_of, nstreams, up, shared);
	free(shared);
	free(up);
	free(stream_of);
}
