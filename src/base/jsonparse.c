#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "jsonparse.h"
#include "xalloc.h"

struct parser {
	const unsigned char *s, *end, *p;
	struct json_limits lim;
	size_t values;
	struct strbuf *err;
	int failed;
};

static int fail(struct parser *ps, const char *why)
{
	if (!ps->failed)
		sb_addf(ps->err, "offset %zu: %s", (size_t)(ps->p - ps->s), why);
	ps->failed = 1;
	return -1;
}

static void skip_ws(struct parser *ps)
{
	while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' ||
				   *ps->p == '\n' || *ps->p == '\r'))
		ps->p++;
}

static int literal(struct parser *ps, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n) != 0)
		return fail(ps, "not a JSON value");
	ps->p += n;
	return 0;
}

static int digits(struct parser *ps)
{
	const unsigned char *start = ps->p;

	while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9')
		ps->p++;
	return ps->p > start ? 0 : fail(ps, "a digit expected");
}

/* Exact for integers; an approximation is enough for the rest (plogtop
 * reads no fraction it relies on). */
static int number(struct parser *ps, struct jval *v)
{
	const unsigned char *start = ps->p;
	int neg = 0, overflow = 0;
	unsigned long long mag = 0;

	if (*ps->p == '-') {
		neg = 1;
		ps->p++;
	}
	if (ps->p < ps->end && *ps->p == '0') {
		ps->p++;
	} else if (digits(ps) < 0) {
		return -1;
	}
	for (const unsigned char *d = start + neg; d < ps->p; d++) {
		if (mag > (9223372036854775807ULL - (unsigned)(*d - '0')) / 10)
			overflow = 1;
		else
			mag = mag * 10 + (unsigned)(*d - '0');
	}
	double num = 0;
	for (const unsigned char *d = start + neg; d < ps->p; d++)
		num = num * 10 + (*d - '0');
	int frac = 0;
	if (ps->p < ps->end && *ps->p == '.') {
		ps->p++;
		const unsigned char *f = ps->p;
		if (digits(ps) < 0)
			return -1;
		double scale = 0.1;
		for (; f < ps->p; f++, scale /= 10)
			num += (*f - '0') * scale;
		frac = 1;
	}
	if (ps->p < ps->end && (*ps->p == 'e' || *ps->p == 'E')) {
		ps->p++;
		int eneg = 0;
		if (ps->p < ps->end && (*ps->p == '+' || *ps->p == '-'))
			eneg = *ps->p++ == '-';
		const unsigned char *e = ps->p;
		if (digits(ps) < 0)
			return -1;
		int ex = 0;
		for (; e < ps->p && ex < 400; e++)
			ex = ex * 10 + (*e - '0');
		while (ex-- > 0 && num != 0 && num < 1e308)
			num = eneg ? num / 10 : num * 10;
		frac = 1;
	}
	v->type = J_NUMBER;
	v->number = neg ? -num : num;
	v->is_int = !frac && !overflow;
	v->integer = neg ? -(long long)mag : (long long)mag;
	return 0;
}

static int hex4(struct parser *ps, unsigned *cp)
{
	*cp = 0;
	if (ps->end - ps->p < 4)
		return fail(ps, "a short \\u escape");
	for (int i = 0; i < 4; i++) {
		unsigned char c = *ps->p++;
		unsigned d = c >= '0' && c <= '9' ? c - '0'
			   : c >= 'a' && c <= 'f' ? c - 'a' + 10
			   : c >= 'A' && c <= 'F' ? c - 'A' + 10 : 16;
		if (d > 15)
			return fail(ps, "a bad \\u escape");
		*cp = *cp * 16 + d;
	}
	return 0;
}

static void put_utf8(struct strbuf *sb, unsigned cp)
{
	if (cp < 0x80) {
		sb_addc(sb, (char)cp);
	} else if (cp < 0x800) {
		sb_addc(sb, (char)(0xc0 | cp >> 6));
		sb_addc(sb, (char)(0x80 | (cp & 0x3f)));
	} else if (cp < 0x10000) {
		sb_addc(sb, (char)(0xe0 | cp >> 12));
		sb_addc(sb, (char)(0x80 | ((cp >> 6) & 0x3f)));
		sb_addc(sb, (char)(0x80 | (cp & 0x3f)));
	} else {
		sb_addc(sb, (char)(0xf0 | cp >> 18));
		sb_addc(sb, (char)(0x80 | ((cp >> 12) & 0x3f)));
		sb_addc(sb, (char)(0x80 | ((cp >> 6) & 0x3f)));
		sb_addc(sb, (char)(0x80 | (cp & 0x3f)));
	}
}

