/* Reading and checking the command line (options.h); the options
 * themselves are the rows of option_rows.h, made into getopt's tables and
 * --help by option_table.c. */
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
#include "option_table.h"
#include "options_json.h"
#include "options_pathhost.h"
#include "pathhost.h"
#include "options_listen.h"
#include "sanitize.h"
#include "strbuf.h"
#include "terminal.h"
#include "xalloc.h"

static const char version_text[] = N_(
"Copyright the plogtop authors.\n"
"License: Apache-2.0 <https://www.apache.org/licenses/LICENSE-2.0>\n"
"This is free software; it comes with no warranty, to the extent\n"
"permitted by law.\n");

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

/* -H and --hosts: each host reads its path, or its default root. */
static int host_option(struct options *o, int c, const char *arg)
{
	struct hostlist hl = HOSTLIST_INIT;
	struct strbuf err = STRBUF_INIT;
	int rc = c == OPT_HOST_LIST ? hostlist_expand(&hl, arg, &err)
			  : hostfile_load_arg(&hl, arg, &err);

	if (rc < 0)
		rc = option_usage(c == OPT_HOST_LIST ? "-H: " : "", err.buf);
	for (size_t i = 0; rc == 0 && i < hl.n; i++)
		add_host(o, hl.v[i], hl.path[i]);
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
		rc = option_usage("", err.buf);
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
		return json_flag_option(o, c);
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
		return json_word_option(o, c, what);
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
	case OPT_HOST_LIST:
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
	case OPT_HELP:
		option_help();
		return 1;
	case OPT_VERSION:
		printf("plogtop %s\n%s", PACKAGE_VERSION, _(version_text));
		return 1;
	default:
		return 2;
	}
}

int options_parse(struct options *o, int argc, char **argv)
{
	char shorts[OPTION_SHORTS_MAX];
	int c;

	option_shorts(shorts, sizeof shorts);
	memset(o, 0, sizeof *o);
	o->interval_ms = 1000;
	o->keep = MODEL_KEEP_DEFAULT;
	o->prom_retry_ms = 60000;
	o->host_timeout_ms = 120000;
	/* getopt's own messages would name the binary's path: ours say
	 * "plogtop:". */
	opterr = 0;
	while ((c = getopt_long(argc, argv, shorts, option_longs, NULL)) != -1) {
		if (c == '?' || c == ':')
			return getopt_error(c, argv[optind - 1]);
		int rc = parse_option(o, option_id_of(c), optarg);
		if (rc)
			return rc;
	}
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
	if (listen_options_check(o) || json_options_check(o) ||
	    pathhost_options_check(o))
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
	pathhost_free(o->path_hosts);
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
