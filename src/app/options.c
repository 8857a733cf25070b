#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hostspec.h"
#include "i18n.h"
#include "model.h"
#include "msglog.h"
#include "options.h"
#include "options_listen.h"
#include "sanitize.h"
#include "strbuf.h"
#include "terminal.h"
#include "xalloc.h"

/* --help, a paragraph or an option a text: what a translator translates
 * (each within 80 terminal columns). */
static const char *const usage_text[] = {
	N_("Usage: plogtop [OPTION]... [PATH | HOST:[PATH]]...\n"
	   "Find Ascend CANN runtime resource exhaustion (EE1023) and invalid argument\n"
	   "(EE1001) incidents in plog logs, per process and resource, with the fix\n"
	   "for each cause.  On a terminal plogtop shows a live dashboard (keys: ?\n"
	   "for help, q to quit); otherwise, or with --once, it prints a report.\n"
	   "\n"),
	N_("PATH is a directory, read recursively, a single file, or - for standard\n"
	   "input.  Every text file is read: plog names (plog-PID_STAMP.log,\n"
	   "plog_STAMP.log, device-PID_STAMP.log, host-N_STAMP.log) as plog, any\n"
	   "other name (rank-0.txt, train.out, ...) as a job's captured output.\n"
	   ".gz, .xz, .zst files and tar archives (.tar, .tgz, .tar.gz, .tar.xz,\n"
	   ".tar.zst: members as ARCHIVE:MEMBER) are read; X.gz beside X is a copy.\n"
	   "Binary files, other compressed kinds, FIFOs and devices are skipped and\n"
	   "listed with why.  - takes journalctl -o cat or kubectl logs --prefix\n"
	   "output (the pod a field).  Without PATH: $ASCEND_PROCESS_LOG_PATH, else\n"
	   "$ASCEND_WORK_PATH/log, else $HOME/ascend/log.\n"
	   "\n"),
	N_("  --once              read everything there now, print a report and exit\n"
	   "                      (the default when standard output is not a\n"
	   "                      terminal)\n"),
	N_("  --follow            keep watching: read what is there, then each line\n"
	   "                      as it is written, and print each incident once,\n"
	   "                      when it is complete; until interrupted.  A PATH\n"
	   "                      not there yet, or removed and made again, is\n"
	   "                      waited for\n"),
	N_("  --format=FORMAT     --once: text (default) or json;\n"
	   "                      --follow: text (default, a line per incident) or\n"
	   "                      ndjson (a JSON object per line)\n"),
	N_("  --color=WHEN        auto (default), always or never; NO_COLOR turns\n"
	   "                      auto off\n"),
	N_("  --rules=FILE        add the rules in FILE to the built-in ones\n"
	   "                      (repeatable; a rule with a built-in's name\n"
	   "                      replaces it)\n"),
	N_("  --since=WHEN        only incidents logged at or after WHEN: a duration\n"
	   "                      back from now (30m, 2h, 1d, 1h30m), a time\n"
	   "                      (2026-07-13T11:00, 2026-07-13 11:00:05,\n"
	   "                      2026-07-13), or now; log times are local\n"),
	N_("  --prom-file=PATH    keep a Prometheus textfile (node_exporter's textfile\n"
	   "                      collector) of incident counts up to date; --once\n"
	   "                      writes it once\n"),
	N_("  --interval=SECONDS  redraw the dashboard and rewrite the prom file at\n"
	   "                      most this often (default 1; fractions allowed)\n"),
	N_("  --prom-retry=SECONDS  --follow and the dashboard: how long a prom file\n"
	   "                      that cannot be written is retried before plogtop\n"
	   "                      exits 2 (default 60)\n"),
	N_("  --poll=SECONDS      --follow: poll every directory this often instead\n"
	   "                      of using inotify (which plogtop falls back to by\n"
	   "                      itself on NFS, CIFS or FUSE, and when inotify\n"
	   "                      watches run out)\n"),
	N_("  --max-watches=N     use at most N inotify watches, polling the rest\n"),
	N_("  --keep=N            --follow and the dashboard: keep the latest N\n"
	   "                      incidents of each process for the detail view\n"
	   "                      (default 100, 0 to 100000; 10000 in all at most)\n"),
	N_("  -H, --host-list=HOSTS  also read these hosts over ssh: a comma-separated\n"
	   "                      list with pdsh ranges (node[01-16],gpu[1,3,5-7]),\n"
	   "                      each host's default root\n"),
	N_("  --hosts=FILE        the same for the hosts in FILE: one a line, # comments,\n"
	   "                      the MPI/DeepSpeed form \"host slots=8\" accepted\n"),
	N_("  --ssh=COMMAND       run COMMAND instead of ssh to reach a host (split at\n"
	   "                      spaces, no shell: 'ssh -F my.cfg', a wrapper script)\n"),
	N_("  --remote-command=PATH  plogtop's path on the hosts (default plogtop)\n"),
	N_("  --host-timeout=SECONDS  --once: how long to wait for each host's report\n"
	   "                      (default 120)\n"),
	N_("  --hello             --follow --format=ndjson: start with a header line\n"
	   "                      (schema plogtop.stream): what another plogtop reads\n"),
	N_("  --state=FILE        remember what was counted and where each file was\n"
	   "                      read to: counters never fall, and a restart goes\n"
	   "                      on from there (see State in the README)\n"),
	N_("  --resume=FILE|-     start from a cursor (a --hello stream's cursor\n"
	   "                      line); '-': read it from standard input\n"),
	N_("  --job=LABEL         the job of the local processes (default: the top\n"
	   "                      directory named, or MINDX_TASK_ID of a live one)\n"),
	N_("  --npu-smi=COMMAND   run COMMAND info for the NPUs' live processes and\n"
	   "                      chip models (default npu-smi on PATH, every 10 s,\n"
	   "                      5 s at most; split at spaces; none: never)\n"),
	N_("  --from-prometheus=URL  the dashboard (with --once, the report) of a\n"
	   "                      cluster from a Prometheus server's API: a host per\n"
	   "                      node, refreshed every --interval (at least 2 s);\n"
	   "                      no local file is read\n"),
	N_("  --listen=[ADDR]:PORT  --follow and the dashboard: serve the prom file's\n"
	   "                      metrics at /metrics for Prometheus to scrape\n"
	   "                      (:9466 every interface, 127.0.0.1:9466 loopback)\n"
	   "  --listen-cert=FILE, --listen-key=FILE  serve HTTPS with this PEM\n"
	   "                      certificate and key\n"
	   "  --listen-auth=FILE  ask for basic auth: lines user:HASH, a crypt(3)\n"
	   "                      hash (htpasswd -B); others must not read FILE\n"),
	N_("  --theme=NAME|FILE   dashboard colours: default, light, mono,\n"
	   "                      high-contrast, or a theme file\n"),
	N_("  --demo              watch a temporary plog tree with a realistic,\n"
	   "                      evolving workload (removed on exit)\n"),
	N_("  --check-rules       load and check the rules (every sample line) and\n"
	   "                      the message file, then exit\n"),
	N_("  -h, --help          show this help and exit\n"),
	N_("  -V, --version       show the version and exit\n"
	   "\n"),
	N_("--since=now with --follow skips what the files already hold.\n"
	   "\n"),
	N_("HOST:[PATH] (a colon before any slash; ./a:b is a local path) reads PATH\n"
	   "on HOST, or its default root, by running plogtop there over ssh (in\n"
	   "batch mode: keys or an agent, never a password prompt); only incidents\n"
	   "travel.  Each incident and process then has its host; a host that fails\n"
	   "is shown with why, and --follow and the dashboard try it again.\n"
	   "\n"),
	N_("Exit status: 0 no incident found, 1 at least one incident found,\n"
	   "2 usage, configuration or input error, or a named PATH with nothing\n"
	   "readable in it (never reported as \"no incident\").  --follow ends with 0 when\n"
	   "interrupted (SIGINT, SIGTERM, SIGHUP) or when its output is closed.\n"
	   "\n"),
	N_("Environment:\n"
	   "  ASCEND_PROCESS_LOG_PATH, ASCEND_WORK_PATH, HOME  where the logs are (above)\n"),
	N_("  LANGUAGE, LC_ALL, LC_MESSAGES, LANG  the language of plogtop's texts (the\n"
	   "                      first set; zh_CN.UTF-8: Chinese) under a UTF-8 locale\n"),
	N_("  PLOGTOP_DATADIR     where rules/, messages/ and themes/ are\n"),
	N_("  PLOGTOP_THEME       the dashboard's theme at start (as --theme; t cycles\n"
	   "                      themes readable on the background: COLORFGBG, and\n"
	   "                      remembers the choice in XDG_RUNTIME_DIR)\n"),
	N_("  PLOGTOP_THREADS     --once: threads that read (default: one per\n"
	   "                      processor, at most 4, from 64 MiB of logs; 1: one)\n"),
	N_("  NO_COLOR            when not empty, no colour with --color=auto\n"),
	N_("  TERM                the terminal type (dumb: no colour)\n"),
	N_("  PAGER               the dashboard's o key (default less)\n"),
	N_("  TMPDIR              where --demo makes its tree (default /tmp)\n"),
	N_("  PLOGTOP_SHARED      make check only: the shared log samples (../shared)\n"
	   "\n"),
	N_("Rules format: plogtop-rules(5).  JSON schema: the plogtop(1) manual and\n"
	   "json-schema.md in the documentation directory.\n"
	   "plogtop is free software under the Apache License 2.0.\n"),
};