static int escape(struct parser *ps, struct strbuf *sb)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	unsigned cp, lo;

	if (ps->p >= ps->end)
		return fail(ps, "an unfinished escape");
	unsigned char c = *ps->p++;
	const char *k = c ? strchr(from, c) : NULL;
	if (k) {
		sb_addc(sb, to[k - from]);
		return 0;
	}
	if (c != 'u')
		return fail(ps, "an unknown escape");
	if (hex4(ps, &cp) < 0)
		return -1;
	if (cp >= 0xdc00 && cp <= 0xdfff)
		return fail(ps, "a lone low surrogate");
	if (cp >= 0xd800 && cp <= 0xdbff) {
		if (ps->end - ps->p < 2 || ps->p[0] != '\\' || ps->p[1] != 'u')
			return fail(ps, "a lone high surrogate");
		ps->p += 2;
		if (hex4(ps, &lo) < 0)
			return -1;
		if (lo < 0xdc00 || lo > 0xdfff)
			return fail(ps, "a high surrogate without its low one");
		cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
	}
	if (cp == 0)
		return fail(ps, "a NUL character in a string");
	put_utf8(sb, cp);
	return 0;
}

/* The length of the valid UTF-8 sequence at p, or 0. */
static size_t utf8_len(const unsigned char *p, const unsigned char *end)
{
	unsigned char c = p[0];
	size_t n = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3
		 : c >= 0xc2 && c <= 0xdf ? 2 : 0;

	if (!n || (size_t)(end - p) < n)
		return 0;
	for (size_t i = 1; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	if ((c == 0xe0 && p[1] < 0xa0) || (c == 0xed && p[1] > 0x9f) ||
	    (c == 0xf0 && p[1] < 0x90) || (c == 0xf4 && p[1] > 0x8f))
		return 0;	/* overlong, surrogate, above U+10FFFF */
	return n;
}

static int string(struct parser *ps, char **out, size_t *outlen)
{
	struct strbuf sb = STRBUF_INIT;

	ps->p++;	/* the opening quote */
	while (ps->p < ps->end && *ps->p != '"') {
		unsigned char c = *ps->p;
		int rc = 0;
		if (c < 0x20) {
			rc = fail(ps, "a control character in a string");
		} else if (c == '\\') {
			ps->p++;
			rc = escape(ps, &sb);
		} else if (c < 0x80) {
			sb_addc(&sb, (char)c);
			ps->p++;
		} else {
			size_t n = utf8_len(ps->p, ps->end);
			if (!n)
				rc = fail(ps, "invalid UTF-8 in a string");
			sb_add(&sb, ps->p, n);
			ps->p += n;
		}
		if (rc == 0 && sb.len > ps->lim.max_string)
			rc = fail(ps, "a string over the size limit");
		if (rc < 0) {
			sb_free(&sb);
			return -1;
		}
	}
	if (ps->p >= ps->end) {
		sb_free(&sb);
		return fail(ps, "an unfinished string");
	}
	ps->p++;
	*outlen = sb.len;
	*out = sb.buf ? sb_detach(&sb) : xstrdup("");
	return 0;
}

static int value(struct parser *ps, struct jval *v, int depth);

/* Takes c when it comes next, after blanks. */
static int take_char(struct parser *ps, char c)
{
	skip_ws(ps);
	if (ps->p < ps->end && *ps->p == c) {
		ps->p++;
		return 1;
	}
	return 0;
}

static int array(struct parser *ps, struct jval *v, int depth)
{
	size_t cap = 0;

	v->type = J_ARRAY;
	ps->p++;
	if (take_char(ps, ']'))
		return 0;
	for (;;) {
		if (v->n == cap) {
			cap = cap ? 2 * cap : 4;
			v->items = xrealloc(v->items, cap * sizeof *v->items);
		}
		memset(&v->items[v->n], 0, sizeof *v->items);
		int rc = value(ps, &v->items[v->n], depth + 1);
		v->n++;
		if (rc < 0)
			return -1;
		if (take_char(ps, ','))
			continue;
		if (take_char(ps, ']'))
			return 0;
		return fail(ps, "',' or ']' expected");
	}
}

static int object(struct parser *ps, struct jval *v, int depth)
{
	size_t cap = 0;

	v->type = J_OBJECT;
	ps->p++;
	if (take_char(ps, '}'))
		return 0;
	for (;;) {
		char *key;
		size_t klen;
		skip_ws(ps);
		if (ps->p >= ps->end || *ps->p != '"')
			return fail(ps, "a key expected");
		if (string(ps, &key, &klen) < 0)
			return -1;
		if (v->n >= JSON_MAX_MEMBERS || json_get(v, key)) {
			free(key);
			return fail(ps, v->n >= JSON_MAX_MEMBERS
				    ? "too many keys in an object"
				    : "a duplicate key");
		}
		if (v->n == cap) {
			cap = cap ? 2 * cap : 8;
			v->members = xrealloc(v->members,
					      cap * sizeof *v->members);
		}
		struct jmember *mb = &v->members[v->n++];
		memset(mb, 0, sizeof *mb);
		mb->key = key;
		if (!take_char(ps, ':'))
			return fail(ps, "':' expected");
		if (value(ps, &mb->value, depth + 1) < 0)
			return -1;
		if (take_char(ps, ','))
			continue;
		if (take_char(ps, '}'))
			return 0;
		return fail(ps, "',' or '}' expected");
	}
}

static int value(struct parser *ps, struct jval *v, int depth)
{
	if (depth > JSON_MAX_DEPTH)
		return fail(ps, "nested too deep");
	if (++ps->values > ps->lim.max_values)
		return fail(ps, "too many values");
	skip_ws(ps);
	if (ps->p >= ps->end)
		return fail(ps, "a value expected");
	switch (*ps->p) {
	case '{':
		return object(ps, v, depth);
	case '[':
		return array(ps, v, depth);
	case '"':
		v->type = J_STRING;
		return string(ps, &v->str, &v->len);
	case 't':
		v->type = J_BOOL;
		v->boolean = 1;
		return literal(ps, "true");
	case 'f':
		v->type = J_BOOL;
		return literal(ps, "false");
	case 'n':
		v->type = J_NULL;
		return literal(ps, "null");
	default:
		if (*ps->p == '-' || (*ps->p >= '0' && *ps->p <= '9'))
			return number(ps, v);
		return fail(ps, "not a JSON value");
	}
}

int json_parse(const char *text, size_t len, const struct json_limits *lim,
	       struct jval *out, struct strbuf *err)
{
	struct parser ps = {
		.s = (const unsigned char *)text,
		.end = (const unsigned char *)text + len,
		.p = (const unsigned char *)text,
		.lim = { 1u << 20, 1000000 },
		.err = err,
	};

	if (lim)
		ps.lim = *lim;
	memset(out, 0, sizeof *out);
	int rc = value(&ps, out, 0);
	if (rc == 0) {
		skip_ws(&ps);
		if (ps.p != ps.end)
			rc = fail(&ps, "text after the value");
	}
	if (rc < 0)
		jval_free(out);
	return rc;
}

void jval_free(struct jval *v)
{
	for (size_t i = 0; v->type == J_ARRAY && i < v->n; i++)
		jval_free(&v->items[i]);
	for (size_t i = 0; v->type == J_OBJECT && i < v->n; i++) {
		free(v->members[i].key);
		jval_free(&v->members[i].value);
	}
	free(v->items);
	free(v->members);
	free(v->str);
	memset(v, 0, sizeof *v);
}

const struct jval *json_get(const struct jval *v, const char *key)
{
	if (!v || v->type != J_OBJECT)
		return NULL;
	for (size_t i = 0; i < v->n; i++)
		if (strcmp(v->members[i].key, key) == 0)
			return &v->members[i].value;
	return NULL;
}

const char *json_get_str(const struct jval *v, const char *key)
{
	const struct jval *s = json_get(v, key);

	return s && s->type == J_STRING ? s->str : NULL;
}

/* ---- writing a parsed value back ---- */

static void write_string(struct strbuf *sb, const char *s, size_t n)
{
	sb_addc(sb, '"');
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"' || c == '\\') {
			sb_addc(sb, '\\');
			sb_addc(sb, (char)c);
		} else if (c < 0x20) {
			sb_addf(sb, "\\u%04x", c);
		} else {
			sb_addc(sb, (char)c);
		}
	}
	sb_addc(sb, '"');
}

void json_write_parsed(struct strbuf *sb, const struct jval *v)
{
	switch (v->type) {
	case J_NULL:
		sb_adds(sb, "null");
		break;
	case J_BOOL:
		sb_adds(sb, v->boolean ? "true" : "false");
		break;
	case J_NUMBER:
		if (v->is_int)
			sb_addf(sb, "%lld", v->integer);
		else
			sb_addf(sb, "%.17g", v->number);
		break;
	case J_STRING:
		write_string(sb, v->str, v->len);
		break;
	case J_ARRAY:
		sb_addc(sb, '[');
		for (size_t i = 0; i < v->n; i++) {
			if (i)
				sb_addc(sb, ',');
			json_write_parsed(sb, &v->items[i]);
		}
		sb_addc(sb, ']');
		break;
	case J_OBJECT:
		sb_addc(sb, '{');
		for (size_t i = 0; i < v->n; i++) {
			if (i)
				sb_addc(sb, ',');
			write_string(sb, v->members[i].key,
				     strlen(v->members[i].key));
			sb_addc(sb, ':');
			json_write_parsed(sb, &v->members[i].value);
		}
		sb_addc(sb, '}');
		break;
	}
}
