#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "i18n.h"
#include "dash.h"
#include "locale_note.h"
#include "msglog.h"
#include "datadir.h"
#include "demo.h"
#include "fileio.h"
#include "fleet.h"
#include "state.h"
#include "follow.h"
#include "live.h"
#include "live_int.h"
#include "theme.h"
#include "tui.h"
#include "model.h"
#include "monoclock.h"
#include "prom.h"
#include "sanitize.h"
#include "stream.h"
#include "xalloc.h"

/* Each incident is one line, flushed at once, also into a pipe. */
static void on_incident(void *ctx, const struct incident *inc)
{
	struct live *lv = ctx;

	/* Not counted (--since), or nothing prints it. */
	if (lv->stop || lv->dashboard || !inc->proc)
		return;
	/* A fleet's lines start with the host, and so does the line of a
	 * host named by its file's path (local lines stay as they were). */
	struct stream_opts so = { lv->o->format == FORMAT_NDJSON,
				  lv->fleet != NULL || inc->host != NULL,
				  lv->cat, lv->host,
				  lv->o->no_fix };
	if (stream_incident(stdout, inc, &so) < 0)
		lv->stop = 1;
}

/* The outcome of a prom file write, told once per change. */
static void prom_outcome(struct live *lv, unsigned long long now,
			 const struct strbuf *err)
{
	struct strbuf msg = STRBUF_INIT;
	double retry = lv->o->prom_retry_ms / 1000.0;

	if (!err && lv->prom_failed) {
		sb_addf(&msg, "%s%s", lv->o->prom_file, _(": written again"));
		msglog_add(&lv->log, msg.buf);
		lv->prom_failed = 0;
	} else if (err && !lv->prom_failed) {
		sb_add(&msg, err->buf, err->len);
		sb_addf(&msg, _(" (trying again; plogtop exits if the prom file "
			"cannot be written for %g s)"), retry);
		msglog_add(&lv->log, msg.buf);
		lv->prom_failed = 1;
		lv->prom_failed_at = now;
	} else if (err && now - lv->prom_failed_at >= lv->o->prom_retry_ms) {
		sb_add(&msg, err->buf, err->len);
		sb_addf(&msg, _(" (the prom file could not be written "
			"for %g s; giving up)"), retry);
		msglog_error(&lv->log, msg.buf);
		lv->failed = 1;
		lv->prom_gave_up = 1;	/* ends the loop; output goes on */
	}
	sb_free(&msg);
}

/* The prom file is rewritten when something changed, at most every
 * --interval, and at least every heartbeat when nothing did, so that
 * plogtop_last_update_timestamp_seconds tells a quiet node from a dead
 * plogtop (the rules' PlogtopStale).  Not while the history is read:
 * the first file of a counting holds all of its history, which the
 * rules take as its baseline (it is written when the history is
 * done, and the chains it left open are closed).  Returns when the next
 * write is due, or ULLONG_MAX. */
static int prom_wanted(const struct live *lv)
{
	return (lv->o->prom_file && !lv->prom_gave_up) || lv->httpd;
}

static unsigned long long prom_next(const struct live *lv)
{
	unsigned long long gen = follower_generation(lv->fw) +
				 fleet_generation(lv->fleet) + lv->m.generation;
	unsigned long long beat = lv->prom_at + lv->prom_heartbeat_ms;

	if (!prom_wanted(lv) || follower_reading_history(lv->fw))
		return ULLONG_MAX;
	/* The first: once the chains the history left open are closed (a
	 * chain that ends the last file read is closed by the flush timer),
	 * and every host has sent its history, or PROM_SETTLE_MS after the
	 * history if one is still open or a host is still sending. */
	if (!lv->prom_written)
		return follower_settled(lv->fw) && fleet_settled(lv->fleet)
		       ? 0 : lv->prom_first_by;
	if (gen != lv->prom_gen || lv->prom_failed) {
		unsigned long long due = lv->prom_at + lv->o->interval_ms;
		return due < beat ? due : beat;
	}
	return beat;
}