enum { OPT_ONCE = 256, OPT_FORMAT, OPT_COLOR, OPT_RULES, OPT_SINCE,
       OPT_CHECK_RULES, OPT_FOLLOW, OPT_PROM_FILE, OPT_INTERVAL, OPT_POLL,
       OPT_MAX_WATCHES, OPT_KEEP, OPT_THEME, OPT_DEMO, OPT_PROM_RETRY,
       OPT_HOSTS, OPT_SSH, OPT_REMOTE_COMMAND, OPT_HOST_TIMEOUT, OPT_HELLO,
       OPT_STATE, OPT_RESUME, OPT_JOB, OPT_NPU_SMI,
       OPT_FROM_PROMETHEUS = 400 };

static const char version_text[] = N_(
"Copyright the plogtop authors.\n"
"License: Apache-2.0 <https://www.apache.org/licenses/LICENSE-2.0>\n"
"This is free software; it comes with no warranty, to the extent\n"
"permitted by law.\n");

static const struct option long_options[] = {
	{ "once", no_argument, NULL, OPT_ONCE },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "color", required_argument, NULL, OPT_COLOR },
	{ "colour", required_argument, NULL, OPT_COLOR },
	{ "rules", required_argument, NULL, OPT_RULES },
	{ "since", required_argument, NULL, OPT_SINCE },
	{ "check-rules", no_argument, NULL, OPT_CHECK_RULES },
	{ "follow", no_argument, NULL, OPT_FOLLOW },
	{ "prom-file", required_argument, NULL, OPT_PROM_FILE },
	{ "interval", required_argument, NULL, OPT_INTERVAL },
	{ "prom-retry", required_argument, NULL, OPT_PROM_RETRY },
	{ "poll", required_argument, NULL, OPT_POLL },
	{ "max-watches", required_argument, NULL, OPT_MAX_WATCHES },
	{ "keep", required_argument, NULL, OPT_KEEP },
	{ "theme", required_argument, NULL, OPT_THEME },
	{ "demo", no_argument, NULL, OPT_DEMO },
	{ "host-list", required_argument, NULL, 'H' },
	{ "hosts", required_argument, NULL, OPT_HOSTS },
	{ "ssh", required_argument, NULL, OPT_SSH },
	{ "remote-command", required_argument, NULL, OPT_REMOTE_COMMAND },
	{ "host-timeout", required_argument, NULL, OPT_HOST_TIMEOUT },
	{ "hello", no_argument, NULL, OPT_HELLO },
	{ "state", required_argument, NULL, OPT_STATE },
	{ "resume", required_argument, NULL, OPT_RESUME },
	{ "job", required_argument, NULL, OPT_JOB },
	{ "npu-smi", required_argument, NULL, OPT_NPU_SMI },
	{ "from-prometheus", required_argument, NULL, OPT_FROM_PROMETHEUS },
	{ "listen", required_argument, NULL, OPT_LISTEN },
	{ "listen-cert", required_argument, NULL, OPT_LISTEN_CERT },
	{ "listen-key", required_argument, NULL, OPT_LISTEN_KEY },
	{ "listen-auth", required_argument, NULL, OPT_LISTEN_AUTH },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

