#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "i18n.h"
#include "fileio.h"
#include "hostspec.h"
#include "sanitize.h"
#include "xalloc.h"

#define HOSTFILE_MAX (1u << 20)
#define RANGE_MAX 100000ul	/* the largest number a range may name */

/* The end of an IPv6 literal "[...]" at s, or NULL. */
static const char *bracket_end(const char *s)
{
	return *s == '[' ? strchr(s, ']') : NULL;
}

int hostspec_split(const char *word, char **host, char **path)
{
	const char *at = strchr(word, '@');
	const char *h = word, *colon;

	/* user@[::1]:path: the colon is after the brackets. */
	if (at && at < word + strcspn(word, ":/"))
		h = at + 1;
	const char *close = bracket_end(h);
	colon = strchr(close ? close : word, ':');
	if (!colon || colon == word)
		return 0;
	const char *slash = strchr(word, '/');
	if (slash && slash < colon)
		return 0;
	*host = xstrndup(word, (size_t)(colon - word));
	*path = xstrdup(colon + 1);
	return 1;
}

static int bad(struct strbuf *err, const char *host, const char *why)
{
	sb_adds(err, _("not a host name: '"));
	sanitize(err, host, strlen(host));
	sb_addf(err, "' (%s)", why);
	return -1;
}

/* Letters, digits, '.', '-' and '_' (ssh config aliases use it). */
static int name_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '_';
}

static int ipv6_char(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	       (c >= 'A' && c <= 'F') || c == ':' || c == '.';
}

static int valid_part(const char *s, size_t n, int ipv6)
{
	if (!n)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!(ipv6 ? ipv6_char((unsigned char)s[i])
			   : name_char((unsigned char)s[i])))
			return 0;
	return 1;
}

int host_valid(const char *host, struct strbuf *err)
{
	size_t len = strlen(host);

	if (!len)
		return bad(err, host, "empty");
	if (len > HOST_NAME_MAX_LEN)
		return bad(err, host, _("longer than 255 bytes"));
	/* Never an option of ssh, whatever follows. */
	if (host[0] == '-')
		return bad(err, host, _("starts with '-'"));
	const char *at = strchr(host, '@');
	const char *h = host;
	if (at) {
		if (!valid_part(host, (size_t)(at - host), 0))
			return bad(err, host, _("a user name is letters, digits, "
				   "'.', '-' and '_'"));
		h = at + 1;
	}
	if (*h == '-' || *h == '.')
		return bad(err, host, _("starts with '-' or '.'"));
	if (*h == '[') {
		size_t n = strlen(h);
		if (n < 3 || h[n - 1] != ']' || !valid_part(h + 1, n - 2, 1))
			return bad(err, host, _("an IPv6 address is hex digits "
				   "and ':' in brackets"));
		return 0;
	}
	if (!valid_part(h, strlen(h), 0))
		return bad(err, host, _("a host name is letters, digits, '.', "
			   "'-' and '_'"));
	return 0;
}

int hostlist_add_path(struct hostlist *hl, const char *host,
		      const char *path, struct strbuf *err)
{
	if (!path)
		path = "";
	if (host_valid(host, err) < 0)
		return -1;
	if (strlen(path) > HOST_PATH_MAX) {
		sb_addf(err, _("a host's path longer than %u bytes"),
			HOST_PATH_MAX);
		return -1;
	}
	if (++hl->named > HOST_NAMES_MAX) {
		sb_addf(err, _("more than %u host names (duplicates "
			       "included)"), HOST_NAMES_MAX);
		return -1;
	}
	for (size_t i = 0; i < hl->n; i++)
		if (strcmp(hl->v[i], host) == 0 &&
		    strcmp(hl->path[i], path) == 0)
			return 0;
	if (hl->n >= HOSTS_MAX) {
		sb_addf(err, _("more than %u hosts"), HOSTS_MAX);
		return -1;
	}
	hl->v = xrealloc(hl->v, (hl->n + 1) * sizeof *hl->v);
	hl->path = xrealloc(hl->path, (hl->n + 1) * sizeof *hl->path);
	hl->path[hl->n] = xstrdup(path);
	hl->v[hl->n++] = xstrdup(host);
	return 0;
}


