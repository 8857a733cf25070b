/* The --once text report: a header (what was read), the hosts, the
 * process table, "Devices:" and "Leaks:", then a section per class with
 * its example, its fix (what to change, then what to check, then why)
 * and the example's raw lines after the fix.
 *
 * The process table's columns: [HOST] PID NAME [DEV] [RANK] TOTAL, one
 * per resource, FIRST, LAST; HOST when hosts are read, DEV and RANK when
 * any process's is known ("-" for the others).  When the table is wider
 * than the report (80 columns), these shorten or drop, in this order,
 * each only while it is still too wide:
 *   1. FIRST drops;
 *   2. NAME shortens from 12 columns to 8;
 *   3. HOST shortens from 12 columns to 8;
 *   4. LAST shows the time only (11:59, not 07-13 11:59);
 *   5. resource columns that no process has drop (and their legend).
 * PID, DEV, RANK and TOTAL never shorten: a pid is shown whole (a wider
 * one makes the table wider).  With HOST, DEV and RANK and pids of up to
 * 7 digits the table holds in 80 columns after step 4.  (plogtop(1),
 * OUTPUT, says the same.) */
#include "config.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "i18n.h"
#include "report.h"
#include "report_devices.h"
#include "report_table.h"
#include "ledger_text.h"
#include "sanitize.h"
#include "terminal.h"
#include "textfit.h"
#include "xalloc.h"

#define BOLD(o) ((o)->color ? TERMINAL_BOLD : "")
#define RED(o) ((o)->color ? TERMINAL_RED : "")
#define DIM(o) ((o)->color ? TERMINAL_DIM : "")
#define OFF(o) ((o)->color ? TERMINAL_OFF : "")

/* A path, sanitised, to fit width columns: shortened in the middle, so
 * that the file name at its end stays (ASCII dots: the report may go to
 * a terminal of any locale). */
static void put_path(struct strbuf *sb, const char *s, size_t width)
{
	struct strbuf clean = STRBUF_INIT;

	sanitize(&clean, s, strlen(s));
	path_fit(sb, sb_str(&clean), width, "...");
	sb_free(&clean);
}

/* Paths with why each one was not read: at most ten, the rest counted
 * (JSON lists them).  A reason that does not fit beside its path goes on
 * the next line. */
static void path_list(struct strbuf *sb, const char *label, size_t total,
		      size_t listed, const void *items, size_t size,
		      size_t why_off)
{
	const size_t shown = listed < 10 ? listed : 10;
	const size_t room = 80 - 9;

	for (size_t i = 0; i < shown; i++) {
		const char *item = (const char *)items + i * size;
		const char *path = *(char *const *)item;
		const char *why = *(char *const *)(item + why_off);
		struct strbuf w = STRBUF_INIT;
		/* Reasons are English in JSON; here, the reader's language. */
		why = _(why);
		sanitize(&w, why, strlen(why));
		pad(sb, i ? "" : _(label), 8, 0);
		sb_addc(sb, ' ');
		if (text_width(sb_str(&w)) + 2 + 24 <= room) {
			put_path(sb, path, room - 2 - text_width(sb_str(&w)));
			sb_adds(sb, ": ");
		} else {
			put_path(sb, path, room - 1);
			sb_adds(sb, ":\n           ");
		}
		sb_add(sb, sb_str(&w), text_fit(sb_str(&w), room - 2));
		sb_addc(sb, '\n');
		sb_free(&w);
	}
	if (total > shown)
		sb_addf(sb, total > listed
			? _("         and %zu more (the first 100 in "
			    "--format=json)\n")
			: _("         and %zu more (all in --format=json)\n"),
			total - shown);
}

/* The copies not counted: the first few, each with the one counted. */
static void copies_list(struct strbuf *sb, const struct model *m)
{
	const size_t shown = m->nduplicates < 3 ? m->nduplicates : 3;

	if (!m->duplicates_total)
		return;
	pad(sb, _("Copies:"), 8, 0);
	sb_addf(sb, ngettext(" %zu incident read again from a copy of its "
			     "file was not counted\n",
			     " %zu incidents read again from copies of their "
			     "files were not counted\n",
			     m->duplicates_total), m->duplicates_total);
	for (size_t i = 0; i < shown; i++) {
		const struct duplicate *d = &m->duplicates[i];
		sb_adds(sb, "         ");
		put_path(sb, d->file, 60);
		sb_addf(sb, ":%lu\n           %s ", d->line, _("the same chain as"));
		put_path(sb, d->kept_file, 50);
		sb_addf(sb, ":%lu\n", d->kept_line);
	}
	if (m->duplicates_total > shown)
		sb_addf(sb, m->duplicates_total > m->nduplicates
			? _("         and %zu more (the first 100 in "
			    "--format=json)\n")
			: _("         and %zu more (all in --format=json)\n"),
			m->duplicates_total - shown);
}

