/* The model's bounded memory: hash lookups, per-minute windows, recent
 * incidents, folding gone and quiet processes, the per-process cap, paths
 * freed once nothing points at them, and prom counts that stay exact. */
#include "config.h"

#include <stdint.h>

#include "unit.h"

#include "model_test.h"
#include "prom.h"

#define MIN_USEC 60000000LL

static unsigned long long fake_now;

static unsigned long long fake_clock(void)
{
	return fake_now;
}

static void live_model(struct model *m, size_t keep)
{
	model_init(m);
	model_set_live(m, keep);
	fake_now = 1000;
	m->clock_ms = fake_clock;
}

/* The prom file's incidents_total lines. */
static void prom_lines(const struct model *m, const struct prom_counts *pc,
		       struct strbuf *out)
{
	struct strbuf all = STRBUF_INIT;

	prom_render(&all, m, pc, 0, 0);
	for (char *l = all.buf; l && *l;) {
		char *nl = strchr(l, '\n');
		if (strncmp(l, "plogtop_incidents_total{", 24) == 0)
			sb_add(out, l, (size_t)(nl - l + 1));
		l = nl + 1;
	}
	sb_free(&all);
}

static void test_processes_by_hash(void **state)
{
	struct model m;

	(void)state;
	model_init(&m);
	for (long i = 0; i < 20000; i++)
		model_add(&m, make(DEAD_PID + i, i % 2 ? "a" : "b", RES_STREAM,
				   LOGTIME_UNKNOWN, NULL), READ_BEFORE);
	assert_int_equal(m.nprocs, 20000);
	model_add(&m, make(DEAD_PID + 7, "a", RES_EVENT, LOGTIME_UNKNOWN, NULL), READ_BEFORE);
	/* Same pid, other name: another process. */
	model_add(&m, make(DEAD_PID + 7, "b", RES_EVENT, LOGTIME_UNKNOWN, NULL), READ_BEFORE);
	assert_int_equal(m.nprocs, 20001);
	assert_int_equal(m.n, 20002);
	model_sort(&m);
	assert_int_equal(m.procs[0]->pid, DEAD_PID + 7);
	assert_string_equal(m.procs[0]->name, "a");
	assert_int_equal(process_total(m.procs[0]), 2);
	assert_int_equal(m.procs[0]->nclasses, 2);
	assert_int_equal(model_count(&m, CODE_EE1023), 20002);
	model_free(&m);
}

/* --once keeps a record per process (and an identity for those that
 * taught something): their sizes, printed (the figures of issue 19's
 * 300,000 pids) and held on LP64, where the bench measures them.  One
 * class lives in the record, a name is kept once however many share it,
 * an identity without an environment reads the record that says
 * nothing. */
static void test_record_sizes(void **state)
{
	struct model m;

	(void)state;
	print_message("# sizeof: process %zu, ident %zu, ident_dev %zu, "
		      "ident_env %zu, ledger %zu, class_count %zu\n",
		      sizeof(struct process), sizeof(struct ident),
		      sizeof(struct ident_dev), sizeof(struct ident_env),
		      sizeof(struct ledger), sizeof(struct class_count));
	if (sizeof(long) == 8 && sizeof(void *) == 8) {
		assert_true(sizeof(struct process) <= 120);
		assert_true(sizeof(struct ident) <= 216);
		assert_true(sizeof(struct ident_dev) <= 48);
	}
	/* One device lives in the record; more in an array, the first kept
	 * both ways. */
	struct ident one = { .pid = DEAD_PID };
	ident_devs_room(&one, 1);
	assert_ptr_equal(one.dev, &one.dev1);
	one.dev[0].device = 5;
	one.ndevices = 1;
	ident_devs_room(&one, 2);
	assert_true(one.dev != &one.dev1);
	assert_int_equal(one.dev[0].device, 5);
	one.dev[1].device = 6;
	one.ndevices = 2;
	ident_devs_room(&one, 1);
	assert_ptr_equal(one.dev, &one.dev1);
	assert_int_equal(one.dev1.device, 5);
	ident_devs_free(&one);
	assert_null(one.dev);
	/* A device's count stops at UINT32_MAX. */
	assert_int_equal(ident_dev_add(UINT32_MAX - 1, 5), UINT32_MAX);
	assert_int_equal(ident_dev_add(7, 5), 12);
	model_init(&m);
	model_add(&m, make(DEAD_PID, "train", RES_STREAM, LOGTIME_UNKNOWN,
			   NULL), READ_BEFORE);
	model_add(&m, make(DEAD_PID + 1, "train", RES_STREAM,
			   LOGTIME_UNKNOWN, NULL), READ_BEFORE);
	assert_int_equal(m.nprocs, 2);
	assert_ptr_equal(m.procs[0]->name, m.procs[1]->name);
	assert_ptr_equal(m.procs[0]->classes, &m.procs[0]->one_class);
	model_add(&m, make(DEAD_PID, "train", RES_EVENT, LOGTIME_UNKNOWN,
			   NULL), READ_BEFORE);
	assert_int_equal(m.procs[0]->nclasses, 2);
	assert_true(m.procs[0]->classes != &m.procs[0]->one_class);
	assert_int_equal(process_by_resource(m.procs[0], RES_STREAM), 1);
	assert_int_equal(process_by_resource(m.procs[0], RES_EVENT), 1);
	struct ident none = { .pid = DEAD_PID };
	assert_int_equal(ident_env(&none)->host_pid, IDENT_UNKNOWN);
	assert_int_equal(ident_env(&none)->nmap, 0);
	assert_null(ident_env(&none)->pod_name);
	model_free(&m);
}

