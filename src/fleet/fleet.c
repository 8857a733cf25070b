#include "config.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "i18n.h"
#include "fleet_int.h"
#include "jsonparse.h"
#include "incident_json.h"
#include "stream.h"
#include "report.h"
#include "wire_limits.h"
#include "xalloc.h"

#define CLOSING_GRACE_MS 2000	/* output ended: the child should too */

/* A stream line holds one incident, as wire_limits.h bounds it. */
static const struct json_limits line_limits = { WIRE_STRING_MAX,
						WIRE_VALUES_MAX };
_Static_assert(WIRE_INCIDENT_MAX + 64 <= REMOTE_LINE_MAX,
	       "a stream line holds the longest incident written");

struct fleet *fleet_new(struct model *m, const struct fleet_opts *o)
{
	struct fleet *fl = xcalloc(1, sizeof *fl);

	fl->m = m;
	fl->o = *o;
	fleet_times_init(fl);
	if (!fl->o.ssh || !*fl->o.ssh)
		fl->o.ssh = "ssh";
	if (!fl->o.remote_cmd || !*fl->o.remote_cmd)
		fl->o.remote_cmd = "plogtop";
	return fl;
}

void fleet_add(struct fleet *fl, const char *host, const char *path)
{
	struct fleet_host *fh = NULL;

	for (size_t i = 0; i < fl->n && !fh; i++)
		if (strcmp(fl->h[i].mh->name, host) == 0)
			fh = &fl->h[i];
	if (!fh) {
		fl->h = xrealloc(fl->h, (fl->n + 1) * sizeof *fl->h);
		fh = &fl->h[fl->n++];
		memset(fh, 0, sizeof *fh);
		fh->mh = model_host_add(fl->m, host);
		remote_init(&fh->r);
		fh->backoff_ms = fl->backoff_min_ms;
	}
	if (*path) {
		fh->paths = xrealloc(fh->paths,
				     (fh->npaths + 1) * sizeof *fh->paths);
		fh->paths[fh->npaths++] = xstrdup(path);
	}
}

size_t fleet_hosts(const struct fleet *fl)
{
	return fl->n;
}

/* ---- states ---- */

static void stop_child(struct fleet_host *fh)
{
	remote_stop(&fh->r, 200);
	fh->running = 0;
	fh->closing = 0;
}

static void say_dropped(struct fleet *fl, struct fleet_host *fh, size_t n)
{
	struct strbuf sb = STRBUF_INIT;

	fh->drop_said += n;
	fh->mh->dropped += n;
	sb_addf(&sb, ngettext("%zu line over 1 MiB dropped",
			      "%zu lines over 1 MiB dropped", n), n);
	msglog_about(fl->o.log, fh->mh->name, sb.buf);
	sb_free(&sb);
}

/* The wait doubles with each failure, a failure after the header too; it
 * starts over only for a host that had stayed up stable_ms. */
static void schedule_retry(struct fleet *fl, struct fleet_host *fh,
			   unsigned long long now, struct strbuf *msg)
{
	if (fh->up_ms && now >= fh->up_ms + fl->stable_ms)
		fh->backoff_ms = fl->backoff_min_ms;
	fh->up_ms = 0;
	fh->mh->retry_ms = now + fh->backoff_ms;
	sb_addf(msg, _(" (trying again in %u s)"),
		(fh->backoff_ms + 500) / 1000);
	fh->backoff_ms = fh->backoff_ms * 2 > FLEET_BACKOFF_MAX_MS
			 ? FLEET_BACKOFF_MAX_MS : fh->backoff_ms * 2;
}

void fleet_host_down(struct fleet *fl, struct fleet_host *fh,
		     const char *why, unsigned long long now)
{
	struct strbuf msg = STRBUF_INIT;

	if (fh->r.dropped > fh->drop_said)
		say_dropped(fl, fh, fh->r.dropped - fh->drop_said);
	fh->drop_due = 0;
	if (fh->running)
		stop_child(fh);
	model_host_set(fl->m, fh->mh, HOST_DOWN, why);
	fl->gen++;
	sb_addf(&msg, "down: %s", why);
	if (!fl->o.once)
		schedule_retry(fl, fh, now, &msg);
	msglog_about(fl->o.log, fh->mh->name, msg.buf);
	sb_free(&msg);
}

