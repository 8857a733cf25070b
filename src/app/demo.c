#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "demo.h"
#include "xalloc.h"

#define ROTATE_BYTES (256 * 1024)
#define KEEP_FILES 3
#define STEP_MS 200

/* The lines of a chain, after the header: {tid} is the thread, {arg} a
 * number that varies (a stream id, a device, a memcpy kind). */
struct chain_kind {
	const char *name;
	unsigned every_s;	/* about one incident this often */
	const char *lines[8];
};

/* Chains in the grammar of the runtime's logs, one per class. */
static const struct chain_kind kinds[] = {
	{ "streams", 9, {
	  "[stream.cc:728]{tid} Setup:Alloc sq cq failed, stream_id={arg}, retCode=0x7020023.",
	  "[stream.cc:731]{tid} Setup:Alloc Stream resource failed. Reason: Too many streams are created. ErrorCode=EE1023.",
	  "[api_c_stream.cc:85]{tid} rtStreamCreateWithFlags:ErrCode=207005, desc=[driver error:resource alloc fail], InnerCode=0x7020023",
	  "[error_message_manage.cc:69]{tid} FuncErrorReason:rtStreamCreateWithFlags execution failed, reason=driver error:resource alloc fail",
	  NULL } },
	{ "events", 13, {
	  "[event_david.cc:101]{tid} GenEventId:Alloc Event resource failed. Reason: Too many events are created. ErrorCode=EE1023.",
	  "[event_david.cc:104]{tid} GenEventId:Failed to allocate event id, device_id={arg}, tsId=0, retCode=0x7020019.",
	  "[api_c.cc:661]{tid} rtEventCreateWithFlag:ErrCode=207007, desc=[driver error:no event resource], InnerCode=0x7020019",
	  "[error_message_manage.cc:69]{tid} FuncErrorReason:rtEventCreateWithFlag execution failed, reason=driver error:no event resource",
	  NULL } },
	{ "graphs", 17, {
	  "[context_aclgraph.cc:385]{tid} CreateNotify:Notify create failed, setup failed, device_id={arg}, retCode=0x702001b. ErrorCode=EE1023.",
	  "[context_aclgraph.cc:532]{tid} StreamEndCapture:set notify for add capture stream failed, device_id=0, origin stream_id={arg}, retCode=0x702001b.",
	  "[api_c_standard_soc.cc:726]{tid} rtStreamEndCapture:ErrCode=207009, desc=[driver error:no notify resource], InnerCode=0x702001b",
	  "[error_message_manage.cc:69]{tid} FuncErrorReason:rtStreamEndCapture execution failed, reason=no notify resource. ErrorCode=EE1023.",
	  NULL } },
	{ "copies", 23, {
	  "[stream_jetty_context.cc:69]{tid} ExpandCapacity:Expanding the capacity failed. Reason: There are too many asynchronous copy tasks in the ACL Graph. ErrorCode=EE1023.",
	  "[stream_jetty_handler.cc:115]{tid} CreateAndAppendWqe:ExpandCapacity failed, capacity=32768, max_depth=32768, stream_id={arg}, device_id=0, retCode=0x7110019.",
	  "[api_c.cc:1324]{tid} rtMemcpy2dAsync:ErrCode=207008, desc=[driver error:no stream resource], InnerCode=0x7110019",
	  "[error_message_manage.cc:69]{tid} FuncErrorReason:rtMemcpy2dAsync execution failed, reason=driver error:no stream resource",
	  NULL } },
	{ "memcpy", 19, {
	  "[api_error.cc:963]{tid} MemcpyAsyncCheckKindAndLocation:report error module_name=EE1001",
	  "[api_error.cc:963]{tid} MemcpyAsyncCheckKindAndLocation:Memory async failed, src loc type=2, dst loc type=2, kind={arg} is invalid!",
	  "[api_c.cc:1428]{tid} rtMemcpyAsync:ErrCode=107000, desc=[invalid value], InnerCode=0x7110001",
	  "[error_message_manage.cc:69]{tid} FuncErrorReason:rtMemcpyAsync execution failed, reason=invalid value",
	  NULL } },
};