static void test_windows_and_trend(void **state)
{
	struct model m;
	size_t by[RES_COUNT];
	logtime_t now = logtime_now();

	(void)state;
	live_model(&m, 10);
	model_add(&m, make(DEAD_PID, "p", RES_STREAM, now, NULL), READ_BEFORE);
	model_add(&m, make(DEAD_PID, "p", RES_EVENT, now - 3 * MIN_USEC, NULL), READ_BEFORE);
	model_add(&m, make(DEAD_PID, "p", RES_EVENT, now - 30 * MIN_USEC, NULL), READ_BEFORE);
	model_add(&m, make(DEAD_PID, "p", RES_EVENT, now - 120 * MIN_USEC, NULL), READ_BEFORE);
	model_add(&m, make(DEAD_PID, "p", RES_EVENT, LOGTIME_UNKNOWN, NULL), READ_BEFORE);
	struct process *p = m.procs[0];
	assert_int_equal(model_window(&m, p, MIN_USEC, now, by), 1);
	assert_int_equal(by[RES_STREAM], 1);
	assert_int_equal(by[RES_EVENT], 0);
	assert_int_equal(model_window(&m, p, 5 * MIN_USEC, now, by), 2);
	assert_int_equal(by[RES_EVENT], 1);
	assert_int_equal(model_window(&m, p, 60 * MIN_USEC, now, by), 3);
	assert_int_equal(model_window(&m, p, 0, now, by), 5);
	assert_int_equal(by[RES_EVENT], 4);
	assert_int_equal(model_count_window(&m, 5 * MIN_USEC, now), 2);
	assert_int_equal(model_count_window(&m, 60 * MIN_USEC, now), 3);
	assert_int_equal(model_count_window(&m, 0, now), 5);
	/* Only the last hour is kept by minute. */
	assert_true(p->lv->nminutes <= MODEL_WINDOW_MINUTES + 2);
	unsigned trend[10];
	model_trend(p, now, trend, 10);
	assert_int_equal(trend[9], 1);
	assert_int_equal(trend[6], 1);
	assert_int_equal(trend[0] + trend[1] + trend[2] + trend[3] + trend[4] +
			 trend[5] + trend[7] + trend[8], 0);
	model_free(&m);
}

/* 75 incidents dated 2099 at 75 minutes, then 5 of now: the future ones
 * count as of when they were read, so neither they nor anything else
 * crowds the minutes; new ones are counted, in the windows and the
 * trend, and the windows empty as time goes on. */
static void test_future_times_count_when_read(void **state)
{
	struct model m;
	size_t by[RES_COUNT];
	logtime_t future = logtime_make(2099, 1, 1, 0, 0, 0, 0);
	logtime_t now = logtime_now();

	(void)state;
	live_model(&m, 10);
	for (int i = 0; i < 75; i++)
		model_add(&m, make(DEAD_PID, "future", RES_STREAM,
				   future + i * MIN_USEC, NULL), READ_BEFORE);
	for (int i = 0; i < 5; i++)
		model_add(&m, make(DEAD_PID + 1, "now", RES_EVENT, now, NULL), READ_BEFORE);
	assert_int_equal(model_count_window(&m, MIN_USEC, now), 80);
	assert_int_equal(model_count_window(&m, 60 * MIN_USEC, now), 80);
	assert_int_equal(model_count_window(&m, 0, now), 80);
	struct process *f = m.procs[0], *p = m.procs[1];
	assert_string_equal(p->name, "now");
	assert_int_equal(model_window(&m, p, MIN_USEC, now, by), 5);
	assert_int_equal(by[RES_EVENT], 5);
	assert_int_equal(model_window(&m, f, MIN_USEC, now, by), 75);
	unsigned trend[10];
	model_trend(p, now, trend, 10);
	assert_int_equal(trend[9], 5);
	/* An hour and more later, by this host's clock, all have gone out
	 * of the windows; the 2099 ones do not stay in them for ever. */
	logtime_t later = now + 62 * MIN_USEC;
	assert_int_equal(model_count_window(&m, MIN_USEC, later), 0);
	assert_int_equal(model_count_window(&m, 60 * MIN_USEC, later), 0);
	model_trend(f, later, trend, 10);
	for (int i = 0; i < 10; i++)
		assert_int_equal(trend[i], 0);
	/* Shown as the log wrote it. */
	assert_int_equal(f->first, future);
	assert_int_equal(f->last, future + 74 * MIN_USEC);
	model_free(&m);
}

