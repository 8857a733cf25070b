/* Reading ahead on a thread (readahead.h).
 *
 * The ring is a single-producer single-consumer queue on two counters
 * (records made, records taken), each written by one side only: a record
 * changes hands without a lock.  The lock and the conditions are only for
 * sleeping: a mutex taken per record was contended on every hand-over and
 * cost a futex sleep and wake each time (6,000 voluntary context switches
 * reading dense.tar.zst, a 1 GiB tree in 35,000 records). */
#include "config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "readahead.h"
#include "xalloc.h"

struct readahead {
	ra_produce_fn fn;
	void *ctx;
	struct ra_record *slots;
	size_t nslots, chunk;
	/* made - taken records wait in the ring, the oldest in slot
	 * taken % nslots.  made is the producer's, taken the reader's. */
	atomic_size_t made;
	char apart[64];		/* each side writes a cache line of its own */
	atomic_size_t taken;
	char apart2[64];
	atomic_int done;	/* the last record is made */
	atomic_int stop;	/* the reader is closing: make no more */
	int threaded;
	/* Each side sleeps until the ring is half full (the reader) or half
	 * empty (the producer), not for one record: on a busy machine a wake
	 * per record was a context switch per 100 KiB.  A side about to sleep
	 * says so here, then looks at the counters again; the other side
	 * changes its counter, then looks here (both sequentially
	 * consistent): one of the two sees the other, so no wake is lost. */
	atomic_int reader_waits, producer_waits;
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t reader, room;
};

int readahead_wanted(void)
{
	const char *env = getenv("PLOGTOP_THREADS");

	if (env && *env)
		return strtoul(env, NULL, 10) != 1;
	return sysconf(_SC_NPROCESSORS_ONLN) > 1;
}

static int is_last(const struct ra_record *r)
{
	return r->kind == RA_END || r->kind == RA_ERROR;
}

static size_t waiting(struct readahead *ra)
{
	return atomic_load(&ra->made) - atomic_load(&ra->taken);
}

/* Makes the record in slot i: the reader does not touch a slot until
 * made counts it. */
static void make(struct readahead *ra, size_t i)
{
	struct ra_record *r = &ra->slots[i];

	r->len = r->off = 0;
	sb_reset(&r->text);
	ra->fn(ra->ctx, r, ra->chunk);
}

/* Wakes the side sleeping on c when it says it sleeps. */
static void wake(struct readahead *ra, atomic_int *waits, pthread_cond_t *c)
{
	if (!atomic_load(waits))
		return;
	/* Under the lock: the sleeper is then either before its last look
	 * at the counters (and sees the change) or inside the wait. */
	pthread_mutex_lock(&ra->mu);
	pthread_cond_signal(c);
	pthread_mutex_unlock(&ra->mu);
}

/* The producer's sleep while the ring is more than half full. */
static void producer_sleep(struct readahead *ra)
{
	pthread_mutex_lock(&ra->mu);
	atomic_store(&ra->producer_waits, 1);
	while (waiting(ra) > ra->nslots / 2 && !atomic_load(&ra->stop))
		pthread_cond_wait(&ra->room, &ra->mu);
	atomic_store(&ra->producer_waits, 0);
	pthread_mutex_unlock(&ra->mu);
}

static void *producer(void *arg)
{
	struct readahead *ra = arg;
	size_t half = (ra->nslots + 1) / 2;

	while (!atomic_load(&ra->stop)) {
		size_t made = atomic_load(&ra->made);
		if (made - atomic_load(&ra->taken) == ra->nslots) {
			producer_sleep(ra);
			continue;
		}
		size_t i = made % ra->nslots;
		make(ra, i);
		int last = is_last(&ra->slots[i]);
		atomic_store(&ra->made, made + 1);
		if (last)
			atomic_store(&ra->done, 1);
		if (last || waiting(ra) >= half)
			wake(ra, &ra->reader_waits, &ra->reader);
		if (last)
			break;
	}
	return NULL;
}

struct readahead *readahead_start(ra_produce_fn fn, void *ctx, size_t slots,
				  size_t chunk, int threaded)
{
	struct readahead *ra = xcalloc(1, sizeof *ra);

	ra->fn = fn;
	ra->ctx = ctx;
	ra->nslots = threaded && slots > 1 ? slots : 1;
	ra->chunk = chunk;
	ra->slots = xcalloc(ra->nslots, sizeof *ra->slots);
	for (size_t i = 0; i < ra->nslots; i++)
		ra->slots[i].buf = xmalloc(chunk);
	atomic_init(&ra->made, 0);
	atomic_init(&ra->taken, 0);
	atomic_init(&ra->done, 0);
	atomic_init(&ra->stop, 0);
	atomic_init(&ra->reader_waits, 0);
	atomic_init(&ra->producer_waits, 0);
	pthread_mutex_init(&ra->mu, NULL);
	pthread_cond_init(&ra->reader, NULL);
	pthread_cond_init(&ra->room, NULL);
	/* No thread (none wanted, or none to be had): made in place. */
	ra->threaded = ra->nslots > 1 &&
		       pthread_create(&ra->thread, NULL, producer, ra) == 0;
	return ra;
}

/* The reader's sleep while the ring is empty, until it is half full or
 * the last record is in. */
static void reader_sleep(struct readahead *ra)
{
	size_t half = (ra->nslots + 1) / 2;

	pthread_mutex_lock(&ra->mu);
	atomic_store(&ra->reader_waits, 1);
	while (!atomic_load(&ra->done) && waiting(ra) < half)
		pthread_cond_wait(&ra->reader, &ra->mu);
	atomic_store(&ra->reader_waits, 0);
	pthread_mutex_unlock(&ra->mu);
}

struct ra_record *readahead_peek(struct readahead *ra)
{
	size_t taken = atomic_load(&ra->taken);

	if (!ra->threaded) {
		if (atomic_load(&ra->made) == taken) {
			make(ra, taken % ra->nslots);
			atomic_store(&ra->made, taken + 1);
		}
	} else if (atomic_load(&ra->made) == taken) {
		reader_sleep(ra);
	}
	return &ra->slots[taken % ra->nslots];
}

void readahead_pop(struct readahead *ra)
{
	size_t taken = atomic_load(&ra->taken);

	if (atomic_load(&ra->made) == taken ||
	    is_last(&ra->slots[taken % ra->nslots]))
		return;
	atomic_store(&ra->taken, taken + 1);
	if (ra->threaded && waiting(ra) <= ra->nslots / 2)
		wake(ra, &ra->producer_waits, &ra->room);
}

void readahead_stop(struct readahead *ra)
{
	if (!ra)
		return;
	if (ra->threaded) {
		atomic_store(&ra->stop, 1);
		pthread_mutex_lock(&ra->mu);
		pthread_cond_signal(&ra->room);
		pthread_mutex_unlock(&ra->mu);
		pthread_join(ra->thread, NULL);
	}
	for (size_t i = 0; i < ra->nslots; i++) {
		free(ra->slots[i].buf);
		sb_free(&ra->slots[i].text);
	}
	free(ra->slots);
	pthread_mutex_destroy(&ra->mu);
	pthread_cond_destroy(&ra->reader);
	pthread_cond_destroy(&ra->room);
	free(ra);
}
