#include "config.h"

#include <stdio.h>
#include <string.h>

#include "exec_view.h"
#include "ident_view.h"
#include "incident_json.h"
#include "sanitize.h"
#include "taxonomy.h"
#include "xalloc.h"

void exec_view_input(struct strbuf *sb, const struct incident *inc,
		     const struct catalog *cat, int no_fix)
{
	incident_json_opt(sb, inc, cat, NULL, no_fix ? INCIDENT_JSON_NO_FIX
						     : 0);
	sb_addc(sb, '\n');
}

struct envv {
	char **v;
	size_t n, cap;
};

static void env_push(struct envv *e, char *s)
{
	if (e->n + 2 > e->cap) {
		e->cap = e->cap ? 2 * e->cap : 64;
		e->v = xrealloc(e->v, e->cap * sizeof *e->v);
	}
	e->v[e->n++] = s;
	e->v[e->n] = NULL;
}

/* PLOGTOP_NAME=value, the value sanitised (no control byte reaches the
 * command's environment). */
static void put(struct envv *e, const char *name, const char *value)
{
	struct strbuf sb = STRBUF_INIT;

	sb_addf(&sb, "PLOGTOP_%s=", name);
	sanitize(&sb, value, strlen(value));
	env_push(e, sb_detach(&sb));
}

static void put_long(struct envv *e, const char *name, int known, long v)
{
	char num[32];

	if (known)
		snprintf(num, sizeof num, "%ld", v);
	put(e, name, known ? num : "");
}

static void put_times(struct envv *e, const struct incident *inc)
{
	char iso[LOGTIME_ISO_LEN], off[LOGTIME_OFFSET_LEN];
	long o = inc->off_first;
	int known = inc->has_offsets || logtime_utc_offset(inc->first, &o) == 0;

	logtime_iso(inc->first, iso);
	put(e, "TIME", iso);
	logtime_utc_iso(inc->first, o, iso);
	put(e, "TIME_UTC", known ? iso : "");
	logtime_offset_str(o, off);
	put(e, "UTC_OFFSET", known && inc->first ? off : "");
}

char **exec_view_env(const struct incident *inc, const struct catalog *cat,
		     const char *host, char *const *base)
{
	struct envv e = { NULL, 0, 0 };
	struct strbuf text = STRBUF_INIT;
	enum ident_from from;
	long v = 0;

	for (size_t i = 0; base && base[i]; i++)
		if (strncmp(base[i], "PLOGTOP_", 8) != 0)
			env_push(&e, xstrdup(base[i]));
	put(&e, "CODE", code_name(inc->code));
	put(&e, "RESOURCE", resource_name(inc->resource));
	put(&e, "CAUSE", cause_name(inc->cause));
	put_long(&e, "PID", inc->pid != 0, inc->pid);
	put_long(&e, "TID", inc->tid != 0, inc->tid);
	put(&e, "PROCESS", inc->name ? inc->name : "");
	put(&e, "HOST", inc->host ? inc->host : host ? host : "");
	put(&e, "LOCAL", inc->host ? "0" : "1");
	int known = view_incident_device(inc, &v, &from);
	put_long(&e, "DEVICE", known, v);
	known = view_incident_rank(inc, &v, &from);
	put_long(&e, "RANK", known, v);
	put_times(&e, inc);
	put(&e, "FILE", inc->file ? inc->file : "");
	put_long(&e, "LINE", 1, (long)inc->line);
	if (cat)
		catalog_render(cat, "summary", inc, &text);
	put(&e, "SUMMARY", sb_str(&text));
	sb_free(&text);
	return e.v;
}

char *exec_view_what(const struct incident *inc)
{
	struct strbuf sb = STRBUF_INIT, clean = STRBUF_INIT;

	sb_addf(&sb, "%s %s", code_name(inc->code),
		resource_name(inc->resource));
	if (inc->host)
		sb_addf(&sb, " on %s", inc->host);
	if (inc->pid)
		sb_addf(&sb, " pid %ld", inc->pid);
	if (inc->name && *inc->name)
		sb_addf(&sb, " (%s)", inc->name);
	sanitize(&clean, sb.buf, sb.len);
	sb_free(&sb);
	return sb_detach(&clean);
}
