/* procenv: a fake /proc made here (PID/environ, PID/status) gives a
 * process's rank, task, visible-device map and NSpid; garbage gives
 * nothing; a container pid maps to its host pid only when one does. */
#include "config.h"

#include <sys/stat.h>
#include <unistd.h>

#include "unit.h"

#include "procenv.h"

static char root[64];

static void put(long pid, const char *file, const char *data, size_t n)
{
	char path[256];

	snprintf(path, sizeof path, "%s/%ld", root, pid);
	mkdir(path, 0755);
	snprintf(path, sizeof path, "%s/%ld/%s", root, pid, file);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, n, f), n);
	fclose(f);
}

#define PUT_ENV(pid, lit) put(pid, "environ", lit, sizeof lit - 1)

static void status(long pid, const char *nspid)
{
	char buf[512];

	snprintf(buf, sizeof buf, "Name:\tpython3\nUmask:\t0022\nState:\tS "
		 "(sleeping)\nTgid:\t%ld\nPid:\t%ld\n%s%sThreads:\t1\n", pid,
		 pid, nspid ? nspid : "", nspid ? "\n" : "");
	put(pid, "status", buf, strlen(buf));
}

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof root, "/tmp/plogtop-procenv-XXXXXX");
	return mkdtemp(root) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

static void test_variables_read(void **state)
{
	struct procenv e;

	(void)state;
	status(100, "NSpid:\t100");
	PUT_ENV(100, "PATH=/usr/bin\0RANK=3\0LOCAL_RANK=3\0WORLD_SIZE=8\0"
		"MINDX_TASK_ID=job-7\0ASCEND_RT_VISIBLE_DEVICES=4,5,7\0"
		"HOME=/root\0");
	assert_int_equal(procenv_read(root, 100, &e), 0);
	assert_int_equal(e.rank, 3);
	assert_int_equal(e.local_rank, 3);
	assert_int_equal(e.world_size, 8);
	assert_string_equal(e.task_id, "job-7");
	assert_int_equal(e.nmap, 3);
	assert_int_equal(e.map[0], 4);
	assert_int_equal(e.map[2], 7);
	assert_int_equal(e.ns_pid, 100);
	assert_int_equal(e.host_pid, 100);
}

static void test_no_variables(void **state)
{
	struct procenv e;

	(void)state;
	status(101, NULL);	/* a kernel without NSpid */
	PUT_ENV(101, "PATH=/usr/bin\0NOTRANK=1\0XRANK=2\0RANK\0");
	assert_int_equal(procenv_read(root, 101, &e), 0);
	assert_int_equal(e.rank, -1);
	assert_int_equal(e.local_rank, -1);
	assert_int_equal(e.world_size, -1);
	assert_string_equal(e.task_id, "");
	assert_int_equal(e.nmap, 0);
	assert_int_equal(e.ns_pid, 101);
	assert_int_equal(e.host_pid, 101);
}

/* The container's list with ranges, and the runtime's list within it. */
static void test_maps(void **state)
{
	struct procenv e;

	(void)state;
	status(102, "NSpid:\t102\t17");
	PUT_ENV(102, "ASCEND_VISIBLE_DEVICES=2-4,6\0");
	assert_int_equal(procenv_read(root, 102, &e), 0);
	assert_int_equal(e.nmap, 4);
	assert_int_equal(e.map[0], 2);
	assert_int_equal(e.map[2], 4);
	assert_int_equal(e.map[3], 6);
	assert_int_equal(e.ns_pid, 17);
	assert_int_equal(e.host_pid, 102);
	status(103, "NSpid:\t103\t40\t18");
	PUT_ENV(103, "ASCEND_VISIBLE_DEVICES=2-4,6\0ASCEND_RT_VISIBLE_DEVICES=3,1\0");
	assert_int_equal(procenv_read(root, 103, &e), 0);
	assert_int_equal(e.nmap, 2);
	assert_int_equal(e.map[0], 6);
	assert_int_equal(e.map[1], 3);
	assert_int_equal(e.ns_pid, 18);
	assert_int_equal(e.host_pid, 103);
	/* Device names, as the Ascend Docker Runtime takes them too. */
	PUT_ENV(103, "ASCEND_VISIBLE_DEVICES=Ascend910-5,0-1,Ascend910-7\0");
	assert_int_equal(procenv_read(root, 103, &e), 0);
	assert_int_equal(e.nmap, 4);
	assert_int_equal(e.map[0], 5);
	assert_int_equal(e.map[1], 0);
	assert_int_equal(e.map[2], 1);
	assert_int_equal(e.map[3], 7);
}