/* The "last" sort and a process's latest incident go by when a time far
 * ahead was read, local or a remote's first_seen alike; a time a few
 * minutes ahead (hosts of one job skew) is believed. */
static void test_future_times_sort_when_read(void **state)
{
	struct model m;
	logtime_t future = logtime_make(2099, 1, 1, 0, 0, 0, 0);
	logtime_t now = logtime_now();

	(void)state;
	live_model(&m, 10);
	struct incident *remote = make(DEAD_PID, "r", RES_STREAM, future, NULL);
	remote->host = "h1";
	model_add(&m, remote, READ_BEFORE);
	model_add(&m, make(DEAD_PID, "l", RES_STREAM, future, NULL), READ_BEFORE);
	/* Written after the 2099 one was read. */
	struct incident *cur = make(DEAD_PID, "l", RES_STREAM,
				    logtime_now() + 1000, NULL);
	model_add(&m, cur, READ_BEFORE);
	const struct process *r = m.procs[0], *l = m.procs[1];
	assert_true(r->last_at <= logtime_now());
	assert_int_equal(l->last_at, cur->first);
	assert_int_equal(r->last, future);
	assert_int_equal(l->last, future);
	/* The latest is the one read last, not the one dated 2099. */
	assert_ptr_equal(l->lv->latest, cur);
	assert_true(m.hosts[0]->last_at <= logtime_now());
	assert_int_equal(m.hosts[0]->last, future);
	/* Three minutes ahead: believed, and counted in the current minute
	 * of the trend and in the 1-minute window. */
	logtime_t ahead = now + 3 * MIN_USEC;
	model_add(&m, make(DEAD_PID + 1, "ahead", RES_STREAM, ahead, NULL), READ_BEFORE);
	const struct process *a = m.procs[2];
	assert_int_equal(a->last_at, ahead);
	unsigned trend[10];
	model_trend(a, now, trend, 10);
	assert_int_equal(trend[9], 1);
	size_t by[RES_COUNT];
	assert_int_equal(model_window(&m, a, MIN_USEC, now, by), 1);
	/* The rule itself, at its edge. */
	assert_int_equal(model_counted_time(now + MODEL_SKEW_USEC, now),
			 now + MODEL_SKEW_USEC);
	assert_int_equal(model_counted_time(now + MODEL_SKEW_USEC + 1, now),
			 now);
	assert_int_equal(model_counted_time(now - 100 * MIN_USEC, now),
			 now - 100 * MIN_USEC);
	assert_int_equal(model_counted_time(LOGTIME_UNKNOWN, now),
			 LOGTIME_UNKNOWN);
	model_free(&m);
}

/* A time far in the past (history, a log replayed) is counted by its
 * own time, in no window; it neither crowds the minutes nor hides what
 * comes after it. */
static void test_past_times_do_not_break_windows(void **state)
{
	struct model m;
	logtime_t now = logtime_now();
	logtime_t old = logtime_make(1971, 1, 1, 0, 0, 0, 0);

	(void)state;
	live_model(&m, 10);
	for (int i = 0; i < 75; i++)
		model_add(&m, make(DEAD_PID, "old", RES_STREAM,
				   old + i * MIN_USEC, NULL), READ_BEFORE);
	for (int i = 0; i < 75; i++)
		model_add(&m, make(DEAD_PID, "old", RES_STREAM,
				   now - (120 + i) * MIN_USEC, NULL), READ_BEFORE);
	for (int i = 0; i < 5; i++)
		model_add(&m, make(DEAD_PID + 1, "now", RES_EVENT, now, NULL), READ_BEFORE);
	assert_int_equal(model_count_window(&m, MIN_USEC, now), 5);
	assert_int_equal(model_count_window(&m, 60 * MIN_USEC, now), 5);
	assert_int_equal(model_count_window(&m, 0, now), 155);
	assert_true(m.nminutes <= 2);
	model_free(&m);
}

