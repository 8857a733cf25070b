/* --once: everything there is now, read to its end.  One follower finds
 * the files and puts them in the history's order (stream by stream).
 * When there is much to read, the streams are shared out between worker
 * threads, each with a follower, a classifier and rules of its own, and
 * their incidents reach the model on this thread in the history's order:
 * stream by stream, as one follower would give them.  So the reports are
 * the same, byte for byte, however many threads read.  Facts (fact.h)
 * go in the same queues, so that model_fact and model_add take a
 * stream's facts and incidents in the order they were read; --since
 * filters no fact (follow.h). */
#include "config.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __GLIBC__	/* defined by the headers above */
#include <malloc.h>
#endif

#include "follow.h"
#include "i18n.h"
#include "ident.h"
#include "readall.h"
#include "xalloc.h"

#define MAX_WORKERS 4
/* Below this, a thread costs more than it saves. */
#define PARALLEL_MIN_BYTES (64ULL << 20)
/* Incidents a worker may hold ready before it waits for the model, and
 * the bytes of JSON they may hold (2.5 MiB): room for a worker to read
 * two streams ahead of the one the model takes, so that it seldom waits
 * (1 MiB made the dense bench 30% slower), well within the memory
 * bench's 32 MiB (28 MiB for 300,000 incidents; 3 MiB gave 30).  A
 * thousand incidents are several streams of a dense tree; where
 * incidents come faster than the model takes them (300,000 processes of
 * one each), 8,192 held about 700 bytes each beyond their JSON: 5 MiB
 * of the peak. */
#define QUEUE_CAP 1024
#define QUEUE_BYTES (5u << 19)
/* Handed over this many at a time: a hand-over per incident kept the
 * threads waking each other up more than working. */
#define BATCH 64

struct item {
	struct incident *inc;	/* NULL (and no fact): the end of a stream */
	struct fact *fact;	/* or a fact, in its place in the stream */
	char *json;		/* its JSON object, when a report wants it */
	size_t jsonlen;
	/* The model's only (not a class's example): its fields go once it
	 * is counted.  unnamed: it named a pid only when rendered. */
	unsigned char drop_fields, unnamed;
};

/* The first incident of a class a worker has read (model_incident_cmp's
 * order): only an incident before it may be the report's example. */
struct first_of {
	logtime_t first;
	char *file;
	unsigned long line;
};

/* What a worker reads: the streams of the plan it owns. */
struct share {
	const struct options *o;
	const struct plan_file *plan;
	size_t nplan, nstreams;
	const size_t *owner;
	uintptr_t lo, hi;	/* the plan's lowest and highest paths */
};

struct worker {
	pthread_t thread;
	size_t me;			/* its index, as owner[] names it */
	const struct share *sh;
	int failed;			/* it could not start: err says why */
	struct strbuf err;
	const struct read_view *view;	/* NULL: nothing to render */
	logtime_t since;		/* the model's --since */
	struct first_of firsts[CODE_COUNT][RES_COUNT][CAUSE_COUNT];
	struct ruleset *rs;
	struct model m;		/* its follower's: paths interned, files read */
	struct scan_part scan;	/* what it hands back with its incidents */
	struct follower *fw;
	pthread_mutex_t mu;
	pthread_cond_t more, room;
	struct item q[QUEUE_CAP];
	size_t head, n, bytes;
	struct item batch[BATCH];	/* the worker's, not yet handed */
	size_t nbatch;
	struct item got[BATCH];		/* the main thread's, taken */
	size_t ngot, taken;
	/* The stream being read said its process's device, its rank (by a
	 * fact, or an incident's field): the model will give them to an
	 * incident that does not say its own,
	 * which the main thread then renders (model_changed_who), so the
	 * worker need not render it first. */
	int saw_device, saw_rank;
	/* Where it renders an incident: kept from one to the next, so that
	 * each costs one allocation of its size, not a buffer grown from
	 * nothing (that growth was a twentieth of the dense bench). */
	struct strbuf render;
};

/* ---- a worker's side ---- */

