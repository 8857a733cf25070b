/* A job's hosts read together: for each host, ssh runs plogtop there
 * (--follow --format=ndjson --hello, or --once --format=json) and its
 * incidents enter the one model with their host.  A host that fails is
 * shown with its reason and, in the live modes, tried again with
 * backoff (1 s doubling to 60 s, back to 1 s once it stayed up 60 s);
 * it never stops the others.  A reconnect resumes the host's stream at
 * the last cursor it sent when it can, and drops by incident identity
 * what the host sends again (fleet_resume.c).  Each host
 * is read a budget at a time, in turn, so that one flooding host cannot
 * starve the others. */
#ifndef PLOGTOP_FLEET_H
#define PLOGTOP_FLEET_H

#include <poll.h>
#include <stddef.h>

#include "incident.h"
#include "model.h"
#include "msglog.h"
#include "strbuf.h"

#define FLEET_BACKOFF_MIN_MS 1000
#define FLEET_BACKOFF_MAX_MS 60000
/* A host up this long is stable: its next failure waits
 * FLEET_BACKOFF_MIN_MS again.  Until then each failure doubles the wait,
 * whether it came before or after the host's hello. */
#define FLEET_STABLE_MS 60000
/* Lines over REMOTE_LINE_MAX are said once per host in this; a host that
 * sent only such lines in it is down. */
#define FLEET_NOTE_MS 10000

struct fleet_opts {
	const char *ssh;	/* --ssh: words split at white space */
	const char *remote_cmd;	/* --remote-command, default "plogtop" */
	const char *since_arg;	/* passed on */
	int once;
	unsigned timeout_ms;	/* --once: each host's report within it */
	/* Where a host's changes go ("HOST: down: why"); NULL: stderr at
	 * once (src/base/msglog.h). */
	struct msglog *log;
	void *ctx;
};

struct fleet;

/* At start: the soft limit on open files raised to the hard one.  Each
 * connected host takes two; hosts beyond what the limit then allows
 * (less FLEET_FD_RESERVE and what is open) run in waves in --once, and
 * are not connected in the live modes (said, each down with why). */
void fleet_raise_fd_limit(void);

struct fleet *fleet_new(struct model *m, const struct fleet_opts *o);
/* A path to read on host ("" for its default root); a host named twice
 * reads all its paths over one connection. */
void fleet_add(struct fleet *fl, const char *host, const char *path);
size_t fleet_hosts(const struct fleet *fl);
void fleet_start(struct fleet *fl, unsigned long long now_ms);

/* Descriptors to poll: fills at most max entries, returns how many
 * (fleet_npoll says how many it may need). */
size_t fleet_npoll(const struct fleet *fl);
size_t fleet_pollfds(const struct fleet *fl, struct pollfd *p, size_t max);
/* Reads what the descriptors have, a budget per host, and retries what
 * is due.  p and n as filled by fleet_pollfds and returned by poll. */
void fleet_handle(struct fleet *fl, const struct pollfd *p, size_t n,
		  unsigned long long now_ms);
/* Milliseconds until fleet_handle needs calling without input (-1:
 * never). */
int fleet_timeout(const struct fleet *fl, unsigned long long now_ms);
/* Whether every host that can has sent its history (its first cursor
 * line marked "settled" came, or it is down or not connected): the first prom file waits
 * for it, so that a host's old incidents are in the file a counting
 * starts with.  1 for no fleet. */
int fleet_settled(const struct fleet *fl);
/* The fleet's part of the state file (its "hosts" section, fleet_state.c):
 * each host's last cursor and the identities a restart of this plogtop
 * would otherwise count again; given back after fleet_new, before
 * fleet_start.  A section that does not parse is ignored. */
void fleet_save_state(const struct fleet *fl, struct strbuf *out);
void fleet_restore_state(struct fleet *fl, const char *text, size_t len);
/* --once: every host has its report, or failed. */
int fleet_done(const struct fleet *fl);
/* A counter that changes whenever an incident or a state arrived. */
unsigned long long fleet_generation(const struct fleet *fl);
/* Stops every child. */
void fleet_free(struct fleet *fl);

/* The argument vector for one host (for tests): ssh's words, then the
 * remote command as one string of single-quoted words.  Free with
 * fleet_argv_free. */
char **fleet_argv(const struct fleet_opts *o, const char *host,
		  char *const *paths, size_t npaths);
void fleet_argv_free(char **argv);

#endif
