#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "json_reader.h"
#include "xalloc.h"

enum {
	R_START,	/* before the object */
	R_KEY_OR_END,	/* after '{' */
	R_KEY,		/* after ',': a key must come */
	R_COLON,
	R_VALUE,	/* after ':' */
	R_ITEM_OR_END,	/* after '[' */
	R_ITEM,		/* after ',' in an array */
	R_AFTER_ITEM,
	R_AFTER_MEMBER,
	R_CAPTURE,	/* inside a value (r->target says whose) */
	R_DONE,
	R_FAILED,
};

/* What the capture of a value was for. */
enum { T_KEY, T_MEMBER, T_ITEM };

void json_reader_init(struct json_reader *r, const struct json_limits *lim,
		      size_t item_max, json_item_fn fn, void *ctx)
{
	memset(r, 0, sizeof *r);
	r->lim = *lim;
	r->item_max = item_max;
	r->fn = fn;
	r->ctx = ctx;
}

void json_reader_free(struct json_reader *r)
{
	for (size_t i = 0; i < r->nkeys; i++)
		free(r->keys[i]);
	free(r->keys);
	sb_free(&r->key);
	sb_free(&r->item);
	sb_free(&r->err);
	r->keys = NULL;
	r->nkeys = 0;
}

static int refuse(struct json_reader *r, unsigned long long at,
		  const char *why)
{
	if (r->state != R_FAILED)
		sb_addf(&r->err, "offset %llu: %s", at, why);
	r->state = R_FAILED;
	return -1;
}

static int is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static void begin(struct json_reader *r, char c, int target)
{
	sb_reset(&r->item);
	r->item_at = r->offset;
	r->target = target;
	r->depth = c == '{' || c == '[';
	r->in_string = c == '"';
	r->escape = 0;
	r->scalar = !r->depth && !r->in_string;
	r->state = R_CAPTURE;
}

/* The captured value, parsed and handed over (or taken as the key). */
static int finish(struct json_reader *r)
{
	struct jval v;
	struct strbuf err = STRBUF_INIT;
	int rc = json_parse(r->item.buf, r->item.len, &r->lim, &v, &err);

	if (rc < 0) {
		/* Its offsets are the item's: made the document's. */
		const char *why = strchr(sb_str(&err), ':');
		sb_addf(&r->err, "offset %llu: %s", r->item_at,
			why ? why + 2 : sb_str(&err));
		r->state = R_FAILED;
		sb_free(&err);
		return -1;
	}
	if (r->target == T_KEY) {
		for (size_t i = 0; i < r->nkeys; i++)
			if (strcmp(r->keys[i], v.str) == 0)
				rc = refuse(r, r->item_at, "a duplicate key");
		if (rc == 0 && r->nkeys >= JSON_MAX_MEMBERS)
			rc = refuse(r, r->item_at, "too many keys in an object");
		if (rc == 0) {
			r->keys = xrealloc(r->keys,
					   (r->nkeys + 1) * sizeof *r->keys);
			r->keys[r->nkeys++] = xstrdup(v.str);
			sb_reset(&r->key);
			sb_adds(&r->key, v.str);
			r->state = R_COLON;
		}
	} else {
		rc = r->fn(r->ctx, sb_str(&r->key), r->target == T_ITEM, &v,
			   &err);
		if (rc < 0) {
			sb_addf(&r->err, "%s", sb_str(&err));
			r->state = R_FAILED;
		} else {
			r->state = r->target == T_ITEM ? R_AFTER_ITEM
						       : R_AFTER_MEMBER;
		}
	}
	jval_free(&v);
	sb_free(&err);
	return rc;
}

/* One byte of a value being captured: 1 when the value ended before
 * it (a number or a literal: the byte is read again), else 0 or -1. */
