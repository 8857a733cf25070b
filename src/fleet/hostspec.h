/* Naming hosts: HOST:[PATH] words (the scp convention), -H lists with
 * pdsh ranges (node[01-16]) and host files (one host a line, the MPI and
 * DeepSpeed form "host slots=8" too), each host with the path it reads
 * there ("" for its default root): "node[01-02]:/var/log/npu" in -H, a
 * line "node01:/var/log/npu" or "node01 slots=8 path=/var/log/npu" in a
 * host file.  A host name ends up as an argument
 * of ssh, so only what a host name can hold is accepted: nothing that
 * could be read as an option (-oProxyCommand=...), no spaces, no
 * controls. */
#ifndef PLOGTOP_HOSTSPEC_H
#define PLOGTOP_HOSTSPEC_H

#include <stddef.h>

#include "strbuf.h"

#define HOST_NAME_MAX_LEN 255	/* user@host included */
#define HOSTS_MAX 1024		/* hosts in one run */
/* Names given in one run, duplicates included: each is checked against
 * the hosts so far, so this bounds the time that takes. */
#define HOST_NAMES_MAX (4 * HOSTS_MAX)
#define HOST_RANGES_MAX 8	/* [LOW-HIGH] ranges in one name */

#define HOST_PATH_MAX 4096	/* a path named for a host */

struct hostlist {
	char **v;
	size_t n;
	size_t named;	/* names given, duplicates included */
	char **path;	/* v[i] reads path[i] there ("" its default root) */
};
#define HOSTLIST_INIT { NULL, 0, 0, NULL }

/* Whether the word names a host: a colon before any slash, and not at
 * its start ("./a:b", "/x:y" and ":x" are local paths; "[::1]:/p" is a
 * host).  Returns 1 with the host and path (maybe "") in newly allocated
 * strings, 0 for a local path. */
int hostspec_split(const char *word, char **host, char **path);

/* 0 when the name is a host name, user@host, or an IPv6 address in
 * brackets; else -1 with why in err. */
int host_valid(const char *host, struct strbuf *err);

/* Adds the hosts of a -H list ("a,b,node[01-16],n[1,3,5-7]") to hl,
 * each once, each validated.  A word may end with ":PATH" (the first
 * colon outside brackets): each host of that word reads PATH there
 * ("node[01-02]:/var/log/npu,login1"); a PATH in -H holds no comma.
 * -1 with why in err. */
int hostlist_expand(struct hostlist *hl, const char *list, struct strbuf *err);

/* Adds the hosts of a host file's text: one a line, "#" comments, blank
 * lines; "host slots=8" (Open MPI, DeepSpeed) and "host:8" (MPICH)
 * forms; a path as "host:/PATH" (not all digits) or a word "path=PATH"
 * among the slot words.  A line without a path reads def_path ("" or
 * NULL: the default root).  name is the file's name for messages
 * ("FILE:LINE: why"). */
int hostfile_parse(struct hostlist *hl, const char *name, const char *text,
		   size_t len, const char *def_path, struct strbuf *err);
int hostfile_load(struct hostlist *hl, const char *path,
		  const char *def_path, struct strbuf *err);
/* --hosts=FILE[:PATH], loaded: PATH is read on every host of FILE whose
 * line names no path.  When arg names an existing file, it is FILE
 * whole (a name with a colon); else FILE ends at the first colon whose
 * prefix is an existing file, or at the first colon when none is (then
 * loading FILE says it is not there). */
int hostfile_load_arg(struct hostlist *hl, const char *arg,
		      struct strbuf *err);

/* Adds one host, validated, unless it is there already (with the same
 * path: host and path make a pair; path NULL or "" its default root). */
int hostlist_add_path(struct hostlist *hl, const char *host,
		      const char *path, struct strbuf *err);
void hostlist_free(struct hostlist *hl);

#endif
