/* The history: what the files hold when reading starts, read in one
 * order whatever the mode, so that --once, --follow and the dashboard
 * count the same on the same input. */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "codec.h"
#include "follow_int.h"
#include "rules.h"
#include "logname.h"
#include "xalloc.h"

/* A stream's key, kept once for all its files: a plan of 200,000 files
 * of 100 processes holds 100 keys. */
struct stream_key {
	struct hnode node;
	char s[];
};

static int key_eq(const struct hnode *n, const void *key)
{
	return strcmp(((const struct stream_key *)n)->s, key) == 0;
}

static const char *intern_key(struct htab *keys, const char *s, size_t len)
{
	size_t h = htab_hash_str(s, 0);
	struct stream_key *k = (struct stream_key *)htab_find(keys, h,
							      key_eq, s);

	if (!k) {
		k = xmalloc(sizeof *k + len + 1);
		memcpy(k->s, s, len + 1);
		k->node.hash = h;
		htab_insert(keys, &k->node);
	}
	return k->s;
}

static void free_keys(struct htab *keys)
{
	htab_free_nodes(keys);
}

void follow_free_history(struct follower *fw)
{
	free_keys(&fw->hs.keys);
	free(fw->hs.v);
	fw->hs.v = NULL;
	fw->hs.n = fw->hs.pos = 0;
	fw->hs.plan = NULL;	/* the planner's */
	fw->hs.nplan = 0;
	follow_free_listing(fw);
}

/* The listed files as tails, as a listing without follow_list_file
 * would have made them: a compressed file's copy beside it may be one
 * (follow_skip_copies looks at the tails). */
static void tails_for_listed(struct follower *fw)
{
	int packed = 0;

	for (size_t i = 0; i < fw->tt.n && !packed; i++)
		packed = codec_suffix(fw->tt.v[i]->path) != 0;
	if (!packed || !fw->ds.nlisted)
		return;
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < fw->ds.nlisted; i++) {
		const struct listed *p = &fw->ds.listed[i];
		const char *path = follow_listed_path(p, &sb);
		struct tail *t = follow_add_tail(fw, path, p->root,
						 follow_unwatched(fw, path));
		t->scan_sized = 1;
		t->scan_size = p->size;
	}
	sb_free(&sb);
	follow_free_listing(fw);
}

void follow_history_forget(struct follower *fw, struct tail *t)
{
	for (size_t i = 0; i < fw->hs.n; i++)
		if (fw->hs.v[i].t == t)
			fw->hs.v[i].t = NULL;
}

static int order_cmp(const void *a, const void *b)
{
	const struct order *x = a, *y = b;
	/* Plog first: a captured block that names only a pid then joins
	 * the process plog named (model_ident_incident), wherever the
	 * user's paths put the job's output. */
	if (x->captured != y->captured)
		return x->captured ? 1 : -1;
	int c = strcmp(x->stream, y->stream);

	if (c)
		return c;
	if (x->stamp != y->stamp)
		return x->stamp < y->stamp ? -1 : 1;
	struct strbuf px = STRBUF_INIT, py = STRBUF_INIT;
	c = strcmp(order_path(x, &px), order_path(y, &py));
	sb_free(&px);
	sb_free(&py);
	return c;
}

/* The history is read in one order whatever the mode: the plog family's
 * streams, then captured output's, stream by stream (the rotations of
 * one writer: see logname.h), each stream's files in the order of their
 * stamps, and every chain closed when a stream ends.
 * It is read in steps, so that a dashboard can show its progress. */
/* One file's place in the history: its stream, stamp and family. */
static void place(struct follower *fw, struct order *o, const char *path)
{
	struct stat sb;
	struct strbuf key = STRBUF_INIT;
	struct logname ln;

	logname_stream(ruleset_lognames(fw->rs), &key, path);
	logname_parse(ruleset_lognames(fw->rs), path, &ln);
	o->stream = intern_key(&fw->hs.keys, sb_str(&key), key.len);
	sb_free(&key);
	o->stamp = ln.stamp;
	/* An archive is read with the plog family: it holds plog members
	 * as often as captured ones (follow_packed.c). */
	o->captured = ln.kind != FILE_PLOG &&
		      !codec_archive_name(path, strlen(path));
	/* Only a dashboard shows progress: --once spares the stat. */
	if (!fw->o.once && stat(path, &sb) == 0)
		fw->hs.bytes += (unsigned long long)sb.st_size;
}

