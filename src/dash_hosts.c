/* The dashboard's hosts (issue 11): the header's "hosts 2/3 up", the
 * table grouped by host (v: one row per host with its state and counts,
 * to see at a glance which host is failing) with the selected host's
 * status below it, and the hosts view (H: every host's state, since
 * when, why it is down, connections tried, counts).  Counts of "all"
 * come from the model's hosts, which are never folded; a shorter window
 * sums the host's processes' per-minute counts. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dash_int.h"
#include "sanitize.h"
#include "textfit.h"
#include "xalloc.h"

#define HOST_W_MAX 16

/* TRANSLATORS: a host's connection: started, streaming, down, read. */
static const char *const state_label[HOST_STATE_COUNT] = {
	N_("connecting"), N_("up"), N_("down"), N_("done"),
};

int sort_shown(const struct dash *d, int k)
{
	return k != S_HOST || model_has_hosts(d->m);
}

const char *host_label(const struct model_host *h)
{
	return h ? h->name : tr(L_HOST_LOCAL);
}

/* ---- the header ---- */

size_t host_fields(struct dash *d, struct strbuf *f)
{
	struct model *m = d->m;
	size_t n = 0, down = model_hosts_in(m, HOST_DOWN);

	if (!model_has_hosts(m))
		return 0;
	sb_addf(&f[n++], tr(L_HOSTS_UP), model_hosts_in(m, HOST_UP),
		m->nhosts);
	/* The first host down by name: which one, without opening H. */
	for (size_t i = 0; i < m->nhosts && down; i++) {
		if (m->hosts[i]->state != HOST_DOWN)
			continue;
		struct strbuf c = STRBUF_INIT;
		clean_text(d, &c, m->hosts[i]->name);
		if (down > 1)
			sb_addf(&f[n++], tr(L_HOSTS_DOWN_MORE), sb_str(&c),
				down - 1);
		else
			sb_addf(&f[n++], tr(L_HOSTS_DOWN), sb_str(&c));
		sb_free(&c);
		break;
	}
	return n;
}

/* ---- rows ---- */

static int state_rank(const struct host_row *r)
{
	static const int rank[HOST_STATE_COUNT] = { 1, 2, 0, 3 };

	return r->h ? rank[r->h->state] : HOST_STATE_COUNT;
}

static int hrow_cmp_key(const struct host_row *a, const struct host_row *b,
			enum sortkey k)
{
	switch (k) {
	case S_TOTAL:
		return (b->total > a->total) - (b->total < a->total);
	case S_LAST:
		return (b->last_at > a->last_at) - (b->last_at < a->last_at);
	case S_HOST: case S_NAME:
		return strcmp(host_label(a->h), host_label(b->h));
	case S_ALIVE:	/* down first */
		return state_rank(a) - state_rank(b);
	case S_PID:
		return 0;
	default: {
		int c = (int)k - S_COL0;
		return (b->col[c] > a->col[c]) - (b->col[c] < a->col[c]);
	}
	}
}

static size_t row_index(const struct host_row *r, const struct model *m)
{
	return r->h ? r->h->index : m->nhosts;
}

static int hrow_cmp(const void *x, const void *y, void *ctx)
{
	const struct host_row *a = x, *b = y;
	const struct dash *d = ctx;
	int c = hrow_cmp_key(a, b, d->sort);

	if (d->reverse)
		c = -c;
	/* Then in the order the hosts were named. */
	if (!c)
		c = (row_index(a, d->m) > row_index(b, d->m)) -
		    (row_index(a, d->m) < row_index(b, d->m));
	return c;
}

static void add_process(struct dash *d, struct host_row *r,
			struct process *p, long long span, logtime_t now)
{
	unsigned trend[TREND_MINUTES];

	r->nprocs++;
	model_trend(p, now, trend, TREND_MINUTES);
	for (int i = 0; i < TREND_MINUTES; i++)
		r->trend[i] += trend[i];
	/* A host's "all" is its own count (folded processes included). */
	if (span || !r->h) {
		size_t by_res[RES_COUNT];
		r->total += model_window(d->m, p, span, now, by_res);
		for (int c = 0; c < NRES; c++)
			r->col[c] += by_res[res_columns[c]];
	}
	if (!r->h && p->last > r->last)
		r->last = p->last;
	if (!r->h && p->last_at > r->last_at)
		r->last_at = p->last_at;
}

