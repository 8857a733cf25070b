#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "liveness.h"
#include "xalloc.h"

void liveness_free(struct liveness *l)
{
	free(l->pids);
	memset(l, 0, sizeof *l);
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

void liveness_refresh(struct liveness *l, unsigned long long now_ms)
{
	if (l->at_ms && now_ms < l->at_ms + LIVENESS_MS)
		return;
	l->at_ms = now_ms ? now_ms : 1;
	l->n = 0;
	/* Without /proc nothing is known to run: rows show "no", and quiet
	 * processes may be folded, as they would be once gone. */
	DIR *d = opendir("/proc");
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		if (l->n == l->cap) {
			l->cap = l->cap ? 2 * l->cap : 256;
			l->pids = xrealloc(l->pids, l->cap * sizeof *l->pids);
		}
		l->pids[l->n++] = strtol(e->d_name, NULL, 10);
	}
	closedir(d);
	qsort(l->pids, l->n, sizeof *l->pids, cmp_long);
}

int liveness_has(const struct liveness *l, long pid)
{
	return pid > 0 && l->n &&
	       bsearch(&pid, l->pids, l->n, sizeof *l->pids, cmp_long);
}

int liveness_same_program(long pid, const char *name)
{
	char path[64], comm[64] = "";

	if (pid <= 0)
		return 0;
	snprintf(path, sizeof path, "/proc/%ld/comm", pid);
	FILE *f = fopen(path, "re");
	if (!f)
		return 0;
	if (!fgets(comm, sizeof comm, f))
		comm[0] = '\0';
	fclose(f);
	comm[strcspn(comm, "\n")] = '\0';
	size_t n = strlen(comm) < strlen(name) ? strlen(comm) : strlen(name);
	return n > 0 && strncmp(comm, name, n) == 0;
}
