/* --from-prometheus, both ways.  --once asks the queries once (the
 * counters' values), makes the model and writes the text report or the
 * JSON snapshot; its status is the counts' (0 none, 1 incidents) or 2
 * when the server could not be read.  The dashboard starts the fetcher
 * (cluster_worker.c) and draws what was fetched last: keys never wait
 * for the server, and each result is made into the model between two
 * keys. */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "cluster.h"
#include "cluster_app.h"
#include "dash.h"
#include "i18n.h"
#include "monoclock.h"
#include "msglog.h"
#include "once.h"
#include "report.h"
#include "sanitize.h"
#include "terminal.h"
#include "theme.h"
#include "tui.h"

/* The server, shown: never the password its URL may hold. */
static void report_opts_of(const struct options *o, const struct catalog *cat,
			   const struct model *m, struct report_opts *ro,
			   const struct strbuf *shown)
{
	*ro = (struct report_opts){
		.cat = cat, .host = sb_str(shown),
		.version = PACKAGE_VERSION,
		.color = terminal_report_colour(o->color), .width = 80,
		.counted_since = m->counted_since,
		.prometheus = sb_str(shown),
	};
}

int run_cluster_once(const struct options *o, const struct catalog *cat)
{
	struct strbuf err = STRBUF_INIT;
	struct cluster_data d;
	struct model m;
	struct report_sections sections = { NULL, NULL, 0 };
	int status = EXIT_TROUBLE;

	if (httpc_global_init(&err) < 0) {
		msglog_add(NULL, err.buf);
		sb_free(&err);
		return EXIT_TROUBLE;
	}
	struct httpc *c = httpc_new();
	cluster_data_init(&d);
	d.at = getenv("PLOGTOP_PROM_TIME");
	model_init(&m);
	/* The text report's sections (each class, its example and fix in
	 * their general form) watch the model as it is made. */
	if (o->format != FORMAT_JSON)
		report_sections_init(&sections, &m);
	/* --since=DURATION: what the counters grew in it. */
	long long w = o->since_arg
		? (logtime_now() - o->since + 500000) / 1000000 : 0;
	unsigned window_s = w <= 0 ? (o->since_arg ? 1 : 0)
			    : w > 400LL * 86400 ? 400u * 86400 : (unsigned)w;
	if (cluster_fetch(c, o->from_prometheus, 0, window_s, NULL, &d) < 0) {
		msglog_add(NULL, d.err.buf);
		goto out;
	}
	cluster_to_model(&d, &m, HOST_DONE);
	m.stats.seconds = d.seconds;
	model_sort(&m);
	report_sections_sort(&sections);
	struct report_opts ro;
	struct strbuf shown = STRBUF_INIT;
	httpc_url_shown(&shown, o->from_prometheus);
	report_opts_of(o, cat, &m, &ro, &shown);
	ro.sections = &sections;
	int rc = o->format == FORMAT_JSON ? report_json(&m, &ro, stdout)
					  : report_text(&m, &ro, stdout);
	if (rc == 0 && fflush(stdout) != 0)
		rc = -1;
	sb_free(&shown);
	if (rc < 0) {
		sb_addf(&err, _("plogtop: writing the report: %s\n"),
			strerror(errno));
		msglog_usage(err.buf);
		goto out;
	}
	status = m.n ? EXIT_INCIDENTS : EXIT_CLEAN;
out:
	httpc_free(c);
	cluster_data_free(&d);
	report_sections_free(&sections);
	model_free(&m);
	sb_free(&err);
	return status;
}

/* ---- the dashboard ---- */

struct cdash {
	const struct options *o;
	struct model m;
	struct msglog log;
	struct tui tui;
	struct theme theme, mono;
	struct dash *dash;
	struct cluster_worker *w;
	struct strbuf url;		/* sanitised, for the header */
	unsigned long long drawn_at;
	int fetched, failing, stop;
};

static void draw(struct cdash *cd)
{
	struct dash_status st = { .roots = sb_str(&cd->url),
				  .how = "prometheus", .cluster = 1,
				  .files = cd->m.stats.files };

	dash_draw(cd->dash, &st);
	cd->drawn_at = monotonic_ms();
}

/* A result: the model made again, or why the server could not be read
 * (said once until it can be again; the last model stays shown). */
