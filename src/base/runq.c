#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child.h"
#include "i18n.h"
#include "monoclock.h"
#include "runq.h"
#include "strbuf.h"
#include "xalloc.h"

/* What a child printed that is kept for its failure's message. */
#define OUT_KEEP 200
/* How often the loop looks at running children. */
#define TICK_MS 50
/* How often "held back" is said again while it goes on. */
#define HELD_SAY_MS 10000

struct job {
	char *input;
	size_t len, off;
	char **env;
	char *what;
};

struct running {
	struct job j;
	pid_t pid;
	int in, out;		/* our ends, non-blocking; -1 when closed */
	unsigned long long started;
	int termed;
	struct strbuf said;	/* the first OUT_KEEP bytes it printed */
};

struct runq {
	char **argv;
	const char *name;
	struct msglog *log;
	struct running run[RUNQ_RUNNING];
	size_t nrun;
	struct job wait[RUNQ_WAITING];	/* a ring */
	size_t wfirst, nwait;
	unsigned long long starts[RUNQ_PER_MINUTE];	/* a ring of times */
	size_t sfirst, nstarts;
	struct runq_counts c;
	unsigned long long held_said_at, held_said;
};

static void job_free(struct job *j)
{
	free(j->input);
	for (size_t i = 0; j->env && j->env[i]; i++)
		free(j->env[i]);
	free(j->env);
	free(j->what);
	memset(j, 0, sizeof *j);
}

struct runq *runq_new(const char *cmd, const char *name, struct msglog *log)
{
	size_t n = 0;
	char **v = xcalloc(strlen(cmd) / 2 + 2, sizeof *v);

	for (const char *p = cmd; *p;) {
		size_t w = strcspn(p, " \t");
		if (w)
			v[n++] = xstrndup(p, w);
		p += w;
		p += strspn(p, " \t");
	}
	if (!n) {
		free(v);
		return NULL;
	}
	struct runq *q = xcalloc(1, sizeof *q);
	q->argv = v;
	q->name = name;
	q->log = log;
	return q;
}

static void say(struct runq *q, const char *what, const char *text)
{
	struct strbuf msg = STRBUF_INIT;

	sb_addf(&msg, "%s: %s: %s", q->name, what, text);
	msglog_add(q->log, msg.buf);
	sb_free(&msg);
}

static void say_held(struct runq *q, unsigned long long now, int always)
{
	if (q->c.held_back == q->held_said ||
	    (!always && q->held_said && now < q->held_said_at + HELD_SAY_MS))
		return;
	struct strbuf msg = STRBUF_INIT;
	sb_addf(&msg, _("%s: held back so far, not run: %llu (at most %d "
			"at once, %d a minute, %d waiting)"), q->name,
		q->c.held_back, RUNQ_RUNNING, RUNQ_PER_MINUTE, RUNQ_WAITING);
	msglog_add(q->log, msg.buf);
	sb_free(&msg);
	q->held_said = q->c.held_back;
	q->held_said_at = now;
}

int runq_hold_if_full(struct runq *q, unsigned long long now)
{
	if (q->nwait < RUNQ_WAITING)
		return 0;
	q->c.held_back++;
	say_held(q, now, 0);
	return 1;
}

void runq_add(struct runq *q, char *input, size_t len, char **env,
	      char *what, unsigned long long now)
{
	struct job j = { input, len, 0, env, what };

	if (runq_hold_if_full(q, now)) {
		job_free(&j);
		return;
	}
	q->wait[(q->wfirst + q->nwait++) % RUNQ_WAITING] = j;
}

/* Fewer than RUNQ_PER_MINUTE started in the minute before now. */
static int rate_allows(const struct runq *q, unsigned long long now)
{
	return q->nstarts < RUNQ_PER_MINUTE ||
	       q->starts[q->sfirst] + 60000 <= now;
}

static void note_start(struct runq *q, unsigned long long now)
{
	if (q->nstarts < RUNQ_PER_MINUTE) {
		q->starts[(q->sfirst + q->nstarts++) % RUNQ_PER_MINUTE] = now;
	} else {
		q->starts[q->sfirst] = now;
		q->sfirst = (q->sfirst + 1) % RUNQ_PER_MINUTE;
	}
}

static int nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	return fl < 0 ? -1 : fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

/* Its two pipes and the child; 0, or an errno value. */
static int spawn(struct runq *q, struct running *r)
{
	int in[2], out[2], rc;

	if (pipe2(in, O_CLOEXEC) < 0)
		return errno;
	if (pipe2(out, O_CLOEXEC) < 0) {
		rc = errno;
		close(in[0]);
		close(in[1]);
		return rc;
	}
	/* Only our ends do not block: the child's are its own. */
	rc = nonblock(in[1]) < 0 || nonblock(out[0]) < 0 ? errno : 0;
	if (!rc)
		rc = child_spawn_env(&r->pid, q->argv, r->j.env, in[0], out[1],
				     out[1]);
	close(in[0]);
	close(out[1]);
	if (rc) {
		close(in[1]);
		close(out[0]);
		return rc;
	}
	r->in = in[1];
	r->out = out[0];
	return 0;
}

static void start_due(struct runq *q, unsigned long long now)
{
	while (q->nwait && q->nrun < RUNQ_RUNNING && rate_allows(q, now)) {
		struct running *r = &q->run[q->nrun];
		memset(r, 0, sizeof *r);
		r->j = q->wait[q->wfirst];
		q->wfirst = (q->wfirst + 1) % RUNQ_WAITING;
		q->nwait--;
		note_start(q, now);
		q->c.started++;
		int rc = spawn(q, r);
		if (rc) {
			struct strbuf why = STRBUF_INIT;
			sb_addf(&why, _("cannot run %s: %s"), q->argv[0],
				strerror(rc));
			say(q, r->j.what, why.buf);
			sb_free(&why);
			q->c.failed++;
			job_free(&r->j);
			continue;
		}
		r->started = now;
		r->said = (struct strbuf)STRBUF_INIT;
		q->nrun++;
	}
}

