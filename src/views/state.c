#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fileio.h"
#include "i18n.h"
#include "ident_state.h"
#include "ident_view.h"
#include "json.h"
#include "jsonparse.h"
#include "msglog.h"
#include "rules.h"
#include "state.h"
#include "taxonomy.h"
#include "xalloc.h"

#define STATE_FORMAT "plogtop-state"
/* What one state may hold: a process name is a log's bytes, bounded like
 * a line; a million files of ten values each, and counters beside. */
#define STATE_MAX_STRING (64u << 10)
#define STATE_MAX_VALUES 12000000u

double state_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Reads a whole file of at most max bytes ("-": standard input). */
static int slurp(const char *path, struct strbuf *out, size_t max,
		 struct strbuf *msg)
{
	int fd = strcmp(path, "-") == 0 ? 0
		 : open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	char buf[65536];

	if (fd < 0)
		return -1;
	for (;;) {
		ssize_t n = read(fd, buf, sizeof buf);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;
			if (fd)
				close(fd);
			errno = e;
			return -1;
		}
		if (n == 0)
			break;
		if (out->len + (size_t)n > max) {
			sb_addf(msg, _("larger than %zu MiB"), max >> 20);
			if (fd)
				close(fd);
			errno = EFBIG;
			return -2;
		}
		sb_add(out, buf, (size_t)n);
	}
	if (fd)
		close(fd);
	return 0;
}

static int get_count(const struct jval *o, const char *key,
		     unsigned long long *out)
{
	const struct jval *v = json_get(o, key);

	if (!v)
		return 0;	/* a section may lack what it did not count */
	if (v->type != J_NUMBER || !v->is_int || v->integer < 0)
		return -1;
	*out = (unsigned long long)v->integer;
	return 0;
}

/* A count's device or NPU label: absent (a state written before they
 * were kept, or a count without one) is -1. */
static int get_label(const struct jval *e, const char *key, long *out)
{
	const struct jval *v = json_get(e, key);

	*out = -1;
	if (!v)
		return 0;
	if (v->type != J_NUMBER || !v->is_int || v->integer < 0 ||
	    v->integer > VIEW_DEVICE_MAX)
		return -1;
	*out = (long)v->integer;
	return 0;
}

/* The counters section, checked whole before anything reaches m. */
static int read_counters(const struct jval *c, struct model *m,
			 struct prom_counts *pc, struct strbuf *why)
{
	const struct jval *inc = json_get(c, "incidents");
	unsigned long long bytes = 0, lines = 0, hits = 0, unfinished = 0;

	if (!c || c->type != J_OBJECT || (inc && inc->type != J_ARRAY) ||
	    get_count(c, "read_bytes", &bytes) < 0 ||
	    get_count(c, "read_lines", &lines) < 0 ||
	    get_count(c, "match_limit_hits", &hits) < 0 ||
	    get_count(c, "unfinished_lines", &unfinished) < 0) {
		sb_adds(why, _("counters: not counters"));
		return -1;
	}
	for (size_t i = 0; inc && i < inc->n; i++) {
		const struct jval *e = &inc->items[i];
		const char *code = json_get_str(e, TAX_KEY_CODE);
		const char *res = json_get_str(e, TAX_KEY_RESOURCE);
		const char *cause = json_get_str(e, TAX_KEY_CAUSE);
		const struct jval *n = json_get(e, "n");
		const struct jval *host = json_get(e, "host");
		long dev, npu;
		if (!json_get_str(e, "process") || !code ||
		    (host && host->type != J_STRING) ||
		    get_label(e, TAX_KEY_DEVICE, &dev) < 0 ||
		    get_label(e, TAX_KEY_NPU, &npu) < 0 ||
		    !code_from_name(code) || !res || !cause || !n ||
		    n->type != J_NUMBER || !n->is_int || n->integer < 0) {
			sb_addf(why, _("counters: incident count %zu is not one"),
				i);
			return -1;
		}
	}
	for (size_t i = 0; inc && i < inc->n; i++) {
		const struct jval *e = &inc->items[i];
		struct class_key k = {
			code_from_name(json_get_str(e, TAX_KEY_CODE)),
			resource_from_name(json_get_str(e, TAX_KEY_RESOURCE)),
			cause_from_name(json_get_str(e, TAX_KEY_CAUSE)),
		};
		struct prom_key key = { json_get_str(e, "host"),
					json_get_str(e, "process"), -1, -1 };
		get_label(e, TAX_KEY_DEVICE, &key.device);
		get_label(e, TAX_KEY_NPU, &key.npu);
		prom_counts_add(pc, &key, &k,
				(size_t)json_get(e, "n")->integer);
	}
	m->base.bytes += bytes;
	m->base.lines += lines;
	m->base.match_limit_hits += hits;
	m->base.unfinished_lines += unfinished;
	return 0;
}