static int capture(struct json_reader *r, char c)
{
	int done = 0;

	if (r->scalar) {
		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
		      c == '-' || c == '+' || c == '.' || c == 'E'))
			return finish(r) < 0 ? -1 : 1;
	} else if (r->in_string) {
		if (r->escape)
			r->escape = 0;
		else if (c == '\\')
			r->escape = 1;
		else if (c == '"')
			r->in_string = 0, done = r->depth == 0;
	} else if (c == '"') {
		r->in_string = 1;
	} else if (c == '{' || c == '[') {
		if (++r->depth > JSON_MAX_DEPTH)
			return refuse(r, r->offset, "nested too deep");
	} else if (c == '}' || c == ']') {
		done = --r->depth == 0;
	}
	sb_addc(&r->item, c);
	if (r->item.len > r->item_max) {
		struct strbuf why = STRBUF_INIT;
		sb_addf(&why, "a value over %zu bytes", r->item_max);
		refuse(r, r->item_at, why.buf);
		sb_free(&why);
		return -1;
	}
	return done && finish(r) < 0 ? -1 : 0;
}

/* One byte outside the values.  Returns 1 when it is to be read again
 * (it began a value), 0, or -1. */
static int structure(struct json_reader *r, char c)
{
	if (is_ws(c))
		return 0;
	switch (r->state) {
	case R_START:
		if (c != '{')
			return refuse(r, r->offset, "not a JSON object");
		r->state = R_KEY_OR_END;
		return 0;
	case R_KEY_OR_END:
	case R_KEY:
		if (c == '}' && r->state == R_KEY_OR_END) {
			r->state = R_DONE;
			return 0;
		}
		if (c != '"')
			return refuse(r, r->offset, "a key expected");
		begin(r, c, T_KEY);
		return 1;
	case R_COLON:
		if (c != ':')
			return refuse(r, r->offset, "':' expected");
		r->state = R_VALUE;
		return 0;
	case R_VALUE:
		if (c == '[') {
			/* Said, so that an empty array is seen too. */
			struct strbuf err = STRBUF_INIT;
			int rc = r->fn(r->ctx, sb_str(&r->key), 1, NULL, &err);
			r->state = R_ITEM_OR_END;
			if (rc < 0) {
				sb_addf(&r->err, "%s", sb_str(&err));
				r->state = R_FAILED;
			}
			sb_free(&err);
			return rc < 0 ? -1 : 0;
		}
		begin(r, c, T_MEMBER);
		return 1;
	case R_ITEM_OR_END:
	case R_ITEM:
		if (c == ']' && r->state == R_ITEM_OR_END) {
			r->state = R_AFTER_MEMBER;
			return 0;
		}
		begin(r, c, T_ITEM);
		return 1;
	case R_AFTER_ITEM:
		if (c == ',')
			r->state = R_ITEM;
		else if (c == ']')
			r->state = R_AFTER_MEMBER;
		else
			return refuse(r, r->offset, "',' or ']' expected");
		return 0;
	case R_AFTER_MEMBER:
		if (c == ',')
			r->state = R_KEY;
		else if (c == '}')
			r->state = R_DONE;
		else
			return refuse(r, r->offset, "',' or '}' expected");
		return 0;
	default:
		return refuse(r, r->offset, "text after the value");
	}
}

int json_reader_feed(struct json_reader *r, const char *buf, size_t n)
{
	for (size_t i = 0; i < n && r->state != R_FAILED;) {
		int rc;
		if (r->state == R_CAPTURE) {
			/* The first byte of a value was read again: it
			 * starts the capture. */
			rc = capture(r, buf[i]);
		} else {
			rc = structure(r, buf[i]);
			if (rc == 1) {
				/* begin() set the state; the byte is the
				 * value's first. */
				sb_addc(&r->item, buf[i]);
				if (r->item.len > r->item_max)
					return refuse(r, r->item_at,
						      "a value too long");
				rc = 0;
			}
		}
		if (rc < 0)
			return -1;
		if (rc == 0) {
			i++;
			r->offset++;
		}
	}
	return r->state == R_FAILED ? -1 : 0;
}

int json_reader_end(struct json_reader *r)
{
	if (r->state == R_FAILED)
		return -1;
	if (r->state != R_DONE)
		return refuse(r, r->offset, "the document ends early");
	return 0;
}
