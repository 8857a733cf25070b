/* What this host says of its live processes: the environment of one
 * that still runs the program that logged (procenv.h: rank, job, the
 * visible-device map, its pid on the host) and npu-smi's process table
 * (the physical NPU of a host pid).  Remote processes learn none of it:
 * their pids mean nothing here.
 *
 * Whose pid: plog writes a process's pid in its own namespace.  The
 * entry /proc/PID of this host is that process only when its NSpid ends
 * in PID; then its first NSpid is its pid on the host (the one npu-smi
 * shows).  Without NSpid, no log pid is matched against a host pid. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ident_int.h"
#include "liveness.h"
#include "npusmi.h"
#include "procenv.h"
#include "xalloc.h"

static void set_unsaid(int32_t *dst, long v)
{
	if (*dst < 0 && v >= 0)
		*dst = (int32_t)v;	/* at most PROCENV_NUMBER_MAX */
}

static void take_map(struct ident *id, const struct procenv *pe)
{
	size_t n = pe->nmap < IDENT_MAP ? pe->nmap : IDENT_MAP;

	for (size_t i = 0; i < n; i++)
		if (pe->map[i] < 0 || pe->map[i] > 32767)
			return;		/* not a device id: no map */
	/* No map says what the record without one says. */
	if (n || (id->more && id->more->env)) {
		struct ident_env *env = ident_env_mut(id);
		for (size_t i = 0; i < n; i++)
			env->map[i] = (short)pe->map[i];
		env->nmap = (unsigned char)n;
		env->has_map = n > 0;
	}
	ident_map_phys(id);
}

/* Its pid on the host (NSpid's first), and npu-smi's NPU of it. */
static void take_pids(struct model *m, struct ident *id,
		      const struct procenv *pe)
{
	if (pe->host_pid > 0) {
		struct ident_env *env = ident_env_mut(id);
		env->host_pid = pe->host_pid;
		env->host_ns = pe->host_pid == pe->ns_pid;
	}
	ident_apply_npu(m, id);
}

/* A pod's name from the environment (procenv_pod.c: only with the
 * cgroup's evidence), kept from the first reading that gave one. */
static void set_name(char **dst, const char *v)
{
	if (!*dst && v[0])
		*dst = xstrdup(v);
}

/* What the environment says, where the logs said nothing. */
static void take_env(struct model *m, struct ident *id,
		     const struct procenv *pe)
{
	set_unsaid(&id->rank, pe->rank);
	set_unsaid(&id->local_rank, pe->local_rank);
	set_unsaid(&id->world_size, pe->world_size);
	/* MindCluster's task id names the job better than a directory. */
	if (pe->task_id[0] && !(id->job_rule &&
				strcmp(id->job_rule, IDENT_JOB_OPTION) == 0))
		ident_set_job_by(m, id, pe->task_id, IDENT_JOB_ENV);
	if (pe->in_pod && (pe->pod_name[0] || pe->pod_namespace[0] ||
			   pe->container_name[0])) {
		struct ident_env *env = ident_env_mut(id);
		set_name(&env->pod_name, pe->pod_name);
		set_name(&env->pod_namespace, pe->pod_namespace);
		set_name(&env->container_name, pe->container_name);
	}
	take_map(id, pe);
	take_pids(m, id, pe);
}

/* The environment of a live local process, read once. */
static void read_env(struct model *m, struct ident *id)
{
	struct idents *ids = &m->idents;
	struct procenv pe;

	id->env_read = 1;
	memset(&pe, 0, sizeof pe);
	if (!ids->read_env)
		return;
	if (ids->read_env(ids->proc_root, id->pid, &pe) != 0) {
		/* environ not ours to read (another user's process): status,
		 * which anyone may read, still gives its host pid. */
		if (pe.ns_pid == id->pid && pe.host_pid > 0)
			take_pids(m, id, &pe);
		return;
	}
	if (pe.ns_pid == id->pid) {
		take_env(m, id, &pe);
		return;
	}
	/* /proc/PID is another process: the log's is in a container.  Its
	 * host pid is the one whose innermost NSpid is PID, when only one
	 * is, and it runs the same program. */
	long hp = procenv_host_pid(ids->proc_root, id->pid);
	if (hp > 0 && hp != id->pid && liveness_same_program(hp, id->name) &&
	    ids->read_env(ids->proc_root, hp, &pe) == 0 && pe.ns_pid == id->pid)
		take_env(m, id, &pe);
}

void ident_alive(struct model *m, struct process *p, int alive)
{
	struct ident *id = ident_find(m, p->host, p->pid, p->name);

	/* A live one may teach its environment: it gets an identity. */
	if (!id && alive && !p->host) {
		id = ident_get(m, NULL, p->pid, p->name, p->first);
		ident_saw(id, p->last);
	}
	if (id)
		ident_alive_id(m, id, alive);
}

void ident_alive_id(struct model *m, struct ident *id, int alive)
{
	if (id->host)
		return;
	id->alive = alive;
	id->alive_known = 1;
	if (alive && !id->env_read)
		read_env(m, id);
}

void ident_forget_proc(struct model *m, const struct process *p)
{
	struct ident *id = ident_find(m, p->host, p->pid, p->name);

	if (!id || id->proc != p)
		return;
	id->proc = NULL;
	/* One that knew nothing beyond its row (no device, no ledger, no
	 * finding) goes with it: no view would show it. */
	if (!ident_worth_keeping(id))
		ident_drop(m, id);
}

/* ---- npu-smi ---- */

/* The NPU npu-smi shows the host pid on: one; UNKNOWN when none or when
 * it is on several (want: the one to prefer when it is among them). */
static long npu_of(const struct npu_table *t, long hp, long want)
{
	long npu = IDENT_UNKNOWN;

	for (size_t i = 0; i < t->nprocs; i++) {
		if (t->procs[i].pid != hp)
			continue;
		if (t->procs[i].npu == want)
			return want;
		if (npu == IDENT_UNKNOWN)
			npu = t->procs[i].npu;
		else if (npu != t->procs[i].npu)
			npu = -2;	/* several */
	}
	return npu < 0 ? IDENT_UNKNOWN : npu;
}

void ident_apply_npu(struct model *m, struct ident *id)
{
	const struct npu_table *t = m->idents.npu;

	if (id->host)
		return;
	long host_pid = ident_env(id)->host_pid;

	if (!t || host_pid <= 0) {
		if (id->phys_from == PHYS_NPU_SMI) {
			id->phys_from = PHYS_NONE;	/* no table now */
			ident_map_phys(id);
		}
		return;
	}
	long want = id->phys_from == PHYS_ENVIRON ? id->phys : IDENT_UNKNOWN;
	long npu = npu_of(t, host_pid, want);
	ident_env_mut(id)->smi_npu = npu;
	if (npu >= 0) {
		id->phys = npu;
		id->phys_from = PHYS_NPU_SMI;
	} else if (id->phys_from == PHYS_NPU_SMI) {
		id->phys_from = PHYS_NONE;	/* gone from the table */
		ident_map_phys(id);
	}
}

void model_set_npu(struct model *m, const struct npu_table *t,
		   unsigned long long now_ms)
{
	struct idents *ids = &m->idents;

	if (!t) {
		free(ids->npu);
		ids->npu = NULL;
	} else {
		if (!ids->npu)
			ids->npu = xmalloc(sizeof *ids->npu);
		memcpy(ids->npu, t, sizeof *t);
	}
	ids->npu_ms = now_ms;
	for (size_t i = 0; i < ids->n; i++)
		if (!ids->v[i]->host)
			ident_apply_npu(m, ids->v[i]);
}