/* Whether the document is a state this version reads; why if not. */
static int check_head(const struct jval *doc, struct strbuf *why)
{
	const char *format = json_get_str(doc, "format");
	const struct jval *ver = json_get(doc, "version");
	const struct jval *since = json_get(doc, "counted_since");

	if (doc->type != J_OBJECT || !format ||
	    strcmp(format, STATE_FORMAT) != 0) {
		sb_adds(why, _("not a plogtop state file"));
		return -1;
	}
	if (!ver || ver->type != J_NUMBER || !ver->is_int || ver->integer < 1) {
		sb_adds(why, _("a state file without a version"));
		return -1;
	}
	if (ver->integer > STATE_VERSION) {
		sb_addf(why, _("state version %lld, newer than this plogtop's "
			"(%d)"), ver->integer, STATE_VERSION);
		return -1;
	}
	if (!since || since->type != J_NUMBER) {
		sb_adds(why, _("no counted_since"));
		return -1;
	}
	return 0;
}

static void set_aside(const char *path, const char *why, struct strbuf *msg)
{
	struct strbuf bad = STRBUF_INIT;

	sb_addf(&bad, "%s.bad.%lld", path, (long long)time(NULL));
	if (rename(path, bad.buf) == 0)
		sb_addf(msg, _("%s: %s; set aside as %s, counting starts afresh"),
			path, why, bad.buf);
	else
		sb_addf(msg, _("%s: %s; cannot set it aside (%s), counting "
			"starts afresh and it will be written over"), path, why,
			strerror(errno));
	sb_free(&bad);
}

int state_parse(const char *text, size_t len, struct model *m,
		struct prom_counts *pc, struct posset *ps, struct strbuf *why)
{
	struct jval doc;
	struct json_limits lim = { STATE_MAX_STRING, STATE_MAX_VALUES };
	struct strbuf err = STRBUF_INIT;
	int rc = -1;

	memset(ps, 0, sizeof *ps);
	if (json_parse(text, len, &lim, &doc, &err) < 0) {
		sb_addf(why, _("not a state file that can be read (%s)"),
			err.buf);
		sb_free(&err);
		return -1;
	}
	if (check_head(&doc, why) == 0 &&
	    posset_parse(ps, json_get(&doc, "positions"), why) == 0) {
		/* Counters are checked whole first: a bad one must not leave
		 * half of them counted. */
		struct model trial;
		struct prom_counts trial_pc;
		model_init(&trial);
		prom_counts_init(&trial_pc, NULL);
		int ok = read_counters(json_get(&doc, "counters"), &trial,
				       &trial_pc, why) == 0;
		prom_counts_free(&trial_pc);
		model_free(&trial);
		/* Identities likewise, into a trial model first. */
		if (ok) {
			model_init(&trial);
			ok = ident_state_restore(&trial, json_get(&doc,
					"identities"), why) == 0;
			model_free(&trial);
		}
		if (ok) {
			read_counters(json_get(&doc, "counters"), m, pc, why);
			ident_state_restore(m, json_get(&doc, "identities"),
					    why);
			m->counted_since =
				json_get(&doc, "counted_since")->number;
			rc = 0;
		} else {
			posset_free(ps);
		}
	}
	jval_free(&doc);
	return rc;
}

enum state_loaded state_load(const char *path, struct model *m,
			     struct prom_counts *pc, struct posset *ps,
			     struct strbuf *msg)
{
	struct strbuf text = STRBUF_INIT, why = STRBUF_INIT;
	enum state_loaded rc = STATE_SET_ASIDE;