/* The argument is quoted sanitised: it may be a path with anything in
 * it. */
static int usage_error(const char *what, const char *arg)
{
	struct strbuf clean = STRBUF_INIT, msg = STRBUF_INIT;

	sanitize(&clean, arg, strlen(arg));
	/* what: a text marked by the keyword usage_error or by N_
	 * (po/Makevars). */
	sb_addf(&msg, _("plogtop: %s '%s'\nTry 'plogtop --help' for more "
			"information.\n"), _(what), sb_str(&clean));
	msglog_usage(msg.buf);
	sb_free(&clean);
	sb_free(&msg);
	return 2;
}

/* A message that is sanitised already. */
static int usage_msg(const char *what, const char *msg)
{
	struct strbuf sb = STRBUF_INIT;

	sb_addf(&sb, _("plogtop: %s%s\nTry 'plogtop --help' for more "
		       "information.\n"), what, msg);
	msglog_usage(sb.buf);
	sb_free(&sb);
	return 2;
}

/* What getopt refused: ARG is the word it stopped at. */
static int getopt_error(int c, const char *arg)
{
	char shortopt[3] = { '-', (char)optopt, '\0' };

	/* An unknown letter inside a group (-Vx) is not the whole word. */
	if (optopt > 0 && optopt < 128 && strncmp(arg, "--", 2) != 0)
		arg = shortopt;
	else if (optopt && c == '?')
		return usage_error("option takes no argument:", arg);
	if (c == ':')
		return usage_error("option needs an argument:", arg);
	return usage_error("unrecognized option", arg);
}

