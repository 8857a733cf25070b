/* Identities (ident.h): the table by host, pid and name, its bound, and
 * the names of what a ledger keeps. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ident_int.h"
#include "model_int.h"
#include "procenv.h"
#include "xalloc.h"

enum resource ledger_resource(enum ledger_res r)
{
	static const enum resource res[LEDGER_COUNT] = {
		RES_STREAM, RES_EVENT, RES_NOTIFY
	};
	return (unsigned)r < LEDGER_COUNT ? res[r] : RES_NONE;
}

enum ledger_res ledger_of_resource(enum resource r)
{
	for (int i = 0; i < LEDGER_COUNT; i++)
		if (ledger_resource((enum ledger_res)i) == r)
			return (enum ledger_res)i;
	return LEDGER_COUNT;
}

const char *ledger_from_name(enum ledger_from f)
{
	return f == LEDGER_CALLS ? "calls"
	     : f == LEDGER_STATISTICS ? "statistics" : "";
}

const char *phys_from_name(enum phys_from f)
{
	return f == PHYS_ENVIRON ? "environ" : f == PHYS_NPU_SMI ? "npu-smi" : "";
}

void idents_init(struct idents *ids)
{
	memset(ids, 0, sizeof *ids);
	/* Blocks of some 64 KiB, as the model's processes. */
	recpool_init(&ids->pool, sizeof(struct ident), 300);
	ids->read_env = procenv_read;
	/* Tests give a tree of fake environments (liveness still asks the
	 * real /proc whether the pid runs). */
	ids->proc_root = procenv_root();
}

static void ident_free(struct idents *ids, struct ident *id)
{
	ident_name_put(ids, id->name);
	ident_name_put(ids, id->job);
	ident_devs_free(id);
	ident_more_free(id);
	recpool_put(&ids->pool, id);
}

void idents_free(struct idents *ids)
{
	for (size_t i = 0; i < ids->n; i++)
		ident_free(ids, ids->v[i]);
	free(ids->v);
	recpool_free(&ids->pool);
	htab_free(&ids->index);
	ident_names_free(ids);
	free(ids->npu);
	memset(ids, 0, sizeof *ids);
}

/* ---- the index ---- */

/* Hashed by host and pid only: every name of one pid is in one bucket,
 * so that a pid-only block finds them all (ident_name_by_pid). */
static size_t key_hash(const struct model_host *host, long pid)
{
	return model_pid_hash(host, pid);
}

#define PID_PROC(n) ((struct process *)(void *)((char *)(n) - \
		     offsetof(struct process, node)))

/* The bucket of (host, pid) in t, or NULL. */
static struct hnode *bucket(const struct htab *t, size_t h)
{
	return t->nb ? t->b[h & (t->nb - 1)] : NULL;
}

struct process *ident_row(const struct model *m,
			  const struct model_host *host, long pid,
			  const char *name)
{
	size_t h = key_hash(host, pid);

	for (struct hnode *n = bucket(&m->proc_index, h); n; n = n->next) {
		struct process *p = PID_PROC(n);
		if (n->hash == h && p->host == host && p->pid == pid &&
		    strcmp(p->name, name) == 0)
			return p;
	}
	return NULL;
}

struct ikey {
	const struct model_host *host;
	long pid;
	const char *name;
	long dev;	/* a cluster's pid-less process: its device */
};

static int ident_eq(const struct hnode *n, const void *key)
{
	const struct ident *id = (const struct ident *)n;
	const struct ikey *k = key;

	return id->host == k->host && id->pid == k->pid &&
	       id->key_dev == k->dev && strcmp(id->name, k->name) == 0;
}

struct ident *ident_find(const struct model *m,
			 const struct model_host *host, long pid,
			 const char *name)
{
	struct ikey k = { host, pid, name ? name : "", IDENT_UNKNOWN };

	return (struct ident *)htab_find(&m->idents.index,
					 key_hash(host, pid), ident_eq, &k);
}

