/* The command line. */
#ifndef PLOGTOP_OPTIONS_H
#define PLOGTOP_OPTIONS_H

#include <stddef.h>

#include "logtime.h"

enum format { FORMAT_TEXT, FORMAT_JSON, FORMAT_NDJSON };
enum color { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER };

struct options {
	int once;
	int follow;
	const char *prom_file;
	unsigned poll_ms;	/* --poll: 0 = inotify where it works */
	size_t max_watches;
	size_t keep;		/* --keep: recent incidents per process */
	unsigned interval_ms;	/* --interval, default 1000 */
	unsigned prom_retry_ms;	/* --prom-retry, default 60000 */
	const char *theme;	/* --theme NAME or FILE */
	int demo;
	int want_colour;	/* the dashboard may use colour */
	enum format format;
	enum color color;
	char **rules;		/* --rules files, in order */
	size_t nrules;
	const char *since_arg;
	logtime_t since;
	int check_rules;
	char **paths;		/* PATH arguments, or the default root */
	size_t npaths;
	int default_root;	/* paths came from the environment */
	/* Hosts (HOST:[PATH], -H, --hosts): pairs of a host and a path on
	 * it ("" for its default root). */
	char **host_names, **host_paths;
	size_t nhostpaths;
	const char *ssh_cmd;		/* --ssh */
	const char *remote_cmd;		/* --remote-command */
	unsigned host_timeout_ms;	/* --host-timeout, default 120000 */
	int hello;			/* --hello: the stream's header */
	const char *state_file;		/* --state */
	const char *resume_file;	/* --resume: a cursor, "-": stdin */
	const char *job;		/* --job: local processes' job label */
	const char *npu_smi;		/* --npu-smi: NULL: npu-smi on PATH */
	const char *from_prometheus;	/* --from-prometheus: its URL */
	/* --listen=[ADDR]:PORT: serve /metrics; TLS and basic auth. */
	const char *listen, *listen_cert, *listen_key, *listen_auth;
	/* options_json.c: --no-fix, --exec=CMD, --exec-history. */
	int no_fix, exec_history;
	const char *exec_cmd;
	/* options_pathhost.c: --host-from-path, and the rule it makes. */
	const char *host_from_path;
	struct pathhost *path_hosts;
};

/* Parses argv.  Returns 0 to go on, 1 when --help or --version was
 * handled (exit 0), or 2 after printing a usage error. */
struct pathhost;
int options_parse(struct options *o, int argc, char **argv);
void options_free(struct options *o);

#endif
