/* GETs on libcurl's easy interface (httpc.h says why blocking, in a
 * worker, and why loaded at run time). */
#include "config.h"

#include <curl/curl.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "httpc.h"
#include "i18n.h"
#include "xalloc.h"

#define CURL_SONAME "libcurl.so.4"

/* The functions of libcurl plogtop calls, found in the loaded library
 * (each client its own table: no state shared between threads). */
struct curl_api {
	CURLcode (*global_init)(long flags);
	CURL *(*easy_init)(void);
	void (*easy_cleanup)(CURL *e);
	CURLcode (*easy_setopt)(CURL *e, CURLoption o, ...);
	CURLcode (*easy_perform)(CURL *e);
	CURLcode (*easy_getinfo)(CURL *e, CURLINFO i, ...);
	const char *(*easy_strerror)(CURLcode rc);
};

struct httpc {
	struct curl_api api;
	CURL *easy;
};

/* The library stays loaded until exit (libcurl cannot be unloaded
 * safely): the handle is not kept. */
static int load_api(struct curl_api *a, struct strbuf *err)
{
	void *lib = dlopen(CURL_SONAME, RTLD_NOW | RTLD_LOCAL);

	if (!lib) {
		const char *why = dlerror();
		sb_addf(err, _("libcurl cannot be loaded (%s): %s"), CURL_SONAME,
			why ? why : "?");
		return -1;
	}
	/* POSIX's way from a void * to a function pointer. */
	*(void **)&a->global_init = dlsym(lib, "curl_global_init");
	*(void **)&a->easy_init = dlsym(lib, "curl_easy_init");
	*(void **)&a->easy_cleanup = dlsym(lib, "curl_easy_cleanup");
	*(void **)&a->easy_setopt = dlsym(lib, "curl_easy_setopt");
	*(void **)&a->easy_perform = dlsym(lib, "curl_easy_perform");
	*(void **)&a->easy_getinfo = dlsym(lib, "curl_easy_getinfo");
	*(void **)&a->easy_strerror = dlsym(lib, "curl_easy_strerror");
	if (!a->global_init || !a->easy_init || !a->easy_cleanup ||
	    !a->easy_setopt || !a->easy_perform || !a->easy_getinfo ||
	    !a->easy_strerror) {
		/* dlsym said which is missing. */
		const char *why = dlerror();
		sb_addf(err, _("libcurl cannot be loaded (%s): %s"), CURL_SONAME,
			why ? why : "?");
		return -1;
	}
	return 0;
}

struct sink {
	struct strbuf *body;
	size_t max;
	int over;
};

int httpc_global_init(struct strbuf *err)
{
	struct curl_api a;

	if (load_api(&a, err) < 0)
		return -1;
	CURLcode rc = a.global_init(CURL_GLOBAL_DEFAULT);
	if (rc != CURLE_OK) {
		sb_addf(err, "libcurl: %s", a.easy_strerror(rc));
		return -1;
	}
	return 0;
}

struct httpc *httpc_new(void)
{
	struct httpc *c = xcalloc(1, sizeof *c);
	struct strbuf err = STRBUF_INIT;

	/* Loaded already by httpc_global_init: found again, not loaded. */
	if (load_api(&c->api, &err) < 0)
		abort();
	sb_free(&err);
	c->easy = c->api.easy_init();
	if (!c->easy)
		abort();	/* out of memory, as xalloc */
	return c;
}

void httpc_free(struct httpc *c)
{
	if (!c)
		return;
	c->api.easy_cleanup(c->easy);
	free(c);
}

/* The body, up to the cap: a longer one stops the transfer. */
static size_t on_data(char *p, size_t size, size_t n, void *ctx)
{
	struct sink *s = ctx;
	size_t len = size * n;

	if (s->body->len + len > s->max) {
		s->over = 1;
		return 0;
	}
	sb_add(s->body, p, len);
	return len;
}

static int on_progress(void *ctx, curl_off_t a, curl_off_t b, curl_off_t c,
		       curl_off_t d)
{
	_Atomic int *cancel = ctx;

	(void)a, (void)b, (void)c, (void)d;
	return cancel && *cancel;
}