static void test_recent_and_latest(void **state)
{
	struct model m;
	logtime_t now = logtime_now();

	(void)state;
	live_model(&m, 3);
	for (int i = 0; i < 10; i++)
		model_add(&m, make(DEAD_PID, "p", RES_STREAM,
				   now - (i == 4 ? 0 : 60 * MIN_USEC) + i, NULL), READ_BEFORE);
	struct process *p = m.procs[0];
	assert_int_equal(p->lv->recent.n, 3);
	assert_int_equal(m.kept.n, 3);
	/* The latest by log time, not by arrival. */
	assert_int_equal(p->lv->latest->first, now + 4);
	int n = 0;
	for (const struct incident *i = model_first_recent(p); i;
	     i = model_next_recent(i))
		assert_int_equal(i->first, now - 60 * MIN_USEC + 7 + n++);
	assert_int_equal(n, 3);
	model_free(&m);
}

static void test_kept_in_all_is_bounded(void **state)
{
	struct model m;

	(void)state;
	live_model(&m, 100);
	for (long i = 0; i < MODEL_KEPT_MAX + 500; i++)
		model_add(&m, make(DEAD_PID + i % 200, "p", RES_STREAM,
				   LOGTIME_UNKNOWN, NULL), READ_BEFORE);
	assert_int_equal(m.kept.n, MODEL_KEPT_MAX);
	assert_int_equal(m.n, MODEL_KEPT_MAX + 500);
	model_free(&m);
}

static void add_raw(struct incident *inc, const char *text)
{
	inc->raw = xcalloc(1, sizeof *inc->raw);
	inc->raw[0] = (struct rawline){ inc->file, 1, xstrdup(text) };
	inc->nraw = 1;
}

/* Raw lines of 50,000 bytes: 4 MiB holds 83 incidents' worth. */
#define BIG_RAW 50000

static struct incident *big(long pid, logtime_t t, char fill)
{
	char *text = xcalloc(1, BIG_RAW + 1);
	struct incident *inc = make(pid, "p", RES_STREAM, t, NULL);

	memset(text, fill, BIG_RAW);
	add_raw(inc, text);
	free(text);
	return inc;
}

/* Every kept incident (a process's latest and its last `keep`) keeps its
 * raw lines, not only the latest, within MODEL_RAW_BYTES in all: beyond
 * it the incidents kept longest ago let theirs go (and say so), however
 * much is read; those let go as no longer kept leave the budget. */
static void test_raw_lines_within_a_budget(void **state)
{
	struct model m;
	logtime_t now = logtime_now();
	/* The text, its structure, and what each heap block costs. */
	size_t per = BIG_RAW + 1 + sizeof(struct rawline) + 2 * 16;

	(void)state;
	live_model(&m, 3);
	/* Five processes, three incidents each: all fit. */
	for (long i = 0; i < 15; i++)
		model_add(&m, big(DEAD_PID + i % 5, now + i, 'a'), READ_BEFORE);
	assert_int_equal(m.raw.n, 15);
	assert_int_equal(m.raw_bytes, 15 * per);
	for (size_t i = 0; i < m.nprocs; i++)
		for (const struct incident *inc = model_first_recent(m.procs[i]);
		     inc; inc = model_next_recent(inc))
			assert_int_equal(inc->nraw, 1);
	/* A fourth for each: its oldest is no longer kept, nor its lines. */
	for (long i = 15; i < 20; i++)
		model_add(&m, big(DEAD_PID + i % 5, now + i, 'b'), READ_BEFORE);
	assert_int_equal(m.raw.n, 15);
	assert_int_equal(m.raw_bytes, 15 * per);
	/* Ten times the budget read: the budget holds, the newest keep
	 * theirs, the oldest kept let theirs go and say so. */
	for (long i = 20; i < 20 + 10 * (long)(MODEL_RAW_BYTES / per); i++)
		model_add(&m, big(DEAD_PID + 5 + i % 200, now + i, 'c'),
			  READ_BEFORE);
	assert_true(m.raw_bytes <= MODEL_RAW_BYTES);
	assert_int_equal(m.raw.n, MODEL_RAW_BYTES / per);
	size_t with = 0, dropped = 0;
	for (const struct dlink *l = m.kept.first; l; l = l->next) {
		const struct incident *inc =
			DLIST_ENTRY(l, struct incident, in_kept);
		with += inc->nraw == 1;
		dropped += inc->raw_dropped && !inc->nraw;
	}
	assert_int_equal(with, m.raw.n);
	assert_int_equal(with + dropped, m.kept.n);
	const struct incident *newest =
		DLIST_ENTRY(m.kept.last, struct incident, in_kept);
	assert_int_equal(newest->nraw, 1);
	assert_int_equal(newest->raw[0].text[0], 'c');
	/* Folded processes give their bytes back. */
	fake_now += MODEL_FOLD_QUIET_MS + 1000;
	model_maintain(&m);
	assert_int_equal(m.nprocs, 1);
	assert_true(m.raw.n <= 3);
	size_t left = 0;
	for (const struct dlink *l = m.raw.first; l; l = l->next)
		left += DLIST_ENTRY(l, struct incident, in_raw)->raw_bytes;
	assert_int_equal(m.raw_bytes, left);
	model_free(&m);
}