static void hand_over(struct worker *w)
{
	pthread_mutex_lock(&w->mu);
	for (size_t i = 0; i < w->nbatch; i++) {
		while (w->n == QUEUE_CAP || w->bytes > QUEUE_BYTES)
			pthread_cond_wait(&w->room, &w->mu);
		w->q[(w->head + w->n++) % QUEUE_CAP] = w->batch[i];
		w->bytes += w->batch[i].jsonlen;
	}
	pthread_cond_signal(&w->more);
	pthread_mutex_unlock(&w->mu);
	w->nbatch = 0;
}

/* A batch goes when full, and at the end of each stream (the main
 * thread may be waiting for that stream to end). */
static void enqueue(struct worker *w, struct item it)
{
	w->batch[w->nbatch++] = it;
	if (w->nbatch == BATCH || (!it.inc && !it.fact))
		hand_over(w);
}

/* Whether the incident may be its class's example: the text report's
 * sections keep the raw lines and fields of that one only.  Those
 * of others are dropped here, so that the incidents waiting for the
 * model hold no more than it needs. */
static int may_be_example(struct worker *w, const struct incident *inc)
{
	if ((unsigned)inc->code >= CODE_COUNT ||
	    (unsigned)inc->resource >= RES_COUNT ||
	    (unsigned)inc->cause >= CAUSE_COUNT)
		return 1;
	if (!model_since_keeps(w->since, inc))
		return 0;		/* not counted at all */
	struct first_of *f = &w->firsts[inc->code][inc->resource][inc->cause];
	struct incident key = { .first = f->first, .file = f->file,
				.line = f->line };
	if (f->file && model_incident_cmp(inc, &key) >= 0)
		return 0;
	free(f->file);
	*f = (struct first_of){ inc->first, xstrdup(inc->file), inc->line };
	return 1;
}

/* The follower's incident, for the queue the model takes them from. */
static void worker_incident(void *ctx, struct incident *inc)
{
	struct worker *w = ctx;
	struct item it = { inc, NULL, NULL, 0, 0, 0 };
	int example = may_be_example(w, inc);

	if (!example) {
		model_dedupe_head(inc);	/* a copy is known by its first line */
		incident_drop_raw(inc);
	}

	/* Rendering is much of a JSON report's cost: done here, in
	 * parallel; the model only counts.  Not when the model will change
	 * what it says (a guess: the main thread renders what has no text,
	 * and what the model changed, either way). */
	int has_device = incident_field(inc, "device_id") != NULL;
	int has_rank = incident_field(inc, "rank") != NULL;
	int defer = (w->saw_device && !has_device) ||
		    (w->saw_rank && !has_rank);
	/* The model learns the process's from the incident's own too. */
	w->saw_device |= has_device;
	w->saw_rank |= has_rank;
	if (w->view && !defer) {
		sb_reset(&w->render);
		w->view->render(w->view->ctx, &w->render, inc);
		/* Of just its size: thousands may wait. */
		it.jsonlen = w->render.len;
		it.json = xmemdup(w->render.buf ? w->render.buf : "",
				  it.jsonlen + 1);
	}
	/* Its fields stay until the model has counted it: its device,
	 * rank and failed create are learnt from them (ident.h). */
	it.drop_fields = !example;
	it.unnamed = inc->pid && inc->name && !inc->name[0];
	enqueue(w, it);
}

/* A fact goes in the same queue, so that the model takes a stream's
 * facts and incidents in the order they were read (a device set, then
 * the incident that takes it). */
static void worker_fact(void *ctx, struct fact *f)
{
	struct worker *w = ctx;

	w->saw_device |= f->kind == FACT_DEVICE;
	w->saw_rank |= f->kind == FACT_RANK;
	enqueue(ctx, (struct item){ NULL, f, NULL, 0, 0, 0 });
}

static void stream_end(void *ctx)
{
	struct worker *w = ctx;

	w->saw_device = w->saw_rank = 0;
	enqueue(ctx, (struct item){ NULL, NULL, NULL, 0, 0, 0 });
}

/* In the worker's thread, so that workers get ready in parallel: its
 * own rules (a ruleset's match data is not shared) and follower. */
