/* Naming hosts: HOST:[PATH] words (the scp convention), -H lists with
 * pdsh ranges (node[01-16]) and host files (one host a line, the MPI and
 * DeepSpeed form "host slots=8" too).  A host name ends up as an argument
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

struct hostlist {
	char **v;
	size_t n;
	size_t named;	/* names given, duplicates included */
};

/* Whether the word names a host: a colon before any slash, and not at
 * its start ("./a:b", "/x:y" and ":x" are local paths; "[::1]:/p" is a
 * host).  Returns 1 with the host and path (maybe "") in newly allocated
 * strings, 0 for a local path. */
int hostspec_split(const char *word, char **host, char **path);

/* 0 when the name is a host name, user@host, or an IPv6 address in
 * brackets; else -1 with why in err. */
int host_valid(const char *host, struct strbuf *err);

/* Adds the hosts of a -H list ("a,b,node[01-16],n[1,3,5-7]") to hl,
 * each once, each validated.  -1 with why in err. */
int hostlist_expand(struct hostlist *hl, const char *list, struct strbuf *err);

/* Adds the hosts of a host file's text: one a line, "#" comments, blank
 * lines; "host slots=8" (Open MPI, DeepSpeed) and "host:8" (MPICH)
 * forms.  name is the file's name for messages ("FILE:LINE: why"). */
int hostfile_parse(struct hostlist *hl, const char *name, const char *text,
		   size_t len, struct strbuf *err);
int hostfile_load(struct hostlist *hl, const char *path, struct strbuf *err);

/* Adds one host, validated, unless it is there already. */
int hostlist_add(struct hostlist *hl, const char *host, struct strbuf *err);
void hostlist_free(struct hostlist *hl);

#endif
