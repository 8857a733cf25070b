#include "config.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "datadir.h"

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

void datadir_path(struct strbuf *out, const char *rel)
{
	const char *env = getenv("PLOGTOP_DATADIR");

	if (env && *env)
		sb_addf(out, "%s/%s", env, rel);
	else if (running_from_build_tree())
		sb_addf(out, "%s/%s", ABS_TOP_SRCDIR, rel);
	else
		sb_addf(out, "%s/%s", PKGDATADIR, rel);
}

void datadir_localedir(struct strbuf *out)
{
	/* The build tree's locale/ is made by `make` from po/LL.po. */
	if (running_from_build_tree())
		sb_addf(out, "%s/locale", ABS_TOP_BUILDDIR);
	else
		sb_adds(out, LOCALEDIR);
}
