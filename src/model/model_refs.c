/* Who owns what the model holds: the paths incidents point at (interned,
 * counted, freed a while after their last reference went), and the
 * incidents themselves (a count of owners, and of views that may still
 * show their raw lines).  Below the rest of the model: it calls none of
 * it. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model_int.h"
#include "xalloc.h"

/* A path is freed this long after its last reference went: a chain the
 * classifier is still assembling may point at it without one, and closes
 * within seconds. */
#define PATH_GRACE_MS 60000

struct path {
	struct hnode node;
	size_t refs;
	int on_reap;
	unsigned long long zero_ms;	/* when refs went to 0 */
	struct path *reap_next;
	struct path_host_cache host;	/* model_pathhost.c's */
	char s[];
};

/* ---- paths ---- */

static int path_eq(const struct hnode *n, const void *key)
{
	return strcmp(((const struct path *)n)->s, key) == 0;
}

static struct path *find_path(const struct model *m, const char *s)
{
	return (struct path *)htab_find(&m->path_index, htab_hash_str(s, 0),
					path_eq, s);
}

const char *model_intern(struct model *m, const char *path)
{
	struct path *p = find_path(m, path);

	if (!p) {
		size_t len = strlen(path);
		p = xcalloc(1, sizeof *p + len + 1);
		memcpy(p->s, path, len + 1);
		p->node.hash = htab_hash_str(path, 0);
		htab_insert(&m->path_index, &p->node);
	}
	p->refs++;
	return p->s;
}

/* Only a pointer the model gave out counts (tests may pass others). */
static struct path *own_path(const struct model *m, const char *s)
{
	struct path *p = s ? find_path(m, s) : NULL;

	return p && p->s == s ? p : NULL;
}

static void path_ref_n(struct model *m, const char *s, size_t k)
{
	struct path *p = own_path(m, s);

	if (p)
		p->refs += k;
}

static void path_ref(struct model *m, const char *s)
{
	path_ref_n(m, s, 1);
}

static void path_unref_n(struct model *m, const char *s, size_t k)
{
	struct path *p = own_path(m, s);

	if (!p || !p->refs)
		return;
	p->refs -= k < p->refs ? k : p->refs;
	if (p->refs)
		return;
	p->zero_ms = m->clock_ms();
	if (!p->on_reap) {
		p->on_reap = 1;
		p->reap_next = m->reap;
		m->reap = p;
	}
}

static void path_unref(struct model *m, const char *s)
{
	path_unref_n(m, s, 1);
}

void model_release_path(struct model *m, const char *path)
{
	path_unref(m, path);
}

void model_reap_paths(struct model *m, unsigned long long now)
{
	struct path **pp = &m->reap;

	while (*pp) {
		struct path *p = *pp;
		if (!p->refs && now < p->zero_ms + PATH_GRACE_MS) {
			pp = &p->reap_next;
			continue;
		}
		*pp = p->reap_next;
		p->on_reap = 0;
		if (!p->refs) {
			htab_remove(&m->path_index, &p->node);
			free(p);
		}
	}
}

void model_reap_released_paths(struct model *m)
{
	model_reap_paths(m, ~0ULL);
}

struct path_host_cache *model_path_host_cache(struct model *m,
					      const char *s)
{
	struct path *p = own_path(m, s);

	return p ? &p->host : NULL;
}

size_t model_paths(const struct model *m)
{
	return m->path_index.n;
}

/* ---- incidents' owners ---- */

/* The raw lines of an incident are mostly of one file: a path is looked
 * up once for each run of lines that share it. */
static size_t same_file_run(const struct incident *inc, size_t i)
{
	size_t j = i + 1;

	while (j < inc->nraw && inc->raw[j].file == inc->raw[i].file)
		j++;
	return j - i;
}

void model_hold_paths(struct model *m, struct incident *inc)
{
	inc->held_paths = 1;
	path_ref(m, inc->file);
	for (size_t i = 0, k; i < inc->nraw; i += k) {
		k = same_file_run(inc, i);
		path_ref_n(m, inc->raw[i].file, k);
	}
}

void model_drop_raw(struct model *m, struct incident *inc)
{
	if (inc->held_paths)
		for (size_t i = 0, k; i < inc->nraw; i += k) {
			k = same_file_run(inc, i);
			path_unref_n(m, inc->raw[i].file, k);
		}
	incident_drop_raw(inc);
}

void model_release_raw(struct model *m, struct incident *inc)
{
	if (--inc->raw_refs == 0)
		model_drop_raw(m, inc);
}

void model_unref(struct model *m, struct incident *inc)
{
	if (--inc->refs > 0)
		return;
	model_drop_raw(m, inc);
	if (inc->held_paths)
		path_unref(m, inc->file);
	incident_free(inc);
}

struct incident *model_keep(struct model *m, const struct incident *inc,
			    int raw)
{
	/* The model's own incident, lent to a view as const. */
	struct incident *own = (struct incident *)inc;

	(void)m;
	own->refs++;
	if (raw)
		own->raw_refs++;
	return own;
}

void model_let_go(struct model *m, struct incident *inc, int raw)
{
	if (raw)
		model_release_raw(m, inc);
	model_unref(m, inc);
}

void model_free_paths(struct model *m)
{
	htab_free_nodes(&m->path_index);
}

