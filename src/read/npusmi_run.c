/* Running "npu-smi info" (npusmi_run.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child.h"
#include "i18n.h"
#include "ident.h"
#include "monoclock.h"
#include "msglog.h"
#include "npusmi.h"
#include "npusmi_run.h"
#include "strbuf.h"
#include "xalloc.h"

extern char **environ;

#define NPUSMI_WORDS 16		/* words of --npu-smi kept */
#define NPUSMI_ERR_MAX 4096	/* stderr bytes kept (its first line said) */
/* The Ascend driver's device: there are NPUs here. */
#define NPUSMI_DRIVER_DEV "/dev/davinci_manager"
#define NPUSMI_REAP_MS 20	/* how often a child that is done is reaped */
/* A killed child not gone after this long (stuck in the driver) is let
 * go (a zombie until plogtop ends), so that the next run can start. */
#define NPUSMI_ABANDON_MS 10000

/* The kinds of outcome, each said once when it comes after another. */
enum npu_state { NS_UNKNOWN, NS_OK, NS_MISSING, NS_FAILED, NS_SLOW,
		 NS_UNPARSABLE };

struct npusmi_run {
	char *argv[NPUSMI_WORDS + 2];	/* the words, "info", NULL */
	struct model *m;
	struct msglog *log;
	unsigned long long timeout_ms, interval_ms;
	pid_t pid;			/* the child running, or 0 */
	int out, err;			/* its pipes, or -1 */
	int killed;			/* too slow: SIGKILL sent */
	unsigned long long started, next;	/* next: the next start */
	struct strbuf outbuf, errbuf;
	enum npu_state said;
	unsigned long runs;		/* runs ended */
	struct npu_table *table;
	int quiet_missing;	/* missing is not said: see npusmi_run_new */
};

/* A test's milliseconds from the environment, or def. */
static unsigned long long env_ms(const char *name, unsigned long long def)
{
	const char *s = getenv(name);
	char *end;

	if (!s || !*s)
		return def;
	unsigned long long v = strtoull(s, &end, 10);
	return *end || *s == '-' || v < 1 || v > 86400000ULL ? def : v;
}

struct npusmi_run *npusmi_run_new(const char *cmd, struct model *m,
				  struct msglog *log)
{
	struct npusmi_run *r;