static void connect_host(struct fleet *fl, struct fleet_host *fh,
			 unsigned long long now)
{
	struct strbuf err = STRBUF_INIT;
	/* A host that said it resumes gets its last cursor back on its
	 * standard input. */
	int resume = !fl->o.once && fh->resume && fh->cursor.len;
	char **argv = fleet_argv_for(&fl->o, fh->mh->name, fh->paths, fh->npaths,
			      resume);

	fh->mh->attempts++;
	fh->header_seen = 0;
	fh->closing = 0;
	if (fl->o.once)
		fleet_once_begin(fl, fh);
	fh->up_ms = 0;
	fh->drop_due = 0;
	fh->drop_said = fh->r.dropped;	/* a count over connections */
	struct strbuf input = STRBUF_INIT;
	if (resume)
		fleet_cursor_input(fl, fh, &input);
	if (remote_start_input(&fh->r, argv, resume ? input.buf : NULL,
			       resume ? input.len : 0, &err) < 0) {
		fleet_host_down(fl, fh, err.buf, now);
	} else {
		fh->running = 1;
		fh->deadline = now + fl->o.timeout_ms;
		model_host_set(fl->m, fh->mh, HOST_CONNECTING, NULL);
		fl->gen++;
	}
	sb_free(&input);
	fleet_argv_free(argv);
	sb_free(&err);
}

/* Hosts beyond the open-file limit in a live fleet: never connected,
 * each down with the reason, and said once. */
static void no_slot(struct fleet *fl, size_t from)
{
	struct strbuf why = STRBUF_INIT, msg = STRBUF_INIT;
	unsigned long long lim = fleet_fd_limit();

	sb_addf(&why, _("not connected: the open file limit (ulimit -n %llu) "
			"allows %zu hosts at once"), lim, from);
	for (size_t i = from; i < fl->n; i++) {
		struct fleet_host *fh = &fl->h[i];
		fh->no_slot = 1;
		model_host_set(fl->m, fh->mh, HOST_DOWN, why.buf);
		/* Never due: not retried. */
		fh->mh->retry_ms = ULLONG_MAX;
	}
	fl->gen++;
	sb_addf(&msg, _("%zu of %zu hosts cannot be connected: each takes "
			"2 open files and the limit (ulimit -n) is %llu; raise "
			"it (LimitNOFILE= in a unit)"), fl->n - from, fl->n, lim);
	msglog_add(fl->o.log, msg.buf);
	sb_free(&msg);
	sb_free(&why);
}

/* --once: the hosts waiting for a slot start as others end (bounded
 * waves, so that no more pipes are open than the limit allows). */
static void start_waiting(struct fleet *fl, unsigned long long now)
{
	size_t running = 0;

	for (size_t i = 0; i < fl->n; i++)
		running += fl->h[i].running;
	for (size_t i = 0; i < fl->n && running < fl->slots; i++) {
		struct fleet_host *fh = &fl->h[i];
		if (!fh->waiting)
			continue;
		fh->waiting = 0;
		connect_host(fl, fh, now);
		running += fh->running;
	}
}

void fleet_start(struct fleet *fl, unsigned long long now_ms)
{
	size_t slots = fleet_host_slots(fl->n);

	if (!fl->slots || slots < fl->slots)
		fl->slots = slots;
	for (size_t i = 0; i < fl->n; i++)
		fl->h[i].waiting = fl->o.once;
	if (fl->o.once) {
		start_waiting(fl, now_ms);
		return;
	}
	for (size_t i = 0; i < fl->n && i < fl->slots; i++)
		connect_host(fl, &fl->h[i], now_ms);
	if (fl->slots < fl->n)
		no_slot(fl, fl->slots);
}

/* ---- lines of a stream ---- */

/* The first line: the stream's header (stream.h). */
static int take_header(struct fleet *fl, struct fleet_host *fh,
		       const struct jval *v, struct strbuf *why)
{
	int resumes;

	if (stream_header_read(v, &resumes, why) < 0)
		return -1;
	fh->header_seen = 1;
	/* The backoff starts over only once the host stayed up
	 * (schedule_retry): a host that fails after its header is not
	 * retried every second. */
	if (fh->resume && !resumes) {
		/* A host that resumed no longer does (another version):
		 * its whole history comes again, and only what came since
		 * its last cursor is remembered. */
		sb_reset(&fh->cursor);
	}
	fh->resume = resumes;
	model_host_set(fl->m, fh->mh, HOST_UP, NULL);
	fl->gen++;
	msglog_about(fl->o.log, fh->mh->name, "up");
	return 0;
}

struct line_ctx {
	struct fleet *fl;
	struct fleet_host *fh;
	struct strbuf why;	/* set: the host goes down */
	unsigned long long now;
};

/* A cursor line may be as long as any line (REMOTE_LINE_MAX) and name
 * many files: parsed with wider limits when the incident line's fail. */
static const struct json_limits cursor_limits = { 65536, 1u << 18 };

