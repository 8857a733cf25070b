/* getopt's tables and --help from option_rows.h (option_table.h). */
#include "config.h"

#include <getopt.h>
#include <stddef.h>
#include <stdio.h>

#include "i18n.h"
#include "msglog.h"
#include "option_table.h"
#include "strbuf.h"

const struct option option_longs[] = {
#define OPTION(ID, LONG, SHORT, ARG, HELP) { LONG, ARG, NULL, OPT_##ID },
#define ALIAS(ID, LONG, ARG) { LONG, ARG, NULL, OPT_##ID },
#include "option_rows.h"
#undef OPTION
#undef ALIAS
	{ NULL, 0, NULL, 0 },
};

struct short_row { int letter, arg, id; };

static const struct short_row shorts[] = {
#define OPTION(ID, LONG, SHORT, ARG, HELP) { SHORT, ARG, OPT_##ID },
#define ALIAS(ID, LONG, ARG)
#include "option_rows.h"
#undef OPTION
#undef ALIAS
};

/* --help's option lines, NULL for a row the one before tells. */
static const char *const option_texts[] = {
#define OPTION(ID, LONG, SHORT, ARG, HELP) HELP,
#define ALIAS(ID, LONG, ARG)
#include "option_rows.h"
#undef OPTION
#undef ALIAS
};

/* --help before the options and after them, a paragraph or an item a
 * text: what a translator translates (each within 80 terminal columns). */
static const char *const help_head[] = {
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
};

static const char *const help_tail[] = {
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
	N_("  PLOGTOP_DATADIR     rules/, messages/, themes/ to use instead of the built-in\n"),
	N_("  PLOGTOP_THEME       the dashboard's theme at start (as --theme; t cycles\n"
	   "                      themes readable on the background: COLORFGBG, and\n"
	   "                      remembers the choice in XDG_RUNTIME_DIR)\n"),
	N_("  PLOGTOP_THREADS     --once: threads that read (default: one per\n"
	   "                      processor, at most 4, from 64 MiB of logs; 1: one,\n"
	   "                      and none decompressing an archive ahead)\n"),
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

#define N_ROWS (sizeof shorts / sizeof *shorts)

void option_shorts(char *buf, size_t size)
{
	size_t n = 0;

	/* ':' first, then each letter with its ':'; what does not fit in
	 * size is left out (option_table.h's bound holds them all). */
	if (size < 2)
		return;
	buf[n++] = ':';
	for (size_t i = 0; i < N_ROWS && n + 3 <= size; i++) {
		if (!shorts[i].letter)
			continue;
		buf[n++] = (char)shorts[i].letter;
		if (shorts[i].arg == required_argument)
			buf[n++] = ':';
	}
	buf[n] = '\0';
}

int option_id_of(int c)
{
	for (size_t i = 0; c > 0 && i < N_ROWS; i++)
		if (shorts[i].letter == c)
			return shorts[i].id;
	return c;
}

void option_help(void)
{
	for (size_t i = 0; i < sizeof help_head / sizeof *help_head; i++)
		fputs(_(help_head[i]), stdout);
	for (size_t i = 0; i < N_ROWS; i++)
		if (option_texts[i])
			fputs(_(option_texts[i]), stdout);
	for (size_t i = 0; i < sizeof help_tail / sizeof *help_tail; i++)
		fputs(_(help_tail[i]), stdout);
}

int option_usage(const char *what, const char *msg)
{
	struct strbuf sb = STRBUF_INIT;

	sb_addf(&sb, _("plogtop: %s%s\nTry 'plogtop --help' for more "
		       "information.\n"), what, msg);
	msglog_usage(sb.buf);
	sb_free(&sb);
	return 2;
}