/* Writes what the pipe takes; closes it when all is written or the
 * child will not read. */
static void feed(struct running *r)
{
	while (r->in >= 0 && r->j.off < r->j.len) {
		ssize_t w = write(r->in, r->j.input + r->j.off,
				  r->j.len - r->j.off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno == EAGAIN)
			return;
		if (w <= 0)
			break;	/* EPIPE: it exited without reading all */
		r->j.off += (size_t)w;
	}
	if (r->in >= 0) {
		close(r->in);
		r->in = -1;
	}
}

/* What it printed: the first OUT_KEEP bytes kept, the rest read away. */
static void drain(struct running *r)
{
	child_drain(&r->out, &r->said, OUT_KEEP);
}

/* Its end, said when it failed. */
static void ended(struct runq *q, struct running *r, int status)
{
	struct strbuf why = STRBUF_INIT;

	if (WIFEXITED(status) && WEXITSTATUS(status) == 127 && !r->said.len)
		sb_addf(&why, _("%s exited with status 127 (not found?)"),
			q->argv[0]);
	else if (WIFEXITED(status) && WEXITSTATUS(status))
		sb_addf(&why, _("%s exited with status %d"), q->argv[0],
			WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		sb_addf(&why, _("%s was killed by signal %d (%s)%s"), q->argv[0],
			WTERMSIG(status), strsignal(WTERMSIG(status)),
			r->termed ? _(": it ran too long") : "");
	if (why.len) {
		size_t line = strcspn(sb_str(&r->said), "\n");
		if (line)
			sb_addf(&why, ": %.*s", (int)line, r->said.buf);
		say(q, r->j.what, why.buf);
		q->c.failed++;
	}
	sb_free(&why);
}

static void reap(struct runq *q, unsigned long long now)
{
	for (size_t i = 0; i < q->nrun;) {
		struct running *r = &q->run[i];
		int status;
		feed(r);
		drain(r);
		if (!r->termed && now >= r->started + RUNQ_TIMEOUT_MS) {
			kill(-r->pid, SIGTERM);
			r->termed = 1;
		}
		pid_t w = waitpid(r->pid, &status, WNOHANG);
		if (w == 0 || (w < 0 && errno == EINTR)) {
			i++;
			continue;
		}
		drain(r);
		if (w > 0)
			ended(q, r, status);
		if (r->in >= 0)
			close(r->in);
		if (r->out >= 0)
			close(r->out);
		sb_free(&r->said);
		job_free(&r->j);
		q->run[i] = q->run[--q->nrun];
	}
}

void runq_step(struct runq *q, unsigned long long now)
{
	if (!q)
		return;
	reap(q, now);
	start_due(q, now);
	say_held(q, now, 0);
}

/* Milliseconds from now to due (0 when past). */
static long long until(unsigned long long due, unsigned long long now)
{
	return due > now ? (long long)(due - now) : 0;
}

int runq_timeout(const struct runq *q, unsigned long long now)
{
	long long t = -1;

	if (!q)
		return -1;
	if (q->nrun)
		return TICK_MS;
	/* A "held back" not said yet: when it may be. */
	if (q->c.held_back != q->held_said)
		t = until(q->held_said_at + HELD_SAY_MS, now);
	/* Waiting for the rate: until the oldest start is a minute old. */
	if (q->nwait) {
		long long r = until(q->starts[q->sfirst] + 60000, now);
		t = t < 0 || r < t ? r : t;
	}
	return t < 0 ? -1 : (int)t;
}

void runq_finish(struct runq *q, unsigned long long deadline_ms)
{
	if (!q)
		return;
	unsigned long long now = monotonic_ms();
	while ((q->nrun || q->nwait) && now < deadline_ms) {
		runq_step(q, now);
		int t = runq_timeout(q, now);
		if (t > 0)
			poll(NULL, 0, t < TICK_MS ? t : TICK_MS);
		now = monotonic_ms();
	}
	if (q->nwait || q->nrun) {
		struct strbuf msg = STRBUF_INIT;
		q->c.held_back += q->nwait;
		sb_addf(&msg, _("%s: at the end, %zu still running (left to "
				"run) and %zu waiting (not run)"), q->name,
			q->nrun, q->nwait);
		msglog_add(q->log, msg.buf);
		sb_free(&msg);
	}
	say_held(q, now, 1);
}

struct runq_counts runq_counts(const struct runq *q)
{
	struct runq_counts none = { 0, 0, 0 };

	return q ? q->c : none;
}

void runq_free(struct runq *q)
{
	if (!q)
		return;
	for (size_t i = 0; i < q->nrun; i++) {
		if (q->run[i].in >= 0)
			close(q->run[i].in);
		if (q->run[i].out >= 0)
			close(q->run[i].out);
		sb_free(&q->run[i].said);
		job_free(&q->run[i].j);
	}
	while (q->nwait) {
		job_free(&q->wait[q->wfirst]);
		q->wfirst = (q->wfirst + 1) % RUNQ_WAITING;
		q->nwait--;
	}
	for (size_t i = 0; q->argv[i]; i++)
		free(q->argv[i]);
	free(q->argv);
	free(q);
}
