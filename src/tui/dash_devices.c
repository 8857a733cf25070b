/* The device view (d): the table grouped by host and device, one row
 * per device the logs name (its processes, its incidents by resource, a
 * short note when it is shared by several jobs, has an orphan, or is one
 * logical id with no device map), over the column engine; below it the
 * selected device's processes (pid, name, rank, alive or gone, job), its
 * incidents by resource, its tenants from npu-smi and the call-outs in
 * words: the guide's "fewer processes per device" and "is another
 * process holding it", done for the user.  Enter keeps the process
 * table to the device's processes; d goes back. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dash_ident.h"
#include "ledger_text.h"
#include "dash_int.h"
#include "npusmi.h"
#include "sanitize.h"
#include "tui.h"
#include "xalloc.h"

#define HOST_W_MAX 16

enum dcol { D_HOST, D_DEV, D_NPU, D_PROCS, D_RES0, D_TOTAL = D_RES0 + NRES,
	    D_NOTE, D_COUNT };

_Static_assert(D_COUNT <= COLS_MAX, "COLS_MAX");

/* The heads as the process table's; the resource columns go first when
 * narrow, then PROCS; NOTE takes what is left. */
static void dev_specs(struct col_spec *spec)
{
	for (int c = 0; c < D_COUNT; c++) {
		const struct column *pc = c == D_HOST ? &columns[C_HOST]
			: c == D_DEV ? &columns[C_DEV]
			: c == D_TOTAL ? &columns[C_TOTAL]
			: c >= D_RES0 && c < D_TOTAL ? &columns[C_RES0 + c - D_RES0]
			: NULL;
		spec[c] = (struct col_spec){ pc ? pc->head : NULL,
			pc ? pc->width : 4, c != D_NOTE && c != D_HOST,
			c >= D_RES0 && c < D_TOTAL ? 2 : c == D_PROCS, 0 };
	}
	spec[D_NPU].head = L_NPU_HEAD;
	spec[D_NPU].width = 3;
	spec[D_PROCS].head = L_PROCS_HEAD;
	spec[D_NOTE].head = L_NOTE_HEAD;
	spec[D_NOTE].width = 4;
	spec[D_NOTE].grow = 60;
}

/* Whether a process on the device ended holding what it created, or
 * holds more span after span: the guide's first check, even for one
 * that never failed. */
static int dev_leaks(const struct device_row *r)
{
	for (size_t i = 0; i < r->nprocs; i++)
		if (ident_leaks(r->procs[i]))
			return 1;
	return 0;
}

/* The note of a device's row: what is wrong with who is on it. */
static const char *dev_note(const struct device_row *r)
{
	return r->orphan ? _(L_NOTE_ORPHAN)
	     : dev_leaks(r) ? _(L_NOTE_LEAK)
	     : r->jobs > 1 ? _(L_NOTE_JOBS)
	     : r->no_map ? _(L_NOTE_NO_MAP)
	     : r->nprocs > 1 && r->phys != IDENT_UNKNOWN ? _(L_NOTE_SHARED)
	     : "";
}

static void dev_layout(const struct dash *d, const struct col_spec *spec,
		       struct col_layout *l)
{
	int want[D_COUNT] = { 0 };

	want[D_HOST] = -1;
	if (model_has_hosts(d->m)) {
		want[D_HOST] = (int)text_width(_(spec[D_HOST].head));
		for (size_t i = 0; i < d->ndrows; i++) {
			int w = (int)text_width(host_label(d->drows[i].host));
			want[D_HOST] = w > want[D_HOST] ? w : want[D_HOST];
		}
		if (want[D_HOST] > HOST_W_MAX)
			want[D_HOST] = HOST_W_MAX;
	}
	cols_layout(l, spec, D_COUNT, want, d->tui->cols);
}

static void num_or_dash(struct strbuf *sb, long v)
{
	if (v != IDENT_UNKNOWN)
		sb_addf(sb, "%ld", v);
	else
		sb_adds(sb, "-");
}

static void draw_dev_row(struct dash *d, const struct col_spec *spec,
			 const struct col_layout *l, int y,
			 const struct device_row *r, int selected)
{
	enum theme_item base = selected ? TI_SELECTED
		: r->orphan || r->jobs > 1 || dev_leaks(r) ? TI_WARNING : TI_ROW;
	struct strbuf sb = STRBUF_INIT;

	for (int c = 0; c < D_COUNT; c++) {
		enum theme_item item = base;
		sb_reset(&sb);
		switch (c) {
		case D_HOST: tui_clean(d->tui, &sb, host_label(r->host)); break;
		case D_DEV: num_or_dash(&sb, r->device); break;
		case D_NPU: num_or_dash(&sb, r->phys); break;
		case D_PROCS: sb_addf(&sb, "%zu", r->nprocs); break;
		case D_TOTAL:
			sb_addf(&sb, "%zu", r->incidents);
			if (base == TI_ROW)
				item = TI_COUNT;
			break;
		case D_NOTE: sb_adds(&sb, dev_note(r)); break;
		default: {
			size_t v = r->by_resource[res_columns[c - D_RES0]];
			sb_addf(&sb, "%zu", v);
			if (base == TI_ROW)
				item = v ? TI_COUNT : TI_ZERO;
		}
		}
		cols_cell(d->tui, l, spec, y, c, sb_str(&sb), item);
	}
	sb_free(&sb);
}

