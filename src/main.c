/* plogtop: finds Ascend runtime resource exhaustion (EE1023) and invalid
 * argument (EE1001) incidents in CANN plog logs. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "catalog.h"
#include "datadir.h"
#include "fleet.h"
#include "i18n.h"
#include "follow.h"
#include "live.h"
#include "prom.h"
#include "readall.h"
#include "locale_note.h"
#include "options.h"
#include "report.h"
#include "rules.h"
#include "sanitize.h"
#include "state.h"
#include "terminal.h"
#include "theme.h"
#include "xalloc.h"

#define EXIT_CLEAN 0
#define EXIT_INCIDENTS 1
#define EXIT_TROUBLE 2
/* stdout's buffer for a JSON report. */
#define OUT_BUFFER (64u << 10)

/* Messages name paths and quote data files: sanitised, and ASCII only
 * for a terminal whose charset is not UTF-8. */
static int fail(const char *msg)
{
	struct strbuf clean = STRBUF_INIT;

	clean_for(&clean, msg, strlen(msg), CLEAN_LOCALE);
	fprintf(stderr, "plogtop: %s\n", sb_str(&clean));
	sb_free(&clean);
	return EXIT_TROUBLE;
}

/* The text report for a terminal whose charset is not UTF-8: every byte
 * >= 0x80 spelt out, as one of them may be a C1 control there. */
static int report_text_8bit(const struct model *m,
			    const struct report_opts *ro, FILE *out)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);

	if (!mem)
		return -1;
	int rc = report_text(m, ro, mem);
	if (fclose(mem) != 0)
		rc = -1;
	if (rc == 0) {
		struct strbuf ascii = STRBUF_INIT;
		clean_for(&ascii, buf, len, CLEAN_ASCII | CLEAN_DONE);
		if (fwrite(ascii.buf, 1, ascii.len, out) != ascii.len)
			rc = -1;
		sb_free(&ascii);
	}
	free(buf);
	return rc;
}

static struct ruleset *load_rules(const struct options *o)
{
	struct strbuf err = STRBUF_INIT;
	struct ruleset *rs = rules_for(o, &err);

	if (!rs)
		fail(err.buf);
	sb_free(&err);
	return rs;
}

static struct catalog *load_catalog(void)
{
	struct strbuf path = STRBUF_INIT, err = STRBUF_INIT;

	/* The English texts; gettext translates them (src/i18n.h). */
	datadir_path(&path, "messages/en.txt");
	struct catalog *cat = catalog_load(path.buf, &err);
	if (cat && catalog_check_complete(cat, &err) < 0) {
		catalog_free(cat);
		cat = NULL;
		struct strbuf msg = STRBUF_INIT;
		sb_addf(&msg, "%s: %s", path.buf, err.buf);
		sb_free(&err);
		err = msg;
	}
	if (!cat)
		fail(err.buf);
	sb_free(&path);
	sb_free(&err);
	return cat;
}

static int check_default_root(const struct options *o)
{
	struct stat st;

	if (!o->default_root || stat(o->paths[0], &st) == 0)
		return 0;
	int e = errno;
	struct strbuf msg = STRBUF_INIT;
	sb_addf(&msg, _("no plog directory at %s (%s)"), o->paths[0],
		strerror(e));
	fail(msg.buf);
	sb_free(&msg);
	fputs(_("plogtop: it is $ASCEND_PROCESS_LOG_PATH, else "
		"$ASCEND_WORK_PATH/log, else $HOME/ascend/log;\n"
		"plogtop: set one of them, or name a directory or file: "
		"plogtop PATH\n"), stderr);
	return -1;
}

/* A bad --theme is an error whatever the mode, like a bad --rules. */
static int check_theme(const struct options *o)
{
	struct theme t;
	struct strbuf err = STRBUF_INIT;
	int rc = 0;

	if (o->theme && theme_load(o->theme, &t, &err) < 0) {
		fail(err.buf);
		rc = -1;
	}
	sb_free(&err);
	return rc;
}

/* The dashboard unless told otherwise, when both ends are a terminal
 * (so that `plogtop | less` and `ssh host plogtop` in a pipe report). */
static int wants_dashboard(const struct options *o)
{
	if (o->once)
		return 0;
	if (o->demo)
		return 1;
	for (size_t i = 0; i < o->npaths; i++)
		if (strcmp(o->paths[i], "-") == 0)
			return 0;
	return terminal_interactive();
}