static int parse_line(const char *line, size_t len, struct jval *v,
		      struct strbuf *err)
{
	struct strbuf err2 = STRBUF_INIT;

	if (json_parse(line, len, &line_limits, v, err) == 0)
		return 0;
	if (json_parse(line, len, &cursor_limits, v, &err2) == 0) {
		if (fleet_is_cursor(v)) {
			sb_reset(err);
			sb_free(&err2);
			return 0;
		}
		jval_free(v);
	}
	sb_free(&err2);
	return -1;
}

static int on_line(void *ctx, const char *line, size_t len)
{
	struct line_ctx *lc = ctx;
	struct fleet_host *fh = lc->fh;
	struct jval v;
	struct strbuf err = STRBUF_INIT;
	int rc = 0;

	fh->taken++;
	if (lc->fl->o.once) {
		if (fleet_once_line(fh, line, len) == 0)
			return 0;
		fleet_once_broken(lc->fl, fh, &lc->why);
		return 1;
	}
	if (parse_line(line, len, &v, &err) < 0) {
		sb_addf(&lc->why, "protocol error: %s", err.buf);
		sb_free(&err);
		return 1;
	}
	if (!fh->header_seen) {
		rc = take_header(lc->fl, fh, &v, &lc->why);
		if (!rc)
			fh->up_ms = lc->now;
	} else if (fleet_take_identity(lc->fl, fh, &v)) {
		;	/* into the model, or counted as dropped */
	} else if (fleet_is_cursor(&v)) {
		fleet_take_cursor(lc->fl, fh, &v);
	} else if (fleet_stream_incident(lc->fl, fh, &v, &err) < 0) {
		sb_addf(&lc->why, "protocol error: %s", err.buf);
		rc = -1;
	}
	jval_free(&v);
	sb_free(&err);
	return rc ? 1 : 0;
}

/* ---- the loop's side ---- */

/* Two for each host that may be connected at once: never more than
 * the open-file limit allows (poll refuses more). */
size_t fleet_npoll(const struct fleet *fl)
{
	return 2 * (fl->slots ? fl->slots : fleet_host_slots(fl->n));
}

/* The connected hosts only, in host order (fleet_handle finds each
 * host's pair by its descriptors). */
size_t fleet_pollfds(const struct fleet *fl, struct pollfd *p, size_t max)
{
	size_t k = 0;

	for (size_t i = 0; i < fl->n && k + 2 <= max; i++) {
		const struct fleet_host *fh = &fl->h[i];
		if (!fh->running)
			continue;
		p[k++] = (struct pollfd){ fh->r.out, POLLIN, 0 };
		p[k++] = (struct pollfd){ fh->r.err, POLLIN, 0 };
	}
	return k;
}

/* The host's pair among the n polled from *k: the descriptors of a
 * host connected since are not there. */
static const struct pollfd *host_pollfds(const struct fleet_host *fh,
					 const struct pollfd *p, size_t n,
					 size_t *k)
{
	if (!fh->running || *k + 2 > n || p[*k].fd != fh->r.out ||
	    p[*k + 1].fd != fh->r.err || p[*k].fd < 0)
		return NULL;
	*k += 2;
	return &p[*k - 2];
}

/* The child's output ended: it is reaped, then the host is done (a
 * report) or down (a stream only ends when something failed). */
static void closing(struct fleet *fl, struct fleet_host *fh,
		    unsigned long long now)
{
	remote_read_err(&fh->r);
	if (!remote_reap(&fh->r)) {
		if (now < fh->deadline)
			return;
		remote_stop(&fh->r, 0);
	}
	remote_stop(&fh->r, 0);
	fh->running = 0;
	fh->closing = 0;
	struct strbuf why = STRBUF_INIT;
	if (fl->o.once) {
		if (fleet_once_finished(fl, fh, &why) < 0)
			fleet_host_down(fl, fh, why.buf, now);
		sb_free(&why);
		return;
	}
	remote_reason(&fh->r, &why);
	fleet_resume_refused(fl, fh);
	fleet_host_down(fl, fh, why.buf, now);
	sb_free(&why);
}

/* Lines over REMOTE_LINE_MAX: the first said at once, the rest counted
 * and said once per note interval; a host that sent nothing else in an
 * interval does not speak the protocol: down. */
