/* The command that reads a host: ssh (or --ssh) to it, running plogtop
 * there (--remote-command) in the mode of this one. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "fleet_int.h"
#include "xalloc.h"

/* The remote command is a string the remote shell reads: each word in
 * single quotes, a quote in it as '\''. */
static void quoted(struct strbuf *sb, const char *word)
{
	sb_adds(sb, sb->len ? " '" : "'");
	for (const char *p = word; *p; p++) {
		if (*p == '\'')
			sb_adds(sb, "'\\''");
		else
			sb_addc(sb, *p);
	}
	sb_addc(sb, '\'');
}

static void argv_push(char ***v, size_t *n, const char *s)
{
	*v = xrealloc(*v, (*n + 2) * sizeof **v);
	(*v)[(*n)++] = xstrdup(s);
	(*v)[*n] = NULL;
}

/* resume: the remote reads a cursor from its standard input. */
char **fleet_argv_for(const struct fleet_opts *o, const char *host,
		      char *const *paths, size_t npaths, int resume)
{
	char **v = NULL, *words = xstrdup(o->ssh && *o->ssh ? o->ssh : "ssh");
	size_t n = 0;
	struct strbuf cmd = STRBUF_INIT;

	for (char *save = NULL, *w = strtok_r(words, " \t", &save); w;
	     w = strtok_r(NULL, " \t", &save))
		argv_push(&v, &n, w);
	if (!n)
		argv_push(&v, &n, "ssh");
	const char *base = strrchr(v[0], '/');
	/* ssh itself: no terminal, never a password prompt, a dead
	 * connection noticed within half a minute.  A wrapper gets the
	 * host and the command only. */
	if (strcmp(base ? base + 1 : v[0], "ssh") == 0) {
		static const char *const opts[] = {
			"-T", "-o", "BatchMode=yes", "-o", "ConnectTimeout=10",
			"-o", "ServerAliveInterval=10", "-o",
			"ServerAliveCountMax=3", "--",
		};
		for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++)
			argv_push(&v, &n, opts[i]);
	}
	argv_push(&v, &n, host);
	quoted(&cmd, o->remote_cmd && *o->remote_cmd ? o->remote_cmd
						     : "plogtop");
	if (o->once) {
		quoted(&cmd, "--once");
		quoted(&cmd, "--format=json");
	} else {
		quoted(&cmd, "--follow");
		quoted(&cmd, "--format=ndjson");
		quoted(&cmd, "--hello");
		if (resume)
			quoted(&cmd, "--resume=-");
	}
	if (o->since_arg) {
		struct strbuf s = STRBUF_INIT;
		sb_addf(&s, "--since=%s", o->since_arg);
		quoted(&cmd, s.buf);
		sb_free(&s);
	}
	if (npaths)
		quoted(&cmd, "--");
	for (size_t i = 0; i < npaths; i++)
		quoted(&cmd, paths[i]);
	argv_push(&v, &n, cmd.buf);
	sb_free(&cmd);
	free(words);
	return v;
}

char **fleet_argv(const struct fleet_opts *o, const char *host,
		  char *const *paths, size_t npaths)
{
	return fleet_argv_for(o, host, paths, npaths, 0);
}

void fleet_argv_free(char **argv)
{
	for (size_t i = 0; argv && argv[i]; i++)
		free(argv[i]);
	free(argv);
}