static void test_quiet_dead_processes_fold(void **state)
{
	struct model m;
	struct strbuf before = STRBUF_INIT, after = STRBUF_INIT;
	char comm[64] = "";

	(void)state;
	live_model(&m, 5);
	struct prom_counts pc;
	prom_counts_init(&pc, &m);
	/* This test program runs: its row stays. */
	FILE *f = fopen("/proc/self/comm", "r");
	assert_non_null(f);
	assert_non_null(fgets(comm, sizeof comm, f));
	fclose(f);
	comm[strcspn(comm, "\n")] = '\0';
	for (long i = 0; i < 100; i++)
		model_add(&m, make(DEAD_PID + i, i % 3 ? "x" : "y",
				   i % 2 ? RES_EVENT : RES_STREAM,
				   LOGTIME_UNKNOWN, NULL), READ_BEFORE);
	model_add(&m, make(getpid(), comm, RES_STREAM, LOGTIME_UNKNOWN, NULL), READ_BEFORE);
	assert_int_equal(m.nprocs, 101);
	prom_lines(&m, &pc, &before);
	/* Quiet for less than the limit: nothing goes. */
	fake_now += m.fold_quiet_ms - 10;
	model_maintain(&m);
	assert_int_equal(m.nprocs, 101);
	fake_now += 2000;
	model_add(&m, make(DEAD_PID + 1000, "z", RES_STREAM, LOGTIME_UNKNOWN,
			   NULL), READ_BEFORE);
	assert_int_equal(m.nprocs, 2);
	assert_int_equal(m.folded_procs, 100);
	assert_int_equal(m.folded_incidents, 100);
	assert_int_equal(m.n, 102);
	assert_int_equal(m.kept.n, 2);
	/* The prom counts did not move, but for z's one. */
	prom_lines(&m, &pc, &after);
	assert_non_null(strstr(after.buf, "process=\"z\"} 1\n"));
	sb_reset(&after);
	prom_counts_free(&pc);
	model_free(&m);
	sb_free(&before);
	sb_free(&after);
}

static void test_cap_keeps_prom_exact(void **state)
{
	struct model m, exact;
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;

	(void)state;
	live_model(&m, 2);
	m.max_procs = 10;
	model_init(&exact);
	struct prom_counts pm, pe;
	prom_counts_init(&pm, &m);
	prom_counts_init(&pe, &exact);
	for (long i = 0; i < 5000; i++) {
		long pid = DEAD_PID + (i * 7919) % 997;
		const char *name = (i % 5) ? "train" : "infer";
		enum resource r = i % 3 ? RES_STREAM : RES_MEMCPY;
		model_add(&m, make(pid, name, r, logtime_now(), NULL), READ_BEFORE);
		model_add(&exact, make(pid, name, r, logtime_now(), NULL), READ_BEFORE);
		fake_now++;
	}
	assert_true(m.nprocs <= 10);
	assert_true(m.folded_procs > 900);
	assert_int_equal(m.n, 5000);
	size_t tracked = 0;
	for (size_t i = 0; i < m.nprocs; i++)
		tracked += process_total(m.procs[i]);
	assert_int_equal(tracked + m.folded_incidents, 5000);
	assert_true(m.kept.n <= 2 * 10);
	prom_lines(&m, &pm, &a);
	prom_lines(&exact, &pe, &b);
	assert_string_equal(a.buf, b.buf);
	assert_int_equal(model_count_window(&m, 60 * MIN_USEC, logtime_now()),
			 5000);
	/* The folded records were kept for the next ones: 900 folds and
	 * some 1,000 processes made take the one block of 480 records. */
	assert_int_equal(recpool_blocks(&m.proc_pool), 1);
	sb_free(&a);
	sb_free(&b);
	prom_counts_free(&pm);
	prom_counts_free(&pe);
	model_free(&m);
	model_free(&exact);
}