static void draw_dev_table(struct dash *d, int y0, int height)
{
	struct col_spec spec[D_COUNT];
	struct col_layout l;
	int rows = height - 1;

	dev_specs(spec);
	dev_layout(d, spec, &l);
	cols_head(d->tui, &l, spec, y0, -1);
	cols_scroll(d->dsel, &d->dtop, rows);
	for (int i = 0; i < rows && d->dtop + (size_t)i < d->ndrows; i++)
		draw_dev_row(d, spec, &l, y0 + 1 + i,
			     &d->drows[d->dtop + (size_t)i],
			     d->dtop + (size_t)i == d->dsel);
	if (!d->ndrows)
		tui_text(d->tui, y0 + 1, 2, d->tui->cols - 2,
			 _(d->filter[0] ? L_NO_DEV_MATCH : L_NO_DEVICES),
			 TI_ROW, 0);
	d->table_y = y0;
	d->table_height = rows;
}

/* ---- a device in words ---- */

/* "  200104 python3, rank 3, gone, job train-a" */
static void proc_line(struct dash *d, const struct ident *id,
		      struct strbuf *out)
{
	struct strbuf sb = STRBUF_INIT;
	int alive = id->proc ? model_alive(d->m, id->proc) : id->alive;

	tui_clean(d->tui, &sb, *id->name ? id->name : "-");
	sb_addf(out, "  %ld %s, ", id->pid, sb_str(&sb));
	sb_reset(&sb);
	rank_text(id, &sb);
	sb_addf(out, "%s, %s", sb_str(&sb), _(alive ? L_DEV_ALIVE : L_DEV_GONE));
	if (id->job) {
		sb_reset(&sb);
		tui_clean(d->tui, &sb, id->job);
		sb_adds(out, ", ");
		sb_addf(out, _(L_ID_JOB), sb_str(&sb));
	}
	sb_addc(out, '\n');
	/* Its leak findings under it, in the views' words. */
	for (int l = 0; l < LEDGER_COUNT; l++) {
		if (ident_ledger(id, l)->leak == LEAK_NO)
			continue;
		sb_adds(out, "    ");
		leak_sentence(out, id, (enum ledger_res)l);
		sb_addc(out, '\n');
	}
	sb_free(&sb);
}

/* npu-smi's processes on the device's NPU (local, when its NPU is
 * known); what npu-smi did not say is said too. */
static void tenant_lines(struct dash *d, const struct device_row *r,
			 struct strbuf *out)
{
	const struct npu_table *t = d->m->idents.npu;
	struct strbuf sb = STRBUF_INIT;
	size_t n = 0;

	if (r->host)
		return;
	sb_addf(out, "%s\n", _(L_DEV_TENANTS));
	if (!t) {
		sb_addf(out, "%s\n", _(L_DEV_NO_SMI));
		return;
	}
	if (r->phys == IDENT_UNKNOWN) {
		sb_addf(out, "%s\n", _(L_DEV_SMI_NO_PHYS));
		return;
	}
	for (size_t i = 0; i < t->nprocs; i++) {
		if (t->procs[i].npu != r->phys)
			continue;
		sb_reset(&sb);
		tui_clean(d->tui, &sb, t->procs[i].name);
		sb_addf(out, "  %ld %s", t->procs[i].pid, sb_str(&sb));
		if (t->procs[i].mem_mb >= 0)
			sb_addf(out, ", %ld MB", t->procs[i].mem_mb);
		sb_addc(out, '\n');
		n++;
	}
	if (!n) {
		sb_addf(out, _(L_DEV_SMI_IDLE), r->phys);
		sb_addc(out, '\n');
	}
	sb_free(&sb);
}

/* The call-outs: several jobs on one device, an orphan, no map. */
static void callout_lines(const struct device_row *r, struct strbuf *out)
{
	if (r->jobs > 1) {
		sb_addf(out, _(L_CALL_JOBS), r->jobs, r->nprocs);
		sb_addc(out, '\n');
	}
	if (r->orphan && r->orphan_id) {
		orphan_sentence(out, r);
		sb_addc(out, '\n');
	}
	if (r->no_map) {
		sb_adds(out, _(L_CALL_NO_MAP));
		sb_addc(out, '\n');
	}
	if (r->nprocs > 1 && r->phys != IDENT_UNKNOWN && r->jobs <= 1) {
		sb_addf(out, _(L_CALL_SHARED), r->phys, r->nprocs,
			*phys_from_name(r->phys_from)
			? phys_from_name(r->phys_from) : "-");
		sb_addc(out, '\n');
	}
}