/* What was read: files and lines, or a cluster's Prometheus server
 * (as the caller shows it: never with a password). */
static void read_line(struct strbuf *sb, const struct model *m,
		      const struct report_opts *o)
{
	pad(sb, _("Read:"), 8, 0);
	if (o->prometheus) {
		sb_adds(sb, "Prometheus ");
		put_fitted(sb, o->prometheus, 50, 0);
		sb_addf(sb, _(" in %.2f s\n"), m->stats.seconds);
		return;
	}
	sb_addf(sb, ngettext("%zu file, ", "%zu files, ", m->stats.files),
		m->stats.files);
	sb_addf(sb, ngettext("%zu line, ", "%zu lines, ", m->stats.lines),
		m->stats.lines);
	sb_addf(sb, _("%.1f MB in %.2f s\n"), (double)m->stats.bytes / 1e6,
		m->stats.seconds);
}

static void header(struct strbuf *sb, const struct model *m,
		   const struct report_opts *o)
{
	sb_addf(sb, "%splogtop %s%s: ", BOLD(o), o->version, OFF(o));
	if (m->n) {
		sb_adds(sb, RED(o));
		sb_addf(sb, ngettext("%zu incident", "%zu incidents", m->n),
			m->n);
		sb_adds(sb, OFF(o));
		sb_addf(sb, ngettext(" in %zu process\n",
				     " in %zu processes\n", m->nprocs),
			m->nprocs);
	} else if (!m->stats.files) {
		sb_addf(sb, "%s%s%s\n", RED(o), _("nothing was read"), OFF(o));
	} else {
		sb_addf(sb, "%s\n", _("no EE1023 or EE1001 incident"));
	}
	for (size_t i = 0; i < m->nroots; i++) {
		pad(sb, i ? "" : _("Roots:"), 8, 0);
		/* Shortened in the middle: HOST:/a/b and HOST:/a/c differ
		 * at their ends. */
		put_path(sb, m->roots[i], 50);
		size_t n = m->root_files[i];
		if (n)
			sb_addf(sb, ngettext(" (%zu file)\n", " (%zu files)\n",
					     n), n);
		else
			sb_addf(sb, " %s%s%s\n", RED(o), _("(nothing read)"),
				OFF(o));
	}
	read_line(sb, m, o);
	if (m->stats.match_limit_hits) {
		sb_adds(sb, RED(o));
		sb_addf(sb, ngettext("Limits: %lu rule match stopped at PCRE2's "
				     "match limit: a rule costs too much "
				     "(plogtop-rules(5))",
				     "Limits: %lu rule matches stopped at "
				     "PCRE2's match limit: a rule costs too "
				     "much (plogtop-rules(5))",
				     m->stats.match_limit_hits),
			m->stats.match_limit_hits);
		sb_addf(sb, "%s\n", OFF(o));
	}
	if (m->stats.unfinished_lines) {
		sb_adds(sb, RED(o));
		sb_addf(sb, ngettext("Limits: %zu line stayed unfinished for 30 s "
				     "(its writer stopped mid-line) and was taken "
				     "as it stood",
				     "Limits: %zu lines stayed unfinished for 30 s "
				     "(their writers stopped mid-line) and were "
				     "taken as they stood",
				     m->stats.unfinished_lines),
			m->stats.unfinished_lines);
		sb_addf(sb, "%s\n", OFF(o));
	}
	if (m->since != LOGTIME_UNKNOWN) {
		char iso[LOGTIME_ISO_LEN];
		logtime_iso(m->since, iso);
		pad(sb, _("Since:"), 8, 0);
		sb_addf(sb, ngettext("%s (%zu earlier incident left out)\n",
				     "%s (%zu earlier incidents left out)\n",
				     m->filtered), iso, m->filtered);
	}
	path_list(sb, N_("Errors:"), m->problems_total, m->nproblems,
		  m->problems, sizeof *m->problems,
		  offsetof(struct problem, error));
	path_list(sb, N_("Skipped:"), m->nskipped, m->nskipped_listed,
		  m->skipped, sizeof *m->skipped,
		  offsetof(struct skipped, why));
	copies_list(sb, m);
}

/* Text s, sanitised, from column col of a line, wrapped in full at 80
 * columns between words; the lines it wraps into start at column
 * indent.  (A reason cut to its first words hides what went wrong.) */
