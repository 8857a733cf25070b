#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "literals.h"
#include "strbuf.h"
#include "xalloc.h"

struct parser {
	const char *p;
	int bad;		/* a construct we do not model: give up */
	/* Caseless UTF matching lets k and s match the Kelvin sign and the
	 * long s, which a byte comparison cannot see: they break a run. */
	int caseless;
};

void litset_free(struct litset *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	s->v = NULL;
	s->n = 0;
}

static void litset_add(struct litset *s, const char *str, size_t len)
{
	s->v = xrealloc(s->v, (s->n + 1) * sizeof *s->v);
	s->v[s->n++] = xstrndup(str, len);
}

static size_t litset_min(const struct litset *s)
{
	size_t m = (size_t)-1;

	for (size_t i = 0; i < s->n; i++)
		if (strlen(s->v[i]) < m)
			m = strlen(s->v[i]);
	return s->n ? m : 0;
}

/* Keeps the better of best and cand (the one whose shortest literal is
 * longer), freeing the other. */
static void keep_better(struct litset *best, struct litset *cand)
{
	size_t b = litset_min(best), c = litset_min(cand);

	if (c > b || (c == b && cand->n && cand->n < best->n)) {
		litset_free(best);
		*best = *cand;
	} else {
		litset_free(cand);
	}
	cand->v = NULL;
	cand->n = 0;
}

static void take_run(struct litset *best, struct strbuf *run)
{
	if (run->len) {
		struct litset one = { 0 };
		litset_add(&one, run->buf, run->len);
		keep_better(best, &one);
	}
	sb_reset(run);
}

static int alternation(struct parser *ps, struct litset *out);

/* Skips decimal digits; returns how many. */
static size_t digits(const char **p)
{
	size_t n = 0;

	while (**p >= '0' && **p <= '9')
		(*p)++, n++;
	return n;
}

/* A UTF-8 character's length from its first byte, checked against the
 * bytes that follow; 0 if it is not a whole character. */