static void dev_lines(struct dash *d, const struct device_row *r,
		      struct strbuf *out)
{
	callout_lines(r, out);
	sb_addf(out, _(L_DEV_INCIDENTS), r->incidents, r->failing);
	for (int c = 0, first = 1; c < RES_COUNT; c++) {
		if (!r->by_resource[c])
			continue;
		sb_addf(out, "%s%s %zu", first ? ": " : ", ",
			resource_name((enum resource)c), r->by_resource[c]);
		first = 0;
	}
	sb_addc(out, '\n');
	sb_addf(out, "%s\n", _(L_DEV_PROCS));
	for (size_t i = 0; i < r->nprocs; i++)
		proc_line(d, r->procs[i], out);
	tenant_lines(d, r, out);
}

static void draw_dev_detail(struct dash *d, int y0, int height)
{
	struct tui *t = d->tui;
	struct strbuf text = STRBUF_INIT, title = STRBUF_INIT;

	tui_rule(t, y0, 0, t->cols, TI_RAW);
	if (!d->ndrows || height < 2)
		return;
	const struct device_row *r = &d->drows[d->dsel];
	struct strbuf host = STRBUF_INIT;
	tui_clean(t, &host, host_label(r->host));
	sb_adds(&title, " ");
	if (r->host)
		sb_addf(&title, _(L_DEV_TITLE), r->device, sb_str(&host));
	else
		sb_addf(&title, _(L_DEV_TITLE_LOCAL), r->device);
	sb_adds(&title, " ");
	tui_text(t, y0, 2, t->cols - 4, title.buf, TI_DETAIL_TITLE, 0);
	dev_lines(d, r, &text);
	struct strbuf w = STRBUF_INIT;
	wrap_into(&w, sb_str(&text), (size_t)t->cols - 3);
	draw_text(d, y0 + 1, height - 1, &w);
	sb_free(&w);
	sb_free(&host);
	sb_free(&text);
	sb_free(&title);
}

/* ---- keys ---- */

static void dev_move(struct dash *d, long delta)
{
	long s = (long)d->dsel + delta;

	if (s >= (long)d->ndrows)
		s = (long)d->ndrows - 1;
	d->dsel = s < 0 ? 0 : (size_t)s;
	d->view_top = 0;
}

/* Into the device: the process table keeps to its processes. */
static void dev_enter(struct dash *d)
{
	if (d->dsel < d->ndrows) {
		d->dev_only = 1;
		d->dev_host = d->drows[d->dsel].host;
		d->dev_id = d->drows[d->dsel].device;
	}
	d->by_dev = 0;
	d->sel = d->top = 0;
	free(d->sel_name);
	d->sel_name = NULL;
	dash_build_rows(d);
	dash_remember_selection(d);
}

static enum dash_action dev_table_key(struct dash *d, int key)
{
	long page = d->table_height > 1 ? d->table_height - 1 : 1;
	struct tui_click ev;

	switch (key) {
	case TK_UP: case 'k': dev_move(d, -1); break;
	case TK_DOWN: case 'j': dev_move(d, 1); break;
	case TK_PPAGE: dev_move(d, -page); break;
	case TK_NPAGE: dev_move(d, page); break;
	case TK_HOME: case 'g': dev_move(d, -(long)d->ndrows); break;
	case TK_END: case 'G': dev_move(d, (long)d->ndrows); break;
	case '\t': case '\r': case '\n': case TK_ENTER: dev_enter(d); break;
	case TK_MOUSE:
		if (tui_click(&ev) && ev.y > d->table_y &&
		    ev.y <= d->table_y + d->table_height &&
		    d->dtop + (size_t)(ev.y - d->table_y - 1) < d->ndrows)
			d->dsel = d->dtop + (size_t)(ev.y - d->table_y - 1);
		break;
	default:
		return DASH_NONE;
	}
	return DASH_REDRAW;
}

/* d: the device view, and back; from a table kept to one device, back
 * to the device view.  Without a device, a note says how to get one. */
void dev_view_toggle(struct dash *d)
{
	struct device_row *v;
	size_t n = model_devices(d->m, &v);

	model_devices_free(v, n);
	if (d->by_dev || d->dev_only) {
		int back = d->dev_only;
		d->dev_only = 0;
		d->by_dev = back;
	} else if (!n) {
		msglog_note(d->log, _(L_NO_DEVICES_NOTE));
		return;
	} else {
		d->by_dev = 1;
		d->dsel = d->dtop = 0;
	}
	/* Paused, the rows are not rebuilt after a key: these are. */
	if (d->by_dev)
		dash_build_dev_rows(d);
	d->by_host = 0;
	d->view_top = 0;
}

const struct panel dev_table_panel = { draw_dev_table, dev_table_key };
const struct panel dev_detail_panel = { draw_dev_detail, NULL };
