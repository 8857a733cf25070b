/* --listen's pieces that need no server: the address forms, and the
 * users of basic auth (crypt(3) hashes, the file's mode, unknown users). */
#include "config.h"

#include "unit.h"

#include <arpa/inet.h>
#include <crypt.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/stat.h>

#include "httpd_auth.h"
#include "listen_addr.h"

static int parse(const char *spec, struct listen_addr *a)
{
	struct strbuf err = STRBUF_INIT;
	int rc = listen_addr_parse(spec, a, &err);

	assert_true(rc == 0 ? err.len == 0 : err.len > 0);
	sb_free(&err);
	return rc;
}

static void test_addr(void **state)
{
	struct listen_addr a;
	char buf[64];

	(void)state;
	assert_int_equal(parse(":9466", &a), 0);
	assert_true(a.any);
	assert_int_equal(a.port, 9466);
	assert_int_equal(a.sa.ss_family, AF_INET6);
	assert_int_equal(parse("127.0.0.1:9466", &a), 0);
	assert_false(a.any);
	assert_int_equal(a.sa.ss_family, AF_INET);
	inet_ntop(AF_INET, &((struct sockaddr_in *)&a.sa)->sin_addr, buf, sizeof buf);
	assert_string_equal(buf, "127.0.0.1");
	assert_int_equal(ntohs(((struct sockaddr_in *)&a.sa)->sin_port), 9466);
	assert_int_equal(parse("[::1]:80", &a), 0);
	assert_int_equal(a.sa.ss_family, AF_INET6);
	assert_false(a.any);
	assert_int_equal(parse("0.0.0.0:1", &a), 0);
	assert_int_equal(parse("[fe80::1%x]:80", &a), -1);
	assert_int_equal(parse("localhost:9466", &a), -1);
	assert_int_equal(parse("9466", &a), -1);
	assert_int_equal(parse(":", &a), -1);
	assert_int_equal(parse(":0", &a), -1);
	assert_int_equal(parse(":65536", &a), -1);
	assert_int_equal(parse(":+80", &a), -1);
	assert_int_equal(parse(": 80", &a), -1);
	assert_int_equal(parse("::1:80", &a), -1);
	assert_int_equal(parse("[]:80", &a), -1);
	assert_int_equal(parse("[::1]", &a), -1);
	assert_int_equal(parse("[::1]:", &a), -1);
	assert_int_equal(parse("[127.0.0.1]:80", &a), -1);
}

static void write_users(const char *path, const char *text, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	assert_int_equal(chmod(path, mode), 0);
}

static int load(struct httpd_users *u, const char *path, const char *want)
{
	struct strbuf err = STRBUF_INIT;
	int rc = httpd_users_load(u, path, &err);

	if (want)
		assert_non_null(strstr(sb_str(&err), want));
	sb_free(&err);
	return rc;
}

static void test_users(void **state)
{
	char dir[] = "/tmp/plogtop-unit-XXXXXX", path[64], text[512];
	struct crypt_data cd;
	struct httpd_users u;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/users", dir);
	memset(&cd, 0, sizeof cd);
	/* SHA-512-crypt and bcrypt, as openssl passwd -6 and htpasswd -B. */
	char *sha = strdup(crypt_r("right", "$6$saltsalt", &cd));
	char *bc = strdup(crypt_r("other", crypt_gensalt_rn("$2b$", 5, NULL, 0,
				  text, sizeof text), &cd));
	snprintf(text, sizeof text, "# who may scrape\n\nprom:%s\ngraf:%s\n", sha, bc);
	write_users(path, text, 0640);
	assert_int_equal(load(&u, path, NULL), 0);
	assert_int_equal(u.n, 2);
	assert_true(httpd_users_check(&u, "prom", "right"));
	assert_false(httpd_users_check(&u, "prom", "wrong"));
	assert_false(httpd_users_check(&u, "prom", ""));
	assert_true(httpd_users_check(&u, "graf", "other"));
	assert_false(httpd_users_check(&u, "graf", "right"));
	assert_false(httpd_users_check(&u, "nobody", "right"));
	assert_false(httpd_users_check(&u, "pro", "right"));
	httpd_users_free(&u);
	write_users(path, text, 0644);
	assert_int_equal(load(&u, path, "others may read"), -1);
	write_users(path, "prom:plain-password\n", 0600);
	assert_int_equal(load(&u, path, "users:1: not a crypt(3) hash"), -1);
	write_users(path, "prom:!\n", 0600);
	assert_int_equal(load(&u, path, "users:1: "), -1);
	write_users(path, "# nothing\n", 0600);
	assert_int_equal(load(&u, path, "no user:HASH line"), -1);
	write_users(path, "justaname\n", 0600);
	assert_int_equal(load(&u, path, "users:1: not user:HASH"), -1);
	unlink(path);
	assert_int_equal(load(&u, path, "No such file"), -1);
	rmdir(dir);
	free(sha);
	free(bc);
}

int main(void)
{
	cmocka_set_message_output(CM_OUTPUT_TAP);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_addr),
		cmocka_unit_test(test_users),
	};
	return UNIT_RUN("listen", tests);
}