	memset(ps, 0, sizeof *ps);
	/* Only a regular file is a state: a FIFO would block the open, and
	 * a device set aside would be renamed away (/dev/null, as root). */
	struct stat st;
	if (strcmp(path, "-") != 0 && stat(path, &st) == 0 &&
	    !S_ISREG(st.st_mode)) {
		sb_addf(msg, _("%s: not a regular file (a %s must be one)"),
			path, _("state file"));
		rc = STATE_ERROR;
		goto out;
	}
	int r = slurp(path, &text, STATE_MAX_BYTES, &why);
	if (r == -1) {
		rc = errno == ENOENT ? STATE_NONE : STATE_ERROR;
		if (rc == STATE_ERROR)
			sb_addf(msg, "%s: %s", path, strerror(errno));
		goto out;
	}
	if (r == 0 && state_parse(text.buf ? text.buf : "", text.len, m, pc,
				  ps, &why) == 0)
		rc = STATE_LOADED;
	if (rc == STATE_SET_ASIDE)
		set_aside(path, why.len ? why.buf : "unreadable", msg);
out:
	sb_free(&text);
	sb_free(&why);
	return rc;
}

int state_section(const char *path, const char *key, struct strbuf *out)
{
	struct strbuf text = STRBUF_INIT, why = STRBUF_INIT, err = STRBUF_INIT;
	struct json_limits lim = { STATE_MAX_STRING, STATE_MAX_VALUES };
	struct jval doc;
	int rc = -1;

	if (slurp(path, &text, STATE_MAX_BYTES, &why) == 0 &&
	    json_parse(text.buf ? text.buf : "", text.len, &lim, &doc,
		       &err) == 0) {
		const struct jval *v = json_get(&doc, key);
		if (check_head(&doc, &why) == 0 && v && v->type == J_OBJECT) {
			json_write_parsed(out, v);
			rc = 0;
		}
		jval_free(&doc);
	}
	sb_free(&text);
	sb_free(&why);
	sb_free(&err);
	return rc;
}

static void counters_json(struct strbuf *out, const struct model *m,
			  const struct prom_counts *pc)
{
	size_t n = 0;

	sb_adds(out, "{\"incidents\": [");
	for (size_t i = 0; pc && i < pc->n; i++) {
		const struct prom_count *nc = pc->v[i];
		for (size_t j = 0; j < nc->nclasses; j++) {
			const struct class_count *cc = &nc->classes[j];
			sb_adds(out, n++ ? ",\n  {\"process\": " : "\n  {\"process\": ");
			json_cstring(out, nc->name);
			if (nc->host) {
				sb_adds(out, ", \"host\": ");
				json_cstring(out, nc->host);
			}
			if (nc->device >= 0)
				sb_addf(out, ", \"" TAX_KEY_DEVICE "\": %ld",
					nc->device);
			if (nc->npu >= 0)
				sb_addf(out, ", \"" TAX_KEY_NPU "\": %ld",
					nc->npu);
			sb_addf(out, ", \"" TAX_KEY_CODE "\": \"%s\", \""
				TAX_KEY_RESOURCE "\": \"%s\", \""
				TAX_KEY_CAUSE "\": \"%s\", \"n\": %zu}",
				code_name(cc->k.code),
				resource_name(cc->k.resource),
				cause_name(cc->k.cause), cc->n);
		}
	}
	sb_addf(out, "], \"read_bytes\": %llu, \"read_lines\": %llu, "
		"\"match_limit_hits\": %llu, \"unfinished_lines\": %llu}",
		m->base.bytes + m->stats.bytes,
		m->base.lines + (unsigned long long)m->stats.lines,
		m->base.match_limit_hits +
		(unsigned long long)m->stats.match_limit_hits,
		m->base.unfinished_lines +
		(unsigned long long)m->stats.unfinished_lines);
}

