/* Where the data comes from (datadir.h): decided again at each read,
 * from the environment and the disk, so that nothing is kept. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "builtin.h"
#include "datadir.h"
#include "fileio.h"
#include "i18n.h"
#include "sanitize.h"

/* A VERSION file holds one short line: "0.1.0". */
#define VERSION_MAX 64

static int running_from_build_tree(void)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);

	if (n <= 0)
		return 0;
	exe[n] = '\0';
	char *slash = strrchr(exe, '/');
	if (!slash)
		return 0;
	*slash = '\0';
	return strcmp(exe, ABS_TOP_BUILDDIR "/src") == 0;
}

/* dir/VERSION's first line into ver: 1, or 0 when there is none. */
static int dir_version(const char *dir, struct strbuf *ver)
{
	struct strbuf path = STRBUF_INIT;
	char buf[VERSION_MAX + 1];
	ssize_t n = -1;

	sb_addf(&path, "%s/VERSION", dir);
	int fd = open(path.buf, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	sb_free(&path);
	if (fd >= 0) {
		n = read(fd, buf, VERSION_MAX);
		close(fd);
	}
	if (n < 0)
		return 0;
	buf[n] = '\0';
	buf[strcspn(buf, "\r\n")] = '\0';
	sb_adds(ver, buf);
	return 1;
}

static int is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The directory the data is read from, in dir, or 0 for the built-in
 * data; why a directory is passed over, in note (may be NULL). */
static int choose(struct strbuf *dir, struct strbuf *note)
{
	const char *env = getenv("PLOGTOP_DATADIR");
	struct strbuf ver = STRBUF_INIT;
	const char *prefix = "";
	int use = 0;

	if (env && *env) {
		use = !dir_version(env, &ver) ||
		      strcmp(ver.buf, PACKAGE_VERSION) == 0;
		if (use)
			sb_adds(dir, env);
		prefix = "PLOGTOP_DATADIR=";
	} else if (!running_from_build_tree() && is_dir(PKGDATADIR)) {
		/* No VERSION: installed by a plogtop older than the
		 * stamp, so older than these built-ins. */
		use = dir_version(PKGDATADIR, &ver) &&
		      strcmp(ver.buf, PACKAGE_VERSION) == 0;
		if (use)
			sb_adds(dir, PKGDATADIR);
		else
			env = PKGDATADIR;
	} else {
		use = 1;	/* the built-ins, and nothing to say */
	}
	if (!use && note) {
		struct strbuf where = STRBUF_INIT, v = STRBUF_INIT;
		sanitize(&where, env, strlen(env));
		sanitize(&v, ver.buf, ver.len);
		if (ver.len)
			sb_addf(note, _("%s%s: the data of plogtop %s, not of "
				"this plogtop %s: not read; the built-in data "
				"is used"), prefix, where.buf, v.buf,
				PACKAGE_VERSION);
		else
			sb_addf(note, _("%s%s: the data of an older plogtop "
				"(no VERSION file), not of this plogtop %s: "
				"not read; the built-in data is used"), prefix,
				where.buf, PACKAGE_VERSION);
		sb_free(&where);
		sb_free(&v);
	}
	sb_free(&ver);
	return dir->len > 0;
}

static const struct builtin_file *builtin_find(const char *rel)
{
	for (const struct builtin_file *b = builtin_files; b->name; b++)
		if (strcmp(b->name, rel) == 0)
			return b;
	return NULL;
}

int datadir_read(const char *rel, const char *what, size_t max,
		 struct strbuf *name, struct strbuf *text, struct strbuf *err)
{
	struct strbuf dir = STRBUF_INIT;
	int rc = 0;

	sb_reset(err);
	if (choose(&dir, NULL)) {
		sb_addf(name, "%s/%s", dir.buf, rel);
		rc = read_data_file(name->buf, what, max, text, err);
	} else {
		const struct builtin_file *b = builtin_find(rel);
		sb_addf(name, _("built-in %s"), rel);
		if (b) {
			sb_add(text, b->data, b->len);
		} else {
			sb_addf(err, "%s: %s", name->buf, strerror(ENOENT));
			rc = -1;
		}
	}
	sb_free(&dir);
	return rc;
}

void datadir_origin(const char *rel, struct strbuf *out)
{
	struct strbuf dir = STRBUF_INIT;

	if (choose(&dir, NULL))
		sb_addf(out, "%s/%s", dir.buf, rel);
	else
		sb_addf(out, _("built-in (plogtop %s)"), PACKAGE_VERSION);
	sb_free(&dir);
}

int datadir_note(struct strbuf *out)
{
	struct strbuf dir = STRBUF_INIT;
	size_t was = out->len;

	choose(&dir, out);
	sb_free(&dir);
	return out->len > was;
}

void datadir_localedir(struct strbuf *out)
{
	/* The build tree's locale/ is made by `make` from po/LL.po. */
	if (running_from_build_tree())
		sb_addf(out, "%s/locale", ABS_TOP_BUILDDIR);
	else
		sb_adds(out, LOCALEDIR);
}