/* Every host's row in the order named, then the local input's (at
 * rows[m->nhosts]); returns the rows there are: the local one only when
 * there is local input. */
static size_t fill_host_rows(struct dash *d, struct host_row *rows)
{
	struct model *m = d->m;
	long long span = window_usec[d->win];
	logtime_t now = logtime_now();
	int has_local = m->nroots > 0;

	memset(rows, 0, (m->nhosts + 1) * sizeof *rows);
	for (size_t i = 0; i < m->nhosts; i++) {
		struct host_row *r = &rows[i];
		r->h = m->hosts[i];
		r->last = r->h->last;
		r->last_at = r->h->last_at;
		if (!span) {
			r->total = r->h->n;
			for (int c = 0; c < NRES; c++)
				r->col[c] = r->h->by_resource[res_columns[c]];
		}
	}
	for (size_t i = 0; i < m->nprocs; i++) {
		struct process *p = m->procs[i];
		has_local |= !p->host;
		add_process(d, &rows[p->host ? p->host->index : m->nhosts], p,
			    span, now);
	}
	return m->nhosts + (has_local ? 1 : 0);
}

void dash_build_host_rows(struct dash *d)
{
	const struct model_host *keep = NULL;
	int keep_any = d->hsel < d->nhrows;

	if (keep_any)
		keep = d->hrows[d->hsel].h;
	d->hrows = xrealloc(d->hrows, (d->m->nhosts + 1) * sizeof *d->hrows);
	size_t all = fill_host_rows(d, d->hrows);
	/* The filter keeps the hosts whose name has it. */
	size_t n = 0;
	for (size_t i = 0; i < all; i++) {
		if (d->filter[0] && !strstr(host_label(d->hrows[i].h), d->filter))
			continue;
		d->hrows[n++] = d->hrows[i];
	}
	d->nhrows = n;
	qsort_r(d->hrows, n, sizeof *d->hrows, hrow_cmp, d);
	/* The selection stays on its host. */
	for (size_t k = 0; k < n && keep_any; k++)
		if (d->hrows[k].h == keep)
			d->hsel = k;
	if (d->hsel >= n)
		d->hsel = n ? n - 1 : 0;
}

/* ---- the table by host ---- */

enum hcol { H_HOST, H_STATE, H_PROCS, H_RES0, H_TOTAL = H_RES0 + NRES,
	    H_TREND, H_LAST, H_COUNT };

struct hlayout {
	int x[H_COUNT], w[H_COUNT];	/* w 0: not shown */
};

static int max_i(int a, int b)
{
	return a > b ? a : b;
}

static const char *hcol_head(int c)
{
	switch (c) {
	case H_HOST: return tr(columns[C_HOST].head);
	case H_STATE: return tr(L_STATE_HEAD);
	case H_PROCS: return tr(L_PROCS_HEAD);
	case H_TOTAL: return tr(columns[C_TOTAL].head);
	case H_TREND: return tr(columns[C_TREND].head);
	case H_LAST: return tr(columns[C_LAST].head);
	default: return tr(columns[C_RES0 + c - H_RES0].head);
	}
}

/* Widths as the process table's; TREND goes first when narrow, then
 * the resource columns, then PROCS. */
static void hlayout(const struct dash *d, struct hlayout *l)
{
	int need = -1, x = 0;

	for (int c = 0; c < H_COUNT; c++) {
		int w = (int)text_width(hcol_head(c));
		if (c == H_HOST) {
			for (size_t i = 0; i < d->nhrows; i++)
				w = max_i(w, (int)text_width(host_label(d->hrows[i].h)));
			w = w > HOST_W_MAX ? HOST_W_MAX : w;
		} else if (c == H_STATE) {
			for (int s = 0; s < HOST_STATE_COUNT; s++)
				w = max_i(w, (int)text_width(tr(state_label[s])));
		} else if (c == H_TREND) {
			w = max_i(w, TREND_MINUTES);
		} else if (c == H_LAST) {
			w = max_i(w, columns[C_LAST].width);
		} else {
			w = max_i(w, c == H_TOTAL ? 5 : 4);
		}
		l->w[c] = w;
		need += w + 1;
	}
	for (int c = H_TREND; need > d->tui->cols && c >= H_PROCS; c--) {
		if (c == H_TOTAL)
			continue;
		need -= l->w[c] + 1;
		l->w[c] = 0;
	}
	for (int c = 0; c < H_COUNT; c++) {
		l->x[c] = x;
		if (l->w[c])
			x += l->w[c] + 1;
	}
}

