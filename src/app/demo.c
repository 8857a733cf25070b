/* --demo: a believable job.  A training job of four ranks, each on its
 * own device (rank i on device i, as torchrun starts them), and an
 * inference server on device 4, each one real process that lives as
 * long as the demo does: a sleeping child whose program name is the
 * job's (a link named python3 to sleep), with RANK, LOCAL_RANK,
 * WORLD_SIZE and MINDX_TASK_ID in its environment, so that ALIVE, RANK
 * and the job read as they would for a real one.  Each writes its
 * device (aclrtSetDevice's INFO line) and then chains that all name that
 * device, one class per process, one about every 9 to 23 seconds, amid
 * INFO noise that rises and falls. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "demo.h"
#include "xalloc.h"

#define ROTATE_BYTES (256 * 1024)
#define KEEP_FILES 3
#define STEP_MS 200

/* The lines of a chain, after the header: {tid} is the thread, {dev} the
 * process's device, {arg} a number that varies (a stream id, a memcpy
 * kind). */
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
	  "[event_david.cc:104]{tid} GenEventId:Failed to allocate event id, device_id={dev}, tsId=0, retCode=0x7020019.",
	  "[api_c.cc:661]{tid} rtEventCreateWithFlag:ErrCode=207007, desc=[driver error:no event resource], InnerCode=0x7020019",
	  "[error_message_manage.cc:69]{tid} FuncErrorReason:rtEventCreateWithFlag execution failed, reason=driver error:no event resource",
	  NULL } },
	{ "graphs", 17, {
	  "[context_aclgraph.cc:385]{tid} CreateNotify:Notify create failed, setup failed, device_id={dev}, retCode=0x702001b. ErrorCode=EE1023.",
	  "[context_aclgraph.cc:532]{tid} StreamEndCapture:set notify for add capture stream failed, device_id={dev}, origin stream_id={arg}, retCode=0x702001b.",
	  "[api_c_standard_soc.cc:726]{tid} rtStreamEndCapture:ErrCode=207009, desc=[driver error:no notify resource], InnerCode=0x702001b",
	  "[error_message_manage.cc:69]{tid} FuncErrorReason:rtStreamEndCapture execution failed, reason=no notify resource. ErrorCode=EE1023.",
	  NULL } },
	{ "copies", 23, {
	  "[stream_jetty_context.cc:69]{tid} ExpandCapacity:Expanding the capacity failed. Reason: There are too many asynchronous copy tasks in the ACL Graph. ErrorCode=EE1023.",
	  "[stream_jetty_handler.cc:115]{tid} CreateAndAppendWqe:ExpandCapacity failed, capacity=32768, max_depth=32768, stream_id={arg}, device_id={dev}, retCode=0x7110019.",
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

/* Who each process is: its program, rank (-1: none) and device. */
static const struct role {
	const char *name;
	int rank, device;
} roles[] = {
	{ "python3", 0, 0 }, { "python3", 1, 1 }, { "python3", 2, 2 },
	{ "python3", 3, 3 }, { "infer_srv", -1, 4 },
};

#define WORLD 4		/* the training job's ranks */

struct proc {
	int pid;
	const char *name;
	const struct role *role;
	const struct chain_kind *kind;
	char files[KEEP_FILES][512];
	int nfiles;
	unsigned long long next_incident;
	unsigned long long born;
};

struct demo {
	char *base;	/* the demo's directory: root, and bin for the links */
	char *root;	/* the plog tree, watched */
	char sleep[256];	/* sleep, or "" to pause in the child */
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
	/* A stream id near the limit, kind 1 (host to device). */
	int arg = p->kind == &kinds[4] ? 1 : 2000 + (int)(rnd(dm) % 48);

	for (int i = 0; p->kind->lines[i]; i++) {
		stamp(ts, sizeof ts, 1);
		sb_addf(sb, "[ERROR] RUNTIME(%d,%s):%s ", p->pid, p->name, ts);
		for (const char *t = p->kind->lines[i]; *t; t++) {
			if (strncmp(t, "{tid}", 5) == 0) {
				sb_addf(sb, "%d", tid);
				t += 4;
			} else if (strncmp(t, "{dev}", 5) == 0) {
				sb_addf(sb, "%d", p->role->device);
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

/* The child: the job's program (sleep under its name), killed when
 * plogtop ends however it ends.  Only calls safe after fork. */
static void child(const char *link, char *const argv[], char *const env[],
		  const char *name, pid_t parent)
{
	sigset_t none;

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL);
	setpgid(0, 0);
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
		_exit(0);
	if (*link)
		execve(link, argv, env);
	/* No sleep to run: this process, under the job's name. */
	prctl(PR_SET_NAME, name);
	for (;;)
		pause();
}

/* Starts p's process; pid -1 when it cannot (its logs still come). */
static void start(struct demo *dm, struct proc *p)
{
	char link[600] = "", rank[32], local[32], world[32];
	char task[] = "MINDX_TASK_ID=demo-train";
	char serve[] = "MINDX_TASK_ID=demo-serve";
	char *argv[] = { (char *)p->name, "86400", NULL };
	char *env[] = { "PATH=/usr/bin:/bin", rank, local, world, task, NULL };

	if (*dm->sleep) {
		snprintf(link, sizeof link, "%s/bin/%s", dm->base, p->name);
		if (symlink(dm->sleep, link) < 0 && errno != EEXIST)
			link[0] = '\0';
	}
	snprintf(rank, sizeof rank, "RANK=%d", p->role->rank);
	snprintf(local, sizeof local, "LOCAL_RANK=%d", p->role->rank);
	snprintf(world, sizeof world, "WORLD_SIZE=%d", WORLD);
	if (p->role->rank < 0) {	/* the server: a job of its own */
		env[1] = serve;
		env[2] = NULL;
	}
	pid_t parent = getpid(), pid = fork();
	if (pid == 0)
		child(link, argv, env, p->name, parent);
	p->pid = pid > 0 ? (int)pid : -1;
}

static void stop(struct proc *p)
{
	if (p->pid <= 0)
		return;
	kill(p->pid, SIGKILL);
	waitpid(p->pid, NULL, 0);
	p->pid = 0;
}

/* A process of the job: started, it sets its device. */
static void spawn(struct demo *dm, struct proc *p, size_t i,
		  unsigned long long now)
{
	struct strbuf sb = STRBUF_INIT;
	char ts[64];

	p->role = &roles[i];
	p->name = p->role->name;
	p->kind = &kinds[i];
	p->nfiles = 0;
	p->born = now;
	start(dm, p);
	if (p->pid < 0)		/* no process: a pid of its own anyway */
		p->pid = 10000 + (int)(rnd(dm) % 50000);
	stamp(ts, sizeof ts, 1);
	sb_addf(&sb, "[INFO] ASCENDCL(%d,%s):%s [device.cpp:148]%d "
		"aclrtSetDevice: start to execute aclrtSetDevice, deviceId = "
		"%d\n", p->pid, p->name, ts, p->pid, p->role->device);
	append(dm, p, sb.buf, sb.len);
	sb_free(&sb);
	/* Each fails within its first seconds, one after the other, so
	 * that a demo shows its whole job at once; then on its own rhythm. */
	p->next_incident = now + 1000 + 700 * i + rnd(dm) % 700;
}

/* sleep, unless it is a multi-call binary that reads its name from
 * argv[0] (BusyBox): then the child pauses instead. */
static void find_sleep(struct demo *dm)
{
	static const char *const paths[] = { "/bin/sleep", "/usr/bin/sleep" };
	char real[PATH_MAX];

	for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
		if (!realpath(paths[i], real) || access(real, X_OK) < 0 ||
		    strstr(real, "box") || strlen(real) >= sizeof dm->sleep)
			continue;
		memcpy(dm->sleep, real, strlen(real) + 1);
		return;
	}
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

static struct demo *fail(struct demo *dm, struct strbuf *err,
			 const char *path)
{
	sb_addf(err, "%s: %s", path, strerror(errno));
	nftw(dm->base, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
	free(dm->base);
	free(dm->root);
	free(dm);
	return NULL;
}

struct demo *demo_new(struct strbuf *err)
{
	struct demo *dm = xcalloc(1, sizeof *dm);
	const char *tmp = getenv("TMPDIR");
	struct strbuf sb = STRBUF_INIT;

	sb_addf(&sb, "%s/plogtop-demo.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	dm->base = sb_detach(&sb);
	if (!mkdtemp(dm->base)) {
		sb_addf(err, "%s: %s", dm->base, strerror(errno));
		free(dm->base);
		free(dm);
		return NULL;
	}
	/* The links to sleep live beside the tree, never in it. */
	sb_addf(&sb, "%s/job", dm->base);
	dm->root = sb_detach(&sb);
	char path[512];
	snprintf(path, sizeof path, "%s/debug/plog", dm->root);
	if (mkdirs(path) < 0)
		return fail(dm, err, path);
	snprintf(path, sizeof path, "%s/bin", dm->base);
	if (mkdir(path, 0755) < 0)
		return fail(dm, err, path);
	find_sleep(dm);
	dm->seed = (unsigned)getpid() ^ (unsigned)time(NULL);
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
		/* A process that ended (killed from outside, or after its
		 * day of sleep) starts again, as a job's launcher would. */
		if (p->pid > 0 && waitpid(p->pid, NULL, WNOHANG) == p->pid)
			spawn(dm, p, i, now);
	}
	dm->next = now + STEP_MS;
	return dm->next;
}

void demo_free(struct demo *dm)
{
	if (!dm)
		return;
	for (size_t i = 0; i < NKINDS; i++)
		stop(&dm->procs[i]);
	nftw(dm->base, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
	free(dm->base);
	free(dm->root);
	free(dm);
}
