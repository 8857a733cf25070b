/* The dashboard's fetcher: one thread, one client (its connection kept),
 * a refresh every interval; cluster.h says how it hands over. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cluster.h"
#include "xalloc.h"

struct cluster_worker {
	char *url;
	unsigned interval_ms;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	int fds[2];		/* the hand-off's pipe */
	_Atomic int stop;
	struct cluster_data *ready;	/* under lock */
};

/* Waits the interval, or less when stopped. */
static void pause_interval(struct cluster_worker *w)
{
	struct timespec until;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += w->interval_ms / 1000;
	until.tv_nsec += (long)(w->interval_ms % 1000) * 1000000L;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&w->lock);
	while (!w->stop &&
	       pthread_cond_timedwait(&w->wake, &w->lock, &until) == 0)
		;
	pthread_mutex_unlock(&w->lock);
}

static void *run(void *arg)
{
	struct cluster_worker *w = arg;
	struct httpc *c = httpc_new();

	while (!w->stop) {
		struct cluster_data *d = xcalloc(1, sizeof *d);
		cluster_data_init(d);
		d->at = getenv("PLOGTOP_PROM_TIME");
		cluster_fetch(c, w->url, 1, 0, &w->stop, d);
		pthread_mutex_lock(&w->lock);
		struct cluster_data *old = w->ready;
		w->ready = d;
		pthread_mutex_unlock(&w->lock);
		if (old) {
			cluster_data_free(old);
			free(old);
		}
		/* A full pipe already says a result is ready. */
		ssize_t n = write(w->fds[1], "r", 1);
		(void)n;
		pause_interval(w);
	}
	httpc_free(c);
	return NULL;
}

struct cluster_worker *cluster_worker_start(const char *url,
					    unsigned interval_ms,
					    struct strbuf *err)
{
	struct cluster_worker *w = xcalloc(1, sizeof *w);

	w->url = xstrdup(url);
	w->interval_ms = interval_ms;
	if (pipe2(w->fds, O_CLOEXEC | O_NONBLOCK) < 0) {
		sb_addf(err, "pipe: %s", strerror(errno));
		free(w->url);
		free(w);
		return NULL;
	}
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->wake, NULL);
	int rc = pthread_create(&w->thread, NULL, run, w);
	if (rc) {
		sb_addf(err, "pthread_create: %s", strerror(rc));
		close(w->fds[0]);
		close(w->fds[1]);
		free(w->url);
		free(w);
		return NULL;
	}
	return w;
}

int cluster_worker_fd(const struct cluster_worker *w)
{
	return w->fds[0];
}

struct cluster_data *cluster_worker_take(struct cluster_worker *w)
{
	char buf[64];

	while (read(w->fds[0], buf, sizeof buf) > 0)
		;
	pthread_mutex_lock(&w->lock);
	struct cluster_data *d = w->ready;
	w->ready = NULL;
	pthread_mutex_unlock(&w->lock);
	return d;
}

void cluster_worker_stop(struct cluster_worker *w)
{
	if (!w)
		return;
	pthread_mutex_lock(&w->lock);
	w->stop = 1;
	pthread_cond_signal(&w->wake);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	if (w->ready) {
		cluster_data_free(w->ready);
		free(w->ready);
	}
	close(w->fds[0]);
	close(w->fds[1]);
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->wake);
	free(w->url);
	free(w);
}
