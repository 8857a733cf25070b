#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "scan.h"
#include "xalloc.h"

struct found {
	char *path;
	size_t root;		/* index of the root it was found under */
	char *group;		/* the files of one process share a group */
	unsigned long long stamp;
};

struct found_list {
	struct found *v;
	size_t n, cap;
};

static void problem(struct engine *e, const char *path, int err)
{
	const char *msg = err == EILSEQ ? "binary file, skipped"
					: strerror(err);

	fprintf(stderr, "plogtop: %s: %s\n", path, msg);
	model_problem(e->model, path, "%s", msg);
}

static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? xstrndup(path, (size_t)(slash - path)) : xstrdup(".");
}

/* Files of one process: same pid in the name under the same root (the
 * run/ and debug/ trees of a process meet here).  Names without a pid
 * (plog_<stamp>.log, host-0_<stamp>.log) group by directory. */
static char *group_of(const char *path, long pid)
{
	const char *base = strrchr(path, '/');
	struct strbuf sb = STRBUF_INIT;

	base = base ? base + 1 : path;
	if (pid && strncmp(base, "host-", 5) != 0) {
		sb_addf(&sb, "%.*s%ld", (int)strcspn(base, "-"), base, pid);
	} else {
		char *dir = dir_of(path);
		sb_addf(&sb, "%s/%.*s", dir, (int)strcspn(base, "_"), base);
		free(dir);
	}
	return sb_detach(&sb);
}

static void add_found(struct found_list *l, const char *path, size_t root)
{
	long pid;
	unsigned long long stamp;

	plog_name_parts(path, &pid, &stamp);
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 64;
		l->v = xrealloc(l->v, l->cap * sizeof *l->v);
	}
	l->v[l->n++] = (struct found){
		xstrdup(path), root, group_of(path, pid), stamp
	};
}

static void walk(struct engine *e, const char *dir, size_t root,
		 struct found_list *l, int depth)
{
	DIR *d = opendir(dir);

	if (!d) {
		problem(e, dir, errno);
		return;
	}
	struct dirent *de;
	errno = 0;
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		struct strbuf path = STRBUF_INIT;
		sb_addf(&path, "%s/%s", dir, de->d_name);
		struct stat st;
		/* Links to directories are not followed: they can loop. */
		if (lstat(path.buf, &st) < 0) {
			problem(e, path.buf, errno);
		} else if (S_ISDIR(st.st_mode)) {
			if (depth < 64)
				walk(e, path.buf, root, l, depth + 1);
		} else if (file_kind_of(path.buf) == FILE_PLOG &&
			   (S_ISREG(st.st_mode) ||
			    (S_ISLNK(st.st_mode) && stat(path.buf, &st) == 0 &&
			     S_ISREG(st.st_mode)))) {
			add_found(l, path.buf, root);
		}
		sb_free(&path);
		errno = 0;
	}
	if (errno)
		problem(e, dir, errno);
	closedir(d);
}

static int found_cmp(const void *a, const void *b)
{
	const struct found *x = a, *y = b;

	if (x->root != y->root)
		return x->root < y->root ? -1 : 1;
	int c = strcmp(x->group, y->group);
	if (c)
		return c;
	if (x->stamp != y->stamp)
		return x->stamp < y->stamp ? -1 : 1;
	return strcmp(x->path, y->path);
}

static void read_tree(struct engine *e, struct found_list *l)
{
	if (l->n)
		qsort(l->v, l->n, sizeof *l->v, found_cmp);
	for (size_t i = 0; i < l->n; i++) {
		if (i > 0 && (l->v[i].root != l->v[i - 1].root ||
			      strcmp(l->v[i].group, l->v[i - 1].group) != 0))
			engine_end_group(e);
		if (engine_read_path(e, l->v[i].path, FILE_PLOG, 0) < 0)
			problem(e, l->v[i].path, errno);
	}
	engine_end_group(e);
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].path);
		free(l->v[i].group);
	}
	free(l->v);
	memset(l, 0, sizeof *l);
}

static int read_named_file(struct engine *e, const char *path,
			   struct strbuf *err)
{
	int rc = engine_read_path(e, path, file_kind_of(path), 1);

	engine_end_group(e);
	if (rc == -2) {
		problem(e, path, EILSEQ);
		return 0;
	}
	if (rc < 0) {
		sb_addf(err, "%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

int scan_paths(struct engine *e, char *const *paths, size_t n,
	       struct strbuf *err)
{
	struct found_list l = { 0 };

	for (size_t i = 0; i < n; i++) {
		struct stat st;
		model_add_root(e->model, paths[i]);
		if (strcmp(paths[i], "-") == 0) {
			if (read_named_file(e, "-", err) < 0)
				return -1;
			continue;
		}
		if (stat(paths[i], &st) < 0) {
			sb_addf(err, "%s: %s", paths[i], strerror(errno));
			return -1;
		}
		if (!S_ISDIR(st.st_mode)) {
			if (read_named_file(e, paths[i], err) < 0)
				return -1;
			continue;
		}
		walk(e, paths[i], i, &l, 0);
	}
	read_tree(e, &l);
	return 0;
}
