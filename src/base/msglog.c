#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "msglog.h"
#include "sanitize.h"
#include "xalloc.h"

void msglog_init(struct msglog *l)
{
	memset(l, 0, sizeof *l);
	l->ascii = !locale_is_utf8();
}

void msglog_free(struct msglog *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->items[(l->first + i) % MSGLOG_KEEP].text);
	sb_free(&l->errors);
	memset(l, 0, sizeof *l);
}

/* The one writer of stderr.  A failed write has nowhere to be told. */
static void say(const char *s, size_t n)
{
	if (fwrite(s, 1, n, stderr) != n)
		clearerr(stderr);
}

static void say_line(const char *text)
{
	struct strbuf sb = STRBUF_INIT;

	sb_addf(&sb, "plogtop: %s\n", text);
	say(sb.buf, sb.len);
	sb_free(&sb);
}

void msglog_attach(struct msglog *l, int attached)
{
	l->attached = attached;
	if (!attached && l->errors.len) {
		say(l->errors.buf, l->errors.len);
		sb_reset(&l->errors);
	}
}

const struct msg *msglog_get(const struct msglog *l, size_t i)
{
	return i < l->n ? &l->items[(l->first + i) % MSGLOG_KEEP] : NULL;
}

/* Keeps s (clean) for the dashboard. */
static void keep(struct msglog *l, const char *s)
{
	struct msg *last = l->n ? &l->items[(l->first + l->n - 1) %
					    MSGLOG_KEEP] : NULL;

	if (last && strcmp(last->text, s) == 0) {
		/* A message repeated (a directory failing every poll) is
		 * one line with a count, not a flood. */
		last->repeats++;
		last->when = time(NULL);
		return;
	}
	if (l->n == MSGLOG_KEEP) {
		free(l->items[l->first].text);
		l->first = (l->first + 1) % MSGLOG_KEEP;
		l->n--;
	}
	struct msg *m = &l->items[(l->first + l->n) % MSGLOG_KEEP];
	m->when = time(NULL);
	m->text = xstrdup(s);
	m->repeats = 0;
	l->n++;
}

/* Every message comes here: cleaned for the log's charset (the
 * locale's when there is no log); text sanitised already (done) is only
 * fitted to it. */
static void add(struct msglog *l, const char *text, int done, int error)
{
	struct strbuf clean = STRBUF_INIT;
	enum clean_target to = !l ? CLEAN_LOCALE
			       : l->ascii ? CLEAN_ASCII : CLEAN_UTF8;

	clean_for(&clean, text, strlen(text), to | (done ? CLEAN_DONE : 0));
	const char *s = sb_str(&clean);
	if (!l || !l->attached) {
		say_line(s);
	} else {
		keep(l, s);
		if (error)
			sb_addf(&l->errors, "plogtop: %s\n", s);
	}
	if (l)
		l->total++;
	sb_free(&clean);
}

void msglog_add(struct msglog *l, const char *text)
{
	add(l, text, 0, 0);
}

void msglog_about(struct msglog *l, const char *who, const char *what)
{
	struct strbuf sb = STRBUF_INIT;

	sb_addf(&sb, "%s: %s", who, what);
	add(l, sb.buf, 0, 0);
	sb_free(&sb);
}

void msglog_add_clean(struct msglog *l, const char *text)
{
	add(l, text, 1, 0);
}

void msglog_error(struct msglog *l, const char *text)
{
	add(l, text, 0, 1);
}

void msglog_usage(const char *text)
{
	say(text, strlen(text));
}

void msglog_note(struct msglog *l, const char *text)
{
	struct strbuf clean = STRBUF_INIT;

	clean_for(&clean, text, strlen(text),
		  l->ascii ? CLEAN_ASCII : CLEAN_UTF8);
	snprintf(l->note, sizeof l->note, "%s", sb_str(&clean));
	sb_free(&clean);
}

void msglog_note_clear(struct msglog *l)
{
	l->note[0] = '\0';
}

const char *msglog_note_text(const struct msglog *l)
{
	return l->note;
}

void msglog_flush(struct msglog *l)
{
	for (size_t i = 0; i < l->n; i++)
		say_line(msglog_get(l, i)->text);
	sb_reset(&l->errors);
}
