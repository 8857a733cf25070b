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
	memset(l, 0, sizeof *l);
}

void msglog_attach(struct msglog *l, int attached)
{
	l->attached = attached;
}

const struct msg *msglog_get(const struct msglog *l, size_t i)
{
	return i < l->n ? &l->items[(l->first + i) % MSGLOG_KEEP] : NULL;
}

void msglog_add(struct msglog *l, const char *text)
{
	struct strbuf clean = STRBUF_INIT;

	clean_for(&clean, text, strlen(text),
		  l->ascii ? CLEAN_ASCII : CLEAN_UTF8);
	const char *s = sb_str(&clean);
	l->total++;
	if (!l->attached) {
		fprintf(stderr, "plogtop: %s\n", s);
	} else if (l->n && strcmp(l->items[(l->first + l->n - 1) %
					   MSGLOG_KEEP].text, s) == 0) {
		/* A message repeated (a directory failing every poll) is
		 * one line with a count, not a flood. */
		struct msg *m = &l->items[(l->first + l->n - 1) % MSGLOG_KEEP];
		m->repeats++;
		m->when = time(NULL);
	} else {
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
	sb_free(&clean);
}

void msglog_flush(struct msglog *l)
{
	for (size_t i = 0; i < l->n; i++)
		fprintf(stderr, "plogtop: %s\n", msglog_get(l, i)->text);
}