struct ident *ident_find_dev(const struct model *m,
			     const struct model_host *host, const char *name,
			     long dev)
{
	struct ikey k = { host, 0, name ? name : "", dev };

	return (struct ident *)htab_find(&m->idents.index,
					 key_hash(host, 0), ident_eq, &k);
}

static logtime_t distance(logtime_t a, logtime_t b)
{
	return a > b ? a - b : b - a;
}

/* Whether (name, last) is a better candidate than the best so far.
 * same_kind: the best is of the same walk (identities, or rows), whose
 * orders compare.  At the same distance the newer of one walk wins, the
 * identity over a row: said here, not left to the order of a bucket's
 * chain (which a table's growth turns), so that it holds however large
 * the tables are. */
static int nearer(const char *name, logtime_t last, size_t order,
		  const char *best, logtime_t best_last, size_t best_order,
		  int same_kind, logtime_t t)
{
	if (!name[0])
		return 0;
	if (!best)
		return 1;
	if (t == LOGTIME_UNKNOWN || last == LOGTIME_UNKNOWN)
		return t == LOGTIME_UNKNOWN && order > best_order;
	if (best_last == LOGTIME_UNKNOWN)
		return 1;
	logtime_t d = distance(last, t), best_d = distance(best_last, t);
	return d < best_d || (d == best_d && same_kind && order > best_order);
}

const char *ident_name_by_pid(const struct model *m,
			      const struct model_host *host, long pid,
			      logtime_t t)
{
	const char *best = NULL;
	logtime_t best_last = LOGTIME_UNKNOWN;
	size_t best_order = 0, h = key_hash(host, pid);
	int best_row = 0;	/* the best is a row, not an identity */

	/* The identities (rows folded away included), then the rows (a
	 * process that taught nothing has no identity). */
	for (struct hnode *n = bucket(&m->idents.index, h); n; n = n->next) {
		const struct ident *id = (const struct ident *)n;
		if (n->hash == h && id->host == host && id->pid == pid &&
		    nearer(id->name, id->last, id->seq, best, best_last,
			   best_order, 1, t)) {
			best = id->name;
			best_last = id->last;
			best_order = id->seq;
		}
	}
	for (struct hnode *n = bucket(&m->proc_index, h); n; n = n->next) {
		const struct process *p = PID_PROC(n);
		if (n->hash == h && p->host == host && p->pid == pid &&
		    (!best || strcmp(best, p->name) != 0) &&
		    nearer(p->name, p->last, p->id, best, best_last,
			   best_order, best_row, t)) {
			best = p->name;
			best_last = p->last;
			best_order = p->id;
			best_row = 1;
		}
	}
	return best;
}

/* ---- the bound ---- */

static void remove_at(struct idents *ids, size_t i)
{
	struct ident *id = ids->v[i];

	htab_remove(&ids->index, &id->node);
	memmove(ids->v + i, ids->v + i + 1,
		(ids->n - i - 1) * sizeof *ids->v);
	ids->n--;
	ident_free(ids, id);
}

static void drop_at(struct idents *ids, size_t i)
{
	remove_at(ids, i);
	ids->dropped++;
}

int ident_worth_keeping(const struct ident *id)
{
	if (id->ndevices || ident_has_finding(id))
		return 1;
	for (int r = 0; r < LEDGER_COUNT; r++)
		if (ident_ledger(id, r)->from != LEDGER_NONE)
			return 1;
	/* What the environment or the logs said of its rank and job. */
	return id->rank >= 0;
}

/* v is in the order first seen, and seq grows with it. */
void ident_drop(struct model *m, struct ident *id)
{
	struct idents *ids = &m->idents;
	size_t lo = 0, hi = ids->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (ids->v[mid]->seq < id->seq)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < ids->n && ids->v[lo] == id)
		remove_at(ids, lo);
}

