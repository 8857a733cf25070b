#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "ident_view.h"
#include "incident_json.h"
#include "json.h"
#include "taxonomy.h"
#include "wire_limits.h"
#include "xalloc.h"

/* ---- writing: what a plogtop of the same version reads back ---- */

/* A string of an incident: at most WIRE_STRING_MAX bytes, as the reader
 * takes them. */
static void kv_wire(struct strbuf *sb, const char *key, const char *value)
{
	json_member_max(sb, key, value, WIRE_STRING_MAX);
}

/* Rendered in sb itself, then escaped in place: a buffer of its own was
 * two large allocations per incident. */
static void render_text(struct strbuf *sb, const char *key,
			const struct incident *inc, const struct catalog *cat)
{
	json_key(sb, key);
	size_t from = sb->len;
	if (cat)
		catalog_render(cat, key, inc, sb);
	json_text_tail(sb, from, WIRE_STRING_MAX);
}

/* "s", for text that needs no escape (printf was a fair part of an
 * incident's rendering). */
static void quoted(struct strbuf *sb, const char *s)
{
	sb_addc(sb, '"');
	sb_adds(sb, s);
	sb_addc(sb, '"');
}

/* "key": N or null, and "key_from": "lines", "process" or null. */
static void ident_part(struct strbuf *sb, const char *key,
		       const char *from_key, int known, long v,
		       enum ident_from from)
{
	sb_adds(sb, ", ");
	json_key(sb, key);
	if (known) {
		json_long(sb, v);
		sb_adds(sb, ", ");
	} else
		sb_adds(sb, "null, ");
	json_key(sb, from_key);
	if (known && ident_from_name(from))
		quoted(sb, ident_from_name(from));
	else
		sb_adds(sb, "null");
}

/* Who it was: device and rank, each with where it came from. */
static void who_part(struct strbuf *sb, const struct incident *inc)
{
	enum ident_from from;
	long v = 0;
	int known = view_incident_device(inc, &v, &from);

	ident_part(sb, "device", "device_from", known, v, from);
	known = view_incident_rank(inc, &v, &from);
	ident_part(sb, "rank", "rank_from", known, v, from);
}

/* What the end of an incident takes at most: lang, summary and fix (a
 * JSON string is at most twice its decoded bytes, and its quotes). */
#define TAIL_MAX (2 * (2 * WIRE_STRING_MAX + 16) + 256)

/* A decimal integer a double holds exactly, written as the one text
 * JSON gives it back as: no sign but a minus, no leading zero, no "-0",
 * at most 2^53.  Hex codes (0x...) and all else stay strings. */
int field_is_number(const char *v)
{
	const char *d = *v == '-' ? v + 1 : v;
	size_t n = strspn(d, "0123456789");

	if (!n || d[n] || n > 16 || (d[0] == '0' && (n > 1 || d != v)))
		return 0;
	return strtoull(d, NULL, 10) <= FIELD_NUMBER_MAX;
}

/* Fields, the first WIRE_FIELDS_MAX, each cut so that the incident
 * stays within WIRE_INCIDENT_MAX bytes from start. */
static void fields_part(struct strbuf *sb, const struct incident *inc,
			size_t start)
{
	for (size_t i = 0; i < inc->nfields && i < WIRE_FIELDS_MAX; i++) {
		const char *k = inc->fields[i].key, *v = inc->fields[i].value;
		if (i)
			sb_adds(sb, ", ");
		json_string_max(sb, k, strlen(k), WIRE_KEY_MAX);
		sb_adds(sb, ": ");
		if (field_is_number(v)) {
			sb_adds(sb, v);
			continue;
		}
		size_t used = sb->len - start + TAIL_MAX + 8;
		size_t room = used < WIRE_INCIDENT_MAX
			      ? (WIRE_INCIDENT_MAX - used) / 2 : 0;
		json_string_max(sb, v, strlen(v), room < WIRE_STRING_MAX
				? room : WIRE_STRING_MAX);
	}
}

