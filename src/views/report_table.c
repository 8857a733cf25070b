#include "config.h"

#include <stdio.h>
#include <string.h>

#include "i18n.h"
#include "report_table.h"
#include "sanitize.h"
#include "terminal.h"
#include "textfit.h"

#define BOLD(o) ((o)->color ? TERMINAL_BOLD : "")
#define RED(o) ((o)->color ? TERMINAL_RED : "")
#define DIM(o) ((o)->color ? TERMINAL_DIM : "")
#define OFF(o) ((o)->color ? TERMINAL_OFF : "")

#define NCOLUMNS NRES	/* the taxonomy's (taxonomy.h) */

/* Log content, sanitised, cut to width columns (padded to them when
 * pad). */
void put_fitted(struct strbuf *sb, const char *s, size_t width, int pad)
{
	struct strbuf clean = STRBUF_INIT;

	sanitize(&clean, s, strlen(s));
	size_t n = text_fit(sb_str(&clean), width);
	sb_add(sb, sb_str(&clean), n);
	if (pad) {
		clean.buf ? (void)(clean.buf[n] = '\0') : (void)0;
		for (size_t w = text_width(sb_str(&clean)); w < width; w++)
			sb_addc(sb, ' ');
	}
	sb_free(&clean);
}

/* A translated text padded to width terminal cells (a label, a column
 * head): Chinese texts are two cells a character, not their bytes. */
void pad(struct strbuf *sb, const char *text, size_t width, int right)
{
	size_t w = text_width(text);

	if (!right)
		sb_adds(sb, text);
	for (; w < width; w++)
		sb_addc(sb, ' ');
	if (right)
		sb_adds(sb, text);
}

void short_time(char *buf, logtime_t t)
{
	char iso[LOGTIME_ISO_LEN];

	if (t == LOGTIME_UNKNOWN) {
		strcpy(buf, "-");
		return;
	}
	logtime_iso(t, iso);
	/* 2026-07-13T11:39:20.982549 -> 07-13 11:39 */
	snprintf(buf, 16, "%.5s %.5s", iso + 5, iso + 11);
}

/* The PID column: 7 wide, or the widest pid's width, so that a long pid
 * does not push the columns after it out of line. */
static size_t pid_width(const struct model *m)
{
	size_t w = 7;
	char buf[24];

	for (size_t i = 0; i < m->nprocs; i++) {
		int n = snprintf(buf, sizeof buf, "%ld", m->procs[i]->pid);
		if (n > 0 && (size_t)n > w)
			w = (size_t)n;
	}
	return w;
}

/* A host's name, sanitised, padded to width columns, or cut in the
 * middle when wider (node-0041 and node-0042 differ at their ends). */
static void host_fitted(struct strbuf *sb, const char *name, size_t width)
{
	struct strbuf clean = STRBUF_INIT;

	sanitize(&clean, name, strlen(name));
	size_t at = sb->len;
	host_fit(sb, sb_str(&clean), width, "~");
	for (size_t w = text_width(sb->buf + at); w < width; w++)
		sb_addc(sb, ' ');
	sb_free(&clean);
}

/* The HOST column: as wide as the widest host's name, from 4 (the
 * head) to 12. */
static size_t host_width(const struct model *m)
{
	size_t w = 4;

	for (size_t i = 0; i < m->nhosts && w < 12; i++) {
		struct strbuf clean = STRBUF_INIT;
		sanitize(&clean, m->hosts[i]->name, strlen(m->hosts[i]->name));
		size_t n = text_width(sb_str(&clean));
		if (n > w)
			w = n > 12 ? 12 : n;
		sb_free(&clean);
	}
	return w;
}

/* The process table's columns and widths (see the head of this file for
 * the order in which they shorten or drop). */
struct layout {
	size_t hostw, pidw, namew, devw, rankw;	/* 0: not shown */
	int first, time_only;
	int res[NCOLUMNS];	/* the resource column is shown */
};

static size_t layout_width(const struct layout *l)
{
	size_t w = (l->hostw ? l->hostw + 1 : 0) + l->pidw + 1 + l->namew +
		   (l->devw ? l->devw + 1 : 0) + (l->rankw ? l->rankw + 1 : 0) +
		   1 + 5 + 1 + (l->first ? 12 : 0) + (l->time_only ? 5 : 11);
	for (size_t c = 0; c < NCOLUMNS; c++)
		w += l->res[c] ? 5 : 0;
	return w;
}

static size_t num_width(long v, size_t w)
{
	char buf[24];
	int n = snprintf(buf, sizeof buf, "%ld", v);

	return n > 0 && (size_t)n > w ? (size_t)n : w;
}