static void test_paths_freed_when_unused(void **state)
{
	struct model m;

	(void)state;
	live_model(&m, 1);
	const char *a = model_intern(&m, "/logs/a.log");
	const char *b = model_intern(&m, "/logs/b.log");
	assert_ptr_equal(model_intern(&m, "/logs/a.log"), a);
	model_release_path(&m, a);	/* the second intern's reference */
	assert_int_equal(model_paths(&m), 2);
	logtime_t now = logtime_now();
	model_add(&m, make(DEAD_PID, "p", RES_STREAM, now, a), READ_BEFORE);
	/* Its tail goes; the incident still points at it. */
	model_release_path(&m, a);
	fake_now += 120000;
	model_maintain(&m);
	assert_int_equal(model_paths(&m), 2);
	assert_string_equal(m.procs[0]->lv->latest->file, "/logs/a.log");
	/* Later incidents replace it as the latest, an earlier one as the
	 * report's example. */
	model_add(&m, make(DEAD_PID, "p", RES_STREAM, now + 1, b), READ_BEFORE);
	model_add(&m, make(DEAD_PID, "p", RES_STREAM, now - 1, b), READ_BEFORE);
	model_add(&m, make(DEAD_PID, "p", RES_STREAM, now + 2, b), READ_BEFORE);
	fake_now += 1000;
	model_maintain(&m);
	/* Not at once: a chain being assembled may still point at it. */
	assert_int_equal(model_paths(&m), 2);
	fake_now += 61000;
	model_maintain(&m);
	assert_int_equal(model_paths(&m), 1);
	/* A path used again before it was freed is the same one. */
	model_release_path(&m, b);
	assert_ptr_equal(model_intern(&m, "/logs/b.log"), b);
	model_free(&m);
}

/* Problems are all counted and the first MODEL_LISTED kept by name: a
 * directory that fails again and again must not grow the model. */
static void test_problems_bounded(void **state)
{
	struct model m;

	(void)state;
	model_init(&m);
	for (int i = 0; i < MODEL_LISTED + 50; i++)
		model_problem(&m, "/logs/d", "error %d", i);
	assert_int_equal(m.problems_total, MODEL_LISTED + 50);
	assert_int_equal(m.nproblems, MODEL_LISTED);
	assert_string_equal(m.problems[MODEL_LISTED - 1].error, "error 99");
	model_free(&m);
}

static void test_since_leaves_out_but_keeps_until_next(void **state)
{
	struct model m;

	(void)state;
	model_init(&m);
	m.since = logtime_make(2026, 1, 1, 0, 0, 0, 0);
	struct incident *old = make(DEAD_PID, "p", RES_STREAM,
				    logtime_make(2025, 1, 1, 0, 0, 0, 0), NULL);
	model_add(&m, old, READ_BEFORE);
	/* Still readable by whoever added it, but not counted. */
	assert_null(old->proc);
	assert_int_equal(old->pid, DEAD_PID);
	assert_int_equal(m.n, 0);
	assert_int_equal(m.filtered, 1);
	struct incident *new = make(DEAD_PID, "p", RES_STREAM,
				    logtime_make(2026, 2, 1, 0, 0, 0, 0), NULL);
	model_add(&m, new, READ_BEFORE);
	assert_non_null(new->proc);
	assert_int_equal(m.n, 1);
	model_free(&m);
}

/* The prom counts are by host as well as name: two hosts' processes of
 * one name are two series, each with its host; local ones have no host
 * label; a state gives a host's counts back to the same series. */
static void test_prom_counts_by_host(void **state)
{
	struct model m;
	struct prom_counts pc;
	struct strbuf out = STRBUF_INIT;

	(void)state;
	model_init(&m);
	prom_counts_init(&pc, &m);
	const char *hosts[] = { "h1", "h2", "h1", NULL, "h2", "h2" };
	for (int i = 0; i < 6; i++) {
		struct incident *inc = make(DEAD_PID + i, "train", RES_STREAM,
					    LOGTIME_UNKNOWN, NULL);
		inc->host = hosts[i];
		model_add(&m, inc, READ_BEFORE);
	}
	struct class_key k = { CODE_EE1023, RES_STREAM, CAUSE_UNKNOWN };
	struct prom_key key = { "h1", "train", -1, -1 };
	prom_counts_add(&pc, &key, &k, 10);
	prom_lines(&m, &pc, &out);
	assert_string_equal(out.buf,
		"plogtop_incidents_total{code=\"EE1023\",resource=\"stream\","
		"cause=\"unknown\",process=\"train\"} 1\n"
		"plogtop_incidents_total{code=\"EE1023\",resource=\"stream\","
		"cause=\"unknown\",process=\"train\",host=\"h1\"} 12\n"
		"plogtop_incidents_total{code=\"EE1023\",resource=\"stream\","
		"cause=\"unknown\",process=\"train\",host=\"h2\"} 3\n");
	sb_free(&out);
	prom_counts_free(&pc);
	model_free(&m);
}

/* The one way in: model_add tells each view of what it counted (not of
 * what --since left out), bumps the generation with every incident, and
 * stamps captured output read as it was written in the live modes only. */