static int set_up(struct worker *w)
{
	const struct share *sh = w->sh;
	struct follow_opts fo = {
		.once = 1, .hand_over = worker_incident,
		.hand_over_fact = worker_fact, .on_stream_end = stream_end,
		.ctx = w,
	};

	if (!(w->rs = rules_for(sh->o, &w->err)) ||
	    !(w->fw = follower_new(w->rs, &w->m, &fo, &w->err)))
		return -1;
	follower_add_plan(w->fw, sh->plan, sh->nplan, sh->owner, w->me);
	follower_start(w->fw, monotonic_ms());
	return 0;
}

static void *work(void *arg)
{
	struct worker *w = arg;

	if (set_up(w) < 0) {
		/* Each of its streams ends, with nothing in it: the model
		 * goes on, and the run fails when the workers are done. */
		w->failed = 1;
		for (size_t s = 0; s < w->sh->nstreams; s++)
			if (w->sh->owner[s] == w->me)
				stream_end(w);
		return NULL;
	}
	while (follower_history_step(w->fw, 1000))
		;
	follower_flush(w->fw);
	model_scan_part(&w->m, &w->scan);
	w->scan.stats.match_limit_hits = ruleset_limit_hits(w->rs);
	stream_end(w);		/* its last stream (it has one at least) */
	return NULL;
}

/* ---- this thread's side ---- */

static struct item dequeue(struct worker *w)
{
	if (w->taken == w->ngot) {
		pthread_mutex_lock(&w->mu);
		while (w->n == 0)
			pthread_cond_wait(&w->more, &w->mu);
		w->ngot = w->n < BATCH ? w->n : BATCH;
		for (size_t i = 0; i < w->ngot; i++) {
			w->got[i] = w->q[w->head];
			w->bytes -= w->got[i].jsonlen;
			w->head = (w->head + 1) % QUEUE_CAP;
		}
		w->n -= w->ngot;
		w->taken = 0;
		pthread_cond_signal(&w->room);
		pthread_mutex_unlock(&w->mu);
	}
	return w->got[w->taken++];
}

/* The paths a worker interned are its model's: the incident is given
 * this model's before it joins it.  Its lines are mostly of one file,
 * and so are the next incident's: the last path looked up is kept. */
struct adopted {
	const char *from, *to;
	const struct share *sh;
};

/* Whether path is one of the plan's own (follower_plan: end to end in
 * one block, from its lowest to its highest): a file the finder listed,
 * and counted for the host its path names then. */
static int plan_path(const struct share *sh, const char *path)
{
	uintptr_t p = (uintptr_t)path;

	return sh->nplan && p >= sh->lo && p <= sh->hi;
}

static const char *adopt_path(struct model *m, struct adopted *a,
			      const char *path)
{
	if (path != a->from) {
		a->from = path;
		a->to = model_intern(m, path);
		if (plan_path(a->sh, path))
			model_path_seen_again(m, a->to);
	}
	return a->to;
}

static void adopt(struct model *m, struct adopted *a, struct incident *inc)
{
	inc->file = adopt_path(m, a, inc->file);
	for (size_t i = 0; i < inc->nraw; i++)
		inc->raw[i].file = adopt_path(m, a, inc->raw[i].file);
}

/* Whether the model said more of who it was than its worker could (the
 * device or rank of its process, the name of a pid-only block's): the
 * worker rendered only what its own lines say. */
static int model_changed_who(const struct item *it)
{
	const struct incident *inc = it->inc;

	/* inc->host: named by its file's path (model_pathhost.c). */
	return inc->host || inc->device_from == FROM_PROCESS ||
	       inc->rank_from == FROM_PROCESS ||
	       (it->unnamed && inc->name && inc->name[0]);
}

/* The incident's text for the view: the worker's, or, when the worker
 * left it to this thread or the model changed who it was, rendered here
 * with its fields still there (the same text as a single reader writes)
 * in again, this thread's buffer. */
static void give_view(const struct read_view *view, const struct item *it,
		      struct strbuf *again)
{
	if (it->json && !model_changed_who(it)) {
		view->add(view->ctx, it->json, it->jsonlen);
		return;
	}
	sb_reset(again);
	view->render(view->ctx, again, it->inc);
	view->add(view->ctx, again->buf ? again->buf : "", again->len);
}