void hostlist_free(struct hostlist *hl)
{
	for (size_t i = 0; i < hl->n; i++) {
		free(hl->v[i]);
		free(hl->path[i]);
	}
	free(hl->v);
	free(hl->path);
	hl->v = NULL;
	hl->path = NULL;
	hl->n = 0;
	hl->named = 0;
}

/* ---- pdsh ranges ---- */

static int range_error(struct strbuf *err, const char *word, const char *why)
{
	sb_adds(err, _("bad host range '"));
	sanitize(err, word, strlen(word));
	sb_addf(err, "' (%s)", why);
	return -1;
}

static int number(const char *s, size_t n, unsigned long *v)
{
	if (!n || n > 6)
		return -1;
	*v = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		*v = *v * 10 + (unsigned long)(s[i] - '0');
	}
	return *v <= RANGE_MAX ? 0 : -1;
}

static int expand(struct hostlist *hl, const char *word, const char *path,
		  struct strbuf *err);

/* One item of a range, n bytes at p: N or LOW-HIGH.  Returns NULL, or
 * what is wrong with it. */
static const char *range_item(const char *p, size_t n, unsigned long *lo,
			      unsigned long *hi, size_t *lolen)
{
	const char *dash = memchr(p, '-', n);

	*lolen = dash ? (size_t)(dash - p) : n;
	if (number(p, *lolen, lo) < 0 ||
	    (dash ? number(dash + 1, n - *lolen - 1, hi) : (*hi = *lo, 0)) < 0)
		return _("items are N or LOW-HIGH");
	if (*hi < *lo)
		return _("HIGH below LOW");
	if (*hi - *lo >= HOSTS_MAX)
		return _("too many hosts");
	return NULL;
}

/* word = prefix[items]suffix: each item a number or LOW-HIGH, padded to
 * the width of LOW when it has leading zeros (node[01-16]).  The word
 * was checked whole (check_word) before. */
static int expand_bracket(struct hostlist *hl, const char *word,
			  const char *open, const char *close,
			  const char *path, struct strbuf *err)
{
	for (const char *p = open + 1; p < close;) {
		size_t n = strcspn(p, ",]"), lolen;
		unsigned long lo, hi;
		const char *why = range_item(p, n, &lo, &hi, &lolen);
		if (why)
			return range_error(err, word, why);
		int width = p[0] == '0' && lolen > 1 ? (int)lolen : 0;
		for (unsigned long v = lo; v <= hi; v++) {
			struct strbuf h = STRBUF_INIT;
			sb_add(&h, word, (size_t)(open - word));
			sb_addf(&h, "%0*lu%s", width, v, close + 1);
			int rc = expand(hl, h.buf, path, err);
			sb_free(&h);
			if (rc < 0)
				return -1;
		}
		p += n + (p[n] == ',');
	}
	return 0;
}

/* The next range of a word from s on (brackets holding ':' are an IPv6
 * address, not a range), or NULL; *close is its ']', NULL if none. */
static const char *next_range(const char *s, const char **close)
{
	for (const char *open = strchr(s, '['); open;
	     open = strchr(*close, '[')) {
		*close = strchr(open, ']');
		if (!*close || !memchr(open, ':', (size_t)(*close - open)))
			return open;
	}
	*close = NULL;
	return NULL;
}

/* A word may hold several ranges: the first is expanded, each result
 * expanded again. */
static int expand(struct hostlist *hl, const char *word, const char *path,
		  struct strbuf *err)
{
	const char *close, *open = next_range(word, &close);

	return open ? expand_bracket(hl, word, open, close, path, err)
		    : hostlist_add_path(hl, word, path, err);
}

/* A word is checked whole before any name is made: "[1-7][1-7]..."
 * names 7^k hosts, and making them to find out, or to reach a bad range
 * at the end, would take exponential time.  Returns NULL, or what is
 * wrong with the word. */
