/* What plogtop may read of a live local process (procenv.h).
 *
 * /proc/PID/environ is read in pieces of PROCENV_CHUNK bytes, at most
 * PROCENV_ENVIRON_MAX in all, and parsed an entry at a time: an entry is
 * looked at only when its name is one of ours, and the buffer is wiped
 * before it is let go, so that no other variable stays in memory.  An
 * entry longer than PROCENV_ENTRY_MAX is none of ours (our values are
 * short) and is skipped.
 *
 * The visible-device map (an inference from the documented variables,
 * plog-facts.md section 9): ASCEND_RT_VISIBLE_DEVICES ("0,1,3": the CANN
 * runtime's logical id i is the i-th of the list; no ranges documented)
 * and ASCEND_VISIBLE_DEVICES (the container's NPUs, as the Ascend Docker
 * Runtime takes them: "0,1,3", ranges "0-3", names "Ascend910-1"; its
 * device numbers stay the host's inside the container).  A device
 * twice in a list makes it no list.  With both, logical i is
 * ASCEND_VISIBLE_DEVICES' entry number ASCEND_RT_VISIBLE_DEVICES[i].  A
 * value that is not a list of device numbers gives no map. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "procenv.h"

#define PROCENV_CHUNK 4096
#define PROCENV_ENTRY_MAX 1024
#define PROCENV_ENVIRON_MAX (4u << 20)	/* environ bytes read at most */
#define PROCENV_STATUS_MAX 4096		/* status bytes read */
#define PROCENV_SCAN_MAX 100000		/* /proc entries looked at */
#define PROCENV_NUMBER_MAX 10000000L	/* a rank, a world size */
#define PROCENV_DEVICE_MAX 4096L	/* a device number */

/* The system root: $PLOGTOP_PROC_ROOT (tests give a tree they made),
 * else /proc. */
const char *procenv_root(void)
{
	const char *r = getenv("PLOGTOP_PROC_ROOT");

	return r && *r ? r : "/proc";
}

/* Digits only, at most max; -1 otherwise. */
static long number(const char *s, size_t n, long max)
{
	long v = 0;

	if (!n || n > 10)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v <= max ? v : -1;
}

/* "0,1,3" (and "0-3" when ranges): the list in v; its length, or 0 when
 * it is not such a list. */
static size_t device_list(const char *s, size_t n, int ranges, long *v)
{
	size_t k = 0, i = 0;

	while (i < n) {
		size_t j = i;
		while (j < n && s[j] != ',')
			j++;
		/* The Ascend Docker Runtime also takes a device's name,
		 * "Ascend910-1": its number is after the dash. */
		int range = ranges;
		if (ranges && j - i > 6 && memcmp(s + i, "Ascend", 6) == 0) {
			const char *d = memchr(s + i, '-', j - i);
			if (!d)
				return 0;
			i = (size_t)(d + 1 - s);
			range = 0;	/* a name: no range in it */
		}
		const char *dash = range ? memchr(s + i, '-', j - i) : NULL;
		long lo, hi;
		if (dash) {
			lo = number(s + i, (size_t)(dash - (s + i)),
				    PROCENV_DEVICE_MAX);
			hi = number(dash + 1, (size_t)(s + j - dash - 1),
				    PROCENV_DEVICE_MAX);
		} else {
			lo = hi = number(s + i, j - i, PROCENV_DEVICE_MAX);
		}
		if (lo < 0 || hi < lo)
			return 0;
		for (long d = lo; d <= hi; d++) {
			if (k >= PROCENV_DEVICES)
				return 0;	/* more than we keep: no map */
			for (size_t m = 0; m < k; m++)
				if (v[m] == d)
					return 0;	/* twice: no map */
			v[k++] = d;
		}
		if (j == n)
			break;
		i = j + 1;
		if (i == n)
			return 0;		/* a trailing comma */
	}
	return k;
}

struct env_seen {
	long rt[PROCENV_DEVICES], vis[PROCENV_DEVICES];
	size_t nrt, nvis;
	int rt_set, vis_set;
	struct procenv_podenv pod;	/* taken only on a pod's cgroup */
};

