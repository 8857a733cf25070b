/* A live local process's Kubernetes pod, only on evidence (procenv.h).
 *
 * The evidence is its cgroup (/proc/PID/cgroup, as the kubelet makes
 * it): a line whose path has a component that begins with "kubepods"
 * ("kubepods", "kubepods.slice", "kubepods-burstable.slice"...) and,
 * in that path, the pod's UID: "pod<UID>" (the cgroupfs driver) or
 * "kubepods-<QOS>-pod<UID>.slice" (systemd's, with '_' for '-').  Only
 * then is the process in a pod, and only then are the names of its
 * environment taken, each only when it is a Kubernetes name:
 *   pod_name:       POD_NAME (the downward API's metadata.name, as
 *                   MindCluster's job YAMLs wire it), else HOSTNAME (a
 *                   pod's hostname is its name) only when the process
 *                   has a UTS namespace of its own (/proc/PID/ns/uts is
 *                   not /proc/1/ns/uts): a pod on the host's network
 *                   shares the host's, and its HOSTNAME is the node's;
 *                   when either cannot be read, HOSTNAME is not used;
 *   namespace:      POD_NAMESPACE (metadata.namespace);
 *   container_name: CONTAINER_NAME.
 * A process outside a pod gets none of them, whatever its environment
 * says: a variable alone is no evidence. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "procenv.h"

#define PROCENV_CGROUP_MAX 16384	/* cgroup bytes read */
#define POD_UID_LEN 36			/* 8-4-4-4-12 */

int procenv_k8s_name(const char *s, size_t n, size_t max, int dots)
{
	if (!n || n > max)
		return 0;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		int alnum = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
		if (alnum)
			continue;
		if ((c != '-' && !(dots && c == '.')) || i == 0 || i == n - 1)
			return 0;
	}
	return 1;
}

/* A pod's UID at s: 36 of hex digits and dashes (or underscores, as
 * systemd's slice names write them) in the 8-4-4-4-12 form. */
static int pod_uid(const char *s, size_t n)
{
	if (n < POD_UID_LEN)
		return 0;
	for (size_t i = 0; i < POD_UID_LEN; i++) {
		char c = s[i];
		int sep = i == 8 || i == 13 || i == 18 || i == 23;
		if (sep ? (c != '-' && c != '_')
			: !((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
			return 0;
	}
	return n == POD_UID_LEN || s[POD_UID_LEN] == '.';
}

/* One component of a cgroup path: a pod's UID in it. */
static int pod_component(const char *s, size_t n)
{
	const char *p = NULL;

	if (n > 3 && memcmp(s, "pod", 3) == 0)
		p = s + 3;
	else if (n > 9 && memcmp(s, "kubepods-", 9) == 0) {
		/* kubepods-<QOS>-pod<UID>.slice, or kubepods-pod<UID>.slice
		 * (a Guaranteed pod) */
		for (size_t i = 8; i + 4 < n && !p; i++)
			if (memcmp(s + i, "-pod", 4) == 0)
				p = s + i + 4;
	}
	return p && pod_uid(p, (size_t)(s + n - p));
}

/* One line "ID:CONTROLLERS:PATH": a kubepods path with a pod's UID. */
static int pod_line(const char *line, size_t n)
{
	const char *c1 = memchr(line, ':', n);
	const char *c2 = c1 ? memchr(c1 + 1, ':', (size_t)(line + n - c1 - 1))
			    : NULL;
	int kube = 0, uid = 0;

	if (!c2)
		return 0;
	for (const char *p = c2 + 1, *end = line + n; p < end;) {
		const char *slash = memchr(p, '/', (size_t)(end - p));
		size_t k = slash ? (size_t)(slash - p) : (size_t)(end - p);
		if (k >= 8 && memcmp(p, "kubepods", 8) == 0)
			kube = 1;
		if (kube && pod_component(p, k))
			uid = 1;
		p += k + 1;
	}
	return kube && uid;
}

static int cgroup_in_pod(const char *root, long pid)
{
	char path[4096], buf[PROCENV_CGROUP_MAX + 1];
	snprintf(path, sizeof path, "%s/%ld/cgroup", root, pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	size_t have = 0;
	while (have < PROCENV_CGROUP_MAX) {
		ssize_t r = read(fd, buf + have, PROCENV_CGROUP_MAX - have);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		have += (size_t)r;
	}
	close(fd);
	for (size_t i = 0; i < have;) {
		const char *nl = memchr(buf + i, '\n', have - i);
		size_t n = nl ? (size_t)(nl - (buf + i)) : have - i;
		if (pod_line(buf + i, n))
			return 1;
		i += n + 1;
	}
	return 0;
}

/* pid has a UTS namespace other than the host's (pid 1's under root):
 * its hostname is its pod's, not the node's. */
static int own_uts(const char *root, long pid)
{
	char path[4096], mine[128], host[128];
	ssize_t a, b;

	snprintf(path, sizeof path, "%s/%ld/ns/uts", root, pid);
	a = readlink(path, mine, sizeof mine - 1);
	snprintf(path, sizeof path, "%s/1/ns/uts", root);
	b = readlink(path, host, sizeof host - 1);
	if (a <= 0 || b <= 0)
		return 0;
	return a != b || memcmp(mine, host, (size_t)a) != 0;
}

void procenv_pod(const char *root, long pid,
		 const struct procenv_podenv *env, struct procenv *out)
{
	out->in_pod = 0;
	out->pod_name[0] = out->pod_namespace[0] = '\0';
	out->container_name[0] = '\0';
	if (!cgroup_in_pod(root, pid))
		return;
	out->in_pod = 1;
	if (env->pod_name[0])
		strcpy(out->pod_name, env->pod_name);
	else if (env->hostname[0] && own_uts(root, pid))
		strcpy(out->pod_name, env->hostname);
	strcpy(out->pod_namespace, env->pod_namespace);
	strcpy(out->container_name, env->container_name);
}