/* A positive number of seconds, fractions allowed, as milliseconds. */
static int seconds_arg(const char *opt, const char *arg, unsigned *ms)
{
	char *end;
	double v = strtod(arg, &end);

	if (!*arg || *end || !(v >= 0.01 && v <= 86400)) {
		struct strbuf what = STRBUF_INIT;
		sb_addf(&what, _("%s needs seconds from 0.01 to 86400:"), opt);
		usage_error(what.buf, arg);
		sb_free(&what);
		return 2;
	}
	*ms = (unsigned)(v * 1000 + 0.5);
	return 0;
}

static void add(char ***v, size_t *n, const char *s)
{
	*v = xrealloc(*v, (*n + 1) * sizeof **v);
	(*v)[(*n)++] = xstrdup(s);
}

/* $ASCEND_PROCESS_LOG_PATH, else $ASCEND_WORK_PATH/log, else
 * $HOME/ascend/log: where the CANN log library writes. */
static void default_root(struct options *o)
{
	const char *p = getenv("ASCEND_PROCESS_LOG_PATH");
	struct strbuf sb = STRBUF_INIT;

	if (p && *p) {
		sb_adds(&sb, p);
	} else if ((p = getenv("ASCEND_WORK_PATH")) && *p) {
		sb_addf(&sb, "%s/log", p);
	} else {
		p = getenv("HOME");
		sb_addf(&sb, "%s/ascend/log", p && *p ? p : "");
	}
	add(&o->paths, &o->npaths, sb.buf);
	o->default_root = 1;
	sb_free(&sb);
}

static void add_host(struct options *o, const char *host, const char *path)
{
	size_t n = o->nhostpaths;

	add(&o->host_names, &o->nhostpaths, host);
	add(&o->host_paths, &n, path);
}

/* -H and --hosts: each host reads its default root. */
static int host_option(struct options *o, int c, const char *arg)
{
	struct hostlist hl = { NULL, 0, 0 };
	struct strbuf err = STRBUF_INIT;
	int rc = c == 'H' ? hostlist_expand(&hl, arg, &err)
			  : hostfile_load(&hl, arg, &err);

	if (rc < 0)
		rc = usage_msg(c == 'H' ? "-H: " : "", err.buf);
	for (size_t i = 0; rc == 0 && i < hl.n; i++)
		add_host(o, hl.v[i], "");
	hostlist_free(&hl);
	sb_free(&err);
	return rc;
}

/* A PATH argument: local, or HOST:[PATH] with a valid host. */
static int path_argument(struct options *o, const char *arg)
{
	char *host, *path;
	struct strbuf err = STRBUF_INIT;
	int rc = 0;

	if (!hostspec_split(arg, &host, &path)) {
		add(&o->paths, &o->npaths, arg);
		return 0;
	}
	if (host_valid(host, &err) < 0)
		rc = usage_msg("", err.buf);
	else
		add_host(o, host, path);
	free(host);
	free(path);
	sb_free(&err);
	return rc;
}