/* At IDENT_MAX, the oldest whose process is gone (no row, not known to
 * run) and that has no finding goes; failing that, the oldest without a
 * row.  When every one has a row (--once keeps every process), none
 * goes: the table is as big as the model's. */
static void make_room(struct idents *ids)
{
	/* After a search that found none, the next waits for 1,024 more:
	 * --once with a million processes does not search at each. */
	if (ids->n < IDENT_MAX || (ids->full_n && ids->n < ids->full_n + 1024))
		return;
	for (size_t i = 0; i < ids->n; i++) {
		const struct ident *id = ids->v[i];
		if (!id->proc && !id->alive && !ident_has_finding(id)) {
			drop_at(ids, i);
			return;
		}
	}
	for (size_t i = 0; i < ids->n; i++) {
		if (!ids->v[i]->proc) {
			drop_at(ids, i);
			return;
		}
	}
	ids->full_n = ids->n;
}

static void init_ident(struct ident *id)
{
	id->device = id->phys = IDENT_UNKNOWN;
	id->rank = id->local_rank = id->world_size = IDENT_UNKNOWN;
	id->dp = id->tp = id->ep = IDENT_UNKNOWN;
	id->first = id->last = LOGTIME_UNKNOWN;
	id->key_dev = IDENT_UNKNOWN;
}

static const struct ident_env no_env = {
	.host_pid = IDENT_UNKNOWN, .smi_npu = IDENT_UNKNOWN
};

const struct ident_env *ident_env(const struct ident *id)
{
	return id->more && id->more->env ? id->more->env : &no_env;
}

struct ident_env *ident_env_mut(struct ident *id)
{
	struct ident_more *x = ident_more_mut(id);

	if (!x->env) {
		x->env = xmalloc(sizeof *x->env);
		*x->env = no_env;
	}
	return x->env;
}

static struct ident *ident_make(struct model *m, struct model_host *host,
				long pid, const char *name, long dev,
				logtime_t t)
{
	struct idents *ids = &m->idents;
	struct ident *id = dev >= 0 ? ident_find_dev(m, host, name, dev)
				    : ident_find(m, host, pid, name);

	if (!id) {
		make_room(ids);
		id = recpool_get(&ids->pool);
		init_ident(id);
		id->key_dev = (int32_t)dev;
		id->host = host;
		id->pid = pid;
		id->name = ident_name_get(ids, name ? name : "");
		id->seq = ids->n ? ids->v[ids->n - 1]->seq + 1u : 0;
		id->node.hash = key_hash(host, pid);
		htab_insert(&ids->index, &id->node);
		id->proc = dev >= 0 ? NULL : ident_row(m, host, pid, id->name);
		if (ids->n == ids->cap) {
			ids->cap = recpool_next_cap(ids->cap, 64);
			ids->v = xrealloc(ids->v, ids->cap * sizeof *ids->v);
		}
		ids->v[ids->n++] = id;
	}
	ident_saw(id, t);
	return id;
}

struct ident *ident_get(struct model *m, struct model_host *host, long pid,
			const char *name, logtime_t t)
{
	return ident_make(m, host, pid, name, IDENT_UNKNOWN, t);
}

struct ident *ident_get_dev(struct model *m, struct model_host *host,
			    const char *name, long dev, logtime_t t)
{
	return ident_make(m, host, 0, name, dev, t);
}

void ident_saw(struct ident *id, logtime_t t)
{
	if (t == LOGTIME_UNKNOWN)
		return;
	if (id->first == LOGTIME_UNKNOWN || t < id->first)
		id->first = t;
	if (id->last == LOGTIME_UNKNOWN || t > id->last)
		id->last = t;
}

/* ---- jobs ---- */

/* id's first file kept for a job's roots, now the caller's (NULL: none). */
static char *take_job_file(struct ident *id)
{
	char *file = id->more ? id->more->job_file : NULL;

	if (file)
		id->more->job_file = NULL;
	return file;
}