/* "key": "2026-07-13T03:39:20Z" or null. */
static void utc_part(struct strbuf *sb, const char *key, logtime_t t,
		     int known, long off)
{
	char iso[LOGTIME_ISO_LEN];

	sb_adds(sb, ", ");
	json_key(sb, key);
	if (!known || t == LOGTIME_UNKNOWN) {
		sb_adds(sb, "null");
		return;
	}
	logtime_utc_iso(t, off, iso);
	quoted(sb, iso);
}

/* The UTC times and the offset of first_seen: the host's that read the
 * log (a host's JSON said them), else this host's zone's. */
static void zone_part(struct strbuf *sb, const struct incident *inc)
{
	long of = inc->off_first, ol = inc->off_last;
	int kf = inc->has_offsets || logtime_utc_offset(inc->first, &of) == 0;
	int kl;
	/* The offset is the zone's at that second: a chain's lines are
	 * mostly of one second, and each look-up is five localtime_r. */
	if (!inc->has_offsets && inc->first != LOGTIME_UNKNOWN &&
	    inc->last != LOGTIME_UNKNOWN &&
	    inc->first / 1000000 == inc->last / 1000000) {
		kl = kf;
		ol = of;
	} else {
		kl = inc->has_offsets ||
		     logtime_utc_offset(inc->last, &ol) == 0;
	}
	char off[LOGTIME_OFFSET_LEN];

	utc_part(sb, "first_seen_utc", inc->first, kf, of);
	utc_part(sb, "last_seen_utc", inc->last, kl, ol);
	sb_adds(sb, ", \"utc_offset\": ");
	if (kf && inc->first != LOGTIME_UNKNOWN) {
		logtime_offset_str(of, off);
		quoted(sb, off);
	} else {
		sb_adds(sb, "null");
	}
}

void incident_json(struct strbuf *sb, const struct incident *inc,
		   const struct catalog *cat, const char *host)
{
	incident_json_opt(sb, inc, cat, host, 0);
}

void incident_json_opt(struct strbuf *sb, const struct incident *inc,
		       const struct catalog *cat, const char *host,
		       unsigned flags)
{
	size_t start = sb->len;

	/* Room for a typical incident at once, not by doubling. */
	sb_grow(sb, 2048);
	sb_adds(sb, "{");
	if (inc->host || host)
		kv_wire(sb, "host", inc->host ? inc->host : host);
	else
		sb_adds(sb, "\"host\": null");
	sb_adds(sb, ", \"pid\": ");
	json_id(sb, inc->pid);
	sb_adds(sb, ", ");
	kv_wire(sb, "name", inc->name);
	sb_adds(sb, ", \"tid\": ");
	json_id(sb, inc->tid);
	who_part(sb, inc);
	sb_adds(sb, ", ");
	json_member(sb, TAX_KEY_CODE, code_name(inc->code));
	sb_adds(sb, ", ");
	if (inc->reported_code)
		kv_wire(sb, "reported_code", inc->reported_code);
	else
		sb_adds(sb, "\"reported_code\": null");
	sb_adds(sb, ", ");
	json_member(sb, TAX_KEY_RESOURCE, resource_name(inc->resource));
	sb_adds(sb, ", ");
	json_member(sb, TAX_KEY_CAUSE, cause_name(inc->cause));
	sb_adds(sb, ", \"first_seen\": ");
	json_time(sb, inc->first);
	sb_adds(sb, ", \"last_seen\": ");
	json_time(sb, inc->last);
	zone_part(sb, inc);
	sb_adds(sb, ", ");
	kv_wire(sb, "file", inc->file);
	sb_adds(sb, ", \"line\": ");
	json_ulong(sb, inc->line);
	sb_adds(sb, ", \"lines\": ");
	json_ulong(sb, inc->nlines);
	sb_adds(sb, ", \"fields\": {");
	fields_part(sb, inc, start);
	/* The language of summary and fix (keys, codes, resources and
	 * causes are English always). */
	char lang[I18N_LANG_MAX];
	sb_adds(sb, "}, ");
	json_member(sb, "lang", cat ? catalog_lang(cat) : i18n_lang(lang));
	sb_adds(sb, ", ");
	render_text(sb, "summary", inc, cat);
	if (flags & INCIDENT_JSON_NO_FIX) {
		sb_adds(sb, ", \"fix\": null}");
		return;
	}
	sb_adds(sb, ", ");
	render_text(sb, "fix", inc, cat);
	sb_adds(sb, "}");
}

