/* Hosts and jobs from the paths of local files on shared storage
 * (classify/pathhost.h says the rules): a local incident or fact whose
 * file lies in a pod's tree gets that pod's host, as if a host had sent
 * it, but nothing connects to it: its logs were read here.  Each
 * interned path is matched once; what it named is kept with it
 * (model_path_host_cache), and goes with it. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "fact.h"
#include "model_int.h"
#include "pathhost.h"
#include "xalloc.h"

void model_set_path_hosts(struct model *m, const struct pathhost *rules)
{
	m->path_rules = rules;
}

/* A job a path named: interned with the paths (model_intern dedups and
 * holds it for as long as the model lives), so that nothing of this
 * file's needs freeing. */
static const char *keep_job(struct model *m, const char *job)
{
	return job[0] ? model_intern(m, job) : NULL;
}

/* A host that nothing named or tried yet, and no path: only a state
 * file's identities made it (--state), or it is new. */
static int untried(const struct model_host *h)
{
	return !h->origin && h->state == HOST_CONNECTING && !h->attempts &&
	       !h->n;
}

static void as_path_host(struct model *m, struct model_host *h,
			 const char *origin, size_t len, const char *rule)
{
	h->origin = xstrndup(origin, len);
	h->rule = rule;
	model_host_set(m, h, m->live ? HOST_UP : HOST_DONE, NULL);
}

/* The host a match names: new ones remember where they came from, and
 * are as a host whose logs were read (up live, done in --once). */
static struct model_host *path_host(struct model *m, const char *file,
				    const struct pathhost_match *pm)
{
	struct model_host *h = model_host_find(m, pm->host);

	if (h && !untried(h))
		return h;
	if (!h && m->nhosts >= MODEL_PATH_HOSTS_MAX)
		return NULL;	/* beyond it, files stay local */
	if (!h)
		h = model_host_add(m, pm->host);
	as_path_host(m, h, file, pm->origin_len, pm->rule);
	return h;
}

void model_path_host_restored(struct model *m, const char *name,
			      const char *origin, const char *rule)
{
	struct model_host *h = model_host_find(m, name);
	const char *r = pathhost_rule_named(rule);

	if (h && r && untried(h))
		as_path_host(m, h, origin, strlen(origin), r);
}

/* What file's path names, matched once per interned path.  count: -1,
 * the file counts for its host if its path is interned (matched once);
 * 1, it counts (a path listed, not interned: matched once, by
 * model_path_seen); 0, it does not (counted when it was listed). */
static struct path_host_cache match(struct model *m, const char *file,
				    int count)
{
	struct path_host_cache none = { 1, NULL, NULL };
	if (!m->path_rules || !file)
		return none;
	struct path_host_cache *c = model_path_host_cache(m, file);
	if (c && c->done)
		return *c;
	struct pathhost_match pm;
	struct path_host_cache r = none;
	if (pathhost_match(m->path_rules, file, &pm)) {
		r.host = path_host(m, file, &pm);
		r.job = keep_job(m, pm.job);
	}
	/* Each file (an interned path, matched once) counts for its host,
	 * as a host's report counts the files it read. */
	if (count < 0)
		count = c != NULL;
	if (count && r.host && r.host->files < (size_t)-1)
		r.host->files++;
	if (c)
		*c = r;
	return r;
}

static struct path_host_cache resolve(struct model *m, const char *file)
{
	return match(m, file, -1);
}

void model_path_host(struct model *m, struct incident *inc)
{
	if (inc->host || !inc->file)
		return;
	struct path_host_cache r = resolve(m, inc->file);
	if (r.host)
		inc->host = r.host->name;
}

const struct fact *model_path_fact(struct model *m, const struct fact *f,
				   struct fact *copy)
{
	if (f->host || !f->file)
		return f;
	struct path_host_cache r = resolve(m, f->file);
	if (!r.host)
		return f;
	*copy = *f;
	copy->host = r.host->name;
	return copy;
}

const char *model_path_job(struct model *m, const char *file)
{
	return resolve(m, file).job;
}

const char *model_reading_host(const struct model *m, const char *name)
{
	const struct model_host *h = name ? model_host_find(m, name) : NULL;

	return h && h->origin ? NULL : name;
}

int model_path_names_host(const struct model *m, const char *path)
{
	struct pathhost_match pm;

	return m->path_rules && path && pathhost_match(m->path_rules, path, &pm);
}

void model_path_seen(struct model *m, const char *path)
{
	(void)match(m, path, 1);
}

void model_path_seen_again(struct model *m, const char *path)
{
	(void)match(m, path, 0);
}
