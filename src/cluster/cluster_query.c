/* The queries of one refresh, and asking them.  A refresh asks
 * CQ_COUNT instant queries however many nodes there are (the totals
 * only: 5): each is summed by node and series, so its answer has a
 * sample per (node, process, device, class), never one query per node.
 *
 * A window's count is what a counter grew in it, `x - x offset W`, but
 * a series born inside the window has no value W ago, and
 * increase() of a series born at N is 0: so a series with no value
 * then counts whole (`or x`), and so does one that went down (its
 * plogtop restarted from 0: `>= 0` leaves it out of the difference). */
#include "config.h"

#include <string.h>

#include "cluster.h"
#include "monoclock.h"

#define BY "node, instance, process, device, code, resource, cause"
#define INC "plogtop_incidents_total"

static unsigned window_of(enum cquery q)
{
	return q == CQ_1M ? 60 : q == CQ_5M ? 300 : 3600;
}

static void grown(struct strbuf *sb, unsigned s)
{
	sb_addf(sb, "sum by (" BY ") ((" INC " - " INC " offset %us)"
		" >= 0 or " INC ") > 0", s);
}

const char *cluster_query_text(enum cquery q, unsigned window_s,
			       struct strbuf *sb)
{
	sb_reset(sb);
	switch (q) {
	case CQ_TOTAL:
		if (window_s)
			grown(sb, window_s);
		else
			sb_adds(sb, "sum by (" BY ") (" INC ") > 0");
		break;
	case CQ_1M:
	case CQ_5M:
	case CQ_1H:
		grown(sb, window_of(q));
		break;
	case CQ_INFO:
		sb_adds(sb, "max by (node, instance, process, device, pid, rank)"
			" (plogtop_process_info)");
		break;
	case CQ_AGE:
		/* The last hour: a node silent for longer than the lookback
		 * (5 minutes) would otherwise vanish rather than be stale. */
		sb_adds(sb, "time() - max by (node, instance) (max_over_time("
			"plogtop_last_update_timestamp_seconds[1h]))");
		break;
	case CQ_DOWN:
		/* Targets of the jobs that scrape plogtop's metrics. */
		sb_adds(sb, "max by (node, instance) (up == 0 and on (job) "
			"group by (job) (max_over_time("
			"plogtop_last_update_timestamp_seconds[1h])))");
		break;
	case CQ_FILES:
		sb_adds(sb, "sum by (node, instance) (plogtop_files_watched)");
		break;
	case CQ_COUNT:
		break;
	}
	return sb_str(sb);
}

static int wanted(enum cquery q, int windows)
{
	return windows || (q != CQ_1M && q != CQ_5M && q != CQ_1H);
}

/* base_url without its trailing slashes, then the API's path. */
static void query_url(struct strbuf *url, const char *base, const char *expr,
		      const char *at)
{
	size_t n = strlen(base);

	while (n && base[n - 1] == '/')
		n--;
	sb_reset(url);
	sb_add(url, base, n);
	sb_adds(url, "/api/v1/query?query=");
	httpc_escape(url, expr);
	if (at && *at) {
		sb_adds(url, "&time=");
		httpc_escape(url, at);
	}
}

int cluster_fetch(struct httpc *c, const char *base_url, int windows,
		  unsigned window_s, _Atomic int *cancel,
		  struct cluster_data *d)
{
	struct httpc_opts ho = { .cancel = cancel };
	struct strbuf expr = STRBUF_INIT, url = STRBUF_INIT,
		      body = STRBUF_INIT, why = STRBUF_INIT;
	double t0 = monotonic_seconds();
	int rc = 0;

	for (int q = 0; q < CQ_COUNT && rc == 0; q++) {
		if (!wanted((enum cquery)q, windows))
			continue;
		query_url(&url, base_url,
			  cluster_query_text((enum cquery)q, window_s, &expr),
			  d->at);
		d->queries++;
		sb_reset(&why);
		int status = httpc_get(c, url.buf, &ho, &body, &why);
		if (status < 0) {
			/* Said with the URL as the user gave it: the query's
			 * own would push the reason off the message line. */
			struct strbuf shown = STRBUF_INIT;
			httpc_url_shown(&shown, url.buf);
			const char *r = why.buf;
			if (strncmp(r, shown.buf, shown.len) == 0 &&
			    strncmp(r + shown.len, ": ", 2) == 0)
				r += shown.len + 2;
			httpc_url_shown(&d->err, base_url);
			sb_addf(&d->err, ": %s", r);
			sb_free(&shown);
			rc = -1;
			break;
		}
		sb_reset(&why);
		if (cluster_parse(body.buf, body.len, (enum cquery)q, d,
				  &why) < 0) {
			httpc_url_shown(&d->err, base_url);
			sb_addf(&d->err, ": HTTP %d: %s", status, why.buf);
			rc = -1;
		}
	}
	d->failed = rc < 0;
	d->seconds = monotonic_seconds() - t0;
	sb_free(&expr);
	sb_free(&url);
	sb_free(&body);
	sb_free(&why);
	return rc;
}