static void hcell(const struct dash *d, const struct hlayout *l, int y,
		  int c, const char *s, enum theme_item item)
{
	char buf[128];
	size_t sw = text_width(s);
	int right = c == H_PROCS || (c >= H_RES0 && c <= H_TOTAL);

	if (!l->w[c])
		return;
	if (right && sw < (size_t)l->w[c] && strlen(s) + (size_t)l->w[c] <
	    sizeof buf) {
		snprintf(buf, sizeof buf, "%*s%s", (int)((size_t)l->w[c] - sw),
			 "", s);
		s = buf;
	}
	tui_text(d->tui, y, l->x[c], l->w[c] + 1, s, item, 1);
}

static int hcol_sorted(const struct dash *d, int c)
{
	switch (c) {
	case H_HOST: return d->sort == S_HOST || d->sort == S_NAME;
	case H_STATE: return d->sort == S_ALIVE;
	case H_TOTAL: return d->sort == S_TOTAL;
	case H_LAST: return d->sort == S_LAST;
	case H_PROCS: case H_TREND: return 0;
	default: return (int)d->sort == S_COL0 + c - H_RES0;
	}
}

static void draw_host_row(struct dash *d, const struct hlayout *l, int y,
			  const struct host_row *r, int selected)
{
	enum theme_item base = selected ? TI_SELECTED
		: !r->h || r->h->state == HOST_UP || r->h->state == HOST_DONE
		? TI_ROW : r->h->state == HOST_DOWN ? TI_WARNING : TI_DEAD;
	struct strbuf sb = STRBUF_INIT;
	char last[24];

	for (int c = 0; c < H_COUNT; c++) {
		enum theme_item item = base;
		sb_reset(&sb);
		switch (c) {
		case H_HOST:
			clean_text(d, &sb, host_label(r->h));
			break;
		case H_STATE:
			sb_adds(&sb, r->h ? tr(state_label[r->h->state]) : "-");
			break;
		case H_PROCS:
			sb_addf(&sb, "%zu", r->nprocs);
			break;
		case H_TOTAL:
			sb_addf(&sb, "%zu", r->total);
			if (base == TI_ROW)
				item = TI_COUNT;
			break;
		case H_TREND:
			trend_text(d, r->trend, &sb);
			if (base == TI_ROW)
				item = TI_GRAPH;
			break;
		case H_LAST:
			day_time(last, sizeof last, r->last);
			sb_adds(&sb, last);
			break;
		default:
			sb_addf(&sb, "%zu", r->col[c - H_RES0]);
			if (base == TI_ROW)
				item = r->col[c - H_RES0] ? TI_COUNT : TI_ZERO;
		}
		hcell(d, l, y, c, sb_str(&sb), item);
	}
	sb_free(&sb);
}

void draw_host_table(struct dash *d, int y0, int height)
{
	struct hlayout l;
	int rows = height - 1;

	hlayout(d, &l);
	tui_clear_line(d->tui, y0, TI_TABLE_HEAD);
	for (int c = 0; c < H_COUNT; c++)
		hcell(d, &l, y0, c, hcol_head(c),
		      hcol_sorted(d, c) ? TI_SELECTED : TI_TABLE_HEAD);
	if (d->hsel < d->htop)
		d->htop = d->hsel;
	if (rows > 0 && d->hsel >= d->htop + (size_t)rows)
		d->htop = d->hsel - (size_t)rows + 1;
	for (int i = 0; i < rows && d->htop + (size_t)i < d->nhrows; i++)
		draw_host_row(d, &l, y0 + 1 + i, &d->hrows[d->htop + (size_t)i],
			      d->htop + (size_t)i == d->hsel);
	if (!d->nhrows)
		tui_text(d->tui, y0 + 1, 2, d->tui->cols - 2,
			 tr(L_NO_HOST_MATCH), TI_ROW, 0);
	d->table_y = y0;
	d->table_height = rows;
}