static size_t utf8_len(const char *p)
{
	unsigned char c = (unsigned char)*p;
	size_t n = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 :
		   (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;

	for (size_t i = 1; i < n; i++)
		if (((unsigned char)p[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

/* A quantifier after an atom: returns 1 if it lets the atom be absent. */
static int quantifier(struct parser *ps, int *repeated)
{
	const char *p = ps->p;
	int optional = 0;

	*repeated = 0;
	if (*p == '?' || *p == '*') {
		optional = 1;
		p++;
	} else if (*p == '+') {
		*repeated = 1;
		p++;
	} else if (*p == '{') {
		/* Only {n}, {n,} and {n,m} are quantifiers; any other brace
		 * is literal text or newer syntax: not modelled. */
		const char *q = p + 1;
		int ok = digits(&q) > 0;
		if (ok && *q == ',') {
			q++;
			digits(&q);
		}
		if (!ok || *q != '}') {
			ps->bad = 1;
			return 1;
		}
		optional = p[1] == '0';
		*repeated = 1;
		p = q + 1;
	} else {
		return 0;
	}
	if (*p == '?' || *p == '+')	/* lazy or possessive */
		p++;
	ps->p = p;
	*repeated |= !optional;
	return optional;
}

static void skip_class(struct parser *ps)
{
	const char *p = ps->p + 1;

	if (*p == '^')
		p++;
	if (*p == ']')
		p++;
	while (*p && *p != ']') {
		if (*p == '\\' && (p[1] == 'Q' || p[1] == 'E')) {
			ps->bad = 1;	/* quoting inside a class */
			break;
		} else if (*p == '\\' && p[1]) {
			p++;
		} else if (*p == '[') {
			/* "[:alpha:]" inside a class, or a '[' that only looks
			 * like one ("[:]" is not): where the class ends is
			 * PCRE2's rule to apply, not ours; give up. */
			ps->bad = 1;
			break;
		}
		p++;
	}
	if (!*p)
		ps->bad = 1;
	ps->p = *p ? p + 1 : p;
}

/* A group from '(' on; its requirement goes to req, if it has one.
 * Returns 0 for zero-width groups and option settings. */
static int group(struct parser *ps, struct litset *req)
{
	const char *p = ps->p + 1;
	int zero_width = 0;

	if (*p == '*') {		/* (*VERB) */
		ps->bad = 1;
		return 0;
	}
	if (*p == '?') {
		p++;
		if (*p == '#') {
			while (*p && *p != ')')
				p++;
			ps->p = *p ? p + 1 : p;
			return 0;
		}
		if (*p == '=' || *p == '!') {
			zero_width = 1;
			p++;
		} else if (*p == '<' && (p[1] == '=' || p[1] == '!')) {
			zero_width = 1;
			p += 2;
		} else if (*p == ':' || *p == '>') {
			p++;
		} else if (*p == '<' || *p == '\'' || (*p == 'P' && p[1] == '<')) {
			/* A named group: (?<name>...), (?'name'...),
			 * (?P<name>...).  Anything else after (?< is not
			 * modelled: (?<*...) is a non-atomic lookbehind. */
			char close = *p == '\'' ? '\'' : '>';
			p += *p == 'P' ? 2 : 1;
			const char *name = p;
			while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			       (*p >= '0' && *p <= '9') || *p == '_')
				p++;
			if (p == name || *p != close) {
				ps->bad = 1;
				return 0;
			}
			p++;
		} else {
			/* Option settings only: (?i) (?m-s) (?i:...).  Extended
			 * mode changes what a space means, so give up on it, as
			 * on callouts (?C...), recursion (?R) (?1) (?&name),
			 * conditions (?(...)), branch reset (?|...), non-atomic
			 * assertions (?*...) and whatever PCRE2 adds later. */
			const char *q = p;
			while (*q && strchr("imnsJU^-", *q))
				q++;
			if (*q == ')') {
				ps->p = q + 1;
				return 0;
			}
			if (*q != ':') {
				ps->bad = 1;
				return 0;
			}
			p = q + 1;
		}
	}
	ps->p = p;
	struct litset inner = { 0 };
	int has = alternation(ps, &inner);
	if (*ps->p != ')') {
		ps->bad = 1;
		litset_free(&inner);
		return 0;
	}
	ps->p++;
	if (zero_width || !has) {
		litset_free(&inner);
		return 0;
	}
	*req = inner;
	return 1;
}

/* One branch: its best requirement goes to best. */
static void sequence(struct parser *ps, struct litset *best)
{
	struct strbuf run = STRBUF_INIT;

	while (*ps->p && *ps->p != '|' && *ps->p != ')' && !ps->bad) {
		char c = *ps->p;
		int literal = 0, repeated;
		struct litset req = { 0 };
		int has_req = 0;
		const char *atom = NULL;	/* a multi-byte character */
		size_t atom_len = 0;

		if (c == '\\') {
			char e = ps->p[1];
			/* Back references, code points, properties, quoting:
			 * not modelled. */
			if (!e || strchr("QExcgkpPNo", e) ||
			    (e >= '0' && e <= '9')) {
				ps->bad = 1;
				break;
			}
			if ((unsigned char)e >= 0x80) {
				ps->bad = 1;	/* an escaped non-ASCII letter */
				break;
			}
			literal = !((e >= 'a' && e <= 'z') || (e >= 'A' && e <= 'Z'));
			c = e;
			ps->p += 2;
		} else if (c == '[') {
			skip_class(ps);
		} else if (c == '(') {
			has_req = group(ps, &req);
		} else if (c == '.' || c == '^' || c == '$') {
			ps->p++;
		} else if (c == '?' || c == '*' || c == '+' || c == '{') {
			ps->bad = 1;	/* a quantifier with nothing before it */
			break;
		} else if ((unsigned char)c >= 0x80) {
			/* A character of several bytes is one atom: a
			 * quantifier after it applies to all of them.  Caseless,
			 * its other cases are other bytes: not a literal. */
			size_t n = utf8_len(ps->p);
			if (!n) {
				ps->bad = 1;
				break;
			}
			atom = ps->p;
			atom_len = n;
			literal = !ps->caseless;
			ps->p += n;
		} else {
			literal = 1;
			ps->p++;
		}
		int optional = quantifier(ps, &repeated);
		if (literal && ps->caseless && strchr("kKsS", c))
			literal = 0;
		if (literal && !optional) {
			if (atom_len)
				sb_add(&run, atom, atom_len);
			else
				sb_addc(&run, c);
			if (repeated)
				take_run(best, &run);
			continue;
		}
		take_run(best, &run);
		if (has_req && !optional)
			keep_better(best, &req);
		else
			litset_free(&req);
	}
	take_run(best, &run);
	sb_free(&run);
}

/* Branches separated by '|': every branch must give a requirement. */
static int alternation(struct parser *ps, struct litset *out)
{
	int all = 1;

	for (;;) {
		struct litset branch = { 0 };
		sequence(ps, &branch);
		if (litset_min(&branch) < LITERAL_MIN)
			all = 0;
		for (size_t i = 0; i < branch.n; i++)
			litset_add(out, branch.v[i], strlen(branch.v[i]));
		litset_free(&branch);
		if (*ps->p != '|' || ps->bad)
			break;
		ps->p++;
	}
	if (!all || ps->bad)
		litset_free(out);
	return out->n > 0;
}

/* Whether an option setting anywhere turns on caseless matching. */
static int has_caseless(const char *p)
{
	while ((p = strstr(p, "(?")) != NULL) {
		p += 2;
		while (*p && strchr("imnsxJU-^", *p)) {
			if (*p == 'i')
				return 1;
			p++;
		}
	}
	return 0;
}

int pattern_literals(const char *pattern, struct litset *out)
{
	struct parser ps = { pattern, 0, has_caseless(pattern) };

	if (!alternation(&ps, out) || *ps.p || ps.bad) {
		litset_free(out);
		return 0;
	}
	return 1;
}
