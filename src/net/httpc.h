/* A client of HTTP GETs on libcurl, knowing nothing of what it carries:
 * one URL at a time, with a connection timeout, a timeout for the whole
 * transfer and a cap on the body, so that a slow or hostile server costs
 * bounded time and memory.  Blocking: the dashboard calls it from one
 * worker thread (src/cluster/cluster_worker.c), so that neither the wait
 * nor the parse of a large answer ever stands in the drawing path, and
 * --once calls it directly.  One client is one thread's: its connection
 * is kept between calls (keep-alive).
 *
 * libcurl is loaded (dlopen, its soname libcurl.so.4) by the first
 * httpc_global_init, not at start: linked, it brings some thirty
 * libraries (TLS, Kerberos, LDAP...) into every plogtop, 6 MiB of RSS
 * for the modes that never fetch anything (tests/live-memory.test's
 * budget).  Its headers give the types; a missing library is said. */
#ifndef PLOGTOP_HTTPC_H
#define PLOGTOP_HTTPC_H

#include <stddef.h>

#include "strbuf.h"

#define HTTPC_CONNECT_MS 3000
#define HTTPC_TIMEOUT_MS 15000
#define HTTPC_MAX_BODY (64u << 20)	/* 64 MiB: 1,000 nodes' series fit */

struct httpc_opts {
	unsigned connect_ms, timeout_ms;	/* 0: the defaults above */
	size_t max_body;			/* 0: HTTPC_MAX_BODY */
	/* Set (by another thread) to stop a transfer: it fails "stopped". */
	_Atomic int *cancel;
};

struct httpc;

/* Once per process, before any thread starts: loads libcurl and runs
 * curl_global_init.  -1 with why in err (libcurl not installed). */
int httpc_global_init(struct strbuf *err);
/* A client (after httpc_global_init succeeded: never NULL then). */
struct httpc *httpc_new(void);
void httpc_free(struct httpc *c);

/* GETs url into body (reset first).  Returns the HTTP status (2xx, or
 * another that the caller may read the body of: Prometheus says why in
 * it), or -1 with "URL: reason" in err (unreachable, timed out, body over
 * the cap, not HTTP).  The URL in err is httpc_url_shown's: the caller's
 * message sink sanitises it. */
int httpc_get(struct httpc *c, const char *url, const struct httpc_opts *o,
	      struct strbuf *body, struct strbuf *err);

/* Appends url as people may see it: without the user and password it
 * may hold (http://user:secret@host/ is http://host/), for messages,
 * headers and reports. */
void httpc_url_shown(struct strbuf *sb, const char *url);

/* Appends s percent-encoded for a query string (RFC 3986 unreserved kept). */
void httpc_escape(struct strbuf *sb, const char *s);

#endif