static void take(struct cdash *cd)
{
	struct cluster_data *d = cluster_worker_take(cd->w);

	if (!d)
		return;
	if (d->failed) {
		if (!cd->failing)
			msglog_add(&cd->log, d->err.buf);
		cd->failing = 1;
	} else {
		if (cd->failing)
			msglog_add(&cd->log, _("the Prometheus server answers "
					       "again"));
		cd->failing = 0;
		cluster_to_model(d, &cd->m, HOST_UP);
		cd->fetched = 1;
	}
	cluster_data_free(d);
	free(d);
	draw(cd);
}

static void keys(struct cdash *cd)
{
	int k, redraw = 0;

	while ((k = tui_key(&cd->tui)) >= 0) {
		switch (dash_key(cd->dash, k)) {
		case DASH_QUIT:
			cd->stop = 1;
			return;
		case DASH_PAGER:
			msglog_note(&cd->log, _("a cluster's incidents have no "
						"file here: run plogtop on "
						"the node"));
			redraw = 1;
			break;
		case DASH_THEME:
		case DASH_REDRAW:
			redraw = 1;
			break;
		case DASH_NONE:
			break;
		}
	}
	if (redraw)
		draw(cd);
}

static int signal_fd(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	if (sigprocmask(SIG_BLOCK, &set, NULL) < 0)
		return -1;
	return signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
}

static void loop(struct cdash *cd, int sfd)
{
	while (!cd->stop) {
		struct pollfd p[3] = {
			{ sfd, POLLIN, 0 },
			{ STDIN_FILENO, POLLIN, 0 },
			{ cluster_worker_fd(cd->w), POLLIN, 0 },
		};
		unsigned long long now = monotonic_ms();
		unsigned long long due = cd->drawn_at + 1000;
		int n = poll(p, 3, due <= now ? 0 : (int)(due - now));
		if (n < 0 && errno != EINTR) {
			struct strbuf msg = STRBUF_INIT;
			sb_addf(&msg, "poll: %s", strerror(errno));
			msglog_error(&cd->log, msg.buf);
			sb_free(&msg);
			break;
		}
		if (n > 0 && (p[0].revents & POLLIN))
			break;
		if (n > 0 && (p[1].revents & (POLLHUP | POLLERR)))
			break;
		if (n > 0 && (p[1].revents & POLLIN))
			keys(cd);
		if (n > 0 && (p[2].revents & POLLIN))
			take(cd);
		/* The clock and the header move once a second. */
		if (monotonic_ms() >= cd->drawn_at + 1000)
			draw(cd);
	}
}

static int start(struct cdash *cd, const struct catalog *cat,
		 struct strbuf *err)
{
	const struct options *o = cd->o;
	unsigned every = o->interval_ms < CLUSTER_REFRESH_MIN_MS
		? CLUSTER_REFRESH_MIN_MS : o->interval_ms;

	if (theme_load(o->theme ? o->theme : "default", &cd->theme, err) < 0 ||
	    theme_load("mono", &cd->mono, err) < 0 ||
	    httpc_global_init(err) < 0)
		return -1;
	cd->w = cluster_worker_start(o->from_prometheus, every, err);
	if (!cd->w)
		return -1;
	if (tui_start(&cd->tui, o->want_colour, err) < 0)
		return -1;
	tui_theme(&cd->tui, &cd->theme, &cd->mono);
	cd->dash = dash_new(&cd->m, cat, &cd->tui, &cd->log);
	msglog_attach(&cd->log, 1);
	return 0;
}

int run_cluster_dashboard(const struct options *o, const struct catalog *cat)
{
	struct cdash cd = { .o = o };
	struct strbuf err = STRBUF_INIT;
	int status = EXIT_CLEAN;

	signal(SIGPIPE, SIG_IGN);
	msglog_init(&cd.log);
	model_init(&cd.m);
	model_set_live(&cd.m, o->keep);
	struct strbuf shown = STRBUF_INIT;
	httpc_url_shown(&shown, o->from_prometheus);
	sanitize(&cd.url, shown.buf, shown.len);
	sb_free(&shown);
	int sfd = signal_fd();
	if (start(&cd, cat, &err) < 0) {
		msglog_add(&cd.log, err.buf);
		status = EXIT_TROUBLE;
	} else {
		draw(&cd);
		loop(&cd, sfd);
		tui_stop(&cd.tui);
		msglog_attach(&cd.log, 0);
	}
	cluster_worker_stop(cd.w);
	if (!cd.dash)
		msglog_flush(&cd.log);
	dash_free(cd.dash);
	if (sfd >= 0)
		close(sfd);
	model_free(&cd.m);
	sb_free(&cd.url);
	sb_free(&err);
	msglog_free(&cd.log);
	return status;
}
