/* The node and the job from a file's path (pathhost.h). */
#include "config.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "i18n.h"
#include "pathhost.h"
#include "xalloc.h"

struct pathhost {
	int off;		/* none: no rule */
	pcre2_code *re;		/* a user's pattern, or NULL: built-in */
	int host_group, job_group;	/* their numbers, job's <= 0: none */
};

/* ---- the built-in layouts ---- */

struct seg {
	const char *s;
	size_t n;
};

static int seg_is(struct seg g, const char *word)
{
	return strlen(word) == g.n && memcmp(g.s, word, g.n) == 0;
}

static int is_address(struct seg g)
{
	char buf[64];
	unsigned char addr[16];

	if (g.n == 0 || g.n >= sizeof buf)
		return 0;
	memcpy(buf, g.s, g.n);
	buf[g.n] = '\0';
	return inet_pton(AF_INET, buf, addr) == 1 ||
	       (strchr(buf, ':') && inet_pton(AF_INET6, buf, addr) == 1);
}

static int is_anchor(struct seg g)
{
	return seg_is(g, "plogs") || seg_is(g, "plog");
}

/* A task id: a digit in it, and not a word of the layout itself nor an
 * address (pathhost.h says why). */
static int is_task(struct seg g)
{
	static const char *const words[] = {
		"log", "logs", "plog", "plogs", "run", "debug", "security",
	};
	int digit = 0;

	if (g.n == 0 || g.n > PATHHOST_MAX || is_address(g) ||
	    (g.n > 7 && memcmp(g.s, "device-", 7) == 0) ||
	    seg_is(g, ".") || seg_is(g, ".."))
		return 0;
	for (size_t i = 0; i < sizeof words / sizeof *words; i++)
		if (seg_is(g, words[i]))
			return 0;
	for (size_t i = 0; i < g.n; i++)
		digit |= isdigit((unsigned char)g.s[i]) != 0;
	return digit;
}

/* The rule's name: which word, which side the IP is on, and whether a
 * task id stood on the other. */
static const char *const rule_names[2][2][2] = {
	{ { "layout:IP/plog", "layout:IP/plog/TASK" },
	  { "layout:plog/IP", "layout:TASK/plog/IP" } },
	{ { "layout:IP/plogs", "layout:IP/plogs/TASK" },
	  { "layout:plogs/IP", "layout:TASK/plogs/IP" } },
};

static const char *rule_name(int plogs, int ip_after, int task)
{
	return rule_names[plogs != 0][ip_after != 0][task != 0];
}

const char *pathhost_rule_named(const char *name)
{
	const char *const *v = &rule_names[0][0][0];

	for (size_t i = 0; i < 8; i++)
		if (strcmp(v[i], name) == 0)
			return v[i];
	return strcmp(name, PATHHOST_PATTERN_RULE) == 0
	       ? PATHHOST_PATTERN_RULE : NULL;
}

static void take(char *dst, struct seg g)
{
	size_t n = g.n > PATHHOST_MAX ? PATHHOST_MAX : g.n;

	memcpy(dst, g.s, n);
	dst[n] = '\0';
}

#define MAX_SEGS 256

/* The directories of path (not its last part, the file's name). */
static size_t split_dirs(const char *path, struct seg *v)
{
	size_t n = 0;
	const char *p = path;

	while (*p && n < MAX_SEGS) {
		while (*p == '/')
			p++;
		const char *slash = strchr(p, '/');
		if (!slash)
			break;	/* the file's own name */
		struct seg g = { p, (size_t)(slash - p) };
		/* An archive's member is named ARCHIVE:MEMBER
		 * (bundle.tar.gz:task-42/plogs/...): the member's first
		 * directory stands after the colon. */
		const char *colon = memchr(g.s, ':', g.n);
		if (colon && colon > g.s && colon + 1 < slash &&
		    !is_address(g) && n + 1 < MAX_SEGS) {
			v[n++] = (struct seg){ g.s, (size_t)(colon - g.s) };
			g = (struct seg){ colon + 1,
					  (size_t)(slash - colon - 1) };
		}
		v[n++] = g;
		p = slash;
	}
	return n;
}

