/* The one table of plogtop's options: getopt's long options, the short
 * letters, the enum of option ids and --help's option lines all come from
 * these rows (option_table.c), and doc/options.py makes the README's
 * option list from --help and checks plogtop(1)'s OPTIONS against it
 * (tests/options-doc.test).
 *
 * A row: OPTION(ID, LONG, SHORT, ARG, HELP)
 *   ID     the enum value OPT_ID that getopt returns (for SHORT too)
 *   LONG   the long name, without "--"
 *   SHORT  its letter ('H'), or 0
 *   ARG    no_argument or required_argument
 *   HELP   its --help text, N_("  --name=ARG          what it does\n"
 *          "                      (wrapped, 22 columns in)\n"),
 *          within 80 columns; NULL when the row before's text tells it
 *          (--listen's tells --listen-cert, --listen-key, --listen-auth)
 * ALIAS(ID, LONG, ARG): another long name of OPT_ID, not in --help.
 * Rows are in --help's order.
 *
 * To add an option:
 *   1. a row here, where it belongs in --help;
 *   2. its handler: a case OPT_ID in options.c's parse_option (or in the
 *      word/flag/number switches it calls, or in a file options_PART.c
 *      of its own, as options_listen.c), a field in struct options;
 *   3. its msgid's translation in po/zh_CN.po (appended by hand);
 *   4. its .TP entry in doc/plogtop.1 and doc/zh_CN/plogtop.1 (OPTIONS);
 *   5. python3 doc/options.py --write --plogtop _build/src/plogtop
 *      --locpath _build/tests/locale   (remakes the README blocks), then
 *      make check TESTS=tests/options-doc.test.
 * This file is included several times: no include guard. */

OPTION(ONCE, "once", 0, no_argument,
       N_("  --once              read everything there now, print a report and exit\n"
	   "                      (the default when standard output is not a\n"
	   "                      terminal)\n"))
OPTION(FOLLOW, "follow", 0, no_argument,
       N_("  --follow            keep watching: read what is there, then each line\n"
	   "                      as it is written, and print each incident once,\n"
	   "                      when it is complete; until interrupted.  A PATH\n"
	   "                      not there yet, or removed and made again, is\n"
	   "                      waited for\n"))
OPTION(FORMAT, "format", 0, required_argument,
       N_("  --format=FORMAT     --once: text (default), json or ndjson (an incident\n"
	   "                      a line, then a summary line); --follow: text\n"
	   "                      (default, a line per incident) or ndjson\n"))
OPTION(COLOR, "color", 0, required_argument,
       N_("  --color=WHEN        auto (default), always or never; NO_COLOR turns\n"
	   "                      auto off\n"))
ALIAS(COLOR, "colour", required_argument)
OPTION(RULES, "rules", 0, required_argument,
       N_("  --rules=FILE        add the rules in FILE to the built-in ones\n"
	   "                      (repeatable; a rule with a built-in's name\n"
	   "                      replaces it)\n"))
OPTION(SINCE, "since", 0, required_argument,
       N_("  --since=WHEN        only incidents logged at or after WHEN: a duration\n"
	   "                      back from now (30m, 2h, 1d, 1h30m), a time\n"
	   "                      (2026-07-13T11:00, 2026-07-13 11:00:05,\n"
	   "                      2026-07-13), or now; log times are local\n"))
OPTION(PROM_FILE, "prom-file", 0, required_argument,
       N_("  --prom-file=PATH    keep a Prometheus textfile (node_exporter's textfile\n"
	   "                      collector) of incident counts up to date; --once\n"
	   "                      writes it once\n"))
OPTION(INTERVAL, "interval", 0, required_argument,
       N_("  --interval=SECONDS  redraw the dashboard and rewrite the prom file at\n"
	   "                      most this often (default 1; fractions allowed)\n"))
OPTION(PROM_RETRY, "prom-retry", 0, required_argument,
       N_("  --prom-retry=SECONDS  --follow and the dashboard: how long a prom file\n"
	   "                      that cannot be written is retried before plogtop\n"
	   "                      exits 2 (default 60)\n"))
OPTION(POLL, "poll", 0, required_argument,
       N_("  --poll=SECONDS      --follow: poll every directory this often instead\n"
	   "                      of using inotify (which plogtop falls back to by\n"
	   "                      itself on NFS, CIFS or FUSE, and when inotify\n"
	   "                      watches run out)\n"))
OPTION(MAX_WATCHES, "max-watches", 0, required_argument,
       N_("  --max-watches=N     use at most N inotify watches, polling the rest\n"))
OPTION(KEEP, "keep", 0, required_argument,
       N_("  --keep=N            --follow and the dashboard: keep the latest N\n"
	   "                      incidents of each process for the detail view\n"
	   "                      (default 100, 0 to 100000; 10000 in all at most;\n"
	   "                      their raw lines 4 MiB in all, oldest dropped first)\n"))
OPTION(HOST_LIST, "host-list", 'H', required_argument,
       N_("  -H, --host-list=HOSTS  also read these hosts over ssh: a comma-separated\n"
	   "                      list with pdsh ranges (node[01-16],gpu[1,3,5-7]),\n"
	   "                      each word HOSTS[:PATH]: PATH there, else each\n"
	   "                      host's default root\n"))