static void dropped_lines(struct fleet *fl, struct fleet_host *fh,
			  unsigned long long now)
{
	size_t n = fh->r.dropped - fh->drop_said;

	if (!fh->drop_due && n) {
		fh->drop_due = now + fl->note_ms;
		fh->taken_at_drop = fh->taken;
		say_dropped(fl, fh, n);
		return;
	}
	if (!fh->drop_due || now < fh->drop_due)
		return;
	if (!n) {
		fh->drop_due = 0;
		return;
	}
	say_dropped(fl, fh, n);
	if (fh->taken == fh->taken_at_drop) {
		struct strbuf why = STRBUF_INIT;
		sb_addf(&why, "protocol error: only lines over 1 MiB for %u s",
			(fl->note_ms + 500) / 1000);
		fleet_host_down(fl, fh, why.buf, now);
		sb_free(&why);
		return;
	}
	fh->drop_due = now + fl->note_ms;
	fh->taken_at_drop = fh->taken;
}

static void read_host(struct fleet *fl, struct fleet_host *fh,
		      const struct pollfd *po, const struct pollfd *pe,
		      unsigned long long now)
{
	if (pe && pe->revents)
		remote_read_err(&fh->r);
	if (po && po->revents && fh->r.out >= 0) {
		struct line_ctx lc = { fl, fh, STRBUF_INIT, now };
		remote_read(&fh->r, on_line, &lc);
		if (lc.why.len)
			fleet_host_down(fl, fh, lc.why.buf, now);
		sb_free(&lc.why);
		if (!fh->running)
			return;
	}
	if (fh->r.out < 0 && !fh->closing) {
		fh->closing = 1;
		fh->deadline = now + CLOSING_GRACE_MS;
	}
}

void fleet_handle(struct fleet *fl, const struct pollfd *p, size_t n,
		  unsigned long long now)
{
	size_t k = 0;

	for (size_t i = 0; i < fl->n; i++) {
		struct fleet_host *fh = &fl->h[i];
		const struct pollfd *pp = host_pollfds(fh, p, n, &k);
		if (fh->running)
			read_host(fl, fh, pp, pp ? pp + 1 : NULL, now);
		if (fh->running && !fh->closing)
			dropped_lines(fl, fh, now);
		if (fh->running && fh->closing)
			closing(fl, fh, now);
		else if (fh->running && fl->o.once && now >= fh->deadline) {
			struct strbuf why = STRBUF_INIT;
			sb_addf(&why, "no report within %u s",
				fl->o.timeout_ms / 1000);
			fleet_host_down(fl, fh, why.buf, now);
			sb_free(&why);
		} else if (!fh->running && !fl->o.once && !fh->no_slot &&
			 fh->mh->state == HOST_DOWN &&
			 now >= fh->mh->retry_ms) {
			connect_host(fl, fh, now);
		}
	}
	if (fl->o.once)
		start_waiting(fl, now);
}

int fleet_timeout(const struct fleet *fl, unsigned long long now)
{
	long long t = -1;

	for (size_t i = 0; i < fl->n; i++) {
		const struct fleet_host *fh = &fl->h[i];
		long long due = -1;
		if (fh->running && fh->closing)
			due = 20;
		else if (fh->running && fl->o.once)
			due = fh->deadline > now ? (long long)(fh->deadline - now) : 0;
		else if (!fh->running && !fl->o.once && !fh->no_slot &&
			 fh->mh->state == HOST_DOWN)
			due = fh->mh->retry_ms > now
			      ? (long long)(fh->mh->retry_ms - now) : 0;
		if (fh->running && fh->drop_due) {
			long long d = fh->drop_due > now
				      ? (long long)(fh->drop_due - now) : 0;
			if (due < 0 || d < due)
				due = d;
		}
		if (due >= 0 && (t < 0 || due < t))
			t = due;
	}
	return t > 60000 ? 60000 : (int)t;
}

int fleet_done(const struct fleet *fl)
{
	for (size_t i = 0; i < fl->n; i++)
		if (fl->h[i].running || fl->h[i].waiting)
			return 0;
	return 1;
}

int fleet_settled(const struct fleet *fl)
{
	for (size_t i = 0; fl && i < fl->n; i++) {
		const struct fleet_host *fh = &fl->h[i];
		if (!fh->history_sent && !fh->no_slot &&
		    fh->mh->state != HOST_DOWN && fh->mh->state != HOST_DONE)
			return 0;
	}
	return 1;
}

unsigned long long fleet_generation(const struct fleet *fl)
{
	return fl ? fl->gen : 0;
}

void fleet_free(struct fleet *fl)
{
	if (!fl)
		return;
	for (size_t i = 0; i < fl->n; i++) {
		struct fleet_host *fh = &fl->h[i];
		if (fh->running)
			remote_stop(&fh->r, 500);
		sb_free(&fh->r.lasterr);
		fleet_once_free(fh);
		fleet_resume_free(fh);
		for (size_t j = 0; j < fh->npaths; j++)
			free(fh->paths[j]);
		free(fh->paths);
	}
	free(fl->h);
	free(fl);
}