/* ---- a host's status, in words ---- */

/* "2m05s", "1h02m", "3d04h": how long a state has lasted. */
static void duration(struct strbuf *sb, unsigned long long ms)
{
	unsigned long long s = ms / 1000;

	if (s < 60)
		sb_addf(sb, "%llus", s);
	else if (s < 3600)
		sb_addf(sb, "%llum%02llus", s / 60, s % 60);
	else if (s < 86400)
		sb_addf(sb, "%lluh%02llum", s / 3600, s % 3600 / 60);
	else
		sb_addf(sb, "%llud%02lluh", s / 86400, s % 86400 / 3600);
}

/* The lines (each ending "\n") of a host's status; h NULL: the local
 * input. */
static void host_status(const struct dash *d, const struct host_row *r,
			struct strbuf *out)
{
	const struct model_host *h = r->h;
	unsigned long long now = d->m->clock_ms();
	char last[24];

	if (h) {
		unsigned long long ago = now > h->state_ms ? now - h->state_ms : 0;
		time_t at = time(NULL) - (time_t)(ago / 1000);
		struct tm tm;
		char clock[16];
		struct strbuf dur = STRBUF_INIT;
		localtime_r(&at, &tm);
		strftime(clock, sizeof clock, "%H:%M:%S", &tm);
		duration(&dur, ago);
		sb_addf(out, tr(L_HOST_SINCE), tr(state_label[h->state]), clock,
			sb_str(&dur), h->attempts);
		sb_addc(out, '\n');
		sb_free(&dur);
		if (h->state == HOST_DOWN && h->reason) {
			struct strbuf c = STRBUF_INIT;
			clean_text(d, &c, h->reason);
			sb_addf(out, tr(L_HOST_WHY), sb_str(&c));
			sb_addc(out, '\n');
			sb_free(&c);
		}
		if (h->state == HOST_DOWN && h->retry_ms > now) {
			sb_addf(out, tr(L_HOST_RETRY),
				(h->retry_ms - now + 999) / 1000);
			sb_addc(out, '\n');
		}
	} else {
		sb_addf(out, "%s\n", tr(L_HOST_LOCAL_DETAIL));
	}
	day_time(last, sizeof last, r->last);
	if (h)
		sb_addf(out, tr(L_HOST_COUNTS), h->n, h->by_code[CODE_EE1023],
			h->by_code[CODE_EE1001], h->nprocs, last);
	else
		sb_addf(out, tr(L_HOST_COUNTS), r->total, r->total - r->col[4]
			- r->col[5], r->col[4] + r->col[5], r->nprocs, last);
	sb_addc(out, '\n');
	if (h && h->files) {
		sb_addf(out, tr(L_HOST_READ), h->files, h->lines);
		sb_addc(out, '\n');
	}
	if (h && h->dropped) {
		sb_addf(out, tr(L_HOST_REFUSED), h->dropped);
		sb_addc(out, '\n');
	}
}

/* Lines of text wrapped to width, each indented; appended to lines. */
static void add_wrapped(struct strbuf *out, const char *text, size_t width,
			const char *indent)
{
	struct strbuf w = STRBUF_INIT;

	wrap_into(&w, text, width > strlen(indent) + 8
		  ? width - strlen(indent) : 8);
	for (const char *p = sb_str(&w), *nl; (nl = strchr(p, '\n'));
	     p = nl + 1) {
		sb_adds(out, indent);
		sb_add(out, p, (size_t)(nl - p));
		sb_addc(out, '\n');
	}
	sb_free(&w);
}

