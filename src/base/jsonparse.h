/* Reading JSON: a small, strict parser (RFC 8259) for what other plogtop
 * processes send, which is hostile input like any log.  Limits on depth,
 * string length and the number of values keep a hostile document from
 * costing more than its size; strings must be valid UTF-8 and may not
 * hold NUL (they become C strings); duplicate keys are refused.  Numbers
 * are kept exactly when they are integers. */
#ifndef PLOGTOP_JSONPARSE_H
#define PLOGTOP_JSONPARSE_H

#include <stddef.h>

#include "strbuf.h"

#define JSON_MAX_DEPTH 32
#define JSON_MAX_MEMBERS 256	/* keys of one object */

enum jtype { J_NULL, J_BOOL, J_NUMBER, J_STRING, J_ARRAY, J_OBJECT };

struct jmember;

struct jval {
	enum jtype type;
	int boolean;
	int is_int;		/* a number with no fraction or exponent that
				 * fits a long long */
	long long integer;
	double number;
	char *str;		/* J_STRING: NUL-terminated */
	size_t len;
	struct jval *items;	/* J_ARRAY */
	struct jmember *members;	/* J_OBJECT, in document order */
	size_t n;
};

struct jmember {
	char *key;
	struct jval value;
};

struct json_limits {
	size_t max_string;	/* bytes of one string */
	size_t max_values;	/* values in the whole document */
};

/* Parses the len bytes at text (one value, white space around it).
 * Returns 0, or -1 with "offset N: what is wrong" in err and *out
 * empty.  limits may be NULL: 1 MiB strings, a million values. */
int json_parse(const char *text, size_t len, const struct json_limits *lim,
	       struct jval *out, struct strbuf *err);
void jval_free(struct jval *v);

/* The member of an object with this key, or NULL (also when v is not an
 * object). */
const struct jval *json_get(const struct jval *v, const char *key);
/* The string of a member, or NULL when absent or not a string. */
const char *json_get_str(const struct jval *v, const char *key);

/* The exact text of a parsed value, compact (strings are valid UTF-8
 * without NUL, as the parser made sure): for text that goes back to a
 * program (a host's cursor, a state's section), never to a person, so it
 * is escaped for JSON only. */
void json_write_parsed(struct strbuf *sb, const struct jval *v);

#endif
