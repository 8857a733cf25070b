/* The header: what is read and how, the clock, then every field (window,
 * counts, sort...) flowed over as many lines as the width needs, so
 * that none is cut off at 80 or 60 columns. */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "dash_ident.h"
#include "dash_int.h"
#include "sanitize.h"
#include "textfit.h"

#define MAX_FIELDS 16

static void title_line(struct dash *d)
{
	struct tui *t = d->tui;
	const struct dash_status *st = d->st;
	struct strbuf sb = STRBUF_INIT, right = STRBUF_INIT;
	char clock[16];
	time_t now = time(NULL);
	struct tm tm;

	localtime_r(&now, &tm);
	strftime(clock, sizeof clock, "%H:%M:%S", &tm);
	sb_addf(&right, "%s%s%s ", d->paused ? _(L_PAUSED) : "",
		d->paused ? "  " : "", clock);
	tui_clear_line(t, 0, TI_HEADER);
	sb_addf(&sb, " %s %s  ", _(L_TITLE), PACKAGE_VERSION);
	if (st->demo)
		sb_addf(&sb, "%s  ", _(L_DEMO));
	/* The roots take what is left, shortened in the middle. */
	int room = t->cols - (int)text_width(sb.buf) -
		   (int)text_width(right.buf) - (int)strlen(st->how) - 4;
	if (room > 0 && !st->demo) {
		struct strbuf roots = STRBUF_INIT;
		tui_clean(d->tui, &roots, st->roots);
		path_fit(&sb, roots.buf ? roots.buf : "", (size_t)room,
			 t->utf8 ? "\u2026" : "...");
		sb_free(&roots);
	}
	/* One space before how, whatever came before it. */
	while (sb.len && sb.buf[sb.len - 1] == ' ')
		sb.buf[--sb.len] = '\0';
	sb_addf(&sb, " (%s)", st->how);
	tui_text(t, 0, 0, t->cols - (int)text_width(right.buf), sb.buf,
		 TI_HEADER, 0);
	tui_text(t, 0, t->cols - (int)text_width(right.buf),
		 (int)text_width(right.buf), right.buf, TI_HEADER, 0);
	sb_free(&sb);
	sb_free(&right);
}

/* The hosts' fields: how many are up, the first one down. */
static size_t host_fields(struct dash *d, struct strbuf *f)
{
	struct model *m = d->m;
	size_t n = 0, down = model_hosts_in(m, HOST_DOWN);

	if (!model_has_hosts(m))
		return 0;
	sb_addf(&f[n++], _(L_HOSTS_UP), model_hosts_in(m, HOST_UP),
		m->nhosts);
	/* The first host down by name: which one, without opening H. */
	for (size_t i = 0; i < m->nhosts && down; i++) {
		if (m->hosts[i]->state != HOST_DOWN)
			continue;
		struct strbuf c = STRBUF_INIT;
		tui_clean(d->tui, &c, m->hosts[i]->name);
		if (down > 1)
			sb_addf(&f[n++], _(L_HOSTS_DOWN_MORE), sb_str(&c),
				down - 1);
		else
			sb_addf(&f[n++], _(L_HOSTS_DOWN), sb_str(&c));
		sb_free(&c);
		break;
	}
	return n;
}

/* Files followed here and by the hosts that are up (their cursor lines
 * say it): with only HOST:PATH roots, the hosts' files.  A host a path
 * named was read here: its files are already among this machine's. */
static size_t files_read(const struct dash *d)
{
	const struct model *m = d->m;
	size_t n = d->st->files;

	for (size_t i = 0; i < m->nhosts; i++)
		if (m->hosts[i]->state == HOST_UP && !m->hosts[i]->origin)
			n += m->hosts[i]->files;
	return n;
}

/* Processes with a leak finding, whether or not they failed (the
 * device view, d, names them). */
