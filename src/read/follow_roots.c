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

int follower_add(struct follower *fw, const char *path, int may_wait,
		 struct strbuf *err)
{
	char *p = clean_path(path);
	struct stat sb;
	size_t root = fw->m->nroots;
	int rc = 0;

	model_add_root(fw->m, path);
	if (strcmp(p, "-") == 0) {
		follow_open_stdin(fw, root);
	} else if (stat(p, &sb) < 0) {
		if (may_wait && errno == ENOENT && !fw->o.once) {
			msglog_about(fw->o.log, p,
				     _("not there yet; waiting for it to "
				       "appear"));
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

