/* --once: the local paths read to their end (readall.c), then the hosts'
 * reports (fleet_once.c), into one model; then the report, the prom
 * file and the state, in that order. */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fleet.h"
#include "monoclock.h"
#include "npusmi_run.h"
#include "i18n.h"
#include "once.h"
#include "prom.h"
#include "readall.h"
#include "report.h"
#include "sanitize.h"
#include "state.h"
#include "terminal.h"
#include "xalloc.h"

/* stdout's buffer for a JSON report. */
#define OUT_BUFFER (64u << 10)

/* What one run holds from its start to its end. */
struct once {
	const struct options *o;
	struct msglog *log;
	struct model m;
	struct prom_counts prom;	/* the prom file's and the state's */
	struct posset ps;
	struct read_resume rr;
	int resuming, set_aside, lock_fd;
	int json;
	struct snapshot snap;
	char host[256];
	struct report_opts ro;
	struct report_sections sections;	/* the text report's */
	struct strbuf err;
};

static void say(struct once *on, const char *text)
{
	msglog_add(on->log, text);
}

/* Every host to its end (or its timeout); returns how many failed:
 * down, or done with trouble (a PATH named there that gave nothing,
 * incidents or claims refused). */
static size_t run_hosts(struct fleet *fl, const struct model *m)
{
	fleet_start(fl, monotonic_ms());
	size_t np = fleet_npoll(fl);
	struct pollfd *p = xcalloc(np ? np : 1, sizeof *p);

	while (!fleet_done(fl)) {
		size_t n = fleet_pollfds(fl, p, np);
		int rc = poll(p, n, fleet_timeout(fl, monotonic_ms()));
		if (rc < 0)
			memset(p, 0, n * sizeof *p);
		fleet_handle(fl, p, rc > 0 ? n : 0, monotonic_ms());
	}
	free(p);
	size_t bad = 0;
	for (size_t i = 0; i < m->nhosts; i++)
		bad += m->hosts[i]->state == HOST_DOWN ||
		       (m->hosts[i]->state == HOST_DONE &&
			m->hosts[i]->trouble);
	return bad;
}

/* The hosts' reports, read in parallel into the same model after the
 * local paths; returns how many hosts failed (each told on stderr). */
static size_t read_hosts(struct once *on)
{
	const struct options *o = on->o;

	if (!o->nhostpaths)
		return 0;
	struct fleet_opts fo = {
		.ssh = o->ssh_cmd, .remote_cmd = o->remote_cmd,
		.since_arg = o->since_arg, .once = 1,
		.timeout_ms = o->host_timeout_ms, .log = on->log,
	};
	struct fleet *fl = fleet_new(&on->m, &fo);
	for (size_t i = 0; i < o->nhostpaths; i++)
		fleet_add(fl, o->host_names[i], o->host_paths[i]);
	if (on->json)
		model_watch(&on->m, snapshot_on_incident, &on->snap);
	size_t down = run_hosts(fl, &on->m);
	if (on->json)
		model_unwatch(&on->m, &on->snap);
	fleet_free(fl);
	return down;
}

/* Never "no incident" about a path that gave nothing to read.  Only the
 * first nlocal roots are this machine's: a host's say for themselves. */
static int check_unread(struct once *on, size_t nlocal)
{
	const struct model *m = &on->m;
	int bad = 0;

	if (on->o->default_root)
		return 0;	/* a host with no logs yet: nothing wrong */
	for (size_t i = 0; i < nlocal && i < m->nroots; i++) {
		if (m->root_files[i])
			continue;
		struct strbuf path = STRBUF_INIT, msg = STRBUF_INIT;
		/* A whole translated text: the path cleaned here. */
		clean_for(&path, m->roots[i], strlen(m->roots[i]),
			  CLEAN_LOCALE);
		sb_addf(&msg, m->nskipped
			? _("plogtop: %s: nothing readable there (see Skipped "
			    "in the report)\n")
			: _("plogtop: %s: nothing readable there\n"), path.buf);
		msglog_usage(msg.buf);
		sb_free(&path);
		sb_free(&msg);
		bad = 1;
	}
	return bad ? -1 : 0;
}

/* Messages of the state file, said as any other. */
/* The JSON report's incidents go straight out as they are found: its
 * memory does not grow with them. */
static void json_begin(struct once *on)
{
	/* Tens of megabytes may go out: in large writes, not in the
	 * default 4 KiB ones.  The buffer stays stdout's until exit. */
	if (!terminal_stdout())
		setvbuf(stdout, xmalloc(OUT_BUFFER), _IOFBF, OUT_BUFFER);
	snapshot_begin(&on->snap, stdout, &on->ro);
}

