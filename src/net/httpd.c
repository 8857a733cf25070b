/* The one-document HTTP server on libmicrohttpd (httpd.h). */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "httpd.h"
#include "i18n.h"
#include "mhd_dl.h"
#include "monoclock.h"
#include "xalloc.h"

/* Two threads: a scrape that checks a bcrypt password (tens of ms)
 * does not hold up another scraper. */
#define HTTPD_THREADS 2

/* The document: shared by the responses still sending it. */
struct body {
	atomic_size_t refs;
	size_t len;
	char data[];
};

/* A connection, for the deadline of its requests. */
struct conn {
	int used, fd;
	int busy;		/* a request is being answered */
	int cut;
	unsigned long long since;	/* accepted, or its last request done */
};

struct httpd {
	struct mhd_api api;	/* the loaded library's functions */
	struct MHD_Daemon *d;
	struct httpd_opts o;
	pthread_mutex_t lock;	/* body and conns */
	struct body *body;
	struct conn *conns;
	size_t nconns;
	atomic_ullong connections, requests, served, refused, unauthorized,
		      unavailable, cut, errors;
};

static const char text_not_found[] = "404 not found: try /metrics\n";
static const char text_not_allowed[] = "405 method not allowed\n";
static const char text_unauthorized[] = "401 unauthorized\n";
static const char text_unavailable[] =
	"503 not ready: the logs' history is still being read\n";

int httpd_load(struct strbuf *err)
{
	struct mhd_api a;

	if (mhd_load(&a, err) == 0)
		return 0;
	/* The one sentence a user sees (live_listen.c). */
	struct strbuf why = STRBUF_INIT;
	sb_add(&why, err->buf, err->len);
	sb_reset(err);
	sb_addf(err, _("needs libmicrohttpd (%s): %s"), MHD_PACKAGE, why.buf);
	sb_free(&why);
	return -1;
}

int httpd_tls_supported(void)
{
	struct mhd_api a;
	struct strbuf err = STRBUF_INIT;
	int yes = mhd_load(&a, &err) == 0 &&
		  a.is_feature_supported(MHD_FEATURE_TLS) == MHD_YES;

	sb_free(&err);
	return yes;
}

static void body_unref(void *p)
{
	struct body *b = p;

	if (b && atomic_fetch_sub(&b->refs, 1) == 1)
		free(b);
}

static struct body *body_take(struct httpd *h)
{
	struct body *b;

	pthread_mutex_lock(&h->lock);
	if ((b = h->body))
		atomic_fetch_add(&b->refs, 1);
	pthread_mutex_unlock(&h->lock);
	return b;
}

static void count(atomic_ullong *c)
{
	atomic_fetch_add(c, 1);
}

/* A short text of ours, with a status. */
static enum MHD_Result reply_text(struct httpd *h, struct MHD_Connection *c,
				  unsigned status, const char *text,
				  const char *hname, const char *hvalue)
{
	struct MHD_Response *r = h->api.create_response_from_buffer(
		strlen(text), (void *)text, MHD_RESPMEM_PERSISTENT);
	enum MHD_Result rc;

	if (!r) {
		count(&h->errors);
		return MHD_NO;
	}
	h->api.add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
				   "text/plain; charset=utf-8");
	if (hname)
		h->api.add_response_header(r, hname, hvalue);
	if (status == MHD_HTTP_UNAUTHORIZED)
		rc = h->api.queue_basic_auth_fail_response(c, h->o.realm, r);
	else
		rc = h->api.queue_response(c, status, r);
	h->api.destroy_response(r);
	return rc;
}

static enum MHD_Result reply_document(struct httpd *h,
				      struct MHD_Connection *c)
{
	struct body *b = body_take(h);
	struct MHD_Response *r;
	enum MHD_Result rc;

	if (!b) {
		count(&h->unavailable);
		return reply_text(h, c, MHD_HTTP_SERVICE_UNAVAILABLE,
				  text_unavailable, MHD_HTTP_HEADER_RETRY_AFTER,
				  "5");
	}
	r = h->api.create_response_free_cls(
		b->len, b->data, body_unref, b);
	if (!r) {
		body_unref(b);
		count(&h->errors);
		return MHD_NO;
	}
	h->api.add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
				   h->o.content_type);
	h->api.add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL,
				   "no-store");
	rc = h->api.queue_response(c, MHD_HTTP_OK, r);
	h->api.destroy_response(r);
	count(&h->served);
	return rc;
}