struct seen {
	size_t n;
	const struct incident *last;
};

static void see(void *ctx, const struct incident *inc)
{
	struct seen *s = ctx;

	s->n++;
	s->last = inc;
}

static void test_one_way_in(void **state)
{
	struct model m;
	struct seen a = { 0, NULL }, b = { 0, NULL };

	(void)state;
	model_init(&m);
	model_watch(&m, see, &a);
	model_watch(&m, see, &b);
	m.since = logtime_make(2026, 1, 1, 0, 0, 0, 0);
	struct incident *old = make(DEAD_PID, "p", RES_STREAM,
				    logtime_make(2025, 1, 1, 0, 0, 0, 0), NULL);
	assert_int_equal(model_add(&m, old, READ_BEFORE), 0);
	assert_int_equal(a.n, 0);
	assert_int_equal(m.generation, 1);
	struct incident *inc = make(DEAD_PID, "p", RES_STREAM,
				    logtime_make(2026, 2, 1, 0, 0, 0, 0), NULL);
	assert_int_equal(model_add(&m, inc, READ_BEFORE), 1);
	assert_int_equal(a.n, 1);
	assert_ptr_equal(a.last, inc);
	assert_int_equal(b.n, 1);
	assert_int_equal(m.generation, 2);
	model_unwatch(&m, &a);
	m.since = LOGTIME_UNKNOWN;
	/* --once: no time of its own stays none, however it was read. */
	inc = make(DEAD_PID, "p", RES_STREAM, LOGTIME_UNKNOWN, NULL);
	model_add(&m, inc, READ_AS_WRITTEN);
	assert_int_equal(inc->first, LOGTIME_UNKNOWN);
	assert_int_equal(a.n, 1);
	assert_int_equal(b.n, 2);
	model_free(&m);

	/* Live: read as written, it happened now; from the history, not. */
	live_model(&m, 1);
	logtime_t before = logtime_now();
	inc = make(DEAD_PID, "q", RES_STREAM, LOGTIME_UNKNOWN, NULL);
	model_add(&m, inc, READ_AS_WRITTEN);
	assert_true(inc->first >= before && inc->first <= logtime_now());
	inc = make(DEAD_PID, "q", RES_STREAM, LOGTIME_UNKNOWN, NULL);
	model_add(&m, inc, READ_BEFORE);
	assert_int_equal(inc->first, LOGTIME_UNKNOWN);
	model_free(&m);
}

/* One merge for what a reading thread and a host read: a thread's roots
 * are the model's own, a host's become HOST:PATH, and sums saturate. */
static void test_merge_scan(void **state)
{
	struct model m, w;
	struct scan_part part;

	(void)state;
	model_init(&m);
	model_init(&w);
	model_add_root(&m, "/logs");
	model_add_root(&w, "/logs");
	w.stats.files = 3;
	w.stats.lines = 30;
	w.root_files[0] = 3;
	model_skip(&w, "/logs/a.gz", "compressed");
	model_problem(&w, "/logs/d", "Permission denied");
	model_scan_part(&w, &part);
	model_merge_scan(&m, &part, NULL);
	model_merge_scan(&m, &part, "h1");
	assert_int_equal(m.stats.files, 6);
	assert_int_equal(m.stats.lines, 60);
	assert_int_equal(m.nroots, 2);
	assert_int_equal(m.root_files[0], 3);
	assert_string_equal(m.roots[1], "h1:/logs");
	assert_int_equal(m.root_files[1], 3);
	assert_int_equal(m.nskipped, 2);
	assert_string_equal(m.skipped[1].path, "h1:/logs/a.gz");
	assert_int_equal(m.problems_total, 2);
	assert_string_equal(m.problems[0].path, "/logs/d");
	assert_string_equal(m.problems[1].path, "h1:/logs/d");
	part = (struct scan_part){ .stats = { .files = SIZE_MAX } };
	model_merge_scan(&m, &part, "h2");
	assert_int_equal(m.stats.files, SIZE_MAX);
	model_free(&w);
	model_free(&m);
}

/* Under the cap, rows come and go while blocks that name only a pid join
 * them: the pid index follows every fold (ASan would see a stale one),
 * identities that learnt nothing go with their rows, and those that
 * learnt a device stay, bounded. */
