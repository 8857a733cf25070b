/* GETs on libcurl's easy interface (httpc.h says why blocking, in a
 * worker). */
#include "config.h"

#include <curl/curl.h>
#include <stdlib.h>
#include <string.h>

#include "httpc.h"
#include "i18n.h"
#include "xalloc.h"

struct httpc {
	CURL *easy;
};

struct sink {
	struct strbuf *body;
	size_t max;
	int over;
};

int httpc_global_init(struct strbuf *err)
{
	CURLcode rc = curl_global_init(CURL_GLOBAL_DEFAULT);

	if (rc != CURLE_OK) {
		sb_addf(err, "libcurl: %s", curl_easy_strerror(rc));
		return -1;
	}
	return 0;
}

struct httpc *httpc_new(void)
{
	struct httpc *c = xcalloc(1, sizeof *c);

	c->easy = curl_easy_init();
	if (!c->easy)
		abort();	/* out of memory, as xalloc */
	return c;
}

void httpc_free(struct httpc *c)
{
	if (!c)
		return;
	curl_easy_cleanup(c->easy);
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

static void set_options(CURL *e, const char *url, const struct httpc_opts *o,
			struct sink *s, char *errbuf)
{
	unsigned cms = o && o->connect_ms ? o->connect_ms : HTTPC_CONNECT_MS;
	unsigned tms = o && o->timeout_ms ? o->timeout_ms : HTTPC_TIMEOUT_MS;

	curl_easy_setopt(e, CURLOPT_URL, url);
	curl_easy_setopt(e, CURLOPT_HTTPGET, 1L);
	curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);	/* threads, no SIGALRM */
	curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, (long)cms);
	curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, (long)tms);
	curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_data);
	curl_easy_setopt(e, CURLOPT_WRITEDATA, s);
	curl_easy_setopt(e, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(e, CURLOPT_ACCEPT_ENCODING, "");	/* gzip */
	curl_easy_setopt(e, CURLOPT_USERAGENT, PACKAGE_NAME "/" PACKAGE_VERSION);
	/* Only HTTP(S): a URL may not make plogtop read a file or a
	 * socket of another protocol.  No redirects followed. */
#if LIBCURL_VERSION_NUM >= 0x075500
	curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
#else
	curl_easy_setopt(e, CURLOPT_PROTOCOLS,
			 (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
	curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L);
	curl_easy_setopt(e, CURLOPT_NOPROGRESS, o && o->cancel ? 0L : 1L);
	curl_easy_setopt(e, CURLOPT_XFERINFOFUNCTION, on_progress);
	curl_easy_setopt(e, CURLOPT_XFERINFODATA, o ? (void *)o->cancel : NULL);
}

int httpc_get(struct httpc *c, const char *url, const struct httpc_opts *o,
	      struct strbuf *body, struct strbuf *err)
{
	char errbuf[CURL_ERROR_SIZE] = "";
	struct sink s = { body, o && o->max_body ? o->max_body
				: HTTPC_MAX_BODY, 0 };

	sb_reset(body);
	set_options(c->easy, url, o, &s, errbuf);
	CURLcode rc = curl_easy_perform(c->easy);
	if (s.over) {
		sb_addf(err, _("%s: the answer is over %zu bytes"), url, s.max);
		return -1;
	}
	if (rc != CURLE_OK) {
		sb_addf(err, "%s: %s", url,
			errbuf[0] ? errbuf : curl_easy_strerror(rc));
		return -1;
	}
	long status = 0;
	curl_easy_getinfo(c->easy, CURLINFO_RESPONSE_CODE, &status);
	if (status < 100 || status > 599) {
		sb_addf(err, _("%s: no HTTP status"), url);
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
