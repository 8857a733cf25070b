/* The dashboard's side of the live loop: drawing, keys, the theme
 * switched with t (remembered for the login session), $PAGER for o, and
 * starting and leaving the terminal. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "i18n.h"
#include "live_int.h"
#include "locale_note.h"
#include "sanitize.h"

static void dash_status_of(struct live *lv, struct dash_status *st)
{
	memset(st, 0, sizeof *st);
	st->roots = sb_str(&lv->roots);
	/* Only hosts: read over ssh, not by this host's watches. */
	st->how = lv->m.nroots || !lv->o->nhostpaths ? follower_how(lv->fw)
						     : "ssh";
	st->since = lv->o->since_arg;
	st->demo = lv->demo != NULL;
	st->files = follower_files(lv->fw);
	st->reading_history = follower_reading_history(lv->fw);
	follower_history_progress(lv->fw, &st->hist_files,
				  &st->hist_files_total, &st->hist_bytes,
				  &st->hist_bytes_total);
}

void live_draw(struct live *lv, unsigned long long now)
{
	struct dash_status st;

	dash_status_of(lv, &st);
	dash_draw(lv->dash, &st);
	lv->drawn_at = now;
}

/* The theme chosen with t is remembered for the login session (a file
 * in $XDG_RUNTIME_DIR, which logout removes): the next plogtop starts
 * with it unless --theme or PLOGTOP_THEME says otherwise. */
static void session_theme_path(struct strbuf *sb)
{
	const char *dir = getenv("XDG_RUNTIME_DIR");

	if (dir && *dir == '/')
		sb_addf(sb, "%s/plogtop-theme", dir);
}

static void remember_theme(struct live *lv)
{
	struct strbuf path = STRBUF_INIT;

	session_theme_path(&path);
	if (path.len) {
		FILE *f = fopen(path.buf, "w");
		if (!f || fprintf(f, "%s\n", lv->theme.name) < 0 ||
		    fclose(f) != 0) {
			struct strbuf msg = STRBUF_INIT;
			sb_addf(&msg, _("%s: %s (the theme is not remembered)"),
				path.buf, strerror(errno));
			msglog_add(&lv->log, msg.buf);
			sb_free(&msg);
			if (f)
				fclose(f);
		}
	}
	sb_free(&path);
}

static void next_theme(struct live *lv)
{
	struct strbuf err = STRBUF_INIT, msg = STRBUF_INIT;

	/* Only themes readable on the terminal's background. */
	int i = theme_next(lv->theme_index, lv->bg, &lv->theme, &err);
	if (i < 0) {
		msglog_add(&lv->log, err.buf);
	} else {
		lv->theme_index = i;
		remember_theme(lv);
	}
	tui_theme(&lv->tui, &lv->theme, &lv->mono);
	sb_addf(&msg, "theme: %s%s", lv->theme.name,
		lv->tui.colours ? "" : _(" (monochrome terminal)"));
	msglog_note(&lv->log, msg.buf);
	sb_free(&msg);
	sb_free(&err);
}

/* $PAGER at the incident's line, started with an argument vector: the
 * file name is data, never shell text. */
static void open_pager(struct live *lv)
{
	const char *file = dash_pager_file(lv->dash);
	const char *pager = getenv("PAGER");
	char line[32], *copy, *argv[16];
	int argc = 0, fds[2];
	struct strbuf msg = STRBUF_INIT;

	if (!file)
		return;
	/* A file rotated away: said on the screen, until the next key. */
	if (access(file, R_OK) < 0) {
		sb_addf(&msg, _("cannot open %s: %s (rotated away?)"), file,
			strerror(errno));
		msglog_note(&lv->log, msg.buf);
		sb_free(&msg);
		return;
	}
	copy = strdup(pager && *pager ? pager : "less");
	if (!copy)
		return;
	for (char *save = NULL, *tok = strtok_r(copy, " \t", &save);
	     tok && argc < 13; tok = strtok_r(NULL, " \t", &save))
		argv[argc++] = tok;
	if (!argc)
		argv[argc++] = "less";
	snprintf(line, sizeof line, "+%lu", dash_pager_line(lv->dash));
	argv[argc++] = line;
	argv[argc++] = (char *)file;
	argv[argc] = NULL;
	/* The child tells exec's failure through a pipe closed on exec:
	 * nothing is written on the screen behind the dashboard's back. */
	if (pipe2(fds, O_CLOEXEC) < 0) {
		sb_addf(&msg, "pipe: %s", strerror(errno));
		msglog_note(&lv->log, msg.buf);
		sb_free(&msg);
		free(copy);
		return;
	}
	tui_suspend();
	pid_t pid = fork();
	if (pid == 0) {
		sigprocmask(SIG_SETMASK, &lv->old_mask, NULL);
		signal(SIGPIPE, SIG_DFL);
		execvp(argv[0], argv);
		int e = errno;
		ssize_t w = write(fds[1], &e, sizeof e);
		(void)w;
		_exit(127);
	}
	close(fds[1]);
	int e = 0, status = 0;
	if (pid > 0) {
		while (read(fds[0], &e, sizeof e) < 0 && errno == EINTR)
			;
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	} else {
		e = errno;
	}
	close(fds[0]);
	tui_resume();
	if (e)
		sb_addf(&msg, _("$PAGER (%s) cannot run: %s"), argv[0], strerror(e));
	else if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
		sb_addf(&msg, _("$PAGER (%s) failed with status %d"), argv[0],
			WEXITSTATUS(status));
	if (msg.len)
		msglog_note(&lv->log, msg.buf);
	sb_free(&msg);
	free(copy);
}