static void write_prom(struct live *lv, unsigned long long now, int force)
{
	if (!prom_wanted(lv))
		return;
	if (!force && now < prom_next(lv))
		return;
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	struct timespec ts;
	lv->m.stats.match_limit_hits = follower_limit_hits(lv->fw);
	/* plogtop_process_info is of live processes, and a live one's
	 * environment (its NPU, its pod) labels what it counts next. */
	model_ask_alive(&lv->m);
	clock_gettime(CLOCK_REALTIME, &ts);
	/* One text for the prom file and --listen's /metrics. */
	prom_render(&text, &lv->m, &lv->prom, follower_watched(lv->fw),
		    (double)ts.tv_sec + (double)ts.tv_nsec / 1e9);
	if (lv->o->prom_file && !lv->prom_gave_up) {
		int rc = write_file_atomic(lv->o->prom_file, text.buf,
					   text.len, 0644, 0, &err);
		prom_outcome(lv, now, rc < 0 ? &err : NULL);
	}
	live_listen_publish(lv, &text);
	sb_free(&text);
	sb_free(&err);
	lv->prom_gen = follower_generation(lv->fw) +
		       fleet_generation(lv->fleet) + lv->m.generation;
	lv->prom_at = now;
	lv->prom_written = 1;
}

/* The history has been read: the first file is due. */
static void prom_history_read(struct live *lv, unsigned long long now)
{
	lv->prom_first_by = now + PROM_SETTLE_MS;
	write_prom(lv, now, 0);
}

static int prom_timeout(const struct live *lv, unsigned long long now)
{
	unsigned long long next = prom_next(lv);

	if (next == ULLONG_MAX)
		return -1;
	if (next <= now)
		return 0;
	return next - now > INT_MAX ? INT_MAX : (int)(next - now);
}

/* The heartbeat: PROM_HEARTBEAT_MS, or --interval if that is longer.
 * PLOGTOP_PROM_HEARTBEAT (seconds; not documented for users) lets a
 * test shorten it. */
