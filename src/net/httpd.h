/* An HTTP server for one document: what the program publishes, served
 * at one path (GET and HEAD) by libmicrohttpd on threads of its own, so
 * that a scraper, slow or hostile, never holds up the program.  It knows
 * nothing of what the document says.  Other paths get 404, other methods
 * 405 with Allow; before anything is published, 503.  Its threads say
 * nothing (msglog is not for them): they count, and the program reads
 * the counts (httpd_counts) and says what needs saying. */
#ifndef PLOGTOP_HTTPD_H
#define PLOGTOP_HTTPD_H

#include <stddef.h>

#include "httpd_auth.h"
#include "strbuf.h"

struct httpd_opts {
	int fd;			/* listening (listen_addr_open); the server's */
	const char *path;	/* "/metrics" */
	const char *content_type;
	/* TLS: PEM texts, both or neither. */
	const char *cert_pem, *key_pem;
	const struct httpd_users *users;	/* basic auth, or NULL */
	const char *realm;
	unsigned max_conns;	/* connections at once, in all */
	unsigned per_ip;	/* from one address */
	unsigned timeout_s;	/* a connection idle this long is closed */
	unsigned deadline_s;	/* a request not read whole by then is cut */
	size_t mem_limit;	/* per connection: its request's headers */
};

struct httpd_counts {
	unsigned long long connections;	/* accepted */
	unsigned long long requests;	/* whole requests read */
	unsigned long long served;	/* 200 */
	unsigned long long refused;	/* 404, 405 */
	unsigned long long unauthorized;	/* 401 */
	unsigned long long unavailable;	/* 503: nothing published yet */
	unsigned long long cut;		/* cut at the deadline */
	unsigned long long errors;	/* a response that could not be made */
};

struct httpd;

/* libmicrohttpd is loaded when a server starts (mhd_dl.h): 0 when it
 * can be, else -1 with "needs libmicrohttpd (libmicrohttpd12): why" in
 * err, for a message that names the option. */
int httpd_load(struct strbuf *err);
/* 1 when this libmicrohttpd was built with TLS (0 when none loads). */
int httpd_tls_supported(void);
/* Starts serving; NULL with why in err (the fd is closed then). */
struct httpd *httpd_start(const struct httpd_opts *o, struct strbuf *err);
/* From now on the document is a copy of body (len bytes).  Requests
 * under way finish with the one they started with. */
void httpd_publish(struct httpd *h, const char *body, size_t len);
/* Cuts connections that have not sent a whole request within the
 * deadline (slowloris: headers trickled just faster than the idle
 * timeout).  Call it now and then (every second or so). */
void httpd_tick(struct httpd *h);
void httpd_counts(const struct httpd *h, struct httpd_counts *out);
/* Stops the threads, closes every connection and the socket. */
void httpd_stop(struct httpd *h);

#endif