void follower_add_plan(struct follower *fw, const struct plan_file *plan,
		       size_t n, const size_t *owner, size_t me)
{
	fw->hs.plan = plan;
	fw->hs.nplan = n;
	fw->hs.owner = owner;
	fw->hs.me = me;
}

/* The files found: tails, and listed files (their tails made at their
 * turn). */
static size_t gather(struct follower *fw, struct order **out)
{
	size_t n = 0;
	struct order *v = xcalloc(fw->tt.n + fw->ds.nlisted + 1, sizeof *v);
	for (size_t i = 0; i < fw->tt.n; i++) {
		struct tail *t = fw->tt.v[i];
		if (t->skip_why)
			continue;
		v[n].t = t;
		place(fw, &v[n++], t->path);
	}
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < fw->ds.nlisted; i++, n++) {
		v[n].l = &fw->ds.listed[i];
		v[n].listed = 1;
		place(fw, &v[n], follow_listed_path(v[n].l, &sb));
	}
	sb_free(&sb);
	*out = v;
	return n;
}

/* A share of a plan: no order per file (plan_step), the file being read
 * in hs.v[0]. */
static void start_share(struct follower *fw, unsigned long long now_ms)
{
	fw->started = 1;
	follow_check_waiting(fw, now_ms);
	fw->hs.v = xcalloc(1, sizeof *fw->hs.v);
	fw->hs.n = 1;
	fw->hs.pos = 0;
	fw->hs.stream_at = 0;
	if (fw->ifd < 0 || fw->o.poll_ms)
		fw->next_poll = now_ms + fw->o.poll_ms;
}

void follower_start(struct follower *fw, unsigned long long now_ms)
{
	struct order *v;

	tails_for_listed(fw);
	follow_skip_copies(fw);
	if (fw->hs.plan) {
		start_share(fw, now_ms);
		return;
	}
	follow_fit_listing(fw);
	size_t n = gather(fw, &v);
	qsort(v, n, sizeof *v, order_cmp);
	follow_group_copies(fw, v, n);
	/* Pods named by their paths are listed in the plan's order, the
	 * same in every run, with or without incidents. */
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < n; i++)
		model_path_seen(fw->m, order_path(&v[i], &sb));
	sb_free(&sb);
	fw->started = 1;
	/* A root may have appeared while the others were set up. */
	follow_check_waiting(fw, now_ms);
	/* A file with a resume point (--state, --resume) is read from it,
	 * in the history's order, even under --since=now. */
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (!v[i].t) {	/* planned or listed: no resume point */
			v[k++] = v[i];
			continue;
		}
		int resumed = follow_resume_tail(fw, v[i].t);
		if (fw->o.skip_history && !resumed) {
			tail_skip_to_end(v[i].t);
			continue;
		}
		v[i].t->in_history = 1;
		v[k++] = v[i];
	}
	n = k;
	fw->hs.v = v;
	fw->hs.n = n;
	fw->hs.pos = 0;
	if (!n) {
		follow_free_history(fw);
		fw->hs.bytes = 0;
	}
	if (fw->ifd < 0 || fw->o.poll_ms)
		fw->next_poll = now_ms + fw->o.poll_ms;
}

/* Standard input in a one-shot read: to its end, blocking. */
static void read_stdin_whole(struct follower *fw)
{
	struct tail *t = fw->rd.stdin_tail;

	for (;;) {
		ssize_t n = read(0, fw->buf, READ_BUF);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			msglog_about(fw->o.log, "standard input", strerror(errno));
			model_problem(fw->m, "-", "%s", strerror(errno));
			break;
		}
		if (n == 0 || tail_feed(t, fw->buf, (size_t)n, &fw->m->stats,
					monotonic_ms()) < 0)
			break;
	}
	if (t->skip_why)
		model_skip(fw->m, t->path, t->skip_why);
	else
		follow_count_read(fw, t);
	tail_flush(t);
	classifier_flush(fw->cl);
	t->stdin_eof = 1;
}

/* A file its writer is still at: a line or record of it held back, or
 * written to in the last RESUME_HOLD_MS. */
static int still_written(void *ctx, const char *file)
{
	struct follower *fw = ctx;
	struct tail *t = tailtab_find(&fw->tt, file);
	struct timespec now;
	struct stat sb;

	if (!t || t->path != file)
		return 0;
	if (feeder_has_pending(t->feeder) || linesplit_pending(&t->ls))
		return 1;
	if (stat(t->path, &sb) < 0 || clock_gettime(CLOCK_REALTIME, &now) < 0)
		return 0;
	long long age_ms = (long long)(now.tv_sec - sb.st_mtim.tv_sec) * 1000 +
			   (now.tv_nsec - sb.st_mtim.tv_nsec) / 1000000;
	return age_ms <= RESUME_HOLD_MS;
}