static void put_wrapped(struct strbuf *sb, const char *s, size_t col,
			size_t indent)
{
	struct strbuf clean = STRBUF_INIT;

	sanitize(&clean, s, strlen(s));
	const char *p = sb_str(&clean);
	while (*p) {
		size_t room = col + 10 < 80 ? 80 - col : 10;
		size_t n = wrap_break(p, room);
		sb_add(sb, p, n);
		p += n;
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		sb_addc(sb, '\n');
		for (col = 0; col < indent; col++)
			sb_addc(sb, ' ');
	}
	sb_free(&clean);
}

/* The nodes of a cluster, by the hundred: how many report and how many
 * have incidents (they are in the table), and by name only those that
 * need a look (down or stale), the first CLUSTER_NODES_LISTED. */
#define CLUSTER_NODES_LISTED 20
static void nodes_part(struct strbuf *sb, const struct model *m,
		       const struct report_opts *o)
{
	size_t down = 0, failing = 0, listed = 0;

	for (size_t i = 0; i < m->nhosts; i++) {
		down += m->hosts[i]->state == HOST_DOWN;
		failing += m->hosts[i]->state != HOST_DOWN && m->hosts[i]->n;
	}
	pad(sb, _("Nodes:"), 8, 0);
	sb_addf(sb, ngettext("%zu node: ", "%zu nodes: ", m->nhosts),
		m->nhosts);
	sb_addf(sb, _("%zu with incidents, "), failing);
	sb_addf(sb, "%s", down ? RED(o) : "");
	sb_addf(sb, _("%zu down or stale"), down);
	sb_addf(sb, "%s\n", down ? OFF(o) : "");
	for (size_t i = 0; i < m->nhosts; i++) {
		const struct model_host *h = m->hosts[i];
		if (h->state != HOST_DOWN || listed++ >= CLUSTER_NODES_LISTED)
			continue;
		pad(sb, "", 8, 0);
		size_t at = sb->len;
		put_fitted(sb, h->name, 24, 0);
		sb_addc(sb, ' ');
		put_wrapped(sb, h->reason ? h->reason : "?",
			    9 + text_width(sb->buf + at), 10);
		sb_addc(sb, '\n');
	}
	if (listed > CLUSTER_NODES_LISTED)
		sb_addf(sb, _("         and %zu more (all in --format=json)\n"),
			listed - CLUSTER_NODES_LISTED);
}

/* Each host of a fleet: its state, what it read, its incidents; a
 * reason or a note in full, wrapped within 80 columns. */
static void hosts_part(struct strbuf *sb, const struct model *m,
		       const struct report_opts *o)
{
	if (o->prometheus) {
		nodes_part(sb, m, o);
		return;
	}
	for (size_t i = 0; i < m->nhosts; i++) {
		const struct model_host *h = m->hosts[i];
		pad(sb, i ? "" : _("Hosts:"), 8, 0);
		/* Whole up to 40 columns (JSON has every name whole), so
		 * that what follows has room. */
		size_t at = sb->len;
		put_path(sb, h->name, 40);
		size_t col = 8 + text_width(sb->buf + at) + 1;
		if (h->state == HOST_DOWN) {
			sb_addf(sb, " %s%s%s ", RED(o), _("down:"), OFF(o));
			put_wrapped(sb, h->reason ? h->reason : "?",
				    col + text_width(_("down:")) + 1, 10);
			sb_addc(sb, '\n');
			continue;
		}
		struct strbuf t = STRBUF_INIT;
		if (h->origin) {	/* named by a local file's path */
			sb_addf(&t, _("from the path %s (rule %s), "),
				h->origin, h->rule);
		} else {
			sb_addf(&t, "%s, ", host_state_name(h->state));
			sb_addf(&t, ngettext("%zu file, ", "%zu files, ",
					     h->files), h->files);
		}
		sb_addf(&t, ngettext("%zu incident", "%zu incidents", h->n),
			h->n);
		if (h->reason)	/* "no logs yet", a PATH's why */
			sb_addf(&t, " (%s)", _(h->reason));
		sb_addc(sb, ' ');
		put_wrapped(sb, t.buf, col, 10);
		sb_free(&t);
		sb_addc(sb, '\n');
	}
}

/* Appends text wrapped to width columns: its first line after first
 * spaces, the lines it wraps into after next spaces.  The text's own line
 * breaks are kept; a line starting with "- " wraps under its text. */
