/* Time parsing: plog stamps (logtime_parse), --since arguments
 * (logtime_parse_since) and the whole command line (options_parse, argv
 * made of the input's lines).  A time that parses prints in ISO form
 * within LOGTIME_ISO_LEN. */
#include "config.h"

#include <fcntl.h>
#include <getopt.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "logtime.h"
#include "options.h"
#include "xalloc.h"

#define MAX_ARGS 16

static int quiet_fd = -1, saved_out = -1, saved_err = -1;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	quiet_fd = open("/dev/null", O_WRONLY);
	saved_out = dup(1);
	saved_err = dup(2);
	FUZZ_ASSERT(quiet_fd >= 0 && saved_out >= 0 && saved_err >= 0);
	return 0;
}

static void check_time(logtime_t t)
{
	char iso[LOGTIME_ISO_LEN];

	logtime_iso(t, iso);
	FUZZ_ASSERT(strlen(iso) < LOGTIME_ISO_LEN);
}

/* The command line: usage errors and --help go to /dev/null. */
static void parse_command_line(char *text)
{
	char *argv[MAX_ARGS + 2] = { "plogtop" };
	int argc = 1;
	struct options o;

	for (char *s = text; s && argc <= MAX_ARGS; argc++) {
		argv[argc] = s;
		s = strchr(s, '\n');
		if (s)
			*s++ = '\0';
	}
	argv[argc] = NULL;
	fflush(stdout);
	dup2(quiet_fd, 1);
	dup2(quiet_fd, 2);
	optind = 0;	/* glibc: start afresh */
	int rc = options_parse(&o, argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(saved_out, 1);
	dup2(saved_err, 2);
	FUZZ_ASSERT(rc >= 0 && rc <= 2);
	if (rc == 0 && o.since_arg)
		check_time(o.since);
	options_free(&o);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	logtime_t t, now = logtime_make(2026, 7, 13, 11, 39, 20, 982549);

	t = logtime_parse((const char *)data, size);
	check_time(t);
	if (memchr(data, '\0', size))
		return 0;
	char *arg = xstrndup((const char *)data, size);
	if (logtime_parse_since(arg, now, &t) == 0)
		check_time(t);
	parse_command_line(arg);
	free(arg);
	return 0;
}