OPTION(HOSTS, "hosts", 0, required_argument,
       N_("  --hosts=FILE[:PATH]  the same for the hosts in FILE, one a line: \"host\",\n"
	   "                      \"host slots=8\" (MPI), \"host:PATH\", \"host path=PATH\";\n"
	   "                      # comments; PATH: for each line that names none\n"))
OPTION(SSH, "ssh", 0, required_argument,
       N_("  --ssh=COMMAND       run COMMAND instead of ssh to reach a host (split at\n"
	   "                      spaces, no shell: 'ssh -F my.cfg', a wrapper script)\n"))
OPTION(REMOTE_COMMAND, "remote-command", 0, required_argument,
       N_("  --remote-command=PATH  plogtop's path on the hosts (default plogtop)\n"))
OPTION(HOST_TIMEOUT, "host-timeout", 0, required_argument,
       N_("  --host-timeout=SECONDS  --once: how long to wait for each host's report\n"
	   "                      (default 120)\n"))
OPTION(HELLO, "hello", 0, no_argument,
       N_("  --hello             --follow --format=ndjson: start with a header line\n"
	   "                      (schema plogtop.stream): what another plogtop reads\n"))
OPTION(NO_FIX, "no-fix", 0, no_argument,
       N_("  --no-fix            JSON, ndjson and --exec: each incident's \"fix\" is null\n"
	   "                      (the fix is the same text for each incident of a class)\n"
	   "  --exec=COMMAND      --follow and the dashboard: run COMMAND (split at\n"
	   "                      spaces, no shell) for each incident completed after\n"
	   "                      the start, the incident as JSON on its standard input\n"
	   "                      and PLOGTOP_* variables; at most 4 at once and 60 a\n"
	   "                      minute (what waits beyond 64 is counted and said)\n"
	   "  --exec-history      --exec also for the incidents of what the files held\n"
	   "                      at the start\n"))
OPTION(EXEC, "exec", 0, required_argument, NULL)
OPTION(EXEC_HISTORY, "exec-history", 0, no_argument, NULL)
OPTION(STATE, "state", 0, required_argument,
       N_("  --state=FILE        remember what was counted and where each file was\n"
	   "                      read to: counters never fall, and a restart goes\n"
	   "                      on from there (see State in the README)\n"))
OPTION(RESUME, "resume", 0, required_argument,
       N_("  --resume=FILE|-     start from a cursor (a --hello stream's cursor\n"
	   "                      line); '-': read it from standard input\n"))
OPTION(JOB, "job", 0, required_argument,
       N_("  --job=LABEL         the job of the local processes (default: the top\n"
	   "                      directory named, or MINDX_TASK_ID of a live one)\n"))
OPTION(HOST_FROM_PATH, "host-from-path", 0, required_argument,
       N_("  --host-from-path=PATTERN  name a local file's host (and job) by its\n"
	   "                      path: a PCRE2 pattern with groups (?<host>...)\n"
	   "                      and optionally (?<job>...), instead of the\n"
	   "                      shared-storage layouts (an IP next to plogs or\n"
	   "                      plog, see Shared storage); none: never\n"))
OPTION(NPU_SMI, "npu-smi", 0, required_argument,
       N_("  --npu-smi=COMMAND   run COMMAND info for the NPUs' live processes and\n"
	   "                      chip models (default npu-smi on PATH, every 10 s,\n"
	   "                      5 s at most; split at spaces; none: never)\n"))
OPTION(FROM_PROMETHEUS, "from-prometheus", 0, required_argument,
       N_("  --from-prometheus=URL  the dashboard (with --once, the report) of a\n"
	   "                      cluster from a Prometheus server's API: a host per\n"
	   "                      node, refreshed every --interval (at least 2 s);\n"
	   "                      no local file is read\n"))
OPTION(LISTEN, "listen", 0, required_argument,
       N_("  --listen=[ADDR]:PORT  --follow and the dashboard: serve the prom file's\n"
	   "                      metrics at /metrics for Prometheus to scrape\n"
	   "                      (:9466 every interface, 127.0.0.1:9466 loopback)\n"
	   "  --listen-cert=FILE, --listen-key=FILE  serve HTTPS with this PEM\n"
	   "                      certificate and key\n"
	   "  --listen-auth=FILE  ask for basic auth: lines user:HASH, a crypt(3)\n"
	   "                      hash (htpasswd -B); others must not read FILE\n"))
OPTION(LISTEN_CERT, "listen-cert", 0, required_argument, NULL)
OPTION(LISTEN_KEY, "listen-key", 0, required_argument, NULL)
OPTION(LISTEN_AUTH, "listen-auth", 0, required_argument, NULL)
OPTION(THEME, "theme", 0, required_argument,
       N_("  --theme=NAME|FILE   dashboard colours: default, light, mono,\n"
	   "                      high-contrast, or a theme file\n"))
OPTION(DEMO, "demo", 0, no_argument,
       N_("  --demo              watch a temporary plog tree with a realistic,\n"
	   "                      evolving workload (removed on exit)\n"))
OPTION(CHECK_RULES, "check-rules", 0, no_argument,
       N_("  --check-rules       load and check the rules (every sample line) and\n"
	   "                      the message file, then exit\n"))
OPTION(HELP, "help", 'h', no_argument,
       N_("  -h, --help          show this help and exit\n"))
OPTION(VERSION, "version", 'V', no_argument,
       N_("  -V, --version       show the version and exit\n"
	   "\n"))