static int is_name(const char *e, size_t n, const char *name, size_t *vlen)
{
	size_t k = strlen(name);

	if (n <= k || memcmp(e, name, k) != 0 || e[k] != '=')
		return 0;
	*vlen = n - k - 1;
	return 1;
}

/* A Kubernetes name into dst (of size max + 1), or nothing. */
static void k8s_name(char *dst, size_t max, int dots, const char *v,
		     size_t n)
{
	if (procenv_k8s_name(v, n, max, dots)) {
		memcpy(dst, v, n);
		dst[n] = '\0';
	}
}

/* The pod's names (procenv_pod.c says when they are taken). */
static void pod_entry(const char *e, size_t n, struct procenv_podenv *pod)
{
	size_t vn;

	if (is_name(e, n, "POD_NAME", &vn))
		k8s_name(pod->pod_name, sizeof pod->pod_name - 1, 1,
			 e + n - vn, vn);
	else if (is_name(e, n, "POD_NAMESPACE", &vn))
		k8s_name(pod->pod_namespace, sizeof pod->pod_namespace - 1,
			 0, e + n - vn, vn);
	else if (is_name(e, n, "CONTAINER_NAME", &vn))
		k8s_name(pod->container_name,
			 sizeof pod->container_name - 1, 0, e + n - vn, vn);
	else if (is_name(e, n, "HOSTNAME", &vn))
		k8s_name(pod->hostname, sizeof pod->hostname - 1, 1,
			 e + n - vn, vn);
}

/* One NUL-terminated entry of environ. */
static void env_entry(const char *e, size_t n, struct procenv *out,
		      struct env_seen *seen)
{
	size_t vn;

	if (is_name(e, n, "RANK", &vn))
		out->rank = number(e + n - vn, vn, PROCENV_NUMBER_MAX);
	else if (is_name(e, n, "LOCAL_RANK", &vn))
		out->local_rank = number(e + n - vn, vn, PROCENV_NUMBER_MAX);
	else if (is_name(e, n, "WORLD_SIZE", &vn))
		out->world_size = number(e + n - vn, vn, PROCENV_NUMBER_MAX);
	else if (is_name(e, n, "MINDX_TASK_ID", &vn)) {
		/* Printable ASCII only; anything else: no task id. */
		size_t i;
		for (i = 0; i < vn; i++)
			if ((unsigned char)e[n - vn + i] <= 0x20 ||
			    (unsigned char)e[n - vn + i] >= 0x7f)
				break;
		if (i == vn && vn < sizeof out->task_id) {
			memcpy(out->task_id, e + n - vn, vn);
			out->task_id[vn] = '\0';
		}
	} else if (is_name(e, n, "ASCEND_RT_VISIBLE_DEVICES", &vn)) {
		seen->rt_set = 1;
		seen->nrt = device_list(e + n - vn, vn, 0, seen->rt);
	} else if (is_name(e, n, "ASCEND_VISIBLE_DEVICES", &vn)) {
		seen->vis_set = 1;
		seen->nvis = device_list(e + n - vn, vn, 1, seen->vis);
	} else {
		pod_entry(e, n, &seen->pod);
	}
}

/* The map from what was seen: none when a variable set is garbage. */
static void make_map(struct procenv *out, const struct env_seen *s)
{
	if ((s->rt_set && !s->nrt) || (s->vis_set && !s->nvis))
		return;
	if (s->nrt && s->nvis) {
		for (size_t i = 0; i < s->nrt; i++)
			if ((size_t)s->rt[i] >= s->nvis)
				return;		/* not in the container's list */
		for (size_t i = 0; i < s->nrt; i++)
			out->map[i] = s->vis[s->rt[i]];
		out->nmap = s->nrt;
	} else if (s->nrt || s->nvis) {
		const long *v = s->nrt ? s->rt : s->vis;
		out->nmap = s->nrt ? s->nrt : s->nvis;
		memcpy(out->map, v, out->nmap * sizeof *v);
	}
}

/* memset through a volatile pointer: a wipe the compiler cannot drop. */
static void *(*const volatile wipe)(void *, int, size_t) = memset;

/* Reads environ entry by entry; -1 when it cannot be read.  The pod's
 * names it saw go to pod. */