static void layout_of(struct layout *l, const struct model *m,
		      const struct ident_map *im, size_t width)
{
	*l = (struct layout){ .pidw = pid_width(m), .namew = 12, .first = 1 };
	if (model_has_hosts(m))
		l->hostw = host_width(m);
	for (size_t c = 0; c < NCOLUMNS; c++)
		l->res[c] = 1;
	for (size_t i = 0; i < m->nprocs; i++) {
		const struct ident *id = ident_map_get(im, m->procs[i]);
		long d = view_ident_device(id), r = view_ident_rank(id);
		if (d >= 0)
			l->devw = num_width(d, text_width(_("DEV")));
		if (r >= 0)
			l->rankw = num_width(r, text_width(_("RANK")));
	}
	/* The order: FIRST, NAME, LAST's date, empty resources, and HOST
	 * last (node-0041 cut to node-004 names another node). */
	if (layout_width(l) > width)
		l->first = 0;
	if (layout_width(l) > width)
		l->namew = 8;
	if (layout_width(l) > width)
		l->time_only = 1;
	for (size_t c = 0; c < NCOLUMNS && layout_width(l) > width; c++) {
		int any = 0;
		for (size_t i = 0; i < m->nprocs && !any; i++)
			any = process_by_resource(m->procs[i],
						  RES_COLUMN(c)) != 0;
		l->res[c] = any;
	}
	if (layout_width(l) > width && l->hostw > 8)
		l->hostw = 8;
}

static void table_head(struct strbuf *sb, const struct layout *l,
		       const struct report_opts *o)
{
	sb_addf(sb, "\n%s", BOLD(o));
	/* The heads are the dashboard's (one translation), padded in
	 * terminal cells. */
	if (l->hostw) {
		pad(sb, _("HOST"), l->hostw, 0);
		sb_addc(sb, ' ');
	}
	pad(sb, _("PID"), l->pidw, 0);
	sb_addc(sb, ' ');
	pad(sb, _("NAME"), l->namew, 0);
	if (l->devw) {
		sb_addc(sb, ' ');
		pad(sb, _("DEV"), l->devw, 1);
	}
	if (l->rankw) {
		sb_addc(sb, ' ');
		pad(sb, _("RANK"), l->rankw, 1);
	}
	sb_addc(sb, ' ');
	pad(sb, _("TOTAL"), 5, 1);
	for (size_t c = 0; c < NCOLUMNS; c++) {
		if (!l->res[c])
			continue;
		sb_addc(sb, ' ');
		pad(sb, _(resource_head(RES_COLUMN(c))), 4, 1);
	}
	sb_addc(sb, ' ');
	if (l->first) {
		pad(sb, _("FIRST"), 11, 0);
		sb_addc(sb, ' ');
	}
	sb_addf(sb, "%s%s\n", _("LAST"), OFF(o));
}

/* A number right-aligned in w columns, or "-" when negative. */
static void put_num(struct strbuf *sb, long v, size_t w)
{
	if (v >= 0)
		sb_addf(sb, " %*ld", (int)w, v);
	else
		sb_addf(sb, " %*s", (int)w, "-");
}

static void table_row(struct strbuf *sb, const struct process *p,
		      const struct ident *id, const struct layout *l,
		      const struct report_opts *o)
{
	char first[16], last[16];

	if (l->hostw) {
		host_fitted(sb, p->host ? p->host->name : "-", l->hostw);
		sb_addc(sb, ' ');
	}
	if (p->pid)
		sb_addf(sb, "%-*ld ", (int)l->pidw, p->pid);
	else
		sb_addf(sb, "%-*s ", (int)l->pidw, "-");
	put_fitted(sb, *p->name ? p->name : "-", l->namew, 1);
	if (l->devw)
		put_num(sb, view_ident_device(id), l->devw);
	if (l->rankw)
		put_num(sb, view_ident_rank(id), l->rankw);
	sb_addf(sb, " %s%5zu%s", RED(o), process_total(p), OFF(o));
	for (size_t c = 0; c < NCOLUMNS; c++) {
		size_t n = process_by_resource(p, RES_COLUMN(c));
		if (!l->res[c])
			continue;
		if (n)
			sb_addf(sb, " %4zu", n);
		else
			sb_addf(sb, " %s%4s%s", DIM(o), ".", OFF(o));
	}
	short_time(first, p->first);
	short_time(last, p->last);
	if (l->first)
		sb_addf(sb, " %-11s", first);
	/* "07-13 11:59" -> "11:59" */
	sb_addf(sb, " %s\n", l->time_only && strlen(last) > 6 ? last + 6
		: last);
}

void process_table(struct strbuf *sb, const struct model *m,
			  const struct ident_map *im,
			  const struct report_opts *o)
{
	struct layout l;
	int sep = 0;

	layout_of(&l, m, im, o->width > 0 ? (size_t)o->width : 80);
	table_head(sb, &l, o);
	for (size_t i = 0; i < m->nprocs; i++)
		table_row(sb, m->procs[i], ident_map_get(im, m->procs[i]), &l,
			  o);
	sb_adds(sb, DIM(o));
	for (size_t c = 0; c < NCOLUMNS; c++) {
		if (!l.res[c])
			continue;
		if (sep++)
			sb_addc(sb, ' ');
		sb_adds(sb, _(resource_legend(RES_COLUMN(c))));
	}
	sb_addf(sb, "%s\n", OFF(o));
}

