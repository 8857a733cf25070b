#include "config.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "follow.h"
#include "live.h"
#include "model.h"
#include "prom.h"
#include "report.h"
#include "sanitize.h"

struct live {
	const struct options *o;
	const struct catalog *cat;
	struct model m;
	struct follower *fw;
	char host[256];
	int stop;		/* the output was closed, or a write failed */
	unsigned long long prom_gen, prom_at;
	int prom_written, prom_failed;
};

static void put_value(struct strbuf *sb, const char *v)
{
	struct strbuf clean = STRBUF_INIT;

	sanitize(&clean, v, strlen(v));
	if (!clean.len || strpbrk(clean.buf, " \"=")) {
		sb_addc(sb, '"');
		for (size_t i = 0; i < clean.len; i++) {
			if (clean.buf[i] == '"' || clean.buf[i] == '\\')
				sb_addc(sb, '\\');
			sb_addc(sb, clean.buf[i]);
		}
		sb_addc(sb, '"');
	} else {
		sb_add(sb, clean.buf, clean.len);
	}
	sb_free(&clean);
}

void incident_line(struct strbuf *sb, const struct incident *inc)
{
	char iso[LOGTIME_ISO_LEN];

	logtime_iso(inc->first, iso);
	sb_adds(sb, *iso ? iso : "-");
	if (inc->pid)
		sb_addf(sb, " %ld ", inc->pid);
	else
		sb_adds(sb, " - ");
	put_value(sb, *inc->name ? inc->name : "-");
	sb_addf(sb, " %s %s %s", code_name(inc->code),
		resource_name(inc->resource), cause_name(inc->cause));
	if (strcmp(inc->reported_code, code_name(inc->code)) != 0) {
		sb_adds(sb, " reported=");
		put_value(sb, inc->reported_code);
	}
	for (size_t i = 0; i < inc->nfields; i++) {
		sb_addc(sb, ' ');
		sb_adds(sb, inc->fields[i].key);
		sb_addc(sb, '=');
		put_value(sb, inc->fields[i].value);
	}
}

/* Each incident is one line, flushed at once, also into a pipe. */
static void on_incident(void *ctx, const struct incident *inc)
{
	struct live *lv = ctx;
	struct strbuf sb = STRBUF_INIT;

	if (lv->stop)
		return;
	if (lv->o->format == FORMAT_NDJSON)
		report_incident_json(&sb, inc, lv->cat, lv->host);
	else
		incident_line(&sb, inc);
	sb_addc(&sb, '\n');
	if (fwrite(sb.buf, 1, sb.len, stdout) != sb.len || fflush(stdout) != 0)
		lv->stop = 1;
	sb_free(&sb);
}

static void write_prom(struct live *lv, unsigned long long now, int force)
{
	unsigned long long gen = follower_generation(lv->fw);

	if (!lv->o->prom_file || lv->prom_failed)
		return;
	if (!force && lv->prom_written &&
	    (gen == lv->prom_gen || now < lv->prom_at + lv->o->interval_ms))
		return;
	struct strbuf err = STRBUF_INIT;
	if (prom_write(lv->o->prom_file, &lv->m, follower_files(lv->fw),
		       &err) < 0) {
		fprintf(stderr, "plogtop: %s (the prom file is no longer "
			"written)\n", err.buf);
		lv->prom_failed = 1;
	}
	sb_free(&err);
	lv->prom_gen = gen;
	lv->prom_at = now;
	lv->prom_written = 1;
}

static int prom_timeout(const struct live *lv, unsigned long long now)
{
	if (!lv->o->prom_file || lv->prom_failed ||
	    follower_generation(lv->fw) == lv->prom_gen)
		return -1;
	unsigned long long due = lv->prom_at + lv->o->interval_ms;
	return due <= now ? 0 : (int)(due - now);
}

static int min_timeout(int a, int b)
{
	if (a < 0)
		return b;
	if (b < 0)
		return a;
	return a < b ? a : b;
}

/* SIGINT, SIGTERM and SIGHUP arrive through a descriptor, so the loop
 * ends between two steps and everything is flushed. */
static int signal_fd(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	if (sigprocmask(SIG_BLOCK, &set, old) < 0)
		return -1;
	return signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
}

static void loop(struct live *lv, int sfd)
{
	while (!lv->stop && !follower_finished(lv->fw)) {
		unsigned long long now = monotonic_ms();
		struct pollfd p[3] = {
			{ sfd, POLLIN, 0 },
			{ follower_fd(lv->fw), POLLIN, 0 },
			{ follower_stdin_fd(lv->fw), POLLIN, 0 },
		};
		int timeout = min_timeout(follower_timeout(lv->fw, now),
					  prom_timeout(lv, now));
		int n = poll(p, 3, timeout);
		if (n < 0 && errno != EINTR) {
			perror("plogtop: poll");
			break;
		}
		if (n > 0 && (p[0].revents & POLLIN))
			break;
		now = monotonic_ms();
		follower_handle(lv->fw, n > 0 && (p[1].revents & POLLIN),
				n > 0 && (p[2].revents & (POLLIN | POLLHUP)),
				now);
		write_prom(lv, now, 0);
	}
}

int run_follow(const struct options *o, struct ruleset *rs,
	       const struct catalog *cat)
{
	struct live lv = { .o = o, .cat = cat };
	struct strbuf err = STRBUF_INIT;
	sigset_t old;

	gethostname(lv.host, sizeof lv.host - 1);
	model_init(&lv.m);
	/* --since=now means: start at the end of every file. */
	int skip = o->since_arg && strcmp(o->since_arg, "now") == 0;
	lv.m.since = o->since_arg && !skip ? o->since : LOGTIME_UNKNOWN;
	struct follow_opts fo = {
		.skip_history = skip, .poll_ms = o->poll_ms,
		.max_watches = o->max_watches, .on_incident = on_incident,
		.ctx = &lv,
	};
	lv.fw = follower_new(rs, &lv.m, &fo, &err);
	if (!lv.fw) {
		fprintf(stderr, "plogtop: %s\n", err.buf);
		sb_free(&err);
		model_free(&lv.m);
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	int sfd = signal_fd(&old);
	if (sfd < 0)
		perror("plogtop: signalfd");
	for (size_t i = 0; i < o->npaths; i++)
		follower_add(lv.fw, o->paths[i]);
	follower_start(lv.fw, monotonic_ms());
	while (follower_history_step(lv.fw, 1000) && !lv.stop)
		;
	write_prom(&lv, monotonic_ms(), 1);
	loop(&lv, sfd);
	/* Ending: the chains still open are complete as they stand. */
	follower_flush(lv.fw);
	write_prom(&lv, monotonic_ms(), 1);
	follower_free(lv.fw);
	model_free(&lv.m);
	if (sfd >= 0)
		close(sfd);
	sigprocmask(SIG_SETMASK, &old, NULL);
	sb_free(&err);
	return 0;
}
