/* The file identity rule (src/read/fileid.h): what a state file's resume point
 * is matched against after a restart.  A remount that changes st_dev
 * (NFS) keeps the position; a file rewritten under the same name and
 * inode, with the same banner and long enough, is not the same file; a
 * file renamed keeps its bytes and so its identity. */
#include "config.h"

#include <fcntl.h>
#include <sys/stat.h>

#include "unit.h"

#include "fileid.h"
#include "state_positions.h"
#include "xalloc.h"

static char dir[] = "/tmp/plogtop-fileid.XXXXXX";

static void put(const char *name, const char *text, int append)
{
	char path[256];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	int fd = open(path, O_WRONLY | O_CREAT | (append ? O_APPEND : O_TRUNC),
		      0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

static int fd_of(const char *name)
{
	char path[256];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	return open(path, O_RDONLY);
}

#define BANNER "[INFO] RUNTIME(1,python3):2026-03-01-00:00:00.000.000 " \
	       "[logger.cc:1] 1 banner of every file\n"

static void take(const char *name, struct fileid *id)
{
	int fd = fd_of(name);
	struct stat sb;
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &sb), 0);
	assert_int_equal(fileid_take(fd, (unsigned long long)sb.st_size, 3, id),
			 0);
	close(fd);
}

static int matches(const char *name, const struct fileid *id)
{
	int fd = fd_of(name);
	assert_true(fd >= 0);
	int m = fileid_matches(id, fd);
	close(fd);
	return m;
}

static void test_rule(void **state)
{
	struct fileid id;

	(void)state;
	assert_non_null(mkdtemp(dir));
	put("a.log", BANNER "[ERROR] line one at 00:00:01\n"
		     "[ERROR] line two at 00:00:02\n", 0);
	take("a.log", &id);
	assert_true(matches("a.log", &id));
	/* Appended to: still the same file, read on from the offset. */
	put("a.log", "[ERROR] line three at 00:00:03\n", 1);
	assert_true(matches("a.log", &id));
	/* A remount (NFS) gives another st_dev: never compared. */
	struct fileid moved = id;
	moved.dev ^= 0x55;
	assert_true(matches("a.log", &moved));
	assert_true(fileid_same_node(1, 42, 2, 42));
	assert_false(fileid_same_node(1, 42, 1, 43));
	/* Rewritten in place (same inode), same banner, longer: another
	 * file, read from its start. */
	put("a.log", BANNER "[ERROR] line one at 00:00:07\n"
		     "[ERROR] line two at 00:00:08\n"
		     "[ERROR] and more, longer than the old offset\n", 0);
	assert_false(matches("a.log", &id));
	/* Truncated below the offset: another file. */
	put("a.log", BANNER, 0);
	assert_false(matches("a.log", &id));
	/* Two files with the same banner are told apart. */
	put("b.log", BANNER "[ERROR] b at 00:00:05\n", 0);
	put("c.log", BANNER "[ERROR] c at 00:00:05\n", 0);
	struct fileid b;
	take("b.log", &b);
	assert_true(matches("b.log", &b));
	assert_false(matches("c.log", &b));
}

/* The state's look-up: a file renamed by a rotation is found by its
 * inode under its new name; each resume point is given once. */
static void test_rename(void **state)
{
	char from[256], to[256];
	struct fileid id;
	struct resume_at got;
	struct posset ps = { 0 };

	(void)state;
	put("d.log", BANNER "[ERROR] d at 00:00:09\n", 0);
	take("d.log", &id);
	snprintf(from, sizeof from, "%s/d.log", dir);
	snprintf(to, sizeof to, "%s/d.log.1", dir);
	assert_int_equal(rename(from, to), 0);
	ps.n = 1;
	ps.v = xcalloc(1, sizeof *ps.v);
	ps.v[0].path = xstrdup(from);
	ps.v[0].id = id;
	ps.by_path = xcalloc(1, sizeof *ps.by_path);
	ps.by_ino = xcalloc(1, sizeof *ps.by_ino);
	ps.by_path[0] = ps.by_ino[0] = &ps.v[0];
	assert_true(posset_resume_for(&ps, to, &got));
	assert_int_equal(got.id.offset, id.offset);
	assert_int_equal(got.id.line, 3);
	assert_false(posset_resume_for(&ps, to, &got));
	posset_free(&ps);
	unlink(to);
	snprintf(from, sizeof from, "%s/a.log", dir);
	unlink(from);
	snprintf(from, sizeof from, "%s/b.log", dir);
	unlink(from);
	snprintf(from, sizeof from, "%s/c.log", dir);
	unlink(from);
	rmdir(dir);
}

int main(void)
{
	cmocka_set_message_output(CM_OUTPUT_TAP);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rule),
		cmocka_unit_test(test_rename),
	};
	return UNIT_RUN("fileid", tests);
}
