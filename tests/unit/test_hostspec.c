/* Naming hosts: HOST:PATH words, host validation (nothing ssh could take
 * for an option), pdsh ranges, host files; and the ssh argument vector
 * built from them (no shell, the remote words single-quoted). */
#include "config.h"

#include "unit.h"

#include "fleet.h"
#include "hostspec.h"

static void split(const char *word, const char *host, const char *path)
{
	char *h = NULL, *p = NULL;
	int r = hostspec_split(word, &h, &p);

	if (!host) {
		assert_int_equal(r, 0);
		return;
	}
	assert_int_equal(r, 1);
	assert_string_equal(h, host);
	assert_string_equal(p, path);
	free(h);
	free(p);
}

static void test_split(void **state)
{
	(void)state;
	split("node1:/var/log", "node1", "/var/log");
	split("node1:", "node1", "");
	split("user@node1:logs", "user@node1", "logs");
	split("[::1]:/p", "[::1]", "/p");
	split("root@[fe80::1]:x", "root@[fe80::1]", "x");
	split("./a:b", NULL, NULL);
	split("/x:y", NULL, NULL);
	split("dir/a:b", NULL, NULL);
	split(":x", NULL, NULL);
	split("plain", NULL, NULL);
	split("-", NULL, NULL);
	split("-oProxyCommand=x:", "-oProxyCommand=x", "");
}

static int valid(const char *h)
{
	struct strbuf err = STRBUF_INIT;
	int rc = host_valid(h, &err);

	assert_true(rc == 0 ? err.len == 0 : err.len > 0);
	sb_free(&err);
	return rc == 0;
}

static void test_valid(void **state)
{
	(void)state;
	assert_true(valid("node01"));
	assert_true(valid("gpu-3.cluster.example.com"));
	assert_true(valid("user@host_a"));
	assert_true(valid("[::1]"));
	assert_true(valid("admin@[fe80::1:2]"));
	assert_false(valid(""));
	assert_false(valid("-oProxyCommand=x"));
	assert_false(valid("-p"));
	assert_false(valid("user@-oX"));
	assert_false(valid("a b"));
	assert_false(valid("a;b"));
	assert_false(valid("a\nb"));
	assert_false(valid("a\tb"));
	assert_false(valid("$(reboot)"));
	assert_false(valid("`x`"));
	assert_false(valid("host'"));
	assert_false(valid("[::1"));
	assert_false(valid("[zz]"));
	assert_false(valid(".hidden"));
	assert_false(valid("@host"));
	char longname[300];
	memset(longname, 'a', sizeof longname - 1);
	longname[sizeof longname - 1] = '\0';
	assert_false(valid(longname));
}

/* want NULL: an error, whose text holds err_has; else the hosts made,
 * space-separated.  Frees the list and the error. */
static void check_hosts(int rc, struct hostlist *hl, struct strbuf *err,
			const char *want, const char *err_has)
{
	struct strbuf got = STRBUF_INIT;

	if (!want) {
		assert_int_equal(rc, -1);
		assert_true(err->len > 0);
		assert_non_null(strstr(sb_str(err), err_has));
	} else {
		assert_int_equal(rc, 0);
		for (size_t i = 0; i < hl->n; i++)
			sb_addf(&got, "%s%s%s%s", i ? " " : "", hl->v[i],
				*hl->path[i] ? ":" : "", hl->path[i]);
		assert_string_equal(sb_str(&got), want);
	}
	hostlist_free(hl);
	sb_free(err);
	sb_free(&got);
}

static void expand(const char *list, const char *want)
{
	struct hostlist hl = HOSTLIST_INIT;
	struct strbuf err = STRBUF_INIT;
	int rc = hostlist_expand(&hl, list, &err);

	check_hosts(rc, &hl, &err, want, "");
}

