/* Reading one long JSON document as it arrives (a host's --once report):
 * the document is an object; each member's value, or each item of a
 * member that is an array, is parsed on its own (jsonparse, its limits)
 * and handed over, then freed.  Memory is bounded by the largest item
 * (item_max bytes), never by the document, however long it is. */
#ifndef PLOGTOP_JSON_READER_H
#define PLOGTOP_JSON_READER_H

#include <stddef.h>

#include "jsonparse.h"
#include "strbuf.h"

/* One value of the document: of member key, an item of its array when
 * in_array (v NULL: the array begins).  Returns 0, or -1 with why in
 * err (the reading stops). */
typedef int (*json_item_fn)(void *ctx, const char *key, int in_array,
			    const struct jval *v, struct strbuf *err);

struct json_reader {
	int state;
	struct json_limits lim;
	size_t item_max;
	json_item_fn fn;
	void *ctx;
	unsigned long long offset;	/* bytes read so far */
	struct strbuf key;		/* the member being read */
	char **keys;			/* the members seen: no duplicate */
	size_t nkeys;
	struct strbuf item;		/* the value being read */
	unsigned long long item_at;	/* its offset */
	int target;			/* the state after it */
	int depth, in_string, escape, scalar;
	struct strbuf err;		/* set: the document is refused */
};

void json_reader_init(struct json_reader *r, const struct json_limits *lim,
		      size_t item_max, json_item_fn fn, void *ctx);
/* The next n bytes.  -1 once the document is refused (why: r->err). */
int json_reader_feed(struct json_reader *r, const char *buf, size_t n);
/* The document's end: -1 when it is not complete (or was refused). */
int json_reader_end(struct json_reader *r);
void json_reader_free(struct json_reader *r);

#endif