static void set_options(const struct httpc *c, const char *url,
			const struct httpc_opts *o, struct sink *s,
			char *errbuf)
{
	CURLcode (*set)(CURL *, CURLoption, ...) = c->api.easy_setopt;
	CURL *e = c->easy;

	unsigned cms = o && o->connect_ms ? o->connect_ms : HTTPC_CONNECT_MS;
	unsigned tms = o && o->timeout_ms ? o->timeout_ms : HTTPC_TIMEOUT_MS;

	set(e, CURLOPT_URL, url);
	set(e, CURLOPT_HTTPGET, 1L);
	set(e, CURLOPT_NOSIGNAL, 1L);	/* threads, no SIGALRM */
	set(e, CURLOPT_CONNECTTIMEOUT_MS, (long)cms);
	set(e, CURLOPT_TIMEOUT_MS, (long)tms);
	set(e, CURLOPT_WRITEFUNCTION, on_data);
	set(e, CURLOPT_WRITEDATA, s);
	set(e, CURLOPT_ERRORBUFFER, errbuf);
	set(e, CURLOPT_ACCEPT_ENCODING, "");	/* gzip */
	set(e, CURLOPT_USERAGENT, PACKAGE_NAME "/" PACKAGE_VERSION);
	/* Only HTTP(S): a URL may not make plogtop read a file or a
	 * socket of another protocol.  No redirects followed. */
#if LIBCURL_VERSION_NUM >= 0x075500
	set(e, CURLOPT_PROTOCOLS_STR, "http,https");
#else
	set(e, CURLOPT_PROTOCOLS,
			 (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
	set(e, CURLOPT_FOLLOWLOCATION, 0L);
	set(e, CURLOPT_NOPROGRESS, o && o->cancel ? 0L : 1L);
	set(e, CURLOPT_XFERINFOFUNCTION, on_progress);
	set(e, CURLOPT_XFERINFODATA, o ? (void *)o->cancel : NULL);
}

void httpc_url_shown(struct strbuf *sb, const char *url)
{
	const char *scheme = strstr(url, "://");
	const char *host = scheme ? scheme + 3 : url;
	size_t authority = strcspn(host, "/?#");
	const char *at = memchr(host, '@', authority);

	if (!scheme || !at) {
		sb_adds(sb, url);
		return;
	}
	/* The last '@' of the authority ends the user information. */
	while ((size_t)(at + 1 - host) < authority &&
	       memchr(at + 1, '@', authority - (size_t)(at + 1 - host)))
		at = memchr(at + 1, '@', authority - (size_t)(at + 1 - host));
	sb_add(sb, url, (size_t)(host - url));
	sb_adds(sb, at + 1);
}

/* "URL: " as httpc_url_shown gives it. */
static void url_head(struct strbuf *err, const char *url)
{
	httpc_url_shown(err, url);
	sb_adds(err, ": ");
}

int httpc_get(struct httpc *c, const char *url, const struct httpc_opts *o,
	      struct strbuf *body, struct strbuf *err)
{
	char errbuf[CURL_ERROR_SIZE] = "";
	struct sink s = { body, o && o->max_body ? o->max_body
				: HTTPC_MAX_BODY, 0 };

	sb_reset(body);
	set_options(c, url, o, &s, errbuf);
	CURLcode rc = c->api.easy_perform(c->easy);
	if (s.over) {
		url_head(err, url);
		sb_addf(err, _("the answer is over %zu bytes"), s.max);
		return -1;
	}
	if (rc != CURLE_OK) {
		url_head(err, url);
		sb_adds(err, errbuf[0] ? errbuf : c->api.easy_strerror(rc));
		return -1;
	}
	long status = 0;
	c->api.easy_getinfo(c->easy, CURLINFO_RESPONSE_CODE, &status);
	if (status < 100 || status > 599) {
		url_head(err, url);
		sb_adds(err, _("no HTTP status"));
		return -1;
	}
	return (int)status;
}

void httpc_escape(struct strbuf *sb, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";

	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("-._~", *p)) {
			sb_addc(sb, (char)*p);
		} else {
			sb_addc(sb, '%');
			sb_addc(sb, hex[*p >> 4]);
			sb_addc(sb, hex[*p & 15]);
		}
	}
}
