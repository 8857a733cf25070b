#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "child.h"
#include "remote.h"

void remote_init(struct remote *r)
{
	memset(r, 0, sizeof *r);
	r->out = r->err = -1;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* An anonymous file holding the bytes, read from its start. */
static int input_file(const char *in, size_t len, struct strbuf *err)
{
	int fd = memfd_create("plogtop-cursor", MFD_CLOEXEC);

	if (fd < 0) {
		/* An older kernel: an unlinked file in /tmp (tmpfile). */
		FILE *f = tmpfile();
		if (!f || (fd = fcntl(fileno(f), F_DUPFD_CLOEXEC, 0)) < 0) {
			sb_addf(err, "a file for the cursor: %s",
				strerror(errno));
			if (f)
				fclose(f);
			return -1;
		}
		fclose(f);
	}
	for (size_t done = 0; done < len;) {
		ssize_t w = write(fd, in + done, len - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			sb_addf(err, "writing the cursor: %s",
				w < 0 ? strerror(errno) : "short write");
			close(fd);
			return -1;
		}
		done += (size_t)w;
	}
	if (lseek(fd, 0, SEEK_SET) < 0) {
		sb_addf(err, "lseek on the cursor: %s", strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

int remote_start(struct remote *r, char *const argv[], struct strbuf *err)
{
	return remote_start_input(r, argv, NULL, 0, err);
}

int remote_start_input(struct remote *r, char *const argv[], const char *in,
		       size_t len, struct strbuf *err)
{
	int po[2] = { -1, -1 }, pe[2] = { -1, -1 }, fi = -1;
	int rc = 0;

	sb_reset(&r->line);
	sb_reset(&r->errline);
	sb_reset(&r->lasterr);
	r->skipping = 0;
	r->reaped = 0;
	r->status = 0;
	if (in && (fi = input_file(in, len, err)) < 0) {
		rc = -1;
	} else if (pipe2(po, O_CLOEXEC) < 0 || pipe2(pe, O_CLOEXEC) < 0) {
		sb_addf(err, "pipe: %s", strerror(errno));
		rc = -1;
	} else if (fcntl(po[0], F_SETFL, O_NONBLOCK) < 0 ||
		   fcntl(pe[0], F_SETFL, O_NONBLOCK) < 0) {
		sb_addf(err, "fcntl: %s", strerror(errno));
		rc = -1;
	} else if ((rc = child_spawn(&r->pid, argv, fi, po[1], pe[1])) != 0) {
		sb_addf(err, "%s: %s", argv[0], strerror(rc));
		r->pid = 0;
		rc = -1;
	}
	close_fd(&fi);
	close_fd(&po[1]);
	close_fd(&pe[1]);
	if (rc < 0) {
		close_fd(&po[0]);
		close_fd(&pe[0]);
		return -1;
	}
	r->out = po[0];
	r->err = pe[0];
	return 0;
}

/* Splits what was read into lines; a line over REMOTE_LINE_MAX is
 * dropped whole (counted), never cut and taken for another. */
static int feed(struct remote *r, const char *buf, size_t n,
		remote_line_fn on_line, void *ctx)
{
	int rc = 0;

	while (n && rc == 0) {
		const char *nl = memchr(buf, '\n', n);
		size_t part = nl ? (size_t)(nl - buf) : n;
		if (!r->skipping && r->line.len + part > REMOTE_LINE_MAX) {
			r->skipping = 1;
			r->dropped++;
			sb_reset(&r->line);
		}
		if (!r->skipping)
			sb_add(&r->line, buf, part);
		if (nl) {
			if (!r->skipping)
				rc = on_line(ctx, sb_str(&r->line), r->line.len);
			r->skipping = 0;
			sb_reset(&r->line);
			part++;
		}
		buf += part;
		n -= part;
	}
	return rc;
}

int remote_read(struct remote *r, remote_line_fn on_line, void *ctx)
{
	char buf[REMOTE_READ_BUDGET];

	if (r->out < 0)
		return 0;
	ssize_t n = read(r->out, buf, sizeof buf);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	if (n <= 0) {
		/* The end, or an error: both end this connection.  A last
		 * line without its newline is incomplete: not taken. */
		close_fd(&r->out);
		return 0;
	}
	return feed(r, buf, (size_t)n, on_line, ctx);
}

static void err_line_done(struct remote *r)
{
	size_t n = r->errline.len;

	while (n && (r->errline.buf[n - 1] == '\r' ||
		     r->errline.buf[n - 1] == ' '))
		n--;
	if (n) {
		sb_reset(&r->lasterr);
		sb_add(&r->lasterr, r->errline.buf, n);
	}
	sb_reset(&r->errline);
}

void remote_read_err(struct remote *r)
{
	char buf[4096];

	while (r->err >= 0) {
		ssize_t n = read(r->err, buf, sizeof buf);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return;
		if (n <= 0) {
			close_fd(&r->err);
			err_line_done(r);
			return;
		}
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] == '\n')
				err_line_done(r);
			else if (r->errline.len < REMOTE_ERR_MAX)
				sb_addc(&r->errline, buf[i]);
		}
	}
}

int remote_reap(struct remote *r)
{
	if (!r->pid || r->reaped)
		return 1;
	pid_t p = waitpid(r->pid, &r->status, WNOHANG);
	if (p == r->pid || (p < 0 && errno == ECHILD)) {
		r->reaped = 1;
		return 1;
	}
	return 0;
}

static void sleep_ms(unsigned ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

void remote_stop(struct remote *r, unsigned grace_ms)
{
	if (r->pid && !remote_reap(r)) {
		kill(-r->pid, SIGTERM);
		for (unsigned t = 0; t < grace_ms && !remote_reap(r); t += 10)
			sleep_ms(10);
		if (!remote_reap(r)) {
			kill(-r->pid, SIGKILL);
			while (waitpid(r->pid, &r->status, 0) < 0 &&
			       errno == EINTR)
				;
			r->reaped = 1;
		}
	}
	if (r->err >= 0)
		remote_read_err(r);
	close_fd(&r->out);
	close_fd(&r->err);
	r->pid = 0;
	sb_free(&r->line);
	sb_free(&r->errline);
}

const char *remote_lasterr(const struct remote *r)
{
	return sb_str(&r->lasterr);
}

void remote_reason(const struct remote *r, struct strbuf *out)
{
	const char *e = remote_lasterr(r);
	int st = r->status;

	if (WIFSIGNALED(st)) {
		sb_addf(out, "ssh ended by signal %d", WTERMSIG(st));
	} else if (WEXITSTATUS(st) == 127) {
		sb_adds(out, "plogtop not found there (exit 127; name it with "
			"--remote-command=PATH)");
	} else if (WEXITSTATUS(st) == 126) {
		sb_adds(out, "plogtop cannot be run there (exit 126)");
	} else if (WEXITSTATUS(st) == 255) {
		if (strstr(e, "Permission denied") ||
		    strstr(e, "Host key verification failed"))
			sb_adds(out, "ssh could not log in without a password "
				"(BatchMode): ");
		else
			sb_adds(out, "ssh failed: ");
		sb_adds(out, *e ? e : "exit 255");
	} else if (WEXITSTATUS(st) == 2 && strstr(e, "unrecognized option")) {
		sb_adds(out, "plogtop there is too old (install this version "
			"there): ");
		sb_adds(out, e);
	} else if (WEXITSTATUS(st) == 0 || WEXITSTATUS(st) == 1) {
		sb_adds(out, "connection closed");
	} else {
		sb_addf(out, "exit status %d", WEXITSTATUS(st));
		if (*e)
			sb_addf(out, ": %s", e);
	}
}
