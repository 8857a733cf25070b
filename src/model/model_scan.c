/* What was read: the roots, the files skipped and the problems met, and
 * the one merge of what a reading thread or a host read into the model
 * (model_merge_scan). */
#include "config.h"

#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model_int.h"
#include "strbuf.h"
#include "xalloc.h"

void model_add_root(struct model *m, const char *root)
{
	m->roots = xrealloc(m->roots, (m->nroots + 1) * sizeof *m->roots);
	m->root_files = xrealloc(m->root_files,
				 (m->nroots + 1) * sizeof *m->root_files);
	m->root_files[m->nroots] = 0;
	m->roots[m->nroots++] = xstrdup(root);
}

void model_skip(struct model *m, const char *path, const char *why)
{
	m->nskipped++;
	if (m->nskipped_listed == MODEL_LISTED)
		return;
	m->skipped = xrealloc(m->skipped,
			      (m->nskipped_listed + 1) * sizeof *m->skipped);
	m->skipped[m->nskipped_listed++] = (struct skipped){
		xstrdup(path), why
	};
}

size_t model_roots_unread(const struct model *m)
{
	size_t n = 0;

	for (size_t i = 0; i < m->nroots; i++)
		n += m->root_files[i] == 0;
	return n;
}

void model_problem(struct model *m, const char *path, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	/* Counted, and listed up to MODEL_LISTED: a tree that keeps
	 * failing (a directory chmod 000 and back, for weeks) must not
	 * grow the model. */
	m->problems_total++;
	if (m->nproblems == MODEL_LISTED)
		return;
	va_start(ap, fmt);
	sb_vaddf(&sb, fmt, ap);
	va_end(ap);
	m->problems = xrealloc(m->problems,
			       (m->nproblems + 1) * sizeof *m->problems);
	m->problems[m->nproblems++] = (struct problem){
		xstrdup(path), sb_detach(&sb)
	};
}

/* ---- merging what others read ---- */

static size_t sat_add(size_t a, size_t b)
{
	return a > SIZE_MAX - b ? SIZE_MAX : a + b;
}

static unsigned long long sat_addll(unsigned long long a,
				    unsigned long long b)
{
	return a > ULLONG_MAX - b ? ULLONG_MAX : a + b;
}

void model_scan_part(const struct model *m, struct scan_part *out)
{
	*out = (struct scan_part){
		.stats = m->stats, .filtered = m->filtered,
		.roots = (const char *const *)m->roots,
		.root_files = m->root_files, .nroots = m->nroots,
		.problems = m->problems, .nproblems = m->nproblems,
		.problems_total = m->problems_total,
		.skipped = m->skipped, .nskipped_listed = m->nskipped_listed,
		.nskipped = m->nskipped,
		.duplicates = m->duplicates, .nduplicates = m->nduplicates,
		.duplicates_total = m->duplicates_total,
	};
}

/* A path of what host read: HOST:PATH; a local one as it is. */
static const char *merged_path(struct strbuf *sb, const char *host,
			       const char *path)
{
	if (!host)
		return path;
	sb_reset(sb);
	sb_addf(sb, "%s:%s", host, path);
	return sb->buf;
}

static void merge_stats(struct model *m, const struct scan_part *s)
{
	m->stats.files = sat_add(m->stats.files, s->stats.files);
	m->stats.lines = sat_add(m->stats.lines, s->stats.lines);
	m->stats.bytes = sat_addll(m->stats.bytes, s->stats.bytes);
	m->stats.truncated_lines = sat_add(m->stats.truncated_lines,
					   s->stats.truncated_lines);
	m->stats.unfinished_lines = sat_add(m->stats.unfinished_lines,
					    s->stats.unfinished_lines);
	m->stats.match_limit_hits += s->stats.match_limit_hits;
	m->filtered = sat_add(m->filtered, s->filtered);
}

void model_merge_scan(struct model *m, const struct scan_part *s,
		      const char *host)
{
	struct strbuf p = STRBUF_INIT;

	merge_stats(m, s);
	for (size_t i = 0; i < s->nroots; i++) {
		if (host) {
			model_add_root(m, merged_path(&p, host, s->roots[i]));
			m->root_files[m->nroots - 1] = s->root_files[i];
		} else if (i < m->nroots) {
			m->root_files[i] += s->root_files[i];
		}
	}
	if (host && s->nroots)
		model_idents_roots(m);
	for (size_t i = 0; i < s->nproblems; i++)
		model_problem(m, merged_path(&p, host, s->problems[i].path),
			      "%s", s->problems[i].error);
	if (s->problems_total > s->nproblems)
		m->problems_total = sat_add(m->problems_total,
					    s->problems_total - s->nproblems);
	for (size_t i = 0; i < s->nskipped_listed; i++)
		model_skip(m, merged_path(&p, host, s->skipped[i].path),
			   s->skipped[i].why);
	if (s->nskipped > s->nskipped_listed)
		m->nskipped = sat_add(m->nskipped,
				      s->nskipped - s->nskipped_listed);
	struct strbuf k = STRBUF_INIT;
	for (size_t i = 0; i < s->nduplicates; i++) {
		const struct duplicate *d = &s->duplicates[i];
		sb_reset(&k);
		sb_adds(&k, merged_path(&p, host, d->kept_file));
		model_duplicate(m, merged_path(&p, host, d->file), d->line,
				k.buf, d->kept_line);
	}
	if (s->duplicates_total > s->nduplicates)
		m->duplicates_total = sat_add(m->duplicates_total,
					      s->duplicates_total -
					      s->nduplicates);
	sb_free(&k);
	sb_free(&p);
}
