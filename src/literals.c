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
	} else if (*p == '{' && (p[1] >= '0' && p[1] <= '9')) {
		optional = p[1] == '0';
		*repeated = 1;
		p = strchr(p, '}');
		if (!p) {
			ps->bad = 1;
			return 1;
		}
		p++;
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
		if (*p == '\\' && p[1]) {
			p++;
		} else if (*p == '[' && p[1] == ':') {
			/* [:alpha:] inside a class */
			const char *end = strstr(p + 2, ":]");
			if (!end) {
				ps->bad = 1;
				break;
			}
			p = end + 1;
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
		} else if (*p == ':' || *p == '>' || *p == '|') {
			if (*p == '|')
				ps->bad = 1;
			p++;
		} else if (*p == '<' || *p == '\'' || (*p == 'P' && p[1] == '<')) {
			p = strpbrk(p + 1, ">'");
			if (!p) {
				ps->bad = 1;
				return 0;
			}
			p++;
		} else {
			/* (?i) (?J) (?i:...): options; extended mode changes
			 * what a space means, so give up on it. */
			const char *q = p;
			while (*q && *q != ')' && *q != ':') {
				if (*q == 'x')
					ps->bad = 1;
				q++;
			}
			if (*q == ')') {
				ps->p = q + 1;
				return 0;
			}
			if (!*q) {
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

		if (c == '\\') {
			char e = ps->p[1];
			/* Back references, code points, properties, quoting:
			 * not modelled. */
			if (!e || strchr("QExcgkpPNo", e) ||
			    (e >= '0' && e <= '9')) {
				ps->bad = 1;
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
		} else {
			literal = 1;
			ps->p++;
		}
		int optional = quantifier(ps, &repeated);
		if (literal && ps->caseless && strchr("kKsS", c))
			literal = 0;
		if (literal && !optional) {
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