/* The model, the state it starts from and the report's options. */
static int begin(struct once *on, const struct options *o,
		 const struct catalog *cat)
{
	on->o = o;
	on->json = o->format == FORMAT_JSON || o->format == FORMAT_NDJSON;
	on->err = (struct strbuf)STRBUF_INIT;
	model_init(&on->m);
	model_set_job(&on->m, o->job);
	model_set_path_hosts(&on->m, o->path_hosts);
	prom_counts_init(&on->prom, &on->m);
	on->m.since = o->since_arg ? o->since : LOGTIME_UNKNOWN;
	local_host_name(on->host, sizeof on->host);
	on->rr = (struct read_resume){ posset_resume_for, &on->ps, NULL, 0 };
	on->resuming = o->state_file || o->resume_file;
	if (state_open(o->state_file, o->resume_file, &on->m, &on->prom,
		       &on->ps, &on->set_aside, &on->lock_fd, on->log) < 0) {
		prom_counts_free(&on->prom);
		model_free(&on->m);
		return -1;
	}
	on->ro = (struct report_opts){
		.cat = cat, .host = on->host, .version = PACKAGE_VERSION,
		.color = terminal_report_colour(o->color), .width = 80,
		.state_file = o->state_file,
		.counted_since = on->m.counted_since,
		.no_fix = o->no_fix, .ndjson = o->format == FORMAT_NDJSON,
	};
	if (on->json)
		json_begin(on);
	else
		report_sections_init(&on->sections, &on->m);
	on->ro.sections = &on->sections;
	return 0;
}

static void end(struct once *on)
{
	posset_free(&on->ps);
	free(on->rr.pos);
	if (on->lock_fd >= 0)
		close(on->lock_fd);
	if (on->json)
		snapshot_free(&on->snap);
	report_sections_free(&on->sections);
	prom_counts_free(&on->prom);
	model_free(&on->m);
	sb_free(&on->err);
}

/* The report, then the prom file, then the state; returns the status. */
static int write_out(struct once *on)
{
	const struct options *o = on->o;
	struct model *m = &on->m;

	model_sort(m);
	report_sections_sort(&on->sections);
	int rc = on->json ? snapshot_end(&on->snap, m)
			  : report_text(m, &on->ro, stdout);
	if (rc == 0 && fflush(stdout) != 0)
		rc = -1;
	int status = m->n ? EXIT_INCIDENTS : EXIT_CLEAN;
	/* The state after the prom file: a crash between the two counts
	 * this run again next time, into counters that then only grow. */
	if (o->prom_file && prom_write(o->prom_file, m, &on->prom,
				       m->stats.files, &on->err) < 0) {
		say(on, on->err.buf);
		status = EXIT_TROUBLE;
	}
	if (rc < 0) {
		struct strbuf msg = STRBUF_INIT;
		sb_addf(&msg, _("plogtop: writing the report: %s\n"),
			strerror(errno));
		msglog_usage(msg.buf);
		sb_free(&msg);
		status = EXIT_TROUBLE;
	}
	if (o->state_file && state_save(o->state_file, m, &on->prom,
					on->rr.pos, on->rr.npos, &on->ps,
					NULL, &on->err) < 0) {
		say(on, on->err.buf);
		status = EXIT_TROUBLE;
	}
	return status;
}

int run_once(const struct options *o, struct ruleset *rs,
	     const struct catalog *cat, struct msglog *log)
{
	struct once on = { .log = log, .sections = { NULL, NULL, 0 } };

	if (begin(&on, o, cat) < 0)
		return EXIT_TROUBLE;
	double t0 = monotonic_seconds();
	/* npu-smi runs while the logs are read (this machine's only: a
	 * report of hosts alone has no local NPU), and is waited for at the
	 * end, at most its timeout. */
	struct npusmi_run *npu = o->npaths
		? npusmi_run_new(o->npu_smi, &on.m, log) : NULL;
	npusmi_run_step(npu, monotonic_ms());
	/* The snapshot renders each incident where it was read. */
	const struct read_view json_view = { snapshot_render,
					     snapshot_add_rendered, &on.snap };
	int rc = read_all(o, rs, &on.m, on.json ? &json_view : NULL,
			  on.resuming ? &on.rr : NULL, &on.err);
	size_t nlocal = on.m.nroots, hosts_down = 0;
	if (rc == 0)
		hosts_down = read_hosts(&on);
	on.m.stats.seconds = monotonic_seconds() - t0;
	/* Live local processes: their environment (rank, device map, host
	 * pid) before npu-smi's table is matched against them. */
	model_ask_alive(&on.m);
	npusmi_run_wait(npu);
	npusmi_run_free(npu);
	on.m.stats.match_limit_hits += ruleset_limit_hits(rs);
	if (rc < 0) {
		say(&on, on.err.buf);
		end(&on);
		return EXIT_TROUBLE;
	}
	int status = write_out(&on);
	if (check_unread(&on, nlocal) < 0 || hosts_down || on.set_aside)
		status = EXIT_TROUBLE;
	end(&on);
	return status;
}