/* ---- reading: what another plogtop wrote, as hostile input ---- */

static int digits_at(const char *s, int n, int *v)
{
	*v = 0;
	for (int i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		*v = *v * 10 + (s[i] - '0');
	}
	return 0;
}

int iso_logtime(const char *s, logtime_t *t)
{
	int y, mo, d, h, mi, se, us = 0;
	size_t len = strlen(s);

	if (len < 19 || s[4] != '-' || s[7] != '-' || s[10] != 'T' ||
	    s[13] != ':' || s[16] != ':' || digits_at(s, 4, &y) < 0 ||
	    digits_at(s + 5, 2, &mo) < 0 || digits_at(s + 8, 2, &d) < 0 ||
	    digits_at(s + 11, 2, &h) < 0 || digits_at(s + 14, 2, &mi) < 0 ||
	    digits_at(s + 17, 2, &se) < 0)
		return -1;
	if (len > 19) {
		int n = (int)len - 20;
		if (s[19] != '.' || n < 1 || n > 6 || digits_at(s + 20, n, &us) < 0)
			return -1;
		for (; n < 6; n++)
			us *= 10;
	}
	*t = logtime_make(y, mo, d, h, mi, se, us);
	return *t == LOGTIME_UNKNOWN ? -1 : 0;
}

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f'
	       ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

static int hex_at(const char *s, size_t n, unsigned *v)
{
	*v = 0;
	for (size_t i = 0; i < n; i++) {
		int d = hexval(s[i]);
		if (d < 0)
			return -1;
		*v = *v * 16 + (unsigned)d;
	}
	return 0;
}

static void put_cp(struct strbuf *sb, unsigned cp)
{
	if (cp < 0x800) {
		sb_addc(sb, (char)(0xc0 | cp >> 6));
	} else {
		if (cp < 0x10000) {
			sb_addc(sb, (char)(0xe0 | cp >> 12));
		} else {
			sb_addc(sb, (char)(0xf0 | cp >> 18));
			sb_addc(sb, (char)(0x80 | ((cp >> 12) & 0x3f)));
		}
		sb_addc(sb, (char)(0x80 | ((cp >> 6) & 0x3f)));
	}
	sb_addc(sb, (char)(0x80 | (cp & 0x3f)));
}

/* The remote side's text was sanitised there (sanitize.h): its escapes
 * are made the bytes they stand for again, so that this side's one
 * sanitiser writes the same text, not its escapes escaped ("\\x1b").
 * What is no escape of the sanitiser's (or would be a NUL) stays as it
 * is.  The result is no longer than s. */
char *wire_unsanitized(const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned v;

	for (const char *p = s; *p; p++) {
		if (*p != '\\') {
			sb_addc(&sb, *p);
		} else if (p[1] == '\\' || p[1] == 't') {
			sb_addc(&sb, p[1] == 't' ? '\t' : '\\');
			p++;
		} else if (p[1] == 'x' && p[2] && p[3] &&
			   hex_at(p + 2, 2, &v) == 0 && v) {
			sb_addc(&sb, (char)v);
			p += 3;
		} else if (p[1] == 'u' && strlen(p + 2) >= 4 &&
			   hex_at(p + 2, 4, &v) == 0 && v >= 0x80 &&
			   (v < 0xd800 || v > 0xdfff)) {
			put_cp(&sb, v);
			p += 5;
		} else {
			sb_addc(&sb, *p);
		}
	}
	return sb.buf ? sb_detach(&sb) : xstrdup("");
}

static int bad(struct strbuf *err, const char *key, const char *why)
{
	sb_addf(err, "incident \"%s\": %s", key, why);
	return -1;
}

/* A string member of at most WIRE_STRING_MAX bytes; null allowed when
 * nullable (then *out is NULL). */
static int get_str(const struct jval *o, const char *key, int nullable,
		   const char **out, struct strbuf *err)
{
	const struct jval *v = json_get(o, key);

	*out = NULL;
	if (!v)
		return bad(err, key, "missing");
	if (v->type == J_NULL && nullable)
		return 0;
	if (v->type != J_STRING)
		return bad(err, key, "not a string");
	if (v->len > WIRE_STRING_MAX)
		return bad(err, key, "too long");
	*out = v->str;
	return 0;
}