void ident_set_job(struct model *m, struct ident *id, const char *job)
{
	/* job may be id->job itself: taken before the old one goes. */
	char *v = ident_name_get(&m->idents, job);
	ident_name_put(&m->idents, id->job);
	id->job = v;
	id->job_rule = NULL;
	free(take_job_file(id));
}

void ident_set_job_by(struct model *m, struct ident *id, const char *job,
		      const char *rule)
{
	ident_set_job(m, id, job);
	id->job_rule = rule;
}

/* file lies under dir (a path prefix ending at a '/'). */
static int under(const char *file, const char *dir)
{
	size_t len = strlen(dir);

	while (len > 1 && dir[len - 1] == '/')
		len--;
	if (len == 1 && dir[0] == '/')
		return file[0] == '/';
	return strncmp(file, dir, len) == 0 &&
	       (file[len] == '/' || file[len] == '\0');
}

/* A host's roots are HOST:PATH in the model's list; a host named by a
 * local file's path read the local roots. */
static const char *root_path(const char *root, const struct model_host *h)
{
	if (!h || h->origin)
		return root;
	size_t n = strlen(h->name);
	if (strncmp(root, h->name, n) != 0 || root[n] != ':')
		return NULL;
	return root + n + 1;
}

/* The rules, first that names one wins: --job, MINDX_TASK_ID (read from
 * a live local process's environment, ident_host.c, which replaces what
 * a path or a directory said), the task directory of a file's path on
 * shared storage (model_pathhost.c), then the top directory: the root
 * the file was found under. */
void ident_find_job(struct model *m, struct ident *id, const char *file)
{
	if (id->job)
		return;
	int local = !id->host || id->host->origin;
	if (local && m->idents.job) {
		ident_set_job_by(m, id, m->idents.job, IDENT_JOB_OPTION);
		return;
	}
	if (!file)
		return;
	const char *pj = local ? model_path_job(m, file) : NULL;
	if (pj) {
		ident_set_job_by(m, id, pj, IDENT_JOB_PATH);
		return;
	}
	for (size_t i = 0; i < m->nroots; i++) {
		const char *dir = root_path(m->roots[i], id->host);
		if (dir && *dir && under(file, dir)) {
			ident_set_job_by(m, id, m->roots[i], IDENT_JOB_ROOT);
			return;
		}
	}
	/* A host's roots come with its report, after its incidents. */
	if (id->host && !(id->more && id->more->job_file))
		ident_more_mut(id)->job_file = xstrdup(file);
}

void model_idents_roots(struct model *m)
{
	for (size_t i = 0; i < m->idents.n; i++) {
		struct ident *id = m->idents.v[i];
		char *file = id->job ? NULL : take_job_file(id);
		if (file) {
			ident_find_job(m, id, file);
			free(file);
		}
	}
}

void model_set_job(struct model *m, const char *job)
{
	m->idents.job = job;
	for (size_t i = 0; job && i < m->idents.n; i++)
		if (!m->idents.v[i]->host || m->idents.v[i]->host->origin)
			ident_set_job_by(m, m->idents.v[i], job,
					 IDENT_JOB_OPTION);
}

/* ---- what the rest of plogtop reads ---- */

const struct ident *model_ident(const struct model *m,
				const struct process *p)
{
	if (p->key_dev >= 0)
		return ident_find_dev(m, p->host, p->name, p->key_dev);
	return ident_find(m, p->host, p->pid, p->name);
}

const struct ident *model_ident_find(const struct model *m,
				     const char *host, long pid,
				     const char *name)
{
	const struct model_host *h = host ? model_host_find(m, host) : NULL;

	if (host && !h)
		return NULL;
	return ident_find(m, h, pid, name);
}

size_t model_idents(const struct model *m, const struct ident *const **out)
{
	*out = (const struct ident *const *)m->idents.v;
	return m->idents.n;
}