static void test_pid_joins_under_the_cap(void **state)
{
	struct model m;

	(void)state;
	size_t joined = 0;

	live_model(&m, 2);
	m.max_procs = 10;
	for (long i = 0; i < 3000; i++) {
		long pid = DEAD_PID + (i / 2) % 50;
		struct incident *inc = make(pid, i % 2 ? "" : "train",
					    RES_STREAM, logtime_now(), NULL);
		if (i % 14 == 0)
			incident_set_field(inc, "device_id", "1", 1);
		int has_row = 0;
		for (size_t k = 0; k < m.nprocs; k++)
			has_row |= m.procs[k]->pid == pid &&
				   strcmp(m.procs[k]->name, "train") == 0;
		model_add(&m, inc, READ_BEFORE);
		/* A block joins the row of its pid when there is one. */
		if (has_row)
			assert_string_equal(inc->name, "train");
		joined += i % 2 && has_row;
		fake_now++;
	}
	assert_true(m.nprocs <= 10);
	assert_int_equal(m.n, 3000);
	assert_true(joined > 0);
	const struct ident *const *v;
	size_t n = model_idents(&m, &v);
	assert_true(n > 0 && n <= 100);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(v[i]->device, 1);
		if (v[i]->proc)
			assert_ptr_equal(model_ident(&m, v[i]->proc), v[i]);
	}
	model_free(&m);
}

/* The lines of render that start with prefix, and how many. */
static size_t lines_of(const char *text, const char *prefix,
		       struct strbuf *out)
{
	size_t n = 0, k = strlen(prefix);

	for (const char *l = text; l && *l;) {
		const char *nl = strchr(l, '\n');
		if (strncmp(l, prefix, k) == 0) {
			n++;
			if (out)
				sb_add(out, l, (size_t)(nl - l + 1));
		}
		l = nl + 1;
	}
	return n;
}

/* plogtop_process_info: one series per process not known gone, at most
 * PROM_MAX_PROCESS_INFO (the rest counted), hostile names escaped, no
 * series once liveness finds the process gone. */
static void test_process_info_bounded(void **state)
{
	struct model m;
	struct strbuf sb = STRBUF_INIT, one = STRBUF_INIT;

	(void)state;
	model_init(&m);
	model_add(&m, make(DEAD_PID, "a\"b\\c\nd\xff", RES_STREAM,
			   LOGTIME_UNKNOWN, NULL), READ_BEFORE);
	prom_render_processes(&sb, &m);
	assert_int_equal(lines_of(sb.buf, "plogtop_process_info{", &one), 1);
	/* The sanitiser's \\ and \xNN, each backslash doubled again. */
	assert_string_equal(one.buf, "plogtop_process_info{pid=\"5000000\","
			    "process=\"a\\\"b\\\\\\\\c\\\\x0ad\\\\xff\"} 1\n");
	assert_non_null(strstr(sb.buf, "\nplogtop_process_info_omitted 0\n"));
	/* Found gone: its series is not written. */
	m.procs[0]->alive_asked = 1;
	sb_reset(&sb);
	prom_render_processes(&sb, &m);
	assert_int_equal(lines_of(sb.buf, "plogtop_process_info{", NULL), 0);
	m.procs[0]->alive_asked = 0;
	for (long i = 1; i < PROM_MAX_PROCESS_INFO + 100; i++)
		model_add(&m, make(DEAD_PID + i, "train", RES_STREAM,
				   LOGTIME_UNKNOWN, NULL), READ_BEFORE);
	sb_reset(&sb);
	prom_render_processes(&sb, &m);
	assert_int_equal(lines_of(sb.buf, "plogtop_process_info{", NULL),
			 PROM_MAX_PROCESS_INFO);
	assert_non_null(strstr(sb.buf, "\nplogtop_process_info_omitted 100\n"));
	sb_free(&one);
	sb_free(&sb);
	model_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_processes_by_hash),
		cmocka_unit_test(test_record_sizes),
		cmocka_unit_test(test_windows_and_trend),
		cmocka_unit_test(test_future_times_count_when_read),
		cmocka_unit_test(test_past_times_do_not_break_windows),
		cmocka_unit_test(test_future_times_sort_when_read),
		cmocka_unit_test(test_recent_and_latest),
		cmocka_unit_test(test_raw_lines_within_a_budget),
		cmocka_unit_test(test_kept_in_all_is_bounded),
		cmocka_unit_test(test_quiet_dead_processes_fold),
		cmocka_unit_test(test_cap_keeps_prom_exact),
		cmocka_unit_test(test_paths_freed_when_unused),
		cmocka_unit_test(test_since_leaves_out_but_keeps_until_next),
		cmocka_unit_test(test_problems_bounded),
		cmocka_unit_test(test_prom_counts_by_host),
		cmocka_unit_test(test_one_way_in),
		cmocka_unit_test(test_merge_scan),
		cmocka_unit_test(test_pid_joins_under_the_cap),
		cmocka_unit_test(test_process_info_bounded),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return unit_run_tap("model", tests, sizeof tests / sizeof tests[0]);
}