/* An integer member from lo to hi; null (as 0) when nullable. */
static int get_int(const struct jval *o, const char *key, int nullable,
		   long long lo, long long hi, long long *out,
		   struct strbuf *err)
{
	const struct jval *v = json_get(o, key);

	*out = 0;
	if (!v)
		return bad(err, key, "missing");
	if (v->type == J_NULL && nullable)
		return 0;
	if (v->type != J_NUMBER || !v->is_int || v->integer < lo ||
	    v->integer > hi)
		return bad(err, key, "not an integer in range");
	*out = v->integer;
	return 0;
}

/* device or rank: absent (an older plogtop) or null is not known; an
 * integer from 0 to max, with its source ("lines" when it names none),
 * else the incident is refused. */
static int get_who(const struct jval *o, const char *key,
		   const char *from_key, long max, long *v,
		   enum ident_from *from, struct strbuf *err)
{
	const struct jval *j = json_get(o, key), *f = json_get(o, from_key);

	*from = FROM_NONE;
	*v = 0;
	if (!j || j->type == J_NULL)
		return 0;
	if (j->type != J_NUMBER || !j->is_int || j->integer < 0 ||
	    j->integer > max)
		return bad(err, key, "not an integer in range");
	if (f && f->type != J_NULL &&
	    (f->type != J_STRING || ident_from_of_name(f->str) == FROM_NONE))
		return bad(err, from_key, "not \"lines\" or \"process\"");
	*v = (long)j->integer;
	*from = f && f->type == J_STRING ? ident_from_of_name(f->str)
		: FROM_LINES;
	return 0;
}

/* The offsets the host that read the log said (schema 4): "utc_offset"
 * of first_seen, and last_seen's from "last_seen_utc".  Absent (schema
 * 3) or null: found in this host's zone when written. */
static int get_offsets(struct incident *inc, const struct jval *o,
		       struct strbuf *err)
{
	const struct jval *off = json_get(o, "utc_offset");
	const char *lu = json_get_str(o, "last_seen_utc");
	logtime_t u;

	if (!off || off->type == J_NULL)
		return 0;
	if (off->type != J_STRING ||
	    logtime_offset_parse(off->str, &inc->off_first) < 0)
		return bad(err, "utc_offset", "not an offset such as +08:00");
	inc->off_last = inc->off_first;
	inc->has_offsets = 1;
	if (lu && strlen(lu) == 20 && lu[19] == 'Z' && inc->last) {
		char s[20];
		memcpy(s, lu, 19);
		s[19] = '\0';
		long d = (long)((inc->last / 1000000) -
				(iso_logtime(s, &u) == 0 ? u / 1000000 : 0));
		if (d >= -LOGTIME_OFFSET_MAX && d <= LOGTIME_OFFSET_MAX)
			inc->off_last = d;
	}
	return 0;
}

static int get_time(const struct jval *o, const char *key, logtime_t *t,
		    struct strbuf *err)
{
	const char *s;

	*t = LOGTIME_UNKNOWN;
	if (get_str(o, key, 1, &s, err) < 0)
		return -1;
	if (s && iso_logtime(s, t) < 0)
		return bad(err, key, "not a log time");
	return 0;
}

/* Field keys are names (rules name them): nothing else is taken. */
static int field_key_ok(const char *k, size_t len)
{
	if (!len || len > WIRE_KEY_MAX)
		return 0;
	for (size_t i = 0; i < len; i++) {
		char c = k[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '-' ||
		      c == '.'))
			return 0;
	}
	return 1;
}

static int get_fields(struct incident *inc, const struct jval *o,
		      struct strbuf *err)
{
	const struct jval *f = json_get(o, "fields");