	if (cmd && strcmp(cmd, "none") == 0)
		return NULL;
	r = xcalloc(1, sizeof *r);
	/* The default command missing on a machine without the NPU driver's
	 * device (logs read elsewhere) is nothing to say. */
	r->quiet_missing = !cmd && access(NPUSMI_DRIVER_DEV, F_OK) != 0;
	if (!cmd)
		cmd = "npu-smi";
	size_t n = 0;
	const char *p = cmd;
	while (*p && n < NPUSMI_WORDS) {
		size_t k = strcspn(p, " ");
		if (k)
			r->argv[n++] = xstrndup(p, k);
		p += k + (p[k] == ' ');
	}
	if (!n)
		r->argv[n++] = xstrdup("npu-smi");
	r->argv[n] = xstrdup("info");
	r->m = m;
	r->log = log;
	r->out = r->err = -1;
	r->timeout_ms = env_ms("PLOGTOP_NPU_SMI_TIMEOUT_MS", NPUSMI_TIMEOUT_MS);
	r->interval_ms = env_ms("PLOGTOP_NPU_SMI_INTERVAL_MS",
				NPUSMI_INTERVAL_MS);
	r->outbuf = (struct strbuf)STRBUF_INIT;
	r->errbuf = (struct strbuf)STRBUF_INIT;
	r->table = xmalloc(sizeof *r->table);
	return r;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* Said once per kind: trouble when it starts, and when it is over. */
static void outcome(struct npusmi_run *r, enum npu_state s,
		    const struct strbuf *text)
{
	/* A table that can no longer be read is not the NPUs' now: the
	 * model drops it, and claims no tenant from it. */
	if (s != NS_OK && r->said == NS_OK)
		model_set_npu(r->m, NULL, monotonic_ms());
	if (s == r->said)
		return;
	if (s == NS_MISSING && r->quiet_missing) {
		r->said = s;
		return;
	}
	if (s == NS_OK && r->said != NS_UNKNOWN) {
		struct strbuf msg = STRBUF_INIT;
		sb_addf(&msg, _("%s info works again: tenants and chip limits "
				"known"), r->argv[0]);
		msglog_add(r->log, msg.buf);
		sb_free(&msg);
	} else if (s != NS_OK) {
		msglog_add(r->log, text->buf);
	}
	r->said = s;
}

/* fmt's text when s is news. */
static void say(struct npusmi_run *r, enum npu_state s, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void say(struct npusmi_run *r, enum npu_state s, const char *fmt, ...)
{
	struct strbuf msg = STRBUF_INIT;
	va_list ap;

	if (s != r->said) {
		va_start(ap, fmt);
		sb_vaddf(&msg, fmt, ap);
		va_end(ap);
	}
	outcome(r, s, &msg);
	sb_free(&msg);
}

/* The child: its own group (a hung one is killed with what it started),
 * the signals plogtop blocks or ignores given back, stdin /dev/null. */
static int spawn(struct npusmi_run *r, int out, int err)
{
	return child_spawn(&r->pid, r->argv, -1, out, err);
}

static void start(struct npusmi_run *r, unsigned long long now)
{
	int po[2], pe[2];

	r->next = now + r->interval_ms;
	if (pipe2(po, O_CLOEXEC) < 0) {
		say(r, NS_FAILED, _("%s: cannot make a pipe: %s"),
		    r->argv[0], strerror(errno));
		return;
	}
	if (pipe2(pe, O_CLOEXEC) < 0) {
		say(r, NS_FAILED, _("%s: cannot make a pipe: %s"),
		    r->argv[0], strerror(errno));
		close(po[0]);
		close(po[1]);
		return;
	}
	int rc = spawn(r, po[1], pe[1]);
	close(po[1]);
	close(pe[1]);
	if (rc) {
		close(po[0]);
		close(pe[0]);
		if (rc == ENOENT)
			say(r, NS_MISSING, _("%s not found: tenants and chip "
					     "limits unknown"), r->argv[0]);
		else
			say(r, NS_FAILED, _("%s cannot be run: %s"),
			    r->argv[0], strerror(rc));
		return;
	}
	/* Read without blocking: the loop polls them. */
	if (fcntl(po[0], F_SETFL, O_NONBLOCK) < 0 ||
	    fcntl(pe[0], F_SETFL, O_NONBLOCK) < 0) {
		struct strbuf msg = STRBUF_INIT;
		sb_addf(&msg, "fcntl: %s", strerror(errno));
		msglog_about(r->log, r->argv[0], msg.buf);
		sb_free(&msg);
	}
	r->out = po[0];
	r->err = pe[0];
	r->killed = 0;
	r->started = now;
	sb_reset(&r->outbuf);
	sb_reset(&r->errbuf);
}

/* The first line of what it said on stderr, for the message. */
static void first_line(const struct strbuf *err, struct strbuf *out)
{
	size_t n = 0;

	while (n < err->len && n < 200 && err->buf[n] != '\n')
		n++;
	if (n) {
		sb_adds(out, ": ");
		sb_add(out, err->buf, n);
	}
}

/* The run ended with status. */
static void finished(struct npusmi_run *r, int status, unsigned long long now)
{
	struct strbuf detail = STRBUF_INIT;

	r->pid = 0;
	r->runs++;
	close_fd(&r->out);
	close_fd(&r->err);
	if (r->killed) {
		;	/* said when it was killed */
	} else if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		if (npusmi_parse(r->outbuf.buf ? r->outbuf.buf : "",
				 r->outbuf.len, r->table) == 0) {
			model_set_npu(r->m, r->table, now);
			outcome(r, NS_OK, NULL);
		} else {
			say(r, NS_UNPARSABLE, _("%s info printed no table "
				"plogtop knows: tenants and chip limits "
				"unknown"), r->argv[0]);
		}
	} else if (WIFEXITED(status) && WEXITSTATUS(status) == 127 &&
		   !r->errbuf.len) {
		say(r, NS_MISSING, _("%s not found: tenants and chip limits "
				     "unknown"), r->argv[0]);
	} else {
		if (WIFEXITED(status))
			sb_addf(&detail, _("exit status %d"),
				WEXITSTATUS(status));
		else
			sb_addf(&detail, _("killed by signal %d"),
				WTERMSIG(status));
		first_line(&r->errbuf, &detail);
		say(r, NS_FAILED, _("%s info failed: %s"), r->argv[0],
		    detail.buf);
	}
	sb_free(&detail);
}

/* Too slow: the child and its group are killed; reaped when they go. */
static void kill_child(struct npusmi_run *r)
{
	kill(-r->pid, SIGKILL);
	kill(r->pid, SIGKILL);
	r->killed = 1;
	close_fd(&r->out);
	close_fd(&r->err);
	say(r, NS_SLOW, _("%s info did not finish in %g s: stopped; tenants "
			  "and chip limits unknown"),
	    r->argv[0], r->timeout_ms / 1000.0);
}

void npusmi_run_step(struct npusmi_run *r, unsigned long long now)
{
	if (!r)
		return;
	if (r->pid) {
		child_drain(&r->out, &r->outbuf, NPUSMI_OUTPUT_MAX);
		child_drain(&r->err, &r->errbuf, NPUSMI_ERR_MAX);
		int status;
		/* Reaped before the timeout is looked at: a run that ended
		 * while nobody read is not a slow one. */
		if ((r->killed || (r->out < 0 && r->err < 0)) &&
		    waitpid(r->pid, &status, WNOHANG) == r->pid)
			finished(r, status, now);
		else if (!r->killed && now >= r->started + r->timeout_ms)
			kill_child(r);
		else if (r->killed &&
			 now >= r->started + r->timeout_ms + NPUSMI_ABANDON_MS)
			finished(r, 0, now);	/* stuck in the kernel: let go */
	}
	if (!r->pid && now >= r->next)
		start(r, now);
}

int npusmi_run_timeout(const struct npusmi_run *r, unsigned long long now)
{
	if (!r)
		return -1;
	if (r->pid && (r->killed || (r->out < 0 && r->err < 0)))
		return NPUSMI_REAP_MS;
	unsigned long long due = r->pid ? r->started + r->timeout_ms : r->next;
	if (due <= now)
		return 0;
	return due - now > 86400000ULL ? 86400000 : (int)(due - now);
}

size_t npusmi_run_pollfds(const struct npusmi_run *r, struct pollfd *p,
			  size_t max)
{
	size_t n = 0;

	if (!r || !r->pid)
		return 0;
	if (r->out >= 0 && n < max)
		p[n++] = (struct pollfd){ r->out, POLLIN, 0 };
	if (r->err >= 0 && n < max)
		p[n++] = (struct pollfd){ r->err, POLLIN, 0 };
	return n;
}

void npusmi_run_wait(struct npusmi_run *r)
{
	if (!r)
		return;
	unsigned long long now = monotonic_ms();
	if (!r->pid && !r->runs)
		start(r, now);
	/* Started before the logs were read, it may have waited all that
	 * time on a full pipe: its timeout counts from now. */
	if (r->pid && !r->killed)
		r->started = now;
	/* A killed child stuck in the kernel is given a second to go. */
	unsigned long long give_up = now + r->timeout_ms + 1000;
	while (r->pid && now < give_up) {
		struct pollfd p[NPUSMI_POLLFDS];
		size_t n = npusmi_run_pollfds(r, p, NPUSMI_POLLFDS);
		int t = npusmi_run_timeout(r, now);
		if (poll(p, n, t < 0 || t > 1000 ? 1000 : t) < 0 &&
		    errno != EINTR)
			break;
		now = monotonic_ms();
		r->next = now + r->interval_ms;	/* no second run here */
		npusmi_run_step(r, now);
	}
}

const char *npusmi_run_state(const struct npusmi_run *r)
{
	static const char *const names[] = {
		[NS_UNKNOWN] = NULL, [NS_OK] = "ok", [NS_MISSING] = "missing",
		[NS_FAILED] = "failing", [NS_SLOW] = "slow",
		[NS_UNPARSABLE] = "unparsable",
	};

	return r ? names[r->said] : "off";
}

void npusmi_run_free(struct npusmi_run *r)
{
	if (!r)
		return;
	if (r->pid) {
		kill(-r->pid, SIGKILL);
		kill(r->pid, SIGKILL);
		/* Reaped if it goes at once; else init reaps it. */
		for (int i = 0; i < 50; i++) {
			if (waitpid(r->pid, NULL, WNOHANG) != 0)
				break;
			usleep(2000);
		}
	}
	close_fd(&r->out);
	close_fd(&r->err);
	for (size_t i = 0; r->argv[i]; i++)
		free(r->argv[i]);
	sb_free(&r->outbuf);
	sb_free(&r->errbuf);
	free(r->table);
	free(r);
}