static int authorized(struct httpd *h, struct MHD_Connection *c)
{
	char *pass = NULL;
	char *user;
	int ok;

	if (!h->o.users)
		return 1;
	user = h->api.basic_auth_get_username_password(c, &pass);
	ok = user && pass && httpd_users_check(h->o.users, user, pass);
	if (pass) {
		/* Not left in freed memory. */
		memset(pass, 0, strlen(pass));
		h->api.free(pass);
	}
	if (user)
		h->api.free(user);
	return ok;
}

static struct conn *conn_of(struct httpd *h, struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *ci =
		h->api.get_connection_info(c,
					   MHD_CONNECTION_INFO_SOCKET_CONTEXT);

	return ci ? ci->socket_context : NULL;
}

static void conn_busy(struct httpd *h, struct MHD_Connection *c, int busy)
{
	struct conn *k;

	pthread_mutex_lock(&h->lock);
	if ((k = conn_of(h, c))) {
		k->busy = busy;
		k->since = monotonic_ms();
	}
	pthread_mutex_unlock(&h->lock);
}

static int has_body(struct httpd *h, struct MHD_Connection *c)
{
	const char *len = h->api.lookup_connection_value(
		c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);

	return (len && strcmp(len, "0") != 0) ||
	       h->api.lookup_connection_value(c, MHD_HEADER_KIND,
				MHD_HTTP_HEADER_TRANSFER_ENCODING);
}

/* Called once the request's headers are read, then again when its body
 * is (GET and HEAD have none): answered then, so that the connection
 * may stay open for the next scrape.  Another method is answered at
 * once, and a body, never read, closes the connection. */
static enum MHD_Result on_request(void *cls, struct MHD_Connection *c,
				  const char *url, const char *method,
				  const char *version, const char *upload,
				  size_t *upload_size, void **req)
{
	struct httpd *h = cls;
	int head = strcmp(method, MHD_HTTP_METHOD_HEAD) == 0;
	int get = head || strcmp(method, MHD_HTTP_METHOD_GET) == 0;

	(void)version;
	(void)upload;
	if (!*req) {
		*req = h;
		count(&h->requests);
		conn_busy(h, c, 1);
		/* A GET's body is never read: answered now, then closed. */
		if (get && !has_body(h, c))
			return MHD_YES;
	}
	(void)upload_size;
	if (!get) {
		count(&h->refused);
		return reply_text(h, c, MHD_HTTP_METHOD_NOT_ALLOWED,
				  text_not_allowed, MHD_HTTP_HEADER_ALLOW,
				  "GET, HEAD");
	}
	if (!authorized(h, c)) {
		count(&h->unauthorized);
		return reply_text(h, c, MHD_HTTP_UNAUTHORIZED,
				  text_unauthorized, NULL, NULL);
	}
	if (strcmp(url, h->o.path) != 0) {
		count(&h->refused);
		return reply_text(h, c, MHD_HTTP_NOT_FOUND, text_not_found,
				  NULL, NULL);
	}
	return reply_document(h, c);
}

static void on_completed(void *cls, struct MHD_Connection *c, void **req,
			 enum MHD_RequestTerminationCode toe)
{
	(void)toe;
	(void)req;
	conn_busy(cls, c, 0);
}

static void conn_start(struct httpd *h, struct MHD_Connection *c,
		       void **ctx)
{
	const union MHD_ConnectionInfo *ci =
		h->api.get_connection_info(c,
					   MHD_CONNECTION_INFO_CONNECTION_FD);

	*ctx = NULL;
	count(&h->connections);
	pthread_mutex_lock(&h->lock);
	for (size_t i = 0; ci && i < h->nconns; i++) {
		struct conn *k = &h->conns[i];
		if (!k->used) {
			*k = (struct conn){ 1, ci->connect_fd, 0, 0,
					    monotonic_ms() };
			*ctx = k;
			break;
		}
	}
	pthread_mutex_unlock(&h->lock);
}

static void on_connection(void *cls, struct MHD_Connection *c, void **ctx,
			  enum MHD_ConnectionNotificationCode toe)
{
	struct httpd *h = cls;

	if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
		conn_start(h, c, ctx);
	} else if (*ctx) {
		/* Before libmicrohttpd closes the socket: httpd_tick never
		 * touches a number the kernel may have given again. */
		pthread_mutex_lock(&h->lock);
		((struct conn *)*ctx)->used = 0;
		pthread_mutex_unlock(&h->lock);
		*ctx = NULL;
	}
}