int state_save(const char *path, const struct model *m,
	       const struct prom_counts *pc,
	       const struct position *cur, size_t ncur,
	       const struct posset *old, const char *more,
	       struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT;
	double now = state_now();

	sb_addf(&text, "{\"format\": \"%s\", \"version\": %d, "
		"\"tool_version\": \"%s\", \"written\": %.3f, "
		"\"counted_since\": %.3f,\n\"counters\": ", STATE_FORMAT,
		STATE_VERSION, PACKAGE_VERSION, now, m->counted_since);
	counters_json(&text, m, pc);
	sb_adds(&text, ",\n\"positions\": ");
	positions_json(&text, cur, ncur, old, now, 0);
	sb_adds(&text, ",\n");
	ident_state_section(&text, m);
	if (more && *more) {
		sb_adds(&text, ",\n");
		sb_adds(&text, more);
	}
	sb_adds(&text, "}\n");
	/* Synced before the rename: after a crash the state is the old one
	 * or the new one, never a torn one. */
	int rc = write_file_atomic(path, text.buf, text.len, 0600, 1, err);
	sb_free(&text);
	return rc;
}

int state_load_cursor(const char *path, struct posset *ps,
		      struct model *m, struct strbuf *msg)
{
	struct strbuf text = STRBUF_INIT, why = STRBUF_INIT;
	struct jval doc;
	struct json_limits lim = { STATE_MAX_STRING, STATE_MAX_VALUES };
	int rc = -1;

	memset(ps, 0, sizeof *ps);
	int r = slurp(path, &text, STATE_MAX_BYTES, &why);
	if (r == -1) {
		sb_addf(msg, "%s", strerror(errno));
	} else if (r == -2) {
		sb_add(msg, why.buf, why.len);
	} else if (json_parse(text.buf ? text.buf : "", text.len, &lim, &doc,
			      &why) < 0) {
		sb_addf(msg, "not a cursor (%s)", why.buf);
	} else {
		rc = posset_parse(ps, &doc, &why);
		/* The identities the reader kept of this host, given back:
		 * a resumed run goes on counting from them. */
		if (rc == 0 && m &&
		    ident_state_restore(m, json_get(&doc, "identities"),
					&why) < 0) {
			posset_free(ps);
			memset(ps, 0, sizeof *ps);
			rc = -1;
		}
		if (rc < 0)
			sb_add(msg, why.buf, why.len);
		jval_free(&doc);
	}
	sb_free(&text);
	sb_free(&why);
	return rc;
}

/* Two plogtops counting into one state would each count what the other
 * did not write yet: the second is refused. */
static int lock_state(const char *path, int *lock_fd, struct strbuf *msg)
{
	struct strbuf lp = STRBUF_INIT;

	sb_addf(&lp, "%s.lock", path);
	int fd = open(lp.buf, O_RDWR | O_CREAT | O_CLOEXEC | O_NOCTTY, 0600);
	if (fd < 0) {
		sb_addf(msg, "%s: %s", lp.buf, strerror(errno));
	} else if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		sb_addf(msg, errno == EWOULDBLOCK
			? _("%s: another plogtop uses this state") : "%s: %s",
			path, strerror(errno));
		close(fd);
		fd = -1;
	}
	sb_free(&lp);
	*lock_fd = fd;
	return fd < 0 ? -1 : 0;
}

int state_open(const char *state_file, const char *resume_file,
	       struct model *m, struct prom_counts *pc, struct posset *ps,
	       int *set_aside,
	       int *lock_fd, struct msglog *log)
{
	struct strbuf msg = STRBUF_INIT;
	int rc = 0;

	memset(ps, 0, sizeof *ps);
	*set_aside = 0;
	*lock_fd = -1;
	if (state_file && lock_state(state_file, lock_fd, &msg) < 0) {
		msglog_add(log, msg.buf);
		sb_free(&msg);
		return -1;
	}
	if (state_file) {
		enum state_loaded r = state_load(state_file, m, pc, ps, &msg);
		if (r == STATE_ERROR)
			rc = -1;
		*set_aside = r == STATE_SET_ASIDE;
		if (msg.len)
			msglog_add(log, msg.buf);
		sb_reset(&msg);
	}
	if (rc == 0 && resume_file) {
		struct posset cursor;
		struct strbuf why = STRBUF_INIT;
		if (state_load_cursor(resume_file, &cursor, m, &why) < 0) {
			sb_addf(&msg, _("--resume: %s: %s (read as if there "
				"were none)"), resume_file, sb_str(&why));
			msglog_add(log, msg.buf);
		} else {
			posset_free(ps);
			*ps = cursor;
		}
		sb_free(&why);
	}
	sb_free(&msg);
	return rc;
}
