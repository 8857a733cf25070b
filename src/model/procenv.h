/* What plogtop may read of a live local process: its pid in the host's
 * namespace and its own (NSpid in /proc/PID/status), and only these
 * variables of /proc/PID/environ: RANK, LOCAL_RANK, WORLD_SIZE,
 * MINDX_TASK_ID, ASCEND_RT_VISIBLE_DEVICES, ASCEND_VISIBLE_DEVICES, and
 * POD_NAME, POD_NAMESPACE, CONTAINER_NAME, HOSTNAME; and whether
 * /proc/PID/cgroup puts it in a Kubernetes pod (procenv_pod.c).
 * Read only after liveness_same_program said the pid still runs the
 * program that logged (a reused pid is someone else).  Everything read
 * is hostile: bounded, parsed strictly. */
#ifndef PLOGTOP_PROCENV_H
#define PLOGTOP_PROCENV_H

#include <stddef.h>

#define PROCENV_DEVICES 64

struct procenv {
	long rank, local_rank, world_size;	/* -1: not set */
	char task_id[64];			/* MINDX_TASK_ID, "" if none */
	/* The visible-device map: logical id i is physical map[i]. */
	long map[PROCENV_DEVICES];
	size_t nmap;				/* 0: no map */
	/* NSpid: the pid in the innermost namespace (as a container's
	 * plog writes it) and in plogtop's (the host's). */
	long ns_pid, host_pid;
	/* Its pod, only on evidence (procenv_pod.c): "" when not known.
	 * in_pod: its cgroup is a pod's (a "kubepods" path with the pod's
	 * UID); the names are set only then. */
	int in_pod;
	char pod_name[254], pod_namespace[64], container_name[64];
};

/* Reads pid's under root ("/proc", tests give another); returns 0, or
 * -1 (gone, not permitted: nothing is known). */
int procenv_read(const char *root, long pid, struct procenv *out);

/* The pod evidence of pid under root (its cgroup file) and the names
 * its environment gave (env: POD_NAME, POD_NAMESPACE, CONTAINER_NAME,
 * HOSTNAME, as procenv_read saw them): fills out's pod fields
 * (procenv_pod.c). */
struct procenv_podenv {
	char pod_name[254], pod_namespace[64], container_name[64];
	char hostname[254];
};
void procenv_pod(const char *root, long pid,
		 const struct procenv_podenv *env, struct procenv *out);
/* A Kubernetes name: lowercase letters, digits, '-' (and '.' when dots),
 * alphanumeric at both ends, at most max bytes (procenv_pod.c). */
int procenv_k8s_name(const char *s, size_t n, size_t max, int dots);

/* The host pid whose innermost NSpid is ns_pid, found under root; 0 if
 * none or several. */
long procenv_host_pid(const char *root, long ns_pid);

/* The root to read: $PLOGTOP_PROC_ROOT when set (tests make a tree
 * of PID/environ and PID/status files), else "/proc". */
const char *procenv_root(void);

#endif