#define NKINDS (sizeof kinds / sizeof kinds[0])

struct proc {
	int pid;
	const char *name;
	const struct chain_kind *kind;
	char files[KEEP_FILES][512];
	int nfiles;
	unsigned long long next_incident;
	unsigned long long born;
};

struct demo {
	char *root;
	struct proc procs[NKINDS];
	unsigned long long start, next;
	unsigned seed;
};

static unsigned rnd(struct demo *dm)
{
	dm->seed = dm->seed * 1103515245u + 12345u;
	return dm->seed >> 16;
}

static int mkdirs(const char *path)
{
	char buf[512];

	snprintf(buf, sizeof buf, "%s", path);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) < 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return mkdir(buf, 0755) < 0 && errno != EEXIST ? -1 : 0;
}

static void stamp(char *buf, size_t n, int plog_style)
{
	struct timespec ts;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &ts);
	localtime_r(&ts.tv_sec, &tm);
	int us = (int)(ts.tv_nsec / 1000) % 1000000;
	if (plog_style)
		snprintf(buf, n, "%04d-%02d-%02d-%02d:%02d:%02d.%03d.%03d",
			 (tm.tm_year + 1900) % 10000, (tm.tm_mon + 1) % 100,
			 tm.tm_mday % 100, tm.tm_hour % 100, tm.tm_min % 100,
			 tm.tm_sec % 100, us / 1000, us % 1000);
	else
		snprintf(buf, n, "%04d%02d%02d%02d%02d%02d%03d",
			 (tm.tm_year + 1900) % 10000, (tm.tm_mon + 1) % 100,
			 tm.tm_mday % 100, tm.tm_hour % 100, tm.tm_min % 100,
			 tm.tm_sec % 100, us / 1000);
}

/* A new stamped file, as the logger starts one at its size limit; the
 * older files are archived read-only and the oldest goes. */
static void rotate(struct demo *dm, struct proc *p)
{
	char st[64];

	stamp(st, sizeof st, 0);
	if (p->nfiles == KEEP_FILES) {
		unlink(p->files[0]);
		memmove(p->files[0], p->files[1],
			sizeof p->files[0] * (KEEP_FILES - 1));
		p->nfiles--;
	}
	if (p->nfiles)
		chmod(p->files[p->nfiles - 1], 0440);
	snprintf(p->files[p->nfiles], sizeof p->files[0],
		 "%s/debug/plog/plog-%d_%s.log", dm->root, p->pid, st);
	p->nfiles++;
}

static void append(struct demo *dm, struct proc *p, const char *text,
		   size_t len)
{
	struct stat sb;

	if (!p->nfiles || (stat(p->files[p->nfiles - 1], &sb) == 0 &&
			   sb.st_size > ROTATE_BYTES))
		rotate(dm, p);
	/* As the logger does: open, append, close, for each batch. */
	int fd = open(p->files[p->nfiles - 1],
		      O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0640);
	if (fd < 0)
		return;
	ssize_t w = write(fd, text, len);
	(void)w;
	close(fd);
}

static void noise(struct demo *dm, struct proc *p, struct strbuf *sb, int n)
{
	char ts[64];

	for (int i = 0; i < n; i++) {
		stamp(ts, sizeof ts, 1);
		sb_addf(sb, "[INFO] RUNTIME(%d,%s):%s [stream.cc:777] %d "
			"AddTaskToStream:recorded public task to stream, "
			"stream_id=%u, task_id=%u, task_type=2\n", p->pid,
			p->name, ts, p->pid + 3, rnd(dm) % 64, rnd(dm) % 4096);
	}
}

