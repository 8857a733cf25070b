/* Reading ahead on a thread (readahead.h). */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "readahead.h"
#include "xalloc.h"

struct readahead {
	ra_produce_fn fn;
	void *ctx;
	struct ra_record *slots;
	size_t nslots, chunk;
	size_t head;		/* the oldest record not taken */
	size_t count;		/* records made and not taken */
	int done;		/* the last record is made */
	int stop;		/* the reader is closing: make no more */
	int threaded;
	/* Each side sleeps until the ring is half full (the reader) or half
	 * empty (the producer), not for one record: on a busy machine a wake
	 * per record was a context switch per 100 KiB. */
	int reader_waits, producer_waits;
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

/* Makes the record in slot i (outside the lock: the reader does not
 * touch a slot past head + count). */
static void make(struct readahead *ra, size_t i)
{
	struct ra_record *r = &ra->slots[i];

	r->len = r->off = 0;
	sb_reset(&r->text);
	ra->fn(ra->ctx, r, ra->chunk);
}

static void *producer(void *arg)
{
	struct readahead *ra = arg;

	pthread_mutex_lock(&ra->mu);
	while (!ra->stop && !ra->done) {
		if (ra->count == ra->nslots) {
			ra->producer_waits = 1;
			while (ra->count > ra->nslots / 2 && !ra->stop)
				pthread_cond_wait(&ra->room, &ra->mu);
			ra->producer_waits = 0;
			continue;
		}
		size_t i = (ra->head + ra->count) % ra->nslots;
		pthread_mutex_unlock(&ra->mu);
		make(ra, i);
		pthread_mutex_lock(&ra->mu);
		ra->count++;
		ra->done = is_last(&ra->slots[i]);
		if (ra->reader_waits &&
		    (ra->done || ra->count >= (ra->nslots + 1) / 2))
			pthread_cond_signal(&ra->reader);
	}
	pthread_mutex_unlock(&ra->mu);
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
	pthread_mutex_init(&ra->mu, NULL);
	pthread_cond_init(&ra->reader, NULL);
	pthread_cond_init(&ra->room, NULL);
	/* No thread (none wanted, or none to be had): made in place. */
	ra->threaded = ra->nslots > 1 &&
		       pthread_create(&ra->thread, NULL, producer, ra) == 0;
	return ra;
}

struct ra_record *readahead_peek(struct readahead *ra)
{
	if (!ra->threaded) {
		if (!ra->count) {
			make(ra, ra->head);
			ra->count = 1;
		}
		return &ra->slots[ra->head];
	}
	pthread_mutex_lock(&ra->mu);
	if (!ra->count) {
		ra->reader_waits = 1;
		while (!ra->done && ra->count < (ra->nslots + 1) / 2)
			pthread_cond_wait(&ra->reader, &ra->mu);
		ra->reader_waits = 0;
	}
	pthread_mutex_unlock(&ra->mu);
	return &ra->slots[ra->head];
}

void readahead_pop(struct readahead *ra)
{
	if (ra->threaded)
		pthread_mutex_lock(&ra->mu);
	if (ra->count && !is_last(&ra->slots[ra->head])) {
		ra->head = (ra->head + 1) % ra->nslots;
		ra->count--;
		if (ra->producer_waits && ra->count <= ra->nslots / 2)
			pthread_cond_signal(&ra->room);
	}
	if (ra->threaded)
		pthread_mutex_unlock(&ra->mu);
}

void readahead_stop(struct readahead *ra)
{
	if (!ra)
		return;
	if (ra->threaded) {
		pthread_mutex_lock(&ra->mu);
		ra->stop = 1;
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