/* One stream's incidents, as worker w read them, into the model. */
static void add_stream(struct model *m, struct worker *w,
		       const struct read_view *view, struct strbuf *again)
{
	struct adopted a = { NULL, NULL, w->sh };

	for (;;) {
		struct item it = dequeue(w);
		if (it.fact) {
			it.fact->file = adopt_path(m, &a, it.fact->file);
			model_fact(m, it.fact);
			fact_free(it.fact);
			continue;
		}
		if (!it.inc)
			return;
		adopt(m, &a, it.inc);
		/* Rendered by the worker: the view does not watch. */
		if (model_add(m, it.inc, READ_BEFORE) && view)
			give_view(view, &it, again);
		if (it.drop_fields)
			incident_drop_fields(it.inc);
		free(it.json);
	}
}

/* As many as there are processors, up to MAX_WORKERS, or as
 * PLOGTOP_THREADS says (1 reads on this thread alone). */
static size_t workers_for(size_t nstreams, unsigned long long bytes)
{
	const char *env = getenv("PLOGTOP_THREADS");
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t n = cpus > 1 ? (size_t)cpus : 1;

	if (env && *env) {
		n = (size_t)strtoul(env, NULL, 10);
		bytes = PARALLEL_MIN_BYTES;
	}
	if (n > MAX_WORKERS)
		n = MAX_WORKERS;
	if (n > nstreams)
		n = nstreams;
	return n < 2 || bytes < PARALLEL_MIN_BYTES ? 1 : n;
}

/* Streams go to the worker with the least to read so far, in order, so
 * the workers keep pace with the order the model takes them in. */
static size_t *share_out(const struct plan_file *plan, size_t nplan,
			 size_t nstreams, size_t nw)
{
	size_t *owner = xcalloc(nstreams + 1, sizeof *owner);
	unsigned long long load[MAX_WORKERS] = { 0 };

	for (size_t i = 0; i < nplan;) {
		size_t s = plan[i].stream, best = 0;
		for (size_t k = 1; k < nw; k++)
			if (load[k] < load[best])
				best = k;
		owner[s] = best;
		for (; i < nplan && plan[i].stream == s; i++)
			load[best] += plan[i].size + 4096;
	}
	return owner;
}

static int start_worker(struct worker *w, const struct share *sh,
			size_t me, const struct read_view *view,
			logtime_t since, struct strbuf *err)
{
	w->me = me;
	w->sh = sh;
	w->view = view;
	w->since = since;
	model_init(&w->m);
	for (size_t i = 0; i < sh->o->npaths; i++)
		model_add_root(&w->m, sh->o->paths[i]);
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->more, NULL);
	pthread_cond_init(&w->room, NULL);
	int e = pthread_create(&w->thread, NULL, work, w);
	if (e) {
		sb_addf(err, _("cannot start a reading thread: %s"),
			strerror(e));
		return -1;
	}
	return 0;
}

static void end_worker(struct worker *w)
{
	for (enum code c = CODE_NONE; c < CODE_COUNT; c++)
		for (enum resource r = RES_NONE; r < RES_COUNT; r++)
			for (enum cause k = CAUSE_NONE; k < CAUSE_COUNT; k++)
				free(w->firsts[c][r][k].file);
	follower_free(w->fw);
	ruleset_free(w->rs);
	model_free(&w->m);
	sb_free(&w->err);
	sb_free(&w->render);
	pthread_mutex_destroy(&w->mu);
	pthread_cond_destroy(&w->more);
	pthread_cond_destroy(&w->room);
}

/* A worker that could not start: the others still give every stream
 * they own an end, which is taken and dropped. */
static void drain(struct worker *w, const size_t *owner, size_t nstreams,
		  size_t me)
{
	for (size_t s = 0; s < nstreams; s++) {
		if (owner[s] != me)
			continue;
		for (struct item it; (it = dequeue(w)).inc || it.fact;) {
			incident_free(it.inc);
			fact_free(it.fact);
			free(it.json);
		}
	}
}