static void incident(struct demo *dm, struct proc *p, struct strbuf *sb)
{
	char ts[64];
	int tid = p->pid + 1 + (int)(rnd(dm) % 4);
	/* A stream id near the limit, a device, kind 1 (host to device). */
	int arg = p->kind == &kinds[0] ? 2000 + (int)(rnd(dm) % 48)
		  : p->kind == &kinds[4] ? 1 : (int)(rnd(dm) % 8);

	for (int i = 0; p->kind->lines[i]; i++) {
		stamp(ts, sizeof ts, 1);
		sb_addf(sb, "[ERROR] RUNTIME(%d,%s):%s ", p->pid, p->name, ts);
		for (const char *t = p->kind->lines[i]; *t; t++) {
			if (strncmp(t, "{tid}", 5) == 0) {
				sb_addf(sb, "%d", tid);
				t += 4;
			} else if (strncmp(t, "{arg}", 5) == 0) {
				sb_addf(sb, "%d", arg);
				t += 4;
			} else {
				sb_addc(sb, *t);
			}
		}
		sb_addc(sb, '\n');
	}
}

static void spawn(struct demo *dm, struct proc *p, size_t i,
		  unsigned long long now)
{
	static const char *const names[] = {
		"python3", "train_worker", "torchrun", "infer_srv", "ray::Actor"
	};

	p->pid = 10000 + (int)(rnd(dm) % 50000);
	p->name = names[i % 5];
	p->kind = &kinds[i];
	p->nfiles = 0;
	p->born = now;
	/* The first job fails within two seconds, so a demo shows something
	 * at once; the others start on their own rhythm. */
	p->next_incident = now + 1000 + rnd(dm) % (i == 0 ? 1000
					   : p->kind->every_s * 1000);
}

struct demo *demo_new(struct strbuf *err)
{
	struct demo *dm = xcalloc(1, sizeof *dm);
	const char *tmp = getenv("TMPDIR");
	struct strbuf root = STRBUF_INIT;

	sb_addf(&root, "%s/plogtop-demo.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	dm->root = sb_detach(&root);
	if (!mkdtemp(dm->root)) {
		sb_addf(err, "%s: %s", dm->root, strerror(errno));
		free(dm->root);
		free(dm);
		return NULL;
	}
	char plog[512];
	snprintf(plog, sizeof plog, "%s/debug/plog", dm->root);
	if (mkdirs(plog) < 0) {
		sb_addf(err, "%s: %s", plog, strerror(errno));
		rmdir(dm->root);
		free(dm->root);
		free(dm);
		return NULL;
	}
	dm->seed = (unsigned)getpid() ^ (unsigned)time(NULL);
	dm->start = 0;
	for (size_t i = 0; i < NKINDS; i++)
		spawn(dm, &dm->procs[i], i, 0);
	return dm;
}

const char *demo_root(const struct demo *dm)
{
	return dm->root;
}

unsigned long long demo_step(struct demo *dm, unsigned long long now)
{
	if (!dm->start) {
		dm->start = now;
		for (size_t i = 0; i < NKINDS; i++)
			spawn(dm, &dm->procs[i], i, now);
	}
	if (now < dm->next)
		return dm->next;
	/* Busy and quiet spells: the noise rate rises and falls over two
	 * minutes, from 2 to 38 lines a step. */
	unsigned long long t = (now - dm->start) % 120000;
	int lines = 2 + (int)(36 * (t < 60000 ? t : 120000 - t) / 60000);
	for (size_t i = 0; i < NKINDS; i++) {
		struct proc *p = &dm->procs[i];
		struct strbuf sb = STRBUF_INIT;
		noise(dm, p, &sb, lines);
		if (now >= p->next_incident) {
			incident(dm, p, &sb);
			/* Sometimes a retry loop: the call fails again. */
			if (rnd(dm) % 4 == 0)
				incident(dm, p, &sb);
			p->next_incident = now + 500 +
				rnd(dm) % (p->kind->every_s * 2000);
		}
		append(dm, p, sb.buf, sb.len);
		sb_free(&sb);
		/* Now and then a job ends and a new one starts. */
		if (now - p->born > 90000 && rnd(dm) % 300 == 0)
			spawn(dm, p, i, now);
	}
	dm->next = now + STEP_MS;
	return dm->next;
}

static int remove_entry(const char *path, const struct stat *sb, int flag,
			struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

void demo_free(struct demo *dm)
{
	if (!dm)
		return;
	nftw(dm->root, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
	free(dm->root);
	free(dm);
}
