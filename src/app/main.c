/* plogtop: finds Ascend runtime resource exhaustion (EE1023) and invalid
 * argument (EE1001) incidents in CANN plog logs.  Here only the options
 * are read, what every mode needs loaded, and the mode chosen. */
#include "config.h"

#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "catalog.h"
#include "cluster_app.h"
#include "datadir.h"
#include "fleet.h"
#include "i18n.h"
#include "live.h"
#include "locale_note.h"
#include "msglog.h"
#include "once.h"
#include "options.h"
#include "options_json.h"
#include "options_listen.h"
#include "readall.h"
#include "rules.h"
#include "sanitize.h"
#include "terminal.h"
#include "theme.h"

static struct ruleset *load_rules(const struct options *o)
{
	struct strbuf err = STRBUF_INIT;
	struct ruleset *rs = rules_for(o, &err);

	if (!rs)
		msglog_add(NULL, err.buf);
	sb_free(&err);
	return rs;
}

static struct catalog *load_catalog(void)
{
	struct strbuf path = STRBUF_INIT, err = STRBUF_INIT, text = STRBUF_INIT;
	struct catalog *cat = NULL;

	/* The English texts; gettext translates them (src/base/i18n.h). */
	if (datadir_read("messages/en.txt", _("message file"),
			 CATALOG_FILE_MAX, &path, &text, &err) == 0)
		cat = catalog_load_text(path.buf, text.buf, text.len, &err);
	sb_free(&text);
	if (cat && catalog_check_complete(cat, &err) < 0) {
		catalog_free(cat);
		cat = NULL;
		struct strbuf msg = STRBUF_INIT;
		sb_addf(&msg, "%s: %s", path.buf, err.buf);
		sb_free(&err);
		err = msg;
	}
	if (!cat)
		msglog_add(NULL, err.buf);
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
	msglog_add(NULL, msg.buf);
	sb_free(&msg);
	/* The hint is one translated text, with its own prefixes. */
	msglog_usage(_("plogtop: it is $ASCEND_PROCESS_LOG_PATH, else "
		       "$ASCEND_WORK_PATH/log, else $HOME/ascend/log;\n"
		       "plogtop: set one of them, or name a directory or file: "
		       "plogtop PATH\n"));
	return -1;
}

/* A bad --theme is an error whatever the mode, like a bad --rules. */
static int check_theme(const struct options *o)
{
	struct theme t;
	struct strbuf err = STRBUF_INIT;
	int rc = 0;

	if (o->theme && theme_load(o->theme, &t, &err) < 0) {
		msglog_add(NULL, err.buf);
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

/* A locale that cannot be loaded, said once (the dashboard says it on
 * its message line instead). */
static void say_locale(void)
{
	struct strbuf note = STRBUF_INIT;

	if (locale_unavailable(&note))
		msglog_add(NULL, note.buf);
	sb_free(&note);
}

/* `plogtop -` typed at a prompt would otherwise wait in silence. */
static void say_reading_stdin(const struct options *o)
{
	for (size_t i = 0; i < o->npaths; i++) {
		if (strcmp(o->paths[i], "-") == 0 && terminal_stdin()) {
			msglog_usage(_("plogtop: reading standard input "
				       "(Ctrl-D ends it)\n"));
			return;
		}
	}
}

/* --check-rules says where the rules and texts came from: built in,
 * or which files. */
static void say_origins(const struct options *o)
{
	static const struct { const char *label, *rel; } data[] = {
		{ N_("rules"), "rules/plogtop.rules" },
		{ N_("messages"), "messages/en.txt" },
		{ N_("themes"), "themes" },
	};
	struct strbuf from = STRBUF_INIT;

	for (size_t i = 0; i < sizeof data / sizeof *data; i++) {
		sb_reset(&from);
		datadir_origin(data[i].rel, &from);
		printf("plogtop: %s: %s\n", _(data[i].label), from.buf);
	}
	for (size_t i = 0; i < o->nrules; i++) {
		sb_reset(&from);
		sanitize(&from, o->rules[i], strlen(o->rules[i]));
		printf(_("plogtop: rules added: %s\n"), from.buf);
	}
	sb_free(&from);
}

/* An older data directory beside a newer binary: said once. */
static void say_datadir(void)
{
	struct strbuf note = STRBUF_INIT;

	if (datadir_note(&note))
		msglog_add_clean(NULL, note.buf);	/* sanitised */
	sb_free(&note);
}

enum mode { MODE_CHECK_RULES, MODE_FOLLOW, MODE_DASHBOARD, MODE_ONCE };

static enum mode choose_mode(const struct options *o)
{
	if (o->check_rules)
		return MODE_CHECK_RULES;
	if (o->follow)
		return MODE_FOLLOW;
	return wants_dashboard(o) ? MODE_DASHBOARD : MODE_ONCE;
}

static int run(const struct options *o, struct ruleset *rs,
	       const struct catalog *cat)
{
	size_t n;

	if (o->from_prometheus)
		return wants_dashboard(o) ? run_cluster_dashboard(o, cat)
					  : run_cluster_once(o, cat);
	switch (choose_mode(o)) {
	case MODE_CHECK_RULES:
		say_origins(o);
		n = ruleset_count(rs);
		printf(ngettext("plogtop: %zu rule and its samples are good\n",
				"plogtop: %zu rules and their samples are good\n",
				n), n);
		return EXIT_CLEAN;
	case MODE_FOLLOW:
		say_locale();
		say_reading_stdin(o);
		return run_follow(o, rs, cat);
	case MODE_DASHBOARD:
		return run_dashboard(o, rs, cat);
	case MODE_ONCE:
		if (o->listen)
			return listen_needs_watching();
		if (o->exec_cmd)
			return exec_needs_watching();
		break;
	}
	if (check_default_root(o) < 0)
		return EXIT_TROUBLE;
	say_locale();
	say_reading_stdin(o);
	return run_once(o, rs, cat, NULL);
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
	say_datadir();
	struct ruleset *rs = load_rules(&o);
	struct catalog *cat = rs ? load_catalog() : NULL;
	if (!rs || !cat || check_theme(&o) < 0)
		status = EXIT_TROUBLE;
	else
		status = run(&o, rs, cat);
	catalog_free(cat);
	ruleset_free(rs);
	options_free(&o);
	return status;
}