/* An option that sets a flag, or NULL. */
static int *flag_option(struct options *o, int c)
{
	switch (c) {
	case OPT_HELLO:
		return &o->hello;
	case OPT_ONCE:
		return &o->once;
	case OPT_CHECK_RULES:
		return &o->check_rules;
	case OPT_FOLLOW:
		return &o->follow;
	case OPT_DEMO:
		return &o->demo;
	default:
		return NULL;
	}
}

/* An option whose argument is kept as it is, and must not be empty (what
 * says so), or NULL. */
static const char **word_option(struct options *o, int c, const char **what)
{
	switch (c) {
	case OPT_SSH:
		*what = N_("--ssh needs a command:");
		return &o->ssh_cmd;
	case OPT_REMOTE_COMMAND:
		*what = N_("--remote-command needs a path:");
		return &o->remote_cmd;
	case OPT_STATE:
		*what = N_("--state needs a path:");
		return &o->state_file;
	case OPT_RESUME:
		*what = N_("--resume needs a path:");
		return &o->resume_file;
	case OPT_THEME:
		*what = N_("--theme needs a name or a file:");
		return &o->theme;
	case OPT_PROM_FILE:
		*what = N_("--prom-file needs a path:");
		return &o->prom_file;
	case OPT_JOB:
		*what = N_("--job needs a label:");
		return &o->job;
	case OPT_NPU_SMI:
		*what = N_("--npu-smi needs a command (or none):");
		return &o->npu_smi;
	case OPT_FROM_PROMETHEUS:
		*what = N_("--from-prometheus needs a URL:");
		return &o->from_prometheus;
	default:
		return listen_word_option(o, c, what);
	}
}

/* An option that is one of a few words: its number, or -1. */
static int choice(const char *arg, const char *const *words, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(arg, words[i]) == 0)
			return (int)i;
	return -1;
}

static int format_option(struct options *o, const char *arg)
{
	static const char *const words[] = { "text", "json", "ndjson" };
	static const enum format formats[] = {
		FORMAT_TEXT, FORMAT_JSON, FORMAT_NDJSON
	};
	int i = choice(arg, words, sizeof words / sizeof *words);

	if (i < 0)
		return usage_error("unknown --format (use text, json "
				   "or ndjson):", arg);
	o->format = formats[i];
	return 0;
}

static int color_option(struct options *o, const char *arg)
{
	static const char *const words[] = { "auto", "always", "never" };
	static const enum color colors[] = {
		COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER
	};
	int i = choice(arg, words, sizeof words / sizeof *words);

	if (i < 0)
		return usage_error("unknown --color (use auto, always or "
				   "never):", arg);
	o->color = colors[i];
	return 0;
}

/* A whole number from min to max, digits only (no sign). */
static int count_arg(const char *arg, unsigned long long min,
		     unsigned long long max, size_t *out)
{
	char *end;
	unsigned long long n = strtoull(arg, &end, 10);

	if (!*arg || *end || *arg == '-' || n < min || n > max)
		return -1;
	*out = (size_t)n;
	return 0;
}

/* The options that take numbers. */
static int number_option(struct options *o, int c, const char *arg)
{
	switch (c) {
	case OPT_HOST_TIMEOUT:
		return seconds_arg("--host-timeout", arg, &o->host_timeout_ms);
	case OPT_INTERVAL:
		return seconds_arg("--interval", arg, &o->interval_ms);
	case OPT_POLL:
		return seconds_arg("--poll", arg, &o->poll_ms);
	case OPT_PROM_RETRY:
		return seconds_arg("--prom-retry", arg, &o->prom_retry_ms);
	case OPT_MAX_WATCHES:
		if (count_arg(arg, 1, 100000000, &o->max_watches) < 0)
			return usage_error("--max-watches needs a count of at "
					   "least 1:", arg);
		return 0;
	default:	/* OPT_KEEP */
		if (count_arg(arg, 0, 100000, &o->keep) < 0)
			return usage_error("--keep needs a count from 0 to "
					   "100000:", arg);
		return 0;
	}
}

