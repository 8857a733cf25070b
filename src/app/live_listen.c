/* --listen: the metrics served at /metrics (src/net/httpd.c), the same
 * text as the prom file, published when the prom file is written (live.c:
 * after the history, then on change at most every --interval, and every
 * heartbeat).  Until the first is published, /metrics answers 503: the
 * rules take a counting's first sample as its baseline, so a scrape must
 * never see a history half read.  The server's threads only count; what
 * needs saying is said here, from the loop, at most once a minute. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "httpd.h"
#include "i18n.h"
#include "listen_addr.h"
#include "live_int.h"

#define LISTEN_MAX_CONNS 64	/* in all */
#define LISTEN_PER_IP 16	/* from one address */
#define LISTEN_TIMEOUT_S 10	/* idle */
#define LISTEN_MEM_LIMIT (64 * 1024)	/* a request's headers */
#define LISTEN_PEM_MAX (1u << 20)
#define LISTEN_SAY_EVERY_MS 60000
#define LISTEN_TICK_MS 1000

static int say_start_error(const char *opt, const struct strbuf *why)
{
	struct strbuf msg = STRBUF_INIT;

	sb_addf(&msg, "%s: %s", opt, why->buf);
	msglog_add_clean(NULL, msg.buf);
	sb_free(&msg);
	return -1;
}

/* A library the option needs is not there (a copied binary on a bare
 * host): "--listen needs libmicrohttpd (libmicrohttpd12): why". */
static int say_needs(const char *opt, const struct strbuf *why)
{
	struct strbuf msg = STRBUF_INIT;

	sb_addf(&msg, "%s %s", opt, why->buf);
	msglog_add(NULL, msg.buf);
	sb_free(&msg);
	return -1;
}

/* PLOGTOP_LISTEN_TIMEOUT (seconds; not documented for users) lets a test
 * shorten the idle timeout; the deadline of a request is twice it. */
static unsigned listen_timeout(void)
{
	const char *env = getenv("PLOGTOP_LISTEN_TIMEOUT");
	char *end;

	if (env && *env) {
		unsigned long s = strtoul(env, &end, 10);
		if (!*end && s >= 1 && s <= 3600)
			return (unsigned)s;
	}
	return LISTEN_TIMEOUT_S;
}

static int read_pem(const char *opt, const char *path, struct strbuf *out)
{
	struct strbuf why = STRBUF_INIT;

	if (read_small_file(path, out, LISTEN_PEM_MAX) == 0 &&
	    memchr(out->buf, '\0', out->len) == NULL)
		return 0;
	sb_addf(&why, "%s: %s", path, out->len ? _("not a PEM file")
						: strerror(errno));
	say_start_error(opt, &why);
	sb_free(&why);
	return -1;
}

static int open_socket(const struct options *o, int *fd)
{
	struct listen_addr a;
	struct strbuf err = STRBUF_INIT;
	int rc = 0;

	if (listen_addr_parse(o->listen, &a, &err) < 0 ||
	    (*fd = listen_addr_open(&a, o->listen, &err)) < 0)
		rc = say_start_error("--listen", &err);
	sb_free(&err);
	return rc;
}

int live_listen_start(struct live *lv)
{
	const struct options *o = lv->o;
	struct strbuf cert = STRBUF_INIT, key = STRBUF_INIT, err = STRBUF_INIT;
	struct httpd_opts ho = {
		.path = "/metrics",
		.content_type = "text/plain; version=0.0.4; charset=utf-8",
		.realm = "plogtop", .max_conns = LISTEN_MAX_CONNS,
		.per_ip = LISTEN_PER_IP, .mem_limit = LISTEN_MEM_LIMIT,
	};
	int rc = -1;

	if (!o->listen)
		return 0;
	ho.timeout_s = listen_timeout();
	ho.deadline_s = 2 * ho.timeout_s;
	if (httpd_load(&err) < 0) {
		say_needs("--listen", &err);
	} else if (o->listen_auth && httpd_users_library(&err) < 0) {
		say_needs("--listen-auth", &err);
	} else if (o->listen_auth &&
	    httpd_users_load(&lv->users, o->listen_auth, &err) < 0) {
		say_start_error("--listen-auth", &err);
	} else if (o->listen_cert &&
		   (read_pem("--listen-cert", o->listen_cert, &cert) < 0 ||
		    read_pem("--listen-key", o->listen_key, &key) < 0)) {
		;	/* said */
	} else if (o->listen_cert && !httpd_tls_supported()) {
		sb_adds(&err, _("this libmicrohttpd was built without TLS: "
				"drop --listen-cert and --listen-key"));
		say_start_error("--listen", &err);
	} else if (open_socket(o, &ho.fd) == 0) {
		ho.users = o->listen_auth ? &lv->users : NULL;
		ho.cert_pem = o->listen_cert ? cert.buf : NULL;
		ho.key_pem = o->listen_cert ? key.buf : NULL;
		if ((lv->httpd = httpd_start(&ho, &err)))
			rc = 0;
		else
			say_start_error("--listen", &err);
	}
	/* libmicrohttpd keeps its own copy of the key. */
	if (key.buf)
		memset(key.buf, 0, key.len);
	sb_free(&cert);
	sb_free(&key);
	sb_free(&err);
	return rc;
}

void live_listen_publish(struct live *lv, const struct strbuf *text)
{
	if (lv->httpd)
		httpd_publish(lv->httpd, text->buf, text->len);
}

/* What scrapers did that someone should know: refused passwords,
 * requests cut at their deadline, responses that could not be made. */
static void say_counts(struct live *lv, const struct httpd_counts *c)
{
	struct httpd_counts *s = &lv->listen_said;
	struct strbuf msg = STRBUF_INIT;

	if (c->unauthorized > s->unauthorized)
		sb_addf(&msg, _("%llu requests without the right password; "),
			c->unauthorized - s->unauthorized);
	if (c->cut > s->cut)
		sb_addf(&msg, _("%llu connections too slow to send a request "
				"cut; "), c->cut - s->cut);
	if (c->errors > s->errors)
		sb_addf(&msg, _("%llu responses could not be made; "),
			c->errors - s->errors);
	if (msg.len) {
		struct strbuf line = STRBUF_INIT;
		msg.buf[msg.len -= 2] = '\0';
		sb_addf(&line, "--listen: %s", msg.buf);
		msglog_add_clean(&lv->log, line.buf);
		sb_free(&line);
	}
	*s = *c;
	sb_free(&msg);
}

void live_listen_step(struct live *lv, unsigned long long now)
{
	struct httpd_counts c;

	if (!lv->httpd || now < lv->listen_tick_at + LISTEN_TICK_MS)
		return;
	lv->listen_tick_at = now;
	httpd_tick(lv->httpd);
	if (now < lv->listen_said_at + LISTEN_SAY_EVERY_MS)
		return;
	httpd_counts(lv->httpd, &c);
	if (memcmp(&c, &lv->listen_said, sizeof c) != 0) {
		say_counts(lv, &c);
		lv->listen_said_at = now;
	}
}

int live_listen_timeout(const struct live *lv, unsigned long long now)
{
	unsigned long long due = lv->listen_tick_at + LISTEN_TICK_MS;

	if (!lv->httpd)
		return -1;
	return due <= now ? 0 : (int)(due - now);
}

void live_listen_stop(struct live *lv)
{
	httpd_stop(lv->httpd);
	lv->httpd = NULL;
	httpd_users_free(&lv->users);
}
