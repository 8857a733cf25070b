/* What is followed: the paths named on the command line (a directory,
 * a file, standard input, or a root still to come), in one spelling. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "follow_int.h"
#include "i18n.h"
#include "xalloc.h"

/* One spelling per file, whatever the user typed: events name files as
 * the directory's path joined with the name, so "./job.out", "job.out"
 * and "logs//x/" must become what a join gives. */
static char *clean_path(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p = path;

	while (p[0] == '.' && p[1] == '/') {
		p += 2;
		while (*p == '/')
			p++;
	}
	for (; *p; p++)
		if (!(*p == '/' && (p[1] == '/' || (p[1] == '\0' &&
						     sb.len > 0))))
			sb_addc(&sb, *p);
	if (!sb.len)
		sb_adds(&sb, path[0] == '/' ? "/" : ".");
	return sb_detach(&sb);
}

void follow_join(struct strbuf *out, const char *dir, const char *name)
{
	if (strcmp(dir, ".") != 0) {
		sb_adds(out, dir);
		if (out->len && out->buf[out->len - 1] != '/')
			sb_addc(out, '/');
	}
	sb_adds(out, name);
}

/* A file named on the command line, there at the start or later: its
 * directory is watched for it (a directory watched only while waiting
 * for it now reports its changes). */
void follow_add_single(struct follower *fw, const char *p, size_t root,
		       unsigned long long now)
{
	if (!follow_is_named_file(fw, p)) {
		fw->single = xrealloc(fw->single,
				      (fw->nsingle + 1) * sizeof *fw->single);
		fw->single[fw->nsingle++] = (struct named){ xstrdup(p), root };
	}
	char *parent = follow_dir_of(p);
	struct dir *d = follow_find_dir(fw, parent);
	if (!d)
		follow_new_dir(fw, parent, DIR_SINGLE, root);
	else if (d->kind == DIR_WAITER)
		d->kind = DIR_SINGLE;
	free(parent);
	follow_file_seen(fw, p, root, 0, now);
}

void follower_add_planned(struct follower *fw, const char *path,
			  size_t root)
{
	if (!follow_find_tail(fw, path))
		follow_add_tail(fw, path, root);
}

int follower_add(struct follower *fw, const char *path, int may_wait,
		 struct strbuf *err)
{
	char *p = clean_path(path);
	struct stat sb;
	size_t root = fw->m->nroots;
	int rc = 0;

	model_add_root(fw->m, path);
	if (strcmp(p, "-") == 0) {
		fw->stdin_tail = tail_new(model_intern(fw->m, "-"), FILE_MIXED,
					  fw->rs, fw->cl);
		fw->stdin_tail->root = root;
		/* Non-blocking while followed, as it was when plogtop ends:
		 * the shell that ran it shares the file description. */
		fw->stdin_flags = fcntl(0, F_GETFL);
		if (!fw->o.once && fw->stdin_flags >= 0)
			fcntl(0, F_SETFL, fw->stdin_flags | O_NONBLOCK);
	} else if (stat(p, &sb) < 0) {
		if (may_wait && errno == ENOENT && !fw->o.once) {
			follow_say(fw, p, _("not there yet; waiting for it to appear"));
			follow_wait_for(fw, p, root);
		} else {
			sb_addf(err, "%s: %s", path, strerror(errno));
			rc = -1;
		}
	} else if (S_ISDIR(sb.st_mode)) {
		follow_add_dir(fw, p, root, 0, 0);
	} else {
		follow_add_single(fw, p, root, 0);
	}
	free(p);
	return rc;
}