static double seconds_since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (double)(t1.tv_sec - t0->tv_sec) +
	       (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

static void on_host_incident(void *ctx, const struct incident *inc)
{
	/* Not counted: left out by --since. */
	if (inc->proc)
		json_stream_add(ctx, inc);
}

/* The hosts' reports, read in parallel into the same model after the
 * local paths; returns how many hosts failed (each told on stderr). */
static size_t read_hosts(const struct options *o, struct model *m,
			 struct json_stream *js)
{
	if (!o->nhostpaths)
		return 0;
	struct fleet_opts fo = {
		.ssh = o->ssh_cmd, .remote_cmd = o->remote_cmd,
		.since_arg = o->since_arg, .once = 1,
		.timeout_ms = o->host_timeout_ms,
		.on_incident = js ? on_host_incident : NULL, .ctx = js,
	};
	struct fleet *fl = fleet_new(m, &fo);
	for (size_t i = 0; i < o->nhostpaths; i++)
		fleet_add(fl, o->host_names[i], o->host_paths[i]);
	size_t down = fleet_run_once(fl);
	fleet_free(fl);
	return down;
}

/* Never "no incident" about a path that gave nothing to read.  Only the
 * first nlocal roots are this machine's: a host's say for themselves. */
static int check_unread(const struct options *o, const struct model *m,
			size_t nlocal)
{
	int bad = 0;

	if (o->default_root)
		return 0;	/* a host with no logs yet: nothing wrong */
	for (size_t i = 0; i < nlocal && i < m->nroots; i++) {
		if (m->root_files[i])
			continue;
		struct strbuf msg = STRBUF_INIT;
		sanitize(&msg, m->roots[i], strlen(m->roots[i]));
		fprintf(stderr, m->nskipped
			? _("plogtop: %s: nothing readable there (see Skipped "
			    "in the report)\n")
			: _("plogtop: %s: nothing readable there\n"), msg.buf);
		sb_free(&msg);
		bad = 1;
	}
	return bad ? -1 : 0;
}

/* Messages of the state file, said as any other. */
static void say_fail(void *ctx, const char *text)
{
	(void)ctx;
	fail(text);
}

/* The text report says what it covers when a state carries counters. */
static void say_state_text(const struct options *o, const struct model *m)
{
	time_t since = (time_t)m->counted_since;
	struct tm tm;
	char iso[32];

	gmtime_r(&since, &tm);
	strftime(iso, sizeof iso, "%Y-%m-%d %H:%M:%S UTC", &tm);
	struct strbuf path = STRBUF_INIT;
	sanitize(&path, o->state_file, strlen(o->state_file));
	printf(_("State: %s\n"
		 "  This report covers what this run read; the prom file's\n"
		 "  counters cover everything counted since %s.\n"),
	       path.buf, iso);
	sb_free(&path);
}

static int run_once(const struct options *o, struct ruleset *rs,
		    struct catalog *cat)
{
	struct model m;
	struct strbuf err = STRBUF_INIT;
	struct timespec t0;
	char host[256] = "";
	struct json_stream js;
	int json = o->format == FORMAT_JSON;

	model_init(&m);
	m.since = o->since_arg ? o->since : LOGTIME_UNKNOWN;
	gethostname(host, sizeof host - 1);
	struct posset ps;
	int set_aside = 0;
	struct read_resume rr = { posset_resume_for, &ps, NULL, 0 };
	int resuming = o->state_file || o->resume_file;
	int lock_fd;
	if (state_open(o->state_file, o->resume_file, &m, &ps, &set_aside,
		       &lock_fd, say_fail, NULL) < 0) {
		model_free(&m);
		return EXIT_TROUBLE;
	}
	struct report_opts ro = {
		.cat = cat, .host = host, .version = PACKAGE_VERSION,
		.color = terminal_report_colour(o->color), .width = 80,
		.incidents = json ? &js : NULL,
		.state_file = o->state_file, .counted_since = m.counted_since,
	};
	/* The JSON report's incidents go straight out as they are found:
	 * its memory does not grow with them. */
	if (json) {
		struct strbuf head = STRBUF_INIT;
		/* Tens of megabytes may go out: in large writes, not in the
		 * default 4 KiB ones.  The buffer stays stdout's until exit. */
		if (!terminal_stdout())
			setvbuf(stdout, xmalloc(OUT_BUFFER), _IOFBF, OUT_BUFFER);
		json_stream_init(&js, stdout, cat);
		report_json_head(&head, &ro);
		js.head = sb_detach(&head);
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	int rc = read_all(o, rs, &m, json ? &js : NULL,
			  resuming ? &rr : NULL, &err);
	size_t nlocal = m.nroots, hosts_down = 0;
	if (rc == 0)
		hosts_down = read_hosts(o, &m, json ? &js : NULL);
	m.stats.seconds = seconds_since(&t0);
	m.stats.match_limit_hits += ruleset_limit_hits(rs);
	if (rc < 0) {
		fail(err.buf);
		sb_free(&err);
		model_free(&m);
		if (json)
			json_stream_free(&js);
		posset_free(&ps);
		free(rr.pos);
		if (lock_fd >= 0)
			close(lock_fd);
		return EXIT_TROUBLE;
	}
	model_sort(&m);
	rc = o->format == FORMAT_JSON ? report_json(&m, &ro, stdout)
		: locale_is_utf8() ? report_text(&m, &ro, stdout)
				   : report_text_8bit(&m, &ro, stdout);
	if (rc == 0 && o->state_file && !json)
		say_state_text(o, &m);
	if (rc == 0 && fflush(stdout) != 0)
		rc = -1;
	int status = m.n ? EXIT_INCIDENTS : EXIT_CLEAN;
	/* The state after the prom file: a crash between the two counts
	 * this run again next time, into counters that then only grow. */
	if (o->prom_file && prom_write(o->prom_file, &m, m.stats.files,
				       &err) < 0) {
		fail(err.buf);
		status = EXIT_TROUBLE;
	}
	if (rc < 0) {
		fprintf(stderr, _("plogtop: writing the report: %s\n"),
			strerror(errno));
		status = EXIT_TROUBLE;
	}
	if (o->state_file && state_save(o->state_file, &m, rr.pos, rr.npos,
					&ps, NULL, &err) < 0) {
		fail(err.buf);
		status = EXIT_TROUBLE;
	}
	if (check_unread(o, &m, nlocal) < 0 || hosts_down || set_aside)
		status = EXIT_TROUBLE;
	posset_free(&ps);
	free(rr.pos);
	if (lock_fd >= 0)
		close(lock_fd);
	if (json)
		json_stream_free(&js);
	model_free(&m);
	sb_free(&err);
	return status;
}

/* A locale that cannot be loaded, said once (the dashboard says it on
 * its message line instead). */
static void say_locale(const struct options *o)
{
	struct strbuf note = STRBUF_INIT;

	(void)o;
	if (locale_unavailable(&note))
		fail(note.buf);
	sb_free(&note);
}

/* `plogtop -` typed at a prompt would otherwise wait in silence. */
static void say_reading_stdin(const struct options *o)
{
	for (size_t i = 0; i < o->npaths; i++) {
		if (strcmp(o->paths[i], "-") == 0 && terminal_stdin()) {
			fputs(_("plogtop: reading standard input (Ctrl-D "
				"ends it)\n"), stderr);
			return;
		}
	}
}

int main(int argc, char **argv)
{
	struct options o;
	int status;

	setlocale(LC_ALL, "");
	i18n_init();
	fleet_raise_fd_limit();	/* many hosts, many files: README's Limits */
	status = options_parse(&o, argc, argv);
	if (status) {
		options_free(&o);
		return status == 1 ? EXIT_CLEAN : EXIT_TROUBLE;
	}
	struct ruleset *rs = load_rules(&o);
	struct catalog *cat = rs ? load_catalog() : NULL;
	if (!rs || !cat || check_theme(&o) < 0) {
		status = EXIT_TROUBLE;
	} else if (o.check_rules) {
		size_t n = ruleset_count(rs);
		printf(ngettext("plogtop: %zu rule and its samples are good\n",
				"plogtop: %zu rules and their samples are good\n",
				n), n);
		status = EXIT_CLEAN;
	} else if (o.follow) {
		say_locale(&o);
		say_reading_stdin(&o);
		status = run_follow(&o, rs, cat);
	} else if (wants_dashboard(&o)) {
		status = run_dashboard(&o, rs, cat);
	} else if (check_default_root(&o) < 0) {
		status = EXIT_TROUBLE;
	} else {
		say_locale(&o);
		say_reading_stdin(&o);
		status = run_once(&o, rs, cat);
	}
	catalog_free(cat);
	ruleset_free(rs);
	options_free(&o);
	return status;
}