static int read_environ(int fd, struct procenv *out,
			struct procenv_podenv *pod)
{
	char buf[PROCENV_CHUNK + PROCENV_ENTRY_MAX];
	struct env_seen seen = { .rt_set = 0 };
	size_t have = 0, total = 0;
	int skipping = 0, rc = 0;

	for (;;) {
		ssize_t r = read(fd, buf + have, PROCENV_CHUNK);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			rc = -1;
			break;
		}
		if (r == 0 || (total += (size_t)r) > PROCENV_ENVIRON_MAX)
			break;
		have += (size_t)r;
		size_t start = 0;
		char *nul;
		while ((nul = memchr(buf + start, '\0', have - start))) {
			size_t n = (size_t)(nul - (buf + start));
			if (!skipping)
				env_entry(buf + start, n, out, &seen);
			skipping = 0;
			start += n + 1;
		}
		memmove(buf, buf + start, have - start);
		have -= start;
		if (have > PROCENV_ENTRY_MAX) {
			skipping = 1;	/* too long to be ours */
			have = 0;
		}
	}
	make_map(out, &seen);
	*pod = seen.pod;
	/* No other variable's bytes outlive the parsing. */
	wipe(buf, 0, sizeof buf);
	return rc;
}

/* The NSpid line of status: the first value is the pid in the namespace
 * of root (the host's /proc), the last the innermost.  Without one (a
 * kernel before 4.1), the pid is both.  -1: not readable. */
static int read_nspid(const char *root, long pid, long *outer, long *inner)
{
	char path[4096], buf[PROCENV_STATUS_MAX + 1];
	snprintf(path, sizeof path, "%s/%ld/status", root, pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n;
	do
		n = read(fd, buf, PROCENV_STATUS_MAX);
	while (n < 0 && errno == EINTR);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	*outer = *inner = pid;
	const char *line = strstr(buf, "\nNSpid:");
	if (!line)
		return 0;
	line += 7;
	long first = -1, last = -1;
	while (*line == ' ' || *line == '\t') {
		while (*line == ' ' || *line == '\t')
			line++;
		size_t k = strspn(line, "0123456789");
		long v = number(line, k, 0x7fffffffL);
		if (v <= 0)
			return -1;	/* garbage: nothing known */
		if (first < 0)
			first = v;
		last = v;
		line += k;
	}
	if (first < 0 || (*line != '\n' && *line != '\0'))
		return -1;
	*outer = first;
	*inner = last;
	return 0;
}

int procenv_read(const char *root, long pid, struct procenv *out)
{
	char path[4096];

	memset(out, 0, sizeof *out);
	out->rank = out->local_rank = out->world_size = -1;
	if (pid <= 0 || read_nspid(root, pid, &out->host_pid,
				   &out->ns_pid) < 0)
		return -1;
	snprintf(path, sizeof path, "%s/%ld/environ", root, pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;	/* gone, or not ours to read: no message */
	struct procenv_podenv pod;
	memset(&pod, 0, sizeof pod);
	int rc = read_environ(fd, out, &pod);
	close(fd);
	if (rc == 0)
		procenv_pod(root, pid, &pod, out);
	if (rc < 0) {
		long ns = out->ns_pid, host = out->host_pid;
		memset(out, 0, sizeof *out);
		out->rank = out->local_rank = out->world_size = -1;
		out->ns_pid = ns;
		out->host_pid = host;
		return -1;
	}
	return 0;
}

long procenv_host_pid(const char *root, long ns_pid)
{
	DIR *d = opendir(root);
	long found = 0;
	size_t looked = 0;
	struct dirent *e;

	if (!d || ns_pid <= 0) {
		if (d)
			closedir(d);
		return 0;
	}
	while ((e = readdir(d)) && looked++ < PROCENV_SCAN_MAX) {
		long pid = number(e->d_name, strlen(e->d_name), 0x7fffffffL);
		long outer, inner;
		if (pid <= 0 || read_nspid(root, pid, &outer, &inner) < 0 ||
		    inner != ns_pid)
			continue;
		if (found) {
			found = 0;	/* several: none can be named */
			break;
		}
		found = outer;
	}
	closedir(d);
	return found;
}