static const char *check_word(const char *word)
{
	unsigned long total = 1;
	size_t ranges = 0, shortest = strlen(word);
	const char *close;

	for (const char *open = next_range(word, &close); open;
	     open = next_range(close, &close)) {
		if (!close)
			return _("no ']'");
		if (close == open + 1)
			return _("items are N or LOW-HIGH");
		if (++ranges > HOST_RANGES_MAX)
			return _("too many ranges");
		unsigned long here = 0;
		for (const char *p = open + 1; p < close;) {
			size_t n = strcspn(p, ",]"), lolen;
			unsigned long lo, hi;
			const char *why = range_item(p, n, &lo, &hi, &lolen);
			if (why)
				return why;
			here += hi - lo + 1;
			p += n + (p[n] == ',');
		}
		if (here > HOSTS_MAX || total * here > HOSTS_MAX)
			return _("too many hosts");
		total *= here;
		/* A range makes one character at least. */
		shortest -= (size_t)(close - open);
	}
	if (shortest > HOST_NAME_MAX_LEN)
		return _("longer than 255 bytes");
	return NULL;
}

/* The colon that ends a word's hosts and starts its path: the first
 * outside brackets (node[01-02]:/p, [::1]:/p, user@[::1]:/p), or NULL. */
static const char *path_colon(const char *word, size_t n)
{
	int depth = 0;

	for (size_t i = 0; i < n; i++) {
		depth += word[i] == '[' ? 1 : word[i] == ']' ? -1 : 0;
		if (word[i] == ':' && depth <= 0)
			return word + i;
	}
	return NULL;
}

/* The length of the next word of a -H list at p: up to a comma outside
 * brackets (a range's comma belongs to it), and after the path's colon
 * up to the next comma. */
static size_t list_word(const char *p)
{
	size_t n = 0;
	int depth = 0;

	while (p[n] && (depth || p[n] != ',')) {
		if (p[n] == ':' && depth <= 0)
			return n + strcspn(p + n, ",");
		depth += p[n] == '[' ? 1 : p[n] == ']' ? -1 : 0;
		n++;
	}
	return n;
}

/* One word HOSTS[:PATH] of a -H list, n bytes at p. */
static int list_item(struct hostlist *hl, const char *p, size_t n,
		     const char *def_path, struct strbuf *err)
{
	const char *colon = path_colon(p, n);
	size_t hn = colon ? (size_t)(colon - p) : n;

	if (!hn) {
		char *whole = xstrndup(p, n);
		range_error(err, whole, _("an empty name"));
		free(whole);
		return -1;
	}
	char *word = xstrndup(p, hn);
	char *path = colon ? xstrndup(colon + 1, n - hn - 1)
			   : xstrdup(def_path ? def_path : "");
	const char *why = check_word(word);
	int rc = why ? range_error(err, word, why)
		     : expand(hl, word, path, err);
	free(word);
	free(path);
	return rc;
}

/* A list whose words without a path of their own read def_path. */
static int expand_list(struct hostlist *hl, const char *list,
		       const char *def_path, struct strbuf *err)
{
	const char *p = list;

	if (!*list)
		return range_error(err, list, "empty");
	while (*p) {
		size_t n = list_word(p);
		if (!n)
			return range_error(err, list, _("an empty name"));
		if (list_item(hl, p, n, def_path, err) < 0)
			return -1;
		p += n + (p[n] == ',');
	}
	return 0;
}

int hostlist_expand(struct hostlist *hl, const char *list, struct strbuf *err)
{
	return expand_list(hl, list, "", err);
}

/* ---- host files ---- */

/* "slots=8", "max_slots=16", "max-slots=16": words after the host. */
static int slot_word(const char *w, size_t n)
{
	const char *eq = memchr(w, '=', n);
	unsigned long v;

	if (!eq || eq == w)
		return 0;
	for (const char *k = w; k < eq; k++)
		if (!name_char((unsigned char)*k))
			return 0;
	return number(eq + 1, (size_t)(w + n - eq - 1), &v) == 0;
}

/* "path=PATH" among the words after the host: PATH, or NULL. */
static const char *path_word(const char *w, size_t n)
{
	return n > 5 && memcmp(w, "path=", 5) == 0 ? w + 5 : NULL;
}

/* The words after a line's host: slots=N and the like, and at most one
 * path=PATH (into *path, unless the host had one: two is an error). */