static void test_garbage(void **state)
{
	struct procenv e;

	(void)state;
	status(104, "NSpid:\t104");
	PUT_ENV(104, "RANK=-1\0LOCAL_RANK=3x\0WORLD_SIZE=99999999999\0"
		"ASCEND_RT_VISIBLE_DEVICES=0-3\0MINDX_TASK_ID=a\033b\0");
	assert_int_equal(procenv_read(root, 104, &e), 0);
	assert_int_equal(e.rank, -1);
	assert_int_equal(e.local_rank, -1);
	assert_int_equal(e.world_size, -1);
	assert_int_equal(e.nmap, 0);	/* no ranges in RT's list */
	assert_string_equal(e.task_id, "");
	static const char *const bad[] = { "", ",", "0,", ",1", "a", "1,,2",
					   "3-1", "0 1", "99999", "1,1", "0-2,2",
					   "Ascend910", "Ascend910-1-2",
					   "Ascend910-x" };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		char env[64];
		int n = snprintf(env, sizeof env, "ASCEND_VISIBLE_DEVICES=%s",
				 bad[i]);
		put(105, "environ", env, (size_t)n + 1);
		status(105, "NSpid:\t105");
		assert_int_equal(procenv_read(root, 105, &e), 0);
		assert_int_equal(e.nmap, 0);
	}
	/* A bad NSpid: nothing known. */
	status(106, "NSpid:\t106\tx");
	PUT_ENV(106, "RANK=1\0");
	assert_int_equal(procenv_read(root, 106, &e), -1);
	/* Gone. */
	assert_int_equal(procenv_read(root, 999, &e), -1);
	assert_int_equal(procenv_read(root, -1, &e), -1);
}

/* An entry longer than any of ours is skipped whole; ours after it are
 * read; the environment is read in pieces. */
static void test_long_entries(void **state)
{
	struct procenv e;
	size_t n = 3 * 4096 + 100;
	char *env = malloc(n + 64);

	(void)state;
	memcpy(env, "JUNK=", 5);
	memset(env + 5, 'R', n - 5);
	memcpy(env + 200, "\0JUNK2=", 7);	/* a short one first */
	env[n] = '\0';
	memcpy(env + n + 1, "RANK=5", 7);
	put(107, "environ", env, n + 8);
	status(107, "NSpid:\t107");
	assert_int_equal(procenv_read(root, 107, &e), 0);
	assert_int_equal(e.rank, 5);
	free(env);
}

static void test_not_readable(void **state)
{
	struct procenv e;
	char path[256];

	(void)state;
	if (geteuid() == 0)
		skip();		/* root reads anything */
	status(108, "NSpid:\t108");
	PUT_ENV(108, "RANK=1\0");
	snprintf(path, sizeof path, "%s/108/environ", root);
	assert_int_equal(chmod(path, 0), 0);
	assert_int_equal(procenv_read(root, 108, &e), -1);
	assert_int_equal(e.rank, -1);
}

static void test_host_pid(void **state)
{
	(void)state;
	/* 102 is 17 in its container, 103 is 18 in the inner one. */
	assert_int_equal(procenv_host_pid(root, 17), 102);
	assert_int_equal(procenv_host_pid(root, 18), 103);
	assert_int_equal(procenv_host_pid(root, 4242), 0);
	/* Two containers each with a 17: none can be named. */
	status(110, "NSpid:\t110\t17");
	assert_int_equal(procenv_host_pid(root, 17), 0);
	/* A pid of the host itself. */
	assert_int_equal(procenv_host_pid(root, 100), 100);
	assert_int_equal(procenv_host_pid(root, 0), 0);
	assert_int_equal(procenv_host_pid("/nonexistent", 17), 0);
}

static void test_root_from_environment(void **state)
{
	(void)state;
	unsetenv("PLOGTOP_PROC_ROOT");
	assert_string_equal(procenv_root(), "/proc");
	setenv("PLOGTOP_PROC_ROOT", root, 1);
	assert_string_equal(procenv_root(), root);
	unsetenv("PLOGTOP_PROC_ROOT");
}

/* This very process, in the real /proc. */
/* PID/ns/uts: a link to what the kernel names the namespace. */
static void uts(long pid, const char *ns)
{
	char path[256];

	snprintf(path, sizeof path, "%s/%ld", root, pid);
	mkdir(path, 0755);
	snprintf(path, sizeof path, "%s/%ld/ns", root, pid);
	mkdir(path, 0755);
	snprintf(path, sizeof path, "%s/%ld/ns/uts", root, pid);
	unlink(path);
	assert_int_equal(symlink(ns, path), 0);
}

#define PUT_CGROUP(pid, lit) put(pid, "cgroup", lit, sizeof lit - 1)
#define POD_ENV "PATH=/usr/bin\0POD_NAME=train-worker-3\0" \
	"POD_NAMESPACE=ai-team\0CONTAINER_NAME=ascend\0HOSTNAME=train-host\0"

/* Pod names only with a kubepods cgroup and the pod's UID in it: the
 * cgroupfs form, systemd's (v2 and v1 lines), HOSTNAME when POD_NAME is
 * not set; none without the cgroup, with another cgroup, or when a name
 * is not a Kubernetes name. */