void httpd_tick(struct httpd *h)
{
	unsigned long long now = monotonic_ms();
	unsigned long long limit = h->o.deadline_s * 1000ULL;

	if (!h->o.deadline_s)
		return;
	pthread_mutex_lock(&h->lock);
	for (size_t i = 0; i < h->nconns; i++) {
		struct conn *k = &h->conns[i];
		if (k->used && !k->busy && !k->cut &&
		    now - k->since > limit) {
			/* libmicrohttpd sees the end and closes it. */
			shutdown(k->fd, SHUT_RDWR);
			k->cut = 1;
			count(&h->cut);
		}
	}
	pthread_mutex_unlock(&h->lock);
}

static struct MHD_Daemon *start_daemon(struct httpd *h)
{
	const struct httpd_opts *o = &h->o;
	unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL;
	struct MHD_OptionItem tls[3] = {
		{ MHD_OPTION_END, 0, NULL }, { MHD_OPTION_END, 0, NULL },
		{ MHD_OPTION_END, 0, NULL },
	};

	if (o->cert_pem) {
		flags |= MHD_USE_TLS;
		tls[0] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_MEM_CERT, 0,
						  (void *)o->cert_pem };
		tls[1] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_MEM_KEY, 0,
						  (void *)o->key_pem };
	}
	return h->api.start_daemon(
		flags, 0, NULL, NULL, on_request, h,
		MHD_OPTION_LISTEN_SOCKET, o->fd,
		MHD_OPTION_THREAD_POOL_SIZE, (unsigned)HTTPD_THREADS,
		MHD_OPTION_CONNECTION_LIMIT, o->max_conns,
		MHD_OPTION_PER_IP_CONNECTION_LIMIT, o->per_ip,
		MHD_OPTION_CONNECTION_TIMEOUT, o->timeout_s,
		MHD_OPTION_CONNECTION_MEMORY_LIMIT, o->mem_limit,
		MHD_OPTION_STRICT_FOR_CLIENT, 1,
		MHD_OPTION_NOTIFY_CONNECTION, on_connection, h,
		MHD_OPTION_NOTIFY_COMPLETED, on_completed, h,
		MHD_OPTION_ARRAY, tls,
		MHD_OPTION_END);
}

struct httpd *httpd_start(const struct httpd_opts *o, struct strbuf *err)
{
	struct httpd *h = xcalloc(1, sizeof *h);
	sigset_t all, old;

	if (httpd_load(err) < 0) {
		close(o->fd);
		free(h);
		return NULL;
	}
	(void)mhd_load(&h->api, err);	/* loaded: found again */
	h->o = *o;
	h->nconns = o->max_conns;
	h->conns = xcalloc(h->nconns, sizeof *h->conns);
	pthread_mutex_init(&h->lock, NULL);
	if (o->cert_pem &&
	    h->api.is_feature_supported(MHD_FEATURE_TLS) != MHD_YES) {
		sb_adds(err, _("this libmicrohttpd was built without TLS"));
		close(o->fd);
		httpd_stop(h);
		return NULL;
	}
	/* Its threads take no signal: SIGINT and SIGTERM stay the main
	 * loop's (a signalfd). */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	h->d = start_daemon(h);
	int e = errno;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!h->d) {
		if (o->cert_pem)
			sb_adds(err, _("the server could not start (are the "
				       "certificate and the key PEM, and a "
				       "pair?)"));
		else
			sb_addf(err, _("the server could not start: %s"),
				strerror(e));
		close(o->fd);
		httpd_stop(h);
		return NULL;
	}
	return h;
}

void httpd_publish(struct httpd *h, const char *body, size_t len)
{
	struct body *b = xmalloc(sizeof *b + len), *old;

	atomic_init(&b->refs, 1);
	b->len = len;
	memcpy(b->data, body, len);
	pthread_mutex_lock(&h->lock);
	old = h->body;
	h->body = b;
	pthread_mutex_unlock(&h->lock);
	body_unref(old);
}

void httpd_counts(const struct httpd *h, struct httpd_counts *out)
{
	struct httpd *m = (struct httpd *)h;	/* atomics: loads */

	out->connections = atomic_load(&m->connections);
	out->requests = atomic_load(&m->requests);
	out->served = atomic_load(&m->served);
	out->refused = atomic_load(&m->refused);
	out->unauthorized = atomic_load(&m->unauthorized);
	out->unavailable = atomic_load(&m->unavailable);
	out->cut = atomic_load(&m->cut);
	out->errors = atomic_load(&m->errors);
}

void httpd_stop(struct httpd *h)
{
	if (!h)
		return;
	if (h->d)
		h->api.stop_daemon(h->d);
	body_unref(h->body);
	pthread_mutex_destroy(&h->lock);
	free(h->conns);
	free(h);
}