	if (!f)
		return 0;
	if (f->type != J_OBJECT)
		return bad(err, "fields", "not an object");
	if (f->n > WIRE_FIELDS_MAX)
		return bad(err, "fields", "too many");
	for (size_t i = 0; i < f->n; i++) {
		const struct jmember *mb = &f->members[i];
		if (!field_key_ok(mb->key, strlen(mb->key)))
			return bad(err, "fields", "a key that is not a name");
		const struct jval *fv = &mb->value;
		/* Schema 4 writes decimal integers as numbers: taken back as
		 * the same text (schema 3 wrote them as strings). */
		if (fv->type == J_NUMBER) {
			char num[32];
			unsigned long long mag = fv->integer < 0
				? -(unsigned long long)fv->integer
				: (unsigned long long)fv->integer;
			if (!fv->is_int || mag > FIELD_NUMBER_MAX)
				return bad(err, "fields", "a number that is not "
					   "an integer of at most 2^53");
			snprintf(num, sizeof num, "%lld", fv->integer);
			incident_set_field(inc, mb->key, num, strlen(num));
			continue;
		}
		if (fv->type != J_STRING || fv->len > WIRE_STRING_MAX)
			return bad(err, "fields", "a value that is not a "
				   "short string or an integer");
		char *raw = wire_unsanitized(mb->value.str);
		incident_set_field(inc, mb->key, raw, strlen(raw));
		free(raw);
	}
	incident_sort_fields(inc);
	return 0;
}

static int get_class(struct incident *inc, const struct jval *o,
		     struct strbuf *err)
{
	const char *code, *res, *cause;

	if (get_str(o, TAX_KEY_CODE, 0, &code, err) < 0 ||
	    get_str(o, TAX_KEY_RESOURCE, 0, &res, err) < 0 ||
	    get_str(o, TAX_KEY_CAUSE, 0, &cause, err) < 0)
		return -1;
	inc->code = code_from_name(code);
	if (inc->code == CODE_NONE)
		return bad(err, TAX_KEY_CODE, "not EE1023 or EE1001");
	/* A newer plogtop may know resources and causes this one does
	 * not: counted as unknown rather than lost. */
	inc->resource = resource_from_name(res);
	if (inc->resource == RES_NONE)
		inc->resource = RES_UNKNOWN;
	inc->cause = cause_from_name(cause);
	if (inc->cause == CAUSE_NONE)
		inc->cause = CAUSE_UNKNOWN;
	return 0;
}

struct incident *incident_json_read(struct model *m, const struct jval *o,
				    const char *host, struct strbuf *err)
{
	struct incident *inc = xcalloc(1, sizeof *inc);
	const char *name, *reported, *file;
	long long pid, tid, line, lines;

	inc->first = inc->last = LOGTIME_UNKNOWN;
	if (o->type != J_OBJECT) {
		bad(err, "", "not an object");
		goto fail;
	}
	if (get_int(o, "pid", 1, 1, LONG_MAX, &pid, err) < 0 ||
	    get_int(o, "tid", 1, 1, LONG_MAX, &tid, err) < 0 ||
	    get_str(o, "name", 0, &name, err) < 0 ||
	    get_str(o, "reported_code", 1, &reported, err) < 0 ||
	    get_str(o, "file", 0, &file, err) < 0 ||
	    get_int(o, "line", 0, 0, LONG_MAX, &line, err) < 0 ||
	    get_int(o, "lines", 0, 0, UINT_MAX, &lines, err) < 0 ||
	    get_time(o, "first_seen", &inc->first, err) < 0 ||
	    get_time(o, "last_seen", &inc->last, err) < 0 ||
	    get_offsets(inc, o, err) < 0 ||
	    get_class(inc, o, err) < 0 || get_fields(inc, o, err) < 0 ||
	    get_who(o, "device", "device_from", VIEW_DEVICE_MAX,
		    &inc->device, &inc->device_from, err) < 0 ||
	    get_who(o, "rank", "rank_from", VIEW_RANK_MAX, &inc->rank,
		    &inc->rank_from, err) < 0)
		goto fail;
	inc->host = host;
	inc->pid = (long)pid;
	inc->tid = (long)tid;
	inc->name = wire_unsanitized(name);
	inc->reported_code = reported ? wire_unsanitized(reported) : NULL;
	inc->line = (unsigned long)line;
	inc->nlines = (unsigned)lines;
	char *path = wire_unsanitized(file);
	inc->file = model_intern(m, path);
	free(path);
	return inc;
fail:
	incident_free(inc);
	return NULL;
}