/* Below the table by host: the selected host's status. */
void draw_host_detail(struct dash *d, int y0, int height)
{
	struct tui *t = d->tui;
	struct strbuf status = STRBUF_INIT, text = STRBUF_INIT,
		      name = STRBUF_INIT;
	int y = y0 + 1;

	tui_rule(t, y0, 0, t->cols, TI_RAW);
	if (!d->nhrows || height < 2)
		return;
	const struct host_row *r = &d->hrows[d->hsel];
	clean_text(d, &name, host_label(r->h));
	sb_addf(&text, " %s ", sb_str(&name));
	tui_text(t, y0, 2, t->cols - 4, text.buf, TI_DETAIL_TITLE, 0);
	sb_reset(&text);
	host_status(d, r, &status);
	add_wrapped(&text, status.buf, (size_t)t->cols - 2, " ");
	for (const char *p = sb_str(&text), *nl; (nl = strchr(p, '\n')) &&
	     y < y0 + height; p = nl + 1) {
		char line[1024];
		snprintf(line, sizeof line, "%.*s", (int)(nl - p), p);
		tui_text(t, y++, 0, t->cols - 1, line, TI_FIX, 0);
	}
	sb_free(&status);
	sb_free(&text);
	sb_free(&name);
}

/* H: every host, in the order named, with its status. */
void draw_hosts_view(struct dash *d, int y0, int height)
{
	struct model *m = d->m;
	struct strbuf text = STRBUF_INIT, status = STRBUF_INIT;
	size_t width = d->tui->cols > 4 ? (size_t)d->tui->cols - 3 : 1;
	/* Every host, unfiltered, in the order named. */
	struct host_row *rows = xcalloc(m->nhosts + 1, sizeof *rows);
	size_t nrows = fill_host_rows(d, rows);

	sb_addf(&text, tr(L_HOSTS_TITLE), model_hosts_in(m, HOST_UP),
		m->nhosts);
	sb_addc(&text, '\n');
	for (size_t i = 0; i < nrows; i++) {
		struct strbuf name = STRBUF_INIT;
		clean_text(d, &name, host_label(rows[i].h));
		sb_addf(&text, "\n%s\n", sb_str(&name));
		sb_reset(&status);
		host_status(d, &rows[i], &status);
		add_wrapped(&text, status.buf, width, "    ");
		sb_free(&name);
	}
	free(rows);
	draw_text(d, y0 + 1, height - 1, &text);
	sb_free(&text);
	sb_free(&status);
}

/* ---- keys of the table by host ---- */

static void host_move(struct dash *d, long delta)
{
	long s = (long)d->hsel + delta;

	if (s >= (long)d->nhrows)
		s = (long)d->nhrows - 1;
	d->hsel = s < 0 ? 0 : (size_t)s;
}

/* Keys that mean something else in the table by host; DASH_NONE for
 * the others (the main table's). */
enum dash_action host_table_key(struct dash *d, int key)
{
	long page = d->table_height > 1 ? d->table_height - 1 : 1;
	struct tui_click ev;

	switch (key) {
	case TK_UP: case 'k': host_move(d, -1); break;
	case TK_DOWN: case 'j': host_move(d, 1); break;
	case TK_PPAGE: host_move(d, -page); break;
	case TK_NPAGE: host_move(d, page); break;
	case TK_HOME: case 'g': d->hsel = 0; break;
	case TK_END: case 'G': host_move(d, (long)d->nhrows); break;
	case '\t': case '\r': case '\n': case TK_ENTER:
		/* Into the host: its processes. */
		if (d->hsel < d->nhrows && d->hrows[d->hsel].h)
			snprintf(d->filter, sizeof d->filter, "%s",
				 d->hrows[d->hsel].h->name);
		d->by_host = 0;
		d->sel = d->top = 0;
		dash_build_rows(d);
		dash_remember_selection(d);
		break;
	case TK_MOUSE:
		if (tui_click(&ev) && ev.y > d->table_y &&
		    ev.y <= d->table_y + d->table_height &&
		    d->htop + (size_t)(ev.y - d->table_y - 1) < d->nhrows)
			d->hsel = d->htop + (size_t)(ev.y - d->table_y - 1);
		break;
	default:
		return DASH_NONE;
	}
	return DASH_REDRAW;
}