static size_t leak_count(const struct model *m)
{
	const struct ident *const *v;
	size_t n = model_idents(m, &v), leaks = 0;

	for (size_t i = 0; i < n; i++)
		leaks += ident_leaks(v[i]) != 0;
	return leaks;
}

/* The fields of the status lines, most important first. */
static size_t fields(struct dash *d, struct strbuf *f)
{
	const struct dash_status *st = d->st;
	logtime_t now = logtime_now();
	size_t n = 0;

	if (d->paused)
		sb_addf(&f[n++], _(L_FROZEN), d->paused_clock);
	if (d->filter[0]) {
		struct strbuf c = STRBUF_INIT;
		tui_clean(d->tui, &c, d->filter);
		sb_addf(&f[n++], _(L_FILTER), sb_str(&c));
		sb_free(&c);
	}
	if (d->dev_only) {	/* Enter in the device view (d goes back) */
		struct strbuf c = STRBUF_INIT;
		sb_addf(&f[n], _(L_DEV_ONLY), d->dev_id);
		if (d->dev_host) {
			tui_clean(d->tui, &c, d->dev_host->name);
			sb_addf(&f[n], " (%s)", sb_str(&c));
		}
		n++;
		sb_free(&c);
	}
	sb_addf(&f[n++], _(L_WINDOW), _(window_names[d->win]));
	if (st->since) {
		struct strbuf c = STRBUF_INIT;
		tui_clean(d->tui, &c, st->since);
		sb_addf(&f[n++], _(L_SINCE), sb_str(&c));
		sb_free(&c);
	}
	sb_addf(&f[n++], _(L_INCIDENTS),
		model_count_window(d->m, 60LL * 1000000, now),
		model_count_window(d->m, 3600LL * 1000000, now), d->m->n);
	n += host_fields(d, f + n);
	sb_addf(&f[n++], _(L_PROCESSES), d->m->nprocs);
	size_t leaks = leak_count(d->m);
	if (leaks)
		sb_addf(&f[n++], _(L_LEAKS), leaks);
	if (!st->cluster)
		sb_addf(&f[n++], _(L_FILES), files_read(d));
	/* What was found and not read is never silent (see the report's
	 * Skipped: list, or --once). */
	if (d->m->nskipped)
		sb_addf(&f[n++], _(L_SKIPPED), d->m->nskipped);
	/* Copies of incidents not counted again (model_dedupe.c). */
	if (d->m->duplicates_total)
		sb_addf(&f[n++], _(L_COPIES), d->m->duplicates_total);
	if (d->rate_known && !st->cluster)
		sb_addf(&f[n++], _(L_LINES_S), d->lines_per_s);
	sb_addf(&f[n], _(L_SORT), _(sort_names[d->sort]));
	if (d->reverse)
		sb_adds(&f[n], _(L_REV));
	n++;
	return n;
}

int draw_header(struct dash *d)
{
	struct tui *t = d->tui;
	struct strbuf f[MAX_FIELDS], line = STRBUF_INIT;
	int y = 1;

	title_line(d);
	for (int i = 0; i < MAX_FIELDS; i++)
		f[i] = (struct strbuf)STRBUF_INIT;
	size_t n = fields(d, f);
	/* Fields flow: a field is never split, a line holds what fits. */
	for (size_t i = 0; i < n; i++) {
		size_t w = text_width(sb_str(&f[i]));
		if (line.len && text_width(line.buf) + 2 + w > (size_t)t->cols) {
			tui_text(t, y++, 0, t->cols, line.buf, TI_STATUS, 1);
			sb_reset(&line);
		}
		sb_adds(&line, line.len ? "  " : " ");
		sb_adds(&line, sb_str(&f[i]));
	}
	if (line.len)
		tui_text(t, y++, 0, t->cols, line.buf, TI_STATUS, 1);
	for (int i = 0; i < MAX_FIELDS; i++)
		sb_free(&f[i]);
	sb_free(&line);
	return y;
}