/* The end of a stream of the history: its chains are complete (the same
 * count whatever was read before); but a live reader keeps those of a
 * file still being written open, to be closed as any live chain is. */
static void stream_end(struct follower *fw)
{
	follow_hold_recent(fw);
	if (fw->o.once)
		classifier_flush(fw->cl);
	else
		classifier_flush_but(fw->cl, still_written, fw);
	if (fw->o.on_stream_end)
		fw->o.on_stream_end(fw->o.ctx);
	/* --once: the stream's chains are closed, and the paths of its
	 * files let go (released at their turn's end) go, with the tails
	 * that still name them. */
	if (fw->o.once && !fw->o.resume_for && fw->rd.nlet_go) {
		tailtab_sweep(&fw->tt);
		fw->rd.nlet_go = 0;
		model_reap_released_paths(fw->m);
	}
}

/* A planned file's tail, at its turn: as if found before the start
 * (read from its start, its path not seen by this model again).  Its
 * path is the plan's (the planner's model keeps it until the readers
 * end, and the incidents are adopted into that model): a reader's model
 * of 200,000 files interns none of them. */
static struct tail *planned_tail(struct follower *fw,
				 const struct plan_file *p)
{
	int started = fw->started;

	fw->started = 0;
	struct tail *t = follow_add_tail_kept(fw, p->path, p->root,
					      follow_unwatched(fw, p->path));
	fw->started = started;
	return t;
}

/* A listed file's tail, at its turn: as if it had been made when it was
 * listed (its host counted then, model_path_seen). */
static struct tail *listed_tail(struct follower *fw, const struct listed *p)
{
	int started = fw->started;

	struct strbuf sb = STRBUF_INIT;
	const char *path = follow_listed_path(p, &sb);

	fw->started = 0;
	struct tail *t = follow_add_tail(fw, path, p->root,
					 follow_unwatched(fw, path));
	fw->started = started;
	sb_free(&sb);
	t->scan_sized = 1;
	t->scan_size = p->size;
	model_path_seen_again(fw->m, t->path);
	return t;
}

/* Reads o's file at its turn (its tail made): 1 when there is more of it
 * to read, which the next file waits for. */
static int read_turn(struct follower *fw, struct order *o)
{
	struct tail *t = o->t;

	if (!t)
		return 0;
	t->in_history = 0;
	follow_read_tail(fw, t, monotonic_ms());
	/* follow_read_tail may have dropped it (o->t: follow_history_forget).
	 * A large file is read a budget at a time: the next stream waits
	 * until it is done. */
	if (o->t && t->more)
		return 1;
	if (o->t) {
		feeder_flush(t->feeder);
		feeder_trim(t->feeder);
		if (follow_let_go(fw, t)) {
			o->t = NULL;
			/* Its tail's hold on its path (the model frees it at
			 * the stream's end, once nothing holds it). */
			model_release_path(fw->m, t->path);
		}
	}
	return 0;
}

/* A share of a plan is read walking the plan itself, its own files one
 * at a time in hs.v[0] (the file being read): a reading thread holds no
 * order per file.  Its streams are the plan's. */
static int plan_step(struct follower *fw, unsigned budget_ms)
{
	struct history *hs = &fw->hs;
	struct order *o = hs->v;
	unsigned long long start = monotonic_ms();

	while (hs->pos < hs->nplan) {
		const struct plan_file *p = &hs->plan[hs->pos];
		if (hs->owner[p->stream] != hs->me) {
			hs->pos++;
			continue;
		}
		if (o->p != p) {	/* its turn begins */
			if (hs->stream_at && hs->stream_at != p->stream + 1)
				stream_end(fw);
			hs->stream_at = p->stream + 1;
			o->p = p;
			o->t = planned_tail(fw, p);
		}
		if (read_turn(fw, o))
			return 1;
		hs->pos++;
		if (monotonic_ms() - start >= budget_ms)
			break;
	}
	if (hs->pos < hs->nplan)
		return 1;
	follow_free_history(fw);
	return 0;
}