/* The anchor at i with its IP at ip and the task, if any, at other. */
static int found(const char *path, const struct seg *v, size_t nv,
		 size_t i, size_t ip, struct pathhost_match *out)
{
	size_t other = ip > i ? i - 1 : i + 1;
	int has_other = ip > i ? i > 0 : i + 1 < nv;
	int task = has_other && is_task(v[other]);

	take(out->host, v[ip]);
	out->job[0] = '\0';
	if (task)
		take(out->job, v[other]);
	out->origin_len = (size_t)(v[ip].s + v[ip].n - path);
	out->rule = rule_name(seg_is(v[i], "plogs"), ip > i, task);
	return 1;
}

int pathhost_layout(const char *path, struct pathhost_match *out)
{
	struct seg v[MAX_SEGS];
	size_t nv = split_dirs(path, v);

	for (size_t i = 0; i < nv; i++) {
		if (!is_anchor(v[i]))
			continue;
		if (i + 1 < nv && is_address(v[i + 1]))
			return found(path, v, nv, i, i + 1, out);
		if (i > 0 && is_address(v[i - 1]))
			return found(path, v, nv, i, i - 1, out);
	}
	return 0;
}

/* ---- a user's pattern ---- */

struct pathhost *pathhost_new(const char *pattern, struct strbuf *err)
{
	struct pathhost *ph = xcalloc(1, sizeof *ph);

	if (!pattern)
		return ph;
	if (strcmp(pattern, "none") == 0) {
		ph->off = 1;
		return ph;
	}
	int code;
	PCRE2_SIZE off;
	ph->re = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED,
			       0, &code, &off, NULL);
	if (!ph->re) {
		PCRE2_UCHAR msg[256];
		pcre2_get_error_message(code, msg, sizeof msg);
		sb_addf(err, _("bad --host-from-path pattern: %s at offset "
			       "%zu"), (char *)msg, (size_t)off);
		free(ph);
		return NULL;
	}
	ph->host_group = pcre2_substring_number_from_name(ph->re,
						(PCRE2_SPTR)"host");
	ph->job_group = pcre2_substring_number_from_name(ph->re,
						(PCRE2_SPTR)"job");
	if (ph->host_group <= 0) {
		sb_adds(err, _("bad --host-from-path pattern: it has no group "
			       "named host, (?<host>...)"));
		pathhost_free(ph);
		return NULL;
	}
	return ph;
}

void pathhost_free(struct pathhost *ph)
{
	if (!ph)
		return;
	pcre2_code_free(ph->re);
	free(ph);
}

/* Group g of the match, into dst; 0 when it took no part or is empty. */
static int group(const char *path, const PCRE2_SIZE *ov, int g, char *dst,
		 size_t *end)
{
	PCRE2_SIZE a = ov[2 * g], b = ov[2 * g + 1];

	dst[0] = '\0';
	if (g <= 0 || a == PCRE2_UNSET || b <= a)
		return 0;
	size_t n = b - a > PATHHOST_MAX ? PATHHOST_MAX : b - a;
	memcpy(dst, path + a, n);
	dst[n] = '\0';
	if (end)
		*end = b;
	return 1;
}

static int pattern_match(const struct pathhost *ph, const char *path,
			 struct pathhost_match *out)
{
	pcre2_match_data *md = pcre2_match_data_create_from_pattern(ph->re,
								    NULL);
	int rc = pcre2_match(ph->re, (PCRE2_SPTR)path, strlen(path), 0, 0, md,
			     NULL);
	int ok = 0;

	if (rc > 0) {
		const PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
		uint32_t n = pcre2_get_ovector_count(md);
		if ((uint32_t)ph->host_group < n &&
		    group(path, ov, ph->host_group, out->host,
			  &out->origin_len)) {
			ok = 1;
			if (ph->job_group <= 0 || (uint32_t)ph->job_group >= n ||
			    !group(path, ov, ph->job_group, out->job, NULL))
				out->job[0] = '\0';
			out->rule = PATHHOST_PATTERN_RULE;
		}
	}
	pcre2_match_data_free(md);
	return ok;
}

int pathhost_match(const struct pathhost *ph, const char *path,
		   struct pathhost_match *out)
{
	if (!ph || ph->off || !path)
		return 0;
	if (ph->re)
		return pattern_match(ph, path, out);
	return pathhost_layout(path, out);
}