static void test_pod(void **state)
{
	struct procenv e;

	(void)state;
	status(300, "NSpid:\t300");
	PUT_ENV(300, POD_ENV);
	assert_int_equal(procenv_read(root, 300, &e), 0);
	assert_int_equal(e.in_pod, 0);		/* no cgroup file */
	assert_string_equal(e.pod_name, "");
	assert_string_equal(e.pod_namespace, "");
	PUT_CGROUP(300, "0::/user.slice/user-1000.slice/session-2.scope\n");
	assert_int_equal(procenv_read(root, 300, &e), 0);
	assert_int_equal(e.in_pod, 0);
	assert_string_equal(e.container_name, "");
	/* "kubepods" without a pod UID is no pod's. */
	PUT_CGROUP(300, "0::/kubepods.slice/kubepods-burstable.slice\n");
	assert_int_equal(procenv_read(root, 300, &e), 0);
	assert_int_equal(e.in_pod, 0);
	PUT_CGROUP(300, "12:memory:/kubepods/burstable/"
		   "pod0b7d4c2e-8f0a-4d6b-9a51-3c2d1e0f9a8b/"
		   "4f6c0e4b2a1d9c8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e\n");
	assert_int_equal(procenv_read(root, 300, &e), 0);
	assert_int_equal(e.in_pod, 1);
	assert_string_equal(e.pod_name, "train-worker-3");
	assert_string_equal(e.pod_namespace, "ai-team");
	assert_string_equal(e.container_name, "ascend");
	assert_int_equal(e.rank, -1);
	/* systemd's driver, cgroup v2; no POD_NAME: HOSTNAME is the pod's. */
	status(301, "NSpid:\t301\t7");
	PUT_ENV(301, "HOSTNAME=worker-1.train\0POD_NAMESPACE=Bad_NS\0");
	PUT_CGROUP(301, "0::/kubepods.slice/kubepods-besteffort.slice/"
		   "kubepods-besteffort-pod0b7d4c2e_8f0a_4d6b_9a51_3c2d1e0f9a8b"
		   ".slice/cri-containerd-4f6c0e4b.scope\n");
	assert_int_equal(procenv_read(root, 301, &e), 0);
	assert_int_equal(e.in_pod, 1);
	assert_string_equal(e.pod_name, "");	/* its UTS ns unknown */
	assert_string_equal(e.pod_namespace, "");	/* not a name */
	uts(1, "uts:[4026531838]");
	uts(301, "uts:[4026531838]");		/* the host's network */
	assert_int_equal(procenv_read(root, 301, &e), 0);
	assert_string_equal(e.pod_name, "");
	uts(301, "uts:[4026532911]");		/* its own */
	assert_int_equal(procenv_read(root, 301, &e), 0);
	assert_string_equal(e.pod_name, "worker-1.train");
	/* Hostile values are no names: quotes, backslashes, controls,
	 * invalid UTF-8, upper case, too long. */
	status(302, "NSpid:\t302");
	PUT_ENV(302, "POD_NAME=a\"b\0POD_NAMESPACE=x\\y\0"
		"CONTAINER_NAME=c\nd\0HOSTNAME=\xff\xfe\0");
	PUT_CGROUP(302, "0::/kubepods/pod0b7d4c2e-8f0a-4d6b-9a51-3c2d1e0f9a8b/x\n");
	assert_int_equal(procenv_read(root, 302, &e), 0);
	assert_int_equal(e.in_pod, 1);
	assert_string_equal(e.pod_name, "");
	assert_string_equal(e.pod_namespace, "");
	assert_string_equal(e.container_name, "");
	char name[300];
	memset(name, 'a', sizeof name);
	assert_int_equal(procenv_k8s_name(name, 253, 253, 1), 1);
	assert_int_equal(procenv_k8s_name(name, 254, 253, 1), 0);
	assert_int_equal(procenv_k8s_name("-a", 2, 63, 0), 0);
	assert_int_equal(procenv_k8s_name("a.b", 3, 63, 0), 0);
	assert_int_equal(procenv_k8s_name("Ab", 2, 63, 0), 0);
}

static void test_real_proc(void **state)
{
	struct procenv e;

	(void)state;
	setenv("LOCAL_RANK", "2", 1);	/* not in our environ file yet */
	assert_int_equal(procenv_read("/proc", (long)getpid(), &e), 0);
	assert_true(e.host_pid == (long)getpid());
}

int main(void)
{
	cmocka_set_message_output(CM_OUTPUT_TAP);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_variables_read),
		cmocka_unit_test(test_no_variables),
		cmocka_unit_test(test_maps),
		cmocka_unit_test(test_garbage),
		cmocka_unit_test(test_long_entries),
		cmocka_unit_test(test_not_readable),
		cmocka_unit_test(test_host_pid),
		cmocka_unit_test(test_root_from_environment),
		cmocka_unit_test(test_real_proc),
		cmocka_unit_test(test_pod),
	};
	if (setup(NULL) < 0) {
		perror("mkdtemp");
		return 99;
	}
	int rc = UNIT_RUN("procenv", tests);
	if (teardown(NULL) < 0)
		rc = 99;
	return rc;
}