static void test_ranges(void **state)
{
	(void)state;
	expand("a,b", "a b");
	expand("node[01-03]", "node01 node02 node03");
	expand("node[1,3,5-7]", "node1 node3 node5 node6 node7");
	expand("n[8-10].x", "n8.x n9.x n10.x");
	expand("r[1-2]c[1-2]", "r1c1 r1c2 r2c1 r2c2");
	expand("a,a,b", "a b");
	expand("[::1],h", "[::1] h");
	expand("node[3-1]", NULL);
	expand("node[1-", NULL);
	expand("node[a-b]", NULL);
	expand("node[0-99999]", NULL);
	expand("", NULL);
	expand("a,,b", NULL);
	expand("-oProxyCommand=x", NULL);
	expand("ok,-bad", NULL);
	/* Counted before any is made (the fuzzer's timeout): 7^6 names,
	 * and duplicates that never reach the cap of unique hosts. */
	expand("n[1-7][1-7][1-7][1-7][1-7][1-7]", NULL);
	expand("n[1,1,1,1][1,1,1,1][1,1,1,1][1,1,1,1][1,1,1,1][1,1,1,1]", NULL);
	expand("r[1-33]c[1-32]", NULL);
	/* Checked whole before any is made (the fuzzer's second timeout:
	 * 343 paths through dozens of ranges, each ending at an empty
	 * one that made no name). */
	expand("n[1-7][1-7][1-7][]x", NULL);
	expand("n[1-7][1-7][1-7]x[", NULL);
	expand("n[1-7][1-7][1-7][7-1]", NULL);
	expand("n[1][2][3][4][5][6][7][8]", "n12345678");
	expand("n[1][2][3][4][5][6][7][8][9]", NULL);
	expand("[::1],h[1-2]", "[::1] h1 h2");
	/* Issue 18: a word's path, after the first colon outside brackets,
	 * for each host of the word. */
	expand("node[01-02]:/var/log/npu", "node01:/var/log/npu "
	       "node02:/var/log/npu");
	expand("n[1,3]:/a,login1,x:/b", "n1:/a n3:/a login1 x:/b");
	expand("[::1]:/p,u@[::1]:/q,h:", "[::1]:/p u@[::1]:/q h");
	expand("a:/x,a:/y,a:/x,a", "a:/x a:/y a");
	expand("n[1-2]:/a[1]:b", "n1:/a[1]:b n2:/a[1]:b");
	expand(":/x", NULL);
	expand("-o:/x", NULL);
	char longword[300];
	memset(longword, 'a', 256);
	strcpy(longword + 256, "[1-2]");
	expand(longword, NULL);
	struct hostlist hl = HOSTLIST_INIT;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(hostlist_expand(&hl, "r[1-32]c[1-32]", &err), 0);
	assert_int_equal(hl.n, 1024);
	hostlist_free(&hl);
	/* Words of duplicates, each checked against every host so far (the
	 * fuzzer's second timeout): 4,096 names at most, counted across
	 * words and calls. */
	assert_int_equal(hostlist_expand(&hl, "n[1-1000],n[1-1000],"
					 "n[1-1000],n[1-1000]", &err), 0);
	assert_int_equal(hl.n, 1000);
	assert_int_equal(hostlist_expand(&hl, "n[1-97]", &err), -1);
	assert_non_null(strstr(err.buf, "duplicates"));
	hostlist_free(&hl);
	sb_free(&err);
}

static void hostfile_in(const char *text, const char *def_path,
			const char *want)
{
	struct hostlist hl = HOSTLIST_INIT;
	struct strbuf err = STRBUF_INIT;
	int rc = hostfile_parse(&hl, "hosts", text, strlen(text), def_path,
				&err);

	check_hosts(rc, &hl, &err, want, "hosts:");
}

static void hostfile(const char *text, const char *want)
{
	hostfile_in(text, NULL, want);
}

static void test_hostfile(void **state)
{
	(void)state;
	hostfile("a\nb\n", "a b");
	hostfile("# the job\n\n  worker-1 slots=8\nworker-2 slots=8 "
		 "max_slots=16 # spare\r\n", "worker-1 worker-2");
	hostfile("mpich:4\nnode[1-2]\n", "mpich node1 node2");
	hostfile("a", "a");
	hostfile("a b\n", NULL);
	hostfile("-oProxyCommand=x\n", NULL);
	hostfile("a slots=x\n", NULL);
	/* Issue 18: a path by "host:PATH" or "path=PATH"; --hosts=FILE:PATH
	 * for the lines without one. */
	hostfile("node01:/var/log/npu\nnode02 slots=8 path=/data/log\n"
		 "mpich:4\nn[1-2]:/p # two\n",
		 "node01:/var/log/npu node02:/data/log mpich n1:/p n2:/p");
	hostfile_in("a\nb:/own\nc slots=8\nd:2\n", "/all",
		    "a:/all b:/own c:/all d:/all");
	hostfile("a:/x path=/y\n", NULL);
	hostfile("a path=/x path=/y\n", NULL);
	hostfile("a paths=/x\n", NULL);
}

static void test_argv(void **state)
{
	char *paths[] = { "/var/log/it's", "-weird" };
	struct fleet_opts o = { .ssh = "ssh -F my.cfg", .remote_cmd = "/opt/p",
				.since_arg = "2h" };

	(void)state;
	char **v = fleet_argv(&o, "node1", paths, 2);
	size_t n = 0;
	while (v[n])
		n++;
	assert_string_equal(v[0], "ssh");
	assert_string_equal(v[1], "-F");
	assert_string_equal(v[2], "my.cfg");
	assert_string_equal(v[3], "-T");
	assert_string_equal(v[n - 3], "--");
	assert_string_equal(v[n - 2], "node1");
	assert_string_equal(v[n - 1], "'/opt/p' '--follow' '--format=ndjson' "
			    "'--hello' '--since=2h' '--' '/var/log/it'\\''s' "
			    "'-weird'");
	fleet_argv_free(v);
	/* A wrapper gets the host and the command only. */
	o.ssh = "/usr/local/bin/kube-exec";
	o.once = 1;
	o.since_arg = NULL;
	v = fleet_argv(&o, "pod-1", NULL, 0);
	assert_string_equal(v[0], "/usr/local/bin/kube-exec");
	assert_string_equal(v[1], "pod-1");
	assert_string_equal(v[2], "'/opt/p' '--once' '--format=json'");
	assert_null(v[3]);
	fleet_argv_free(v);
}

int main(void)
{
	cmocka_set_message_output(CM_OUTPUT_TAP);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_valid),
		cmocka_unit_test(test_ranges),
		cmocka_unit_test(test_hostfile),
		cmocka_unit_test(test_argv),
	};
	return UNIT_RUN("hostspec", tests);
}