static int read_parallel(const struct options *o, struct model *m,
			 const struct read_view *view,
			 const struct plan_file *plan,
			 size_t nplan, size_t nstreams, size_t nw,
			 struct strbuf *err)
{
	struct worker *w = xcalloc(nw, sizeof *w);
	size_t *owner = share_out(plan, nplan, nstreams, nw);
	struct share sh = { o, plan, nplan, nstreams, owner, UINTPTR_MAX, 0 };
	size_t started = 0;
	int rc = 0;
	struct strbuf again = STRBUF_INIT;

	for (size_t i = 0; i < nplan; i++) {
		uintptr_t p = (uintptr_t)plan[i].path;
		sh.lo = p < sh.lo ? p : sh.lo;
		sh.hi = p > sh.hi ? p : sh.hi;
	}

	while (started < nw && rc == 0) {
		rc = start_worker(&w[started], &sh, started,
				  view, m->since, err);
		if (rc < 0)
			end_worker(&w[started]);
		else
			started++;
	}
	for (size_t s = 0; s < nstreams && rc == 0; s++)
		add_stream(m, &w[owner[s]], view, &again);
	for (size_t k = 0; k < started; k++) {
		if (rc < 0)
			drain(&w[k], owner, nstreams, k);
		pthread_join(w[k].thread, NULL);
		if (w[k].failed && rc == 0) {
			sb_adds(err, sb_str(&w[k].err));
			rc = -1;
		}
	}
	for (size_t k = 0; k < started; k++) {
		/* What it read and skipped (its scan, after its last
		 * stream), added to the model's own. */
		if (rc == 0)
			model_merge_scan(m, &w[k].scan, NULL);
		end_worker(&w[k]);
	}
	sb_free(&again);
	free(owner);
	free(w);
	return rc;
}

/* On one thread the view watches the model: each counted incident is
 * rendered and added at once. */
static void view_one(void *ctx, const struct incident *inc)
{
	const struct read_view *view = ctx;
	struct strbuf sb = STRBUF_INIT;

	view->render(view->ctx, &sb, inc);
	view->add(view->ctx, sb.buf, sb.len);
	sb_free(&sb);
}

/* What the finder freed goes back to the system before the workers
 * start: each allocates in an arena of its own, and the finder's free
 * chunks (a 200,000-file tree's listing and orders, 12 MiB) would stay
 * resident beside them, never reused. */
static void give_back(void)
{
#ifdef __GLIBC__
	malloc_trim(0);
#endif
}

int read_all(const struct options *o, struct ruleset *rs, struct model *m,
	     const struct read_view *view, struct read_resume *rr,
	     struct strbuf *err)
{
	struct follow_opts fo = {
		.once = 1,
		.resume_for = rr ? rr->resume_for : NULL,
		.resume_ctx = rr ? rr->ctx : NULL,
	};
	struct follower *fw = follower_new(rs, m, &fo, err);
	int rc = fw ? 0 : -1, stdin_named = 0;

	for (size_t i = 0; rc == 0 && i < o->npaths; i++) {
		rc = follower_add(fw, o->paths[i], 0, err);
		stdin_named |= strcmp(o->paths[i], "-") == 0;
	}
	if (rc < 0) {
		follower_free(fw);
		return rc;
	}
	follower_start(fw, monotonic_ms());
	struct plan_file *plan = NULL;
	size_t nstreams, nplan = 0;
	unsigned long long bytes;
	/* One thread reads without a plan: it holds a path per file. */
	follower_plan_totals(fw, &nstreams, &bytes);
	size_t nw = stdin_named || rr ? 1 : workers_for(nstreams, bytes);
	if (nw > 1) {
		nplan = follower_plan(fw, &plan);
		/* The plan holds its paths: the finder's files can go, and
		 * their memory with them, before the workers start. */
		follower_free(fw);
		fw = NULL;
		give_back();
		rc = read_parallel(o, m, view, plan, nplan, nstreams, nw, err);
	} else {
		if (view)
			model_watch(m, view_one, (void *)view);
		while (follower_history_step(fw, 1000))
			;
		follower_flush(fw);
		if (view)
			model_unwatch(m, (void *)view);
		if (rr)
			rr->npos = follower_positions(fw, &rr->pos);
	}
	follower_free_plan(plan, nplan);
	follower_free(fw);
	return rc;
}