static int parse_option(struct options *o, int c, const char *arg)
{
	const char *what, **word = word_option(o, c, &what);
	int *flag = flag_option(o, c);

	if (flag) {
		*flag = 1;
		return 0;
	}
	if (word) {
		if (!*arg)
			return usage_error(what, arg);
		*word = arg;
		return 0;
	}
	switch (c) {
	case 'H':
	case OPT_HOSTS:
		return host_option(o, c, arg);
	case OPT_FORMAT:
		return format_option(o, arg);
	case OPT_COLOR:
		return color_option(o, arg);
	case OPT_RULES:
		add(&o->rules, &o->nrules, arg);
		return 0;
	case OPT_SINCE:
		o->since_arg = arg;
		if (logtime_parse_since(arg, logtime_now(), &o->since) < 0)
			return usage_error("cannot read --since (use 2h, 30m, "
					   "2026-07-13T11:00 or now):", arg);
		return 0;
	case OPT_HOST_TIMEOUT:
	case OPT_INTERVAL:
	case OPT_POLL:
	case OPT_PROM_RETRY:
	case OPT_MAX_WATCHES:
	case OPT_KEEP:
		return number_option(o, c, arg);
	case 'h':
		for (size_t i = 0; i < sizeof usage_text / sizeof *usage_text;
		     i++)
			fputs(_(usage_text[i]), stdout);
		return 1;
	case 'V':
		printf("plogtop %s\n%s", PACKAGE_VERSION, _(version_text));
		return 1;
	default:
		return 2;
	}
}

int options_parse(struct options *o, int argc, char **argv)
{
	int c;

	memset(o, 0, sizeof *o);
	o->interval_ms = 1000;
	o->keep = MODEL_KEEP_DEFAULT;
	o->prom_retry_ms = 60000;
	o->host_timeout_ms = 120000;
	/* getopt's own messages would name the binary's path: ours say
	 * "plogtop:". */
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hVH:", long_options, NULL)) != -1) {
		if (c == '?' || c == ':')
			return getopt_error(c, argv[optind - 1]);
		int rc = parse_option(o, c, optarg);
		if (rc)
			return rc;
	}
	if (o->format == FORMAT_NDJSON && !o->follow)
		return usage_error("--format=ndjson is for --follow; with "
				   "--once use", "--format=json");
	if (o->format == FORMAT_JSON && o->follow)
		return usage_error("--follow writes one incident a line: use",
				   "--format=ndjson");
	if (o->once && o->follow)
		return usage_error("choose one of --once and", "--follow");
	if ((o->poll_ms || o->max_watches) && o->once)
		return usage_error("--poll and --max-watches are for watching,"
				   " not", "--once");
	if (o->demo && o->once)
		return usage_error("--demo is for watching, not", "--once");
	if (o->demo && optind < argc)
		return usage_error("--demo makes its own tree; drop the",
				   "PATH");
	if (o->hello && !(o->follow && o->format == FORMAT_NDJSON))
		return usage_error("--hello is for", "--follow --format=ndjson");
	if (listen_options_check(o))
		return 2;
	o->want_colour = terminal_dashboard_colour(o->color);
	for (int i = optind; i < argc; i++) {
		if (!*argv[i])
			return usage_error("an empty PATH is not a path:", "");
		int rc = path_argument(o, argv[i]);
		if (rc)
			return rc;
	}
	for (size_t i = 0; o->resume_file && i < o->npaths; i++)
		if (strcmp(o->resume_file, "-") == 0 &&
		    strcmp(o->paths[i], "-") == 0)
			return usage_error("--resume=- reads standard input: drop "
					   "the", "-");
	if (o->demo && o->nhostpaths)
		return usage_error("--demo makes its own tree; drop the",
				   "hosts");
	if (o->from_prometheus && (o->npaths || o->nhostpaths || o->follow ||
				   o->demo || o->listen))
		return usage_error("--from-prometheus reads a cluster, no file "
				   "nor host; drop the", o->npaths ? "PATH"
				   : o->nhostpaths ? "hosts" : o->follow
				   ? "--follow" : o->demo ? "--demo" : "--listen");
	/* Hosts alone: nothing local is read. */
	if (!o->npaths && !o->nhostpaths && !o->from_prometheus)
		default_root(o);
	return 0;
}

void options_free(struct options *o)
{
	for (size_t i = 0; i < o->nrules; i++)
		free(o->rules[i]);
	free(o->rules);
	for (size_t i = 0; i < o->npaths; i++)
		free(o->paths[i]);
	free(o->paths);
	for (size_t i = 0; i < o->nhostpaths; i++) {
		free(o->host_names[i]);
		free(o->host_paths[i]);
	}
	free(o->host_names);
	free(o->host_paths);
}
