#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "logname.h"

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

static int digits(const char **p)
{
	const char *s = *p;

	while (**p >= '0' && **p <= '9')
		(*p)++;
	return *p > s;
}

/* plog-<pid>_<stamp>.log, device-<pid>_<stamp>.log, host-<n>_<stamp>.log
 * and the old plog_<stamp>.log.  Returns the length of the family part
 * (the name up to the stamp), 0 for any other name. */
static size_t parse_family_name(const char *base, long *pid,
				unsigned long long *stamp)
{
	static const char *const heads[] = { "plog-", "device-", "host-" };
	const char *p = base;

	*pid = 0;
	*stamp = 0;
	if (strncmp(p, "plog_", 5) == 0) {
		p += 5;
	} else {
		size_t i;
		for (i = 0; i < 3; i++)
			if (strncmp(p, heads[i], strlen(heads[i])) == 0)
				break;
		if (i == 3)
			return 0;
		p += strlen(heads[i]);
		const char *num = p;
		if (!digits(&p) || *p != '_')
			return 0;
		*pid = strtol(num, NULL, 10);
		p++;
	}
	size_t family = (size_t)(p - base);
	const char *num = p;
	if (!digits(&p) || strcmp(p, ".log") != 0) {
		*pid = 0;
		return 0;
	}
	*stamp = strtoull(num, NULL, 10);
	return family;
}

void logname_parse(const char *path, struct logname *ln)
{
	size_t family = parse_family_name(base_name(path), &ln->pid,
					  &ln->stamp);

	ln->kind = family ? FILE_PLOG : FILE_MIXED;
}

void logname_stream(struct strbuf *key, const char *path)
{
	const char *base = base_name(path);
	long pid;
	unsigned long long stamp;
	size_t family = parse_family_name(base, &pid, &stamp);

	/* The directory and the name up to the stamp: rotation changes
	 * only the stamp. */
	sb_add(key, path, (size_t)(base - path) + (family ? family
						   : strlen(base)));
}

enum file_kind file_kind_of(const char *path)
{
	struct logname ln;

	logname_parse(path, &ln);
	return ln.kind;
}

void plog_name_parts(const char *path, long *pid, unsigned long long *stamp)
{
	parse_family_name(base_name(path), pid, stamp);
}
