/* The node and the job from the path of a file on shared storage.
 *
 * Jobs often write their plog to shared storage, one tree per pod, with
 * the pod's IP and the task id as directories (MindCluster's layouts):
 *     .../task-42/plogs/10.0.0.5/{run,debug,security}/plog/...
 *     .../logs/10.0.0.5/plogs/task-42/...
 *     .../logs/plogs/10.0.0.5/...     (and a job-name directory under
 *                                      the IP in any of them)
 * The built-in rule: the host is a directory that is an IPv4 dotted quad
 * or an IPv6 address standing right next to (before or after) a
 * directory named `plogs` or `plog`; the first such pair from the left
 * wins, the IP after the word before the IP before it.  An address
 * anywhere else (an NFS mount point, /mnt/10.0.0.9/run/plog/...) names
 * nothing.  The job is the directory on the other side of that word from
 * the IP, when it is a task id: it holds a digit, is not an address and
 * is not one of the layout's own words (log, logs, plog, plogs, run,
 * debug, security, device-*); `logs` or `shared` are plain directories.
 *
 * --host-from-path=PATTERN replaces the built-in rule with a PCRE2
 * pattern matched against the whole path, with a named group `host` and
 * optionally `job`; --host-from-path=none turns the rule off. */
#ifndef PLOGTOP_PATHHOST_H
#define PLOGTOP_PATHHOST_H

#include <stddef.h>

#include "strbuf.h"

#define PATHHOST_MAX 255	/* longest host or job taken from a path */
#define PATHHOST_PATTERN_RULE "--host-from-path"

struct pathhost;

struct pathhost_match {
	char host[PATHHOST_MAX + 1];
	char job[PATHHOST_MAX + 1];	/* "" when the path names none */
	size_t origin_len;	/* the path up to the end of the host */
	const char *rule;	/* a static string: which rule named them */
};

/* pattern NULL: the built-in layouts; "none": no rule at all; else a
 * PCRE2 pattern with a group named host.  NULL on a bad pattern, with
 * err saying why. */
struct pathhost *pathhost_new(const char *pattern, struct strbuf *err);
void pathhost_free(struct pathhost *ph);

/* Whether ph names a host in path; then *out says which, and how. */
int pathhost_match(const struct pathhost *ph, const char *path,
		   struct pathhost_match *out);

/* The rule of that name (pathhost_match's own string), or NULL. */
const char *pathhost_rule_named(const char *name);

/* The built-in rule alone (what pathhost_new(NULL) matches with). */
int pathhost_layout(const char *path, struct pathhost_match *out);

#endif