void live_keys(struct live *lv, unsigned long long now)
{
	int k, redraw = 0;

	while ((k = tui_key(&lv->tui)) >= 0) {
		switch (dash_key(lv->dash, k)) {
		case DASH_QUIT:
			lv->stop = 1;
			return;
		case DASH_PAGER:
			open_pager(lv);
			redraw = 1;
			break;
		case DASH_THEME:
			next_theme(lv);
			redraw = 1;
			break;
		case DASH_REDRAW:
			redraw = 1;
			break;
		case DASH_NONE:
			break;
		}
	}
	if (redraw)
		live_draw(lv, now);
}

int live_draw_timeout(const struct live *lv, unsigned long long now)
{
	if (!lv->dashboard)
		return -1;
	unsigned long long due = lv->drawn_at + lv->o->interval_ms;
	return due <= now ? 0 : (int)(due - now);
}

/* The theme at start: --theme, else PLOGTOP_THEME, else the one chosen
 * with t earlier in this login session, else the default. */
static const char *start_theme(const struct live *lv, struct strbuf *mem)
{
	const char *env = getenv("PLOGTOP_THEME");
	struct strbuf path = STRBUF_INIT;

	if (lv->o->theme)
		return lv->o->theme;
	if (env && *env)
		return env;
	session_theme_path(&path);
	FILE *f = path.len ? fopen(path.buf, "r") : NULL;
	sb_free(&path);
	if (f) {
		char name[64];
		if (fgets(name, sizeof name, f)) {
			name[strcspn(name, "\n")] = '\0';
			for (int i = 0; i < THEME_COUNT; i++)
				if (strcmp(name, theme_names[i]) == 0)
					sb_adds(mem, name);
		}
		fclose(f);
	}
	return mem->len ? mem->buf : "default";
}

int live_start_dashboard(struct live *lv, struct strbuf *err)
{
	struct strbuf mem = STRBUF_INIT;
	const char *name = start_theme(lv, &mem);
	int rc = -1;

	if (theme_load(name, &lv->theme, err) < 0) {
		/* A bad PLOGTOP_THEME names itself. */
		if (!lv->o->theme && getenv("PLOGTOP_THEME") &&
		    strcmp(name, getenv("PLOGTOP_THEME")) == 0)
			sb_adds(err, " (from PLOGTOP_THEME)");
		goto out;
	}
	if (theme_load("mono", &lv->mono, err) < 0)
		goto out;
	lv->theme_index = -1;
	for (int i = 0; i < THEME_COUNT; i++)
		if (strcmp(theme_names[i], lv->theme.name) == 0)
			lv->theme_index = i;
	lv->bg = theme_terminal_bg(&lv->theme);
	if (tui_start(&lv->tui, lv->o->want_colour, err) < 0)
		goto out;
	tui_theme(&lv->tui, &lv->theme, &lv->mono);
	lv->dash = dash_new(&lv->m, lv->cat, &lv->tui, &lv->log);
	/* From here until tui_stop, messages wait for the dashboard. */
	msglog_attach(&lv->log, 1);
	struct strbuf note = STRBUF_INIT;
	if (locale_unavailable(&note))
		msglog_add(&lv->log, note.buf);
	sb_free(&note);
	rc = 0;
out:
	sb_free(&mem);
	return rc;
}

/* Leaves the terminal: from now on messages go to stderr again. */
void live_stop_dashboard(struct live *lv)
{
	tui_stop(&lv->tui);
	msglog_attach(&lv->log, 0);
}