static unsigned long long prom_heartbeat(const struct options *o)
{
	const char *env = getenv("PLOGTOP_PROM_HEARTBEAT");
	unsigned long long ms = PROM_HEARTBEAT_MS;

	if (env && *env) {
		char *end;
		double s = strtod(env, &end);
		if (*end == '\0' && s > 0 && s < 86400)
			ms = (unsigned long long)(s * 1000);
	}
	if (ms < 1)
		ms = 1;
	return ms > o->interval_ms ? ms : o->interval_ms;
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

/* ---- the loop ---- */

/* What the loop waits on: its own LOOP_FDS, then two per host of a
 * fleet (*nf of them), then npu-smi's; returns how many. */
#define LOOP_FDS 4
static size_t loop_fds(const struct live *lv, int sfd, struct pollfd *p,
		       size_t nfleet, size_t *nf)
{
	p[0] = (struct pollfd){ sfd, POLLIN, 0 };
	p[1] = (struct pollfd){ follower_fd(lv->fw), POLLIN, 0 };
	p[2] = (struct pollfd){ follower_stdin_fd(lv->fw), POLLIN, 0 };
	/* The dashboard reads keys; --follow only watches its output, to
	 * end when nobody reads it any more, even if it has had nothing to
	 * write (a remote plogtop whose ssh went away). */
	p[3] = lv->dashboard ? (struct pollfd){ STDIN_FILENO, POLLIN, 0 }
			     : (struct pollfd){ STDOUT_FILENO, 0, 0 };
	*nf = lv->fleet ? fleet_pollfds(lv->fleet, p + LOOP_FDS, nfleet) : 0;
	return LOOP_FDS + *nf + npusmi_run_pollfds(lv->npu, p + LOOP_FDS + *nf,
						    NPUSMI_POLLFDS);
}

/* How long poll may wait: until the first thing that is due. */
static int loop_timeout(const struct live *lv, unsigned long long now,
			unsigned long long demo_due)
{
	if (follower_reading_history(lv->fw))
		return 0;
	int timeout = min_timeout(follower_timeout(lv->fw, now),
				  prom_timeout(lv, now));
	if (lv->fleet)
		timeout = min_timeout(timeout, fleet_timeout(lv->fleet, now));
	timeout = min_timeout(timeout, live_draw_timeout(lv, now));
	timeout = min_timeout(timeout, live_state_timeout(lv, now));
	timeout = min_timeout(timeout, npusmi_run_timeout(lv->npu, now));
	timeout = min_timeout(timeout, live_listen_timeout(lv, now));
	timeout = min_timeout(timeout, exec_hook_timeout(lv->exec, now));
	if (lv->demo)
		timeout = min_timeout(timeout, demo_due > now
				      ? (int)(demo_due - now) : 0);
	return timeout;
}

/* --exec: whether an incident is of what the files held at the start
 * (a host's are all new). */
static int of_history(void *ctx, const struct incident *inc)
{
	const struct live *lv = ctx;

	return !inc->host && follower_of_history(lv->fw, inc->file, inc->line);
}

/* The history is read: the prom file, the state and a cursor line are
 * due. */
static void history_read(struct live *lv, unsigned long long now)
{
	prom_history_read(lv, now);
	/* --exec: new incidents from now. */
	follower_mark_history_end(lv->fw);
	exec_hook_live(lv->exec, of_history, lv);
	live_state_write(lv, now, 1);
	live_cursor_write(lv, now, 1);
}

/* One turn after poll said n: reads, counts, writes and draws what is
 * due. */
static void loop_step(struct live *lv, const struct pollfd *p, size_t np,
		      int n, int history, unsigned long long *demo_due)
{
	unsigned long long now = monotonic_ms();

	if (lv->dashboard && ((n > 0 && p[3].revents) || n < 0))
		live_keys(lv, now);
	if (lv->stop)
		return;
	if (history && !follower_history_step(lv->fw, lv->dashboard
						      ? 50 : 200))
		history_read(lv, now);
	if (lv->demo)
		*demo_due = demo_step(lv->demo, now);
	follower_handle(lv->fw, n > 0 && (p[1].revents & POLLIN),
			n > 0 && (p[2].revents & (POLLIN | POLLHUP)), now);
	if (lv->fleet)
		fleet_handle(lv->fleet, p + LOOP_FDS,
			     n > 0 ? np - LOOP_FDS : 0, now);
	npusmi_run_step(lv->npu, now);	/* reads without blocking */
	model_maintain(&lv->m);
	write_prom(lv, now, 0);
	live_listen_step(lv, now);
	exec_hook_step(lv->exec, now);	/* never blocks */
	if (!follower_reading_history(lv->fw)) {
		live_state_write(lv, now, 0);
		live_cursor_write(lv, now, 0);
	}
	/* Paused or not, the clock and the header still move. */
	if (lv->dashboard && now >= lv->drawn_at + lv->o->interval_ms)
		live_draw(lv, now);
}

static void loop(struct live *lv, int sfd)
{
	unsigned long long demo_due = 0;
	size_t nfleet = lv->fleet ? fleet_npoll(lv->fleet) : 0;
	struct pollfd *p = xcalloc(LOOP_FDS + nfleet + NPUSMI_POLLFDS,
				   sizeof *p);

	while (!lv->stop && !lv->prom_gave_up &&
	       (!follower_finished(lv->fw) || lv->fleet)) {
		int history = follower_reading_history(lv->fw);
		size_t nf, np = loop_fds(lv, sfd, p, nfleet, &nf);
		int n = poll(p, np, loop_timeout(lv, monotonic_ms(), demo_due));
		if (n < 0 && errno != EINTR) {
			struct strbuf msg = STRBUF_INIT;
			sb_addf(&msg, "poll: %s", strerror(errno));
			/* Said on stderr once the terminal is back. */
			msglog_error(&lv->log, msg.buf);
			lv->failed = 1;
			sb_free(&msg);
			break;
		}
		if (n > 0 && (p[0].revents & POLLIN)) {
			/* Taken, so that it is not delivered again when the
			 * mask is restored. */
			struct signalfd_siginfo si;
			ssize_t r = read(sfd, &si, sizeof si);
			(void)r;
			break;
		}
		/* The terminal went away (the ssh connection dropped), or the
		 * reader of --follow's output. */
		if (n > 0 && (p[3].revents & (POLLHUP | POLLERR)))
			break;
		loop_step(lv, p, LOOP_FDS + nf, n, history, &demo_due);
	}
	free(p);
}

/* Hosts named on the command line: read over ssh into the same model. */
static struct fleet *start_fleet(struct live *lv)
{
	const struct options *o = lv->o;

	if (!o->nhostpaths)
		return NULL;
	struct fleet_opts fo = {
		.ssh = o->ssh_cmd, .remote_cmd = o->remote_cmd,
		.since_arg = o->since_arg, .log = &lv->log, .ctx = lv,
	};
	struct fleet *fl = fleet_new(&lv->m, &fo);
	for (size_t i = 0; i < o->nhostpaths; i++)
		fleet_add(fl, o->host_names[i], o->host_paths[i]);
	if (o->state_file) {
		struct strbuf hosts = STRBUF_INIT;
		if (state_section(o->state_file, "hosts", &hosts) == 0)
			fleet_restore_state(fl, hosts.buf, hosts.len);
		sb_free(&hosts);
	}
	return fl;
}

/* --hello: the stream says what it is before any incident, so that a
 * plogtop reading it knows at once the host is up and speaks its
 * version. */
static void write_stream_header(struct live *lv)
{
	if (stream_header(stdout, PACKAGE_VERSION, lv->host) < 0)
		lv->stop = 1;
}

/* The roots the header names: the local ones, else (only HOST:PATH
 * arguments) the hosts' as named. */
static void roots_text(struct live *lv)
{
	const struct options *o = lv->o;

	for (size_t i = 0; i < lv->m.nroots; i++) {
		if (i)
			sb_adds(&lv->roots, ", ");
		sanitize(&lv->roots, lv->m.roots[i], strlen(lv->m.roots[i]));
	}
	for (size_t i = 0; !lv->m.nroots && i < o->nhostpaths; i++) {
		if (i)
			sb_adds(&lv->roots, ", ");
		sanitize(&lv->roots, o->host_names[i], strlen(o->host_names[i]));
		sb_addc(&lv->roots, ':');
		sanitize(&lv->roots, o->host_paths[i], strlen(o->host_paths[i]));
	}
}

static int reads_stdin(const struct options *o)
{
	for (size_t i = 0; i < o->npaths; i++)
		if (strcmp(o->paths[i], "-") == 0)
			return 1;
	return 0;
}

/* The follower over the roots (or the demo's): -1 with why in err. */
static int start_follower(struct live *lv, struct ruleset *rs, int skip,
			  struct strbuf *err)
{
	const struct options *o = lv->o;
	struct follow_opts fo = {
		.skip_history = skip, .poll_ms = o->poll_ms,
		.max_watches = o->max_watches, .log = &lv->log, .ctx = lv, .resume_ctx = &lv->resume,
	};

	/* Resume points are kept for a state or a stream's cursor lines. */
	if (o->state_file || o->resume_file || o->hello)
		fo.resume_for = posset_resume_for;
	if (!(lv->fw = follower_new(rs, &lv->m, &fo, err)))
		return -1;
	if (lv->demo)
		return follower_add(lv->fw, demo_root(lv->demo), 1, err);
	/* A root still to come is waited for, except a path named for the
	 * dashboard: a mistyped one must not give an empty screen. */
	int may_wait = !lv->dashboard || o->default_root;
	for (size_t i = 0; i < o->npaths; i++)
		if (follower_add(lv->fw, o->paths[i], may_wait, err) < 0)
			return -1;
	return 0;
}

/* Everything up to the loop; -1 when plogtop cannot start (said). */
static int live_open(struct live *lv, struct ruleset *rs)
{
	const struct options *o = lv->o;
	struct strbuf err = STRBUF_INIT;
	int rc = -1;

	local_host_name(lv->host, sizeof lv->host);
	lv->prom_heartbeat_ms = prom_heartbeat(o);
	model_init(&lv->m);
	model_set_job(&lv->m, o->job);
	model_set_path_hosts(&lv->m, o->path_hosts);
	msglog_init(&lv->log);
	/* The dashboard's messages wait for it from the start: a warning
	 * while the roots are set up shows on its message line; if it
	 * cannot start, they go to stderr then.  What stops plogtop from
	 * starting is said at once (a NULL log). */
	msglog_attach(&lv->log, lv->dashboard);
	model_set_live(&lv->m, o->keep);
	model_watch(&lv->m, on_incident, lv);
	if ((lv->exec = exec_hook_new(o, lv->cat, lv->host, &lv->log)))
		model_watch(&lv->m, exec_hook_on_incident, lv->exec);
	prom_counts_init(&lv->prom, &lv->m);
	/* --since=now means: start at the end of every file. */
	int skip = o->since_arg && strcmp(o->since_arg, "now") == 0;
	lv->m.since = o->since_arg && !skip ? o->since : LOGTIME_UNKNOWN;
	if (o->demo && !(lv->demo = demo_new(&err))) {
		struct strbuf msg = STRBUF_INIT;
		sb_addf(&msg, "--demo: %s", err.buf);
		msglog_add(NULL, msg.buf);
		sb_free(&msg);
	} else if (live_state_start(lv) < 0 || live_listen_start(lv) < 0) {
		;	/* said */
	} else if (start_follower(lv, rs, skip, &err) < 0) {
		msglog_add(NULL, err.buf);
	} else {
		lv->fleet = start_fleet(lv);
		/* This machine's NPUs, when its own logs are read. */
		if (o->npaths && !lv->demo)
			lv->npu = npusmi_run_new(o->npu_smi, &lv->m, &lv->log);
		roots_text(lv);
		/* The terminal's errors come sanitised (a TERM name). */
		if (lv->dashboard && live_start_dashboard(lv, &err) < 0)
			msglog_add_clean(NULL, err.buf);
		else
			rc = 0;
	}
	sb_free(&err);
	return rc;
}

/* Ending: the chains still open are complete as they stand; but with a
 * state (not standard input: it has no resume point) they are left to
 * the next run, which reads them from their first line, whole: a chain
 * cut by a restart is counted once.  What failed is said. */
static void live_end(struct live *lv)
{
	const struct options *o = lv->o;

	if (!o->state_file || reads_stdin(o))
		follower_flush(lv->fw);
	else
		follower_flush_gone(lv->fw);
	exec_hook_finish(lv->exec);
	live_state_write(lv, monotonic_ms(), 1);
	live_cursor_write(lv, monotonic_ms(), 1);
	write_prom(lv, monotonic_ms(), 1);
	if (lv->state_failed && !lv->failed) {
		msglog_error(&lv->log, lv->state_err.buf);
		lv->failed = 1;
	}
	if (!lv->prom_gave_up && lv->prom_failed) {
		struct strbuf msg = STRBUF_INIT;
		sb_addf(&msg, "%s%s", o->prom_file,
			_(": the prom file could not be written"));
		msglog_error(&lv->log, msg.buf);
		lv->failed = 1;
		sb_free(&msg);
	}
}

/* From the start of the input to its end or a signal; returns the exit
 * status. */
static int live_run(struct live *lv)
{
	signal(SIGPIPE, SIG_IGN);
	int sfd = signal_fd(&lv->old_mask);
	if (sfd < 0) {
		struct strbuf msg = STRBUF_INIT;
		sb_addf(&msg, "signalfd: %s", strerror(errno));
		msglog_add(&lv->log, msg.buf);
		sb_free(&msg);
	}
	follower_start(lv->fw, monotonic_ms());
	if (lv->o->hello)
		write_stream_header(lv);
	if (lv->fleet)
		fleet_start(lv->fleet, monotonic_ms());
	/* The history is read in the loop, step by step, so that a signal
	 * ends plogtop within a second however much there is to read; the
	 * prom file is first written once it is read. */
	if (!follower_reading_history(lv->fw))
		history_read(lv, monotonic_ms());
	if (lv->dashboard)
		live_draw(lv, monotonic_ms());
	loop(lv, sfd);
	if (lv->dashboard)
		live_stop_dashboard(lv);
	live_end(lv);
	/* The signals stay blocked: plogtop is ending, and a hangup that
	 * arrives late (after the terminal went) must not cut short the
	 * clean-up below. */
	if (sfd >= 0)
		close(sfd);
	return lv->failed ? 2 : 0;
}

static void live_close(struct live *lv)
{
	if (!lv->dash)
		msglog_flush(&lv->log);
	dash_free(lv->dash);
	live_listen_stop(lv);
	npusmi_run_free(lv->npu);
	exec_hook_free(lv->exec);
	fleet_free(lv->fleet);
	follower_free(lv->fw);
	demo_free(lv->demo);
	prom_counts_free(&lv->prom);
	model_free(&lv->m);
	sb_free(&lv->roots);
	msglog_free(&lv->log);
	live_state_free(lv);
}

static int run(const struct options *o, struct ruleset *rs,
	       const struct catalog *cat, int dashboard)
{
	struct live lv = { .o = o, .cat = cat, .dashboard = dashboard,
			   .state_lock = -1 };
	int status = live_open(&lv, rs) < 0 ? 2 : live_run(&lv);

	live_close(&lv);
	return status;
}

int run_follow(const struct options *o, struct ruleset *rs,
	       const struct catalog *cat)
{
	return run(o, rs, cat, 0);
}

int run_dashboard(const struct options *o, struct ruleset *rs,
		  const struct catalog *cat)
{
	return run(o, rs, cat, 1);
}
