#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "strbuf.h"
#include "xalloc.h"

static const char usage_text[] =
"Usage: plogtop [OPTION]... [PATH]...\n"
"Find Ascend CANN runtime resource exhaustion (EE1023) and invalid argument\n"
"(EE1001) incidents in plog logs, per process and resource, with the fix\n"
"for each cause.\n"
"\n"
"PATH is a directory searched recursively for plog files\n"
"(plog-PID_STAMP.log, plog_STAMP.log, device-PID_STAMP.log), a single log\n"
"file of any kind (a plog file, or a job's captured stdout/stderr), or -\n"
"for standard input.  Without PATH: $ASCEND_PROCESS_LOG_PATH, else\n"
"$ASCEND_WORK_PATH/log, else $HOME/ascend/log.\n"
"\n"
"  --once              read everything there now, print a report and exit\n"
"                      (the only mode of this version)\n"
"  --format=FORMAT     text (default) or json\n"
"  --color=WHEN        auto (default), always or never; NO_COLOR turns\n"
"                      auto off\n"
"  --rules=FILE        add the rules in FILE to the built-in ones\n"
"                      (repeatable; a rule with a built-in's name\n"
"                      replaces it)\n"
"  --since=WHEN        only incidents logged at or after WHEN: a duration\n"
"                      back from now (30m, 2h, 1d, 1h30m), a time\n"
"                      (2026-07-13T11:00, 2026-07-13 11:00:05,\n"
"                      2026-07-13), or now; log times are local\n"
"  --check-rules       load and check the rules (every sample line) and\n"
"                      the message file, then exit\n"
"  -h, --help          show this help and exit\n"
"  -V, --version       show the version and exit\n"
"\n"
"Exit status: 0 no incident found, 1 at least one incident found,\n"
"2 usage, configuration or input error.\n"
"\n"
"Environment: ASCEND_PROCESS_LOG_PATH, ASCEND_WORK_PATH, HOME (where the\n"
"logs are); NO_COLOR; PLOGTOP_DATADIR (where rules/ and messages/ are).\n"
"Rules format: plogtop-rules(5).  JSON schema: the plogtop(1) manual.\n";

enum { OPT_ONCE = 256, OPT_FORMAT, OPT_COLOR, OPT_RULES, OPT_SINCE,
       OPT_CHECK_RULES };

static const struct option long_options[] = {
	{ "once", no_argument, NULL, OPT_ONCE },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "color", required_argument, NULL, OPT_COLOR },
	{ "colour", required_argument, NULL, OPT_COLOR },
	{ "rules", required_argument, NULL, OPT_RULES },
	{ "since", required_argument, NULL, OPT_SINCE },
	{ "check-rules", no_argument, NULL, OPT_CHECK_RULES },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

static int usage_error(const char *what, const char *arg)
{
	fprintf(stderr, "plogtop: %s '%s'\nTry 'plogtop --help' for more "
		"information.\n", what, arg);
	return 2;
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

static int parse_option(struct options *o, int c, const char *arg)
{
	switch (c) {
	case OPT_ONCE:
		o->once = 1;
		return 0;
	case OPT_FORMAT:
		if (strcmp(arg, "text") == 0)
			o->format = FORMAT_TEXT;
		else if (strcmp(arg, "json") == 0)
			o->format = FORMAT_JSON;
		else
			return usage_error("unknown --format (use text or json):",
					   arg);
		return 0;
	case OPT_COLOR:
		if (strcmp(arg, "auto") == 0)
			o->color = COLOR_AUTO;
		else if (strcmp(arg, "always") == 0)
			o->color = COLOR_ALWAYS;
		else if (strcmp(arg, "never") == 0)
			o->color = COLOR_NEVER;
		else
			return usage_error("unknown --color (use auto, always or "
					   "never):", arg);
		return 0;
	case OPT_RULES:
		add(&o->rules, &o->nrules, arg);
		return 0;
	case OPT_SINCE:
		o->since_arg = arg;
		if (logtime_parse_since(arg, logtime_now(), &o->since) < 0)
			return usage_error("cannot read --since (use 2h, 30m, "
					   "2026-07-13T11:00 or now):", arg);
		return 0;
	case OPT_CHECK_RULES:
		o->check_rules = 1;
		return 0;
	case 'h':
		fputs(usage_text, stdout);
		return 1;
	case 'V':
		printf("plogtop %s\n", PACKAGE_VERSION);
		return 1;
	default:
		fputs("Try 'plogtop --help' for more information.\n", stderr);
		return 2;
	}
}

int options_parse(struct options *o, int argc, char **argv)
{
	int c;

	memset(o, 0, sizeof *o);
	opterr = 1;
	while ((c = getopt_long(argc, argv, "hV", long_options, NULL)) != -1) {
		int rc = parse_option(o, c, optarg);
		if (rc)
			return rc;
	}
	for (int i = optind; i < argc; i++) {
		if (!*argv[i])
			return usage_error("an empty PATH is not a path:", "");
		add(&o->paths, &o->npaths, argv[i]);
	}
	if (!o->npaths)
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
}