static void wrap(struct strbuf *sb, const char *text, size_t first,
		 size_t next, size_t width)
{
	const char *p = text;

	do {
		size_t linelen = strcspn(p, "\n");
		const char *end = p + linelen;
		size_t hang = linelen > 2 && p[0] == '-' && p[1] == ' ' ? 2 : 0;
		size_t indent = first;
		do {
			size_t room = width > indent + 10 ? width - indent : 10;
			char *chunk = xstrndup(p, (size_t)(end - p));
			/* Never inside a word or a file name when the line
			 * has a space to break at. */
			size_t n = wrap_break(chunk, room);
			free(chunk);
			for (size_t i = 0; i < indent; i++)
				sb_addc(sb, ' ');
			sb_add(sb, p, n);
			sb_addc(sb, '\n');
			p += n;
			while (p < end && *p == ' ')
				p++;
			indent = (first == next ? first : next) + hang;
		} while (p < end);
		p = *end ? end + 1 : end;
		first = next;
	} while (*p);
}

static void wrapped(struct strbuf *sb, const char *text, size_t indent,
		    size_t width)
{
	wrap(sb, text, indent, indent, width);
}

static void section_fields(struct strbuf *sb, const struct incident *inc,
			   size_t width)
{
	struct strbuf line = STRBUF_INIT;

	for (size_t i = 0; i < inc->nfields; i++) {
		if (i)
			sb_adds(&line, ", ");
		sanitize(&line, inc->fields[i].key, strlen(inc->fields[i].key));
		sb_addc(&line, '=');
		sanitize(&line, inc->fields[i].value,
			 strlen(inc->fields[i].value));
	}
	if (line.len)
		wrapped(sb, line.buf, 4, width);
	sb_free(&line);
}

/* What the ledger knows of the example's process, and the device's
 * limit, after the fix of a class whose resource a ledger keeps. */
static void ledger_part(struct strbuf *t, const struct incident *ex,
			const struct ident *id, const struct model *m)
{
	struct strbuf s = STRBUF_INIT;

	if (ledger_fix_sentence(&s, id, ex->resource) < 0)
		return;
	sb_adds(t, "\n");
	sb_add(t, s.buf, s.len);
	sb_reset(&s);
	if (limit_sentence(&s, ex, id, m->idents.npu)) {
		sb_adds(t, "\n");
		sb_add(t, s.buf, s.len);
	}
	sb_free(&s);
}

/* "N lines from FILE:LINE", or nothing for a cluster's counted class,
 * which has no lines (model_add_counted). */
static void where_from(struct strbuf *sb, struct strbuf *t,
		       const struct incident *ex, size_t width)
{
	if (!ex->nlines)
		return;
	sb_reset(t);
	sb_addf(t, ngettext("%u line from ", "%u lines from ", ex->nlines),
		ex->nlines);
	sanitize(t, ex->file, strlen(ex->file));
	sb_addf(t, ":%lu", ex->line);
	wrap(sb, t->buf, 2, 4, width);
}

