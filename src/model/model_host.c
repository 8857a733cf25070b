/* The model's host dimension: each host of a fleet as the user named it,
 * its connection's state and its counts.  Hosts are never folded: there
 * are few of them (HOSTS_MAX), and a view grouped by host needs them all. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model_int.h"
#include "xalloc.h"

static int host_eq(const struct hnode *n, const void *key)
{
	return strcmp(((const struct model_host *)n)->name, key) == 0;
}

struct model_host *model_host_find(const struct model *m, const char *name)
{
	return (struct model_host *)htab_find(&m->host_index,
					      htab_hash_str(name, 7),
					      host_eq, name);
}

struct model_host *model_host_add(struct model *m, const char *name)
{
	struct model_host *h = model_host_find(m, name);

	if (h)
		return h;
	h = xcalloc(1, sizeof *h);
	h->name = xstrdup(name);
	h->index = m->nhosts;
	h->state = HOST_CONNECTING;
	h->state_ms = m->clock_ms();
	h->last = h->last_at = LOGTIME_UNKNOWN;
	h->node.hash = htab_hash_str(name, 7);
	htab_insert(&m->host_index, &h->node);
	m->hosts = xrealloc(m->hosts, (m->nhosts + 1) * sizeof *m->hosts);
	m->hosts[m->nhosts++] = h;
	return h;
}

void model_host_set(struct model *m, struct model_host *h,
		    enum host_state state, const char *reason)
{
	if (h->state != state)
		h->state_ms = m->clock_ms();
	h->state = state;
	free(h->reason);
	/* Kept as it came (ssh's or the remote side's stderr, hostile
	 * text): each view sanitises it where it shows it, as it does a
	 * log's text.  Sanitised here too, it was escaped twice. */
	h->reason = reason ? xstrdup(reason) : NULL;
}

size_t model_hosts_in(const struct model *m, enum host_state state)
{
	size_t n = 0;

	for (size_t i = 0; i < m->nhosts; i++)
		n += m->hosts[i]->state == state;
	return n;
}

int model_has_hosts(const struct model *m)
{
	return m->nhosts > 0;
}

const char *host_state_name(enum host_state s)
{
	static const char *const names[HOST_STATE_COUNT] = {
		"connecting", "up", "down", "done",
	};

	return s < HOST_STATE_COUNT ? names[s] : "?";
}

struct model_host *model_host_count(struct model *m, struct incident *inc,
				    logtime_t last_at)
{
	struct model_host *h = model_host_add(m, inc->host);

	inc->host = h->name;
	h->n += m->weight;
	if (inc->code < sizeof h->by_code / sizeof h->by_code[0])
		h->by_code[inc->code] += m->weight;
	if (inc->resource < RES_COUNT)
		h->by_resource[inc->resource] += m->weight;
	if (inc->last != LOGTIME_UNKNOWN &&
	    (h->last == LOGTIME_UNKNOWN || inc->last > h->last))
		h->last = inc->last;
	if (last_at != LOGTIME_UNKNOWN &&
	    (h->last_at == LOGTIME_UNKNOWN || last_at > h->last_at))
		h->last_at = last_at;
	h->seen_ms = m->clock_ms();
	return h;
}

void model_hosts_free(struct model *m)
{
	for (size_t i = 0; i < m->nhosts; i++) {
		free(m->hosts[i]->name);
		free(m->hosts[i]->reason);
		free(m->hosts[i]->origin);
		free(m->hosts[i]);
	}
	free(m->hosts);
	htab_free(&m->host_index);
	m->hosts = NULL;
	m->nhosts = 0;
}