int follower_history_step(struct follower *fw, unsigned budget_ms)
{
	unsigned long long start = monotonic_ms();

	if (fw->o.once && fw->rd.stdin_tail && !fw->rd.stdin_tail->stdin_eof)
		read_stdin_whole(fw);
	if (fw->hs.plan)
		return plan_step(fw, budget_ms);
	while (fw->hs.pos < fw->hs.n) {
		struct order *o = &fw->hs.v[fw->hs.pos];
		if (fw->hs.pos > 0 &&
		    strcmp(o->stream, fw->hs.v[fw->hs.pos - 1].stream) != 0)
			stream_end(fw);
		if (o->listed && o->l) {
			o->t = listed_tail(fw, o->l);
			o->l = NULL;
		}
		if (read_turn(fw, o))
			return 1;
		fw->hs.pos++;
		if (monotonic_ms() - start >= budget_ms)
			break;
	}
	if (fw->hs.pos < fw->hs.n)
		return 1;
	follow_free_history(fw);
	return 0;
}

/* An order's size, as follower_plan gives it. */
static unsigned long long planned_size(const struct order *o)
{
	struct stat sb;

	if (!o->t)
		return o->l->size;
	if (o->t->scan_sized)
		return o->t->scan_size;
	return stat(o->t->path, &sb) == 0 ? (unsigned long long)sb.st_size
					  : 0;
}

/* The plan's paths are its own, end to end in one block (the lowest, a
 * plan's first listed file's or plan[0].path; follower_free_plan):
 * interned, 200,000 of them would stay in the model for the whole run.
 * A reading thread's incidents point at them until the model takes them
 * (readall.c interns theirs then).  The plan's entries are made in the
 * history's own array (an entry is smaller than an order, and each order
 * is read before its place is written), so that the finder never holds
 * both: 8 MiB less at the peak of a 200,000-file tree. */
/* A plan's entry fits in its order's place. */
_Static_assert(sizeof(struct plan_file) <= sizeof(struct order),
	       "PLAN_IN_ORDER");

size_t follower_plan(struct follower *fw, struct plan_file **out)
{
	struct strbuf path = STRBUF_INIT;
	size_t n = fw->hs.n, chars = 0, stream = 0;
	const char *last = NULL;

	for (size_t i = 0; i < n; i++)
		chars += strlen(order_path(&fw->hs.v[i], &path)) + 1;
	char *block = xmalloc(chars + 1);
	/* The listed files' paths first, in the listing's order: its names
	 * go as their paths are written. */
	char *at = follow_listed_to_plan(fw, block);
	struct plan_file *v = (struct plan_file *)(void *)fw->hs.v;
	for (size_t i = 0; i < n; i++) {
		const struct order o = fw->hs.v[i];
		if (i && strcmp(o.stream, last) != 0)
			stream++;
		last = o.stream;
		const char *p = order_path(&o, &path);
		if (o.t) {
			size_t len = strlen(p) + 1;
			memcpy(at, p, len);
			p = at;
			at += len;
		}
		v[i] = (struct plan_file){ p, o.t ? o.t->root : o.l->root,
					   stream, planned_size(&o) };
	}
	sb_free(&path);
	/* The history is the plan's now. */
	fw->hs.v = NULL;
	fw->hs.n = fw->hs.pos = 0;
	if (!n) {
		free(block);
		free(v);
		v = NULL;
	} else {
		v = xrealloc(v, n * sizeof *v);
	}
	*out = v;
	return n;
}

/* The block is where the lowest path is (the first written). */
void follower_free_plan(struct plan_file *plan, size_t n)
{
	const char *block = n ? plan[0].path : NULL;

	for (size_t i = 1; i < n; i++)
		if ((uintptr_t)plan[i].path < (uintptr_t)block)
			block = plan[i].path;
	free((char *)block);
	free(plan);
}

void follower_plan_totals(const struct follower *fw, size_t *nstreams,
			  unsigned long long *bytes)
{
	*nstreams = 0;
	*bytes = 0;
	for (size_t i = 0; i < fw->hs.n; i++) {
		const struct order *o = &fw->hs.v[i];
		if (!i || strcmp(o->stream, fw->hs.v[i - 1].stream) != 0)
			++*nstreams;
		*bytes += planned_size(o);
	}
}

int follower_reading_history(const struct follower *fw)
{
	return fw->hs.pos < (fw->hs.plan ? fw->hs.nplan : fw->hs.n);
}

void follower_history_progress(const struct follower *fw, size_t *files,
			       size_t *files_total,
			       unsigned long long *bytes,
			       unsigned long long *bytes_total)
{
	*files = fw->hs.pos;
	*files_total = fw->hs.n;
	*bytes = fw->m->stats.bytes;
	*bytes_total = fw->hs.bytes;
}