static int hostfile_words(const char *p, const char *end, char **path,
			  struct strbuf *err)
{
	while (p < end) {
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		size_t w = 0;
		while (p + w < end && p[w] != ' ' && p[w] != '\t')
			w++;
		const char *pv = w ? path_word(p, w) : NULL;
		if (pv && *path) {
			sb_adds(err, _("two paths for one host: '"));
			sanitize(err, p, w);
			sb_adds(err, "'");
			return -1;
		}
		if (pv) {
			*path = xstrndup(pv, w - 5);
		} else if (w && !slot_word(p, w)) {
			sb_adds(err, _("after the host, only slots=N, path=PATH "
				"and the like: '"));
			sanitize(err, p, w);
			sb_adds(err, "'");
			return -1;
		}
		p += w;
	}
	return 0;
}

static int hostfile_line(struct hostlist *hl, const char *line, size_t len,
			 const char *def_path, struct strbuf *err)
{
	const char *end = line + len;
	const char *p = line;
	char *host = NULL, *path = NULL;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	size_t n = 0;
	while (p + n < end && p[n] != ' ' && p[n] != '\t')
		n++;
	if (!n)
		return 0;
	host = xstrndup(p, n);
	/* MPICH's host:slots, or host:PATH. */
	char *colon = (char *)path_colon(host, n);
	unsigned long v;
	if (colon) {
		if (number(colon + 1, strlen(colon + 1), &v) < 0 && colon[1])
			path = xstrdup(colon + 1);
		*colon = '\0';
	}
	int rc = hostfile_words(p + n, end, &path, err);
	if (rc == 0)
		rc = expand_list(hl, host, path ? path : def_path, err);
	free(host);
	free(path);
	return rc;
}

int hostfile_parse(struct hostlist *hl, const char *name, const char *text,
		   size_t len, const char *def_path, struct strbuf *err)
{
	const char *p = text, *end = text + len;

	for (unsigned long lineno = 1; p < end; lineno++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		const char *hash = memchr(p, '#', n);
		size_t keep = hash ? (size_t)(hash - p) : n;
		while (keep && (p[keep - 1] == '\r' || p[keep - 1] == ' ' ||
				p[keep - 1] == '\t'))
			keep--;
		struct strbuf why = STRBUF_INIT;
		if (memchr(p, '\0', n)) {
			sb_adds(&why, _("a NUL byte"));
		} else if (hostfile_line(hl, p, keep, def_path, &why) < 0) {
			;
		}
		if (why.len) {
			sanitize(err, name, strlen(name));
			sb_addf(err, ":%lu: %s", lineno, why.buf);
			sb_free(&why);
			return -1;
		}
		sb_free(&why);
		p += n + 1;
	}
	return 0;
}

int hostfile_load(struct hostlist *hl, const char *path,
		  const char *def_path, struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT;
	int rc = read_data_file(path, _("host file"), HOSTFILE_MAX, &text, err);

	if (rc == 0)
		rc = hostfile_parse(hl, path, text.buf ? text.buf : "",
				    text.len, def_path, err);
	sb_free(&text);
	return rc;
}

static void hostfile_arg_split(const char *arg, char **file, char **path)
{
	struct stat st;
	const char *at = strchr(arg, ':');

	if (!at || stat(arg, &st) == 0) {
		*file = xstrdup(arg);
		*path = xstrdup("");
		return;
	}
	/* A file whose name holds a colon is still a file. */
	for (const char *c = at; c; c = strchr(c + 1, ':')) {
		char *f = xstrndup(arg, (size_t)(c - arg));
		int is = stat(f, &st) == 0;
		free(f);
		if (is) {
			at = c;
			break;
		}
	}
	*file = xstrndup(arg, (size_t)(at - arg));
	*path = xstrdup(at + 1);
}

int hostfile_load_arg(struct hostlist *hl, const char *arg,
		      struct strbuf *err)
{
	char *file, *path;

	hostfile_arg_split(arg, &file, &path);
	int rc = hostfile_load(hl, file, path, err);
	free(file);
	free(path);
	return rc;
}