static void section(struct strbuf *sb, const struct section *s,
		    const struct report_opts *o, const struct model *m,
		    const struct ident_map *im)
{
	const struct incident *ex = s->example;
	struct strbuf t = STRBUF_INIT;
	size_t width = (size_t)o->width;
	char iso[LOGTIME_ISO_LEN];

	sb_addf(&t, "== %s %s / %s: ", code_name(s->k.code),
		resource_name(s->k.resource), cause_name(s->k.cause));
	catalog_render(o->cat, "title", ex, &t);
	sb_addf(sb, "\n%s", BOLD(o));
	wrap(sb, t.buf, 0, 3, width);
	sb_adds(sb, OFF(o));
	sb_reset(&t);
	sb_addf(&t, ngettext("%zu incident in ", "%zu incidents in ", s->n),
		s->n);
	for (size_t i = 0; i < s->nprocs && i < 8; i++) {
		if (i)
			sb_adds(&t, ", ");
		const struct process *p = s->procs[i];
		if (p->host) {	/* the same pid on two hosts is two */
			sanitize(&t, p->host->name, strlen(p->host->name));
			sb_addc(&t, ' ');
		}
		if (p->pid)
			sb_addf(&t, "%ld ", p->pid);
		sanitize(&t, *p->name ? p->name : "-",
			 strlen(*p->name ? p->name : "-"));
	}
	if (s->nprocs > 8)
		sb_addf(&t, _(" and %zu more"), s->nprocs - 8);
	wrap(sb, t.buf, 0, 2, width);
	sb_reset(&t);
	sb_adds(&t, _("Example: "));
	catalog_render(o->cat, "summary", ex, &t);
	wrap(sb, t.buf, 0, 2, width);
	logtime_iso(ex->first, iso);
	sb_addf(sb, _("  at %s, "), *iso ? iso : _("an unknown time"));
	if (ex->reported_code) {
		sb_adds(sb, _("reported as "));
		put_fitted(sb, ex->reported_code, 20, 0);
	} else {
		sb_adds(sb, _("no code printed"));
	}
	sb_addc(sb, '\n');
	section_fields(sb, ex, width);
	/* What to do before the lines it comes from: the change to make is
	 * what the reader came for. */
	sb_reset(&t);
	catalog_render(o->cat, "fix", ex, &t);
	ledger_part(&t, ex, ex->proc ? ident_map_get(im, ex->proc) : NULL, m);
	sb_addf(sb, "%s%s%s\n", BOLD(o), _("What to do:"), OFF(o));
	wrapped(sb, sb_str(&t), 2, width);
	where_from(sb, &t, ex, width);
	for (size_t i = 0; i < ex->nraw; i++) {
		const char *r = ex->raw[i].text;
		if (i > 0 && ex->raw[i].file != ex->raw[i - 1].file) {
			/* The chain went on in the next file (rotation). */
			sb_reset(&t);
			sb_adds(&t, _("continued in "));
			sanitize(&t, ex->raw[i].file, strlen(ex->raw[i].file));
			sb_addc(&t, ':');
			wrap(sb, t.buf, 2, 4, width);
		}
		unsigned long lineno = ex->raw[i].line;
		/* A record continued on header-less lines shows as many. */
		do {
			size_t n = strcspn(r, "\n");
			char num[24];
			snprintf(num, sizeof num, "%6lu  ", lineno++);
			sb_reset(&t);
			sb_adds(&t, num);
			sanitize(&t, r, n);
			sb_adds(sb, DIM(o));
			wrap(sb, t.buf, 0, 8, width);
			sb_adds(sb, OFF(o));
			r += n + (r[n] == '\n');
		} while (*r);
	}
	sb_free(&t);
}

/* What the report covers when a state carries counters. */
static void state_note(struct strbuf *sb, const struct report_opts *o)
{
	time_t since = (time_t)o->counted_since;
	struct tm tm;
	char iso[32];

	gmtime_r(&since, &tm);
	strftime(iso, sizeof iso, "%Y-%m-%d %H:%M:%S UTC", &tm);
	struct strbuf path = STRBUF_INIT;
	sanitize(&path, o->state_file, strlen(o->state_file));
	sb_addf(sb, _("State: %s\n"
		      "  This report covers what this run read; the prom file's\n"
		      "  counters cover everything counted since %s.\n"),
		path.buf, iso);
	sb_free(&path);
}

/* Devices: and Leaks: (a leak is said even with no incident: the early
 * warning). */
static void who_parts(struct strbuf *sb, const struct model *m,
		      const struct report_opts *o)
{
	struct device_row *rows;
	size_t n = model_devices(m, &rows);
	const struct ident *const *ids;
	size_t nids = model_idents(m, &ids);
	size_t width = o->width > 0 ? (size_t)o->width : 80;

	report_devices(sb, rows, n, m->idents.npu, model_has_hosts(m), width);
	model_devices_free(rows, n);
	report_leaks(sb, ids, nids, model_has_hosts(m), width);
}

int report_text(const struct model *m, const struct report_opts *o, FILE *out)
{
	struct strbuf sb = STRBUF_INIT, ascii = STRBUF_INIT;

	struct ident_map im;
	ident_map_init(&im, m);
	header(&sb, m, o);
	hosts_part(&sb, m, o);
	if (m->n)
		process_table(&sb, m, &im, o);
	who_parts(&sb, m, o);
	/* No sections given (the fuzzers' one-shot): none shown. */
	for (size_t i = 0; m->n && o->sections && i < o->sections->n; i++)
		section(&sb, &o->sections->v[i], o, m, &im);
	ident_map_free(&im);
	/* A byte >= 0x80 may be a C1 control on a terminal whose charset is
	 * not UTF-8 (0x9b is CSI there): every one is spelt out. */
	struct strbuf *text = &sb;
	if (!locale_is_utf8()) {
		clean_for(&ascii, sb.buf ? sb.buf : "", sb.len,
			  CLEAN_ASCII | CLEAN_DONE);
		text = &ascii;
	}
	/* The note comes after the spelling, as it always has: its bytes
	 * are the same as before this file wrote it. */
	if (o->state_file)
		state_note(text, o);
	size_t w = text->len ? fwrite(text->buf, 1, text->len, out) : 0;
	int rc = w == text->len ? 0 : -1;
	sb_free(&sb);
	sb_free(&ascii);
	return rc;
}
