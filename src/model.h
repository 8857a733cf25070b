/* The model every view renders: incidents, the processes they came from,
 * counts per class, and what the scan read.  It knows nothing of how it
 * is shown. */
#ifndef PLOGTOP_MODEL_H
#define PLOGTOP_MODEL_H

#include <stddef.h>

#include "incident.h"
#include "logtime.h"
#include "rules.h"

/* A class: code, resource and cause together. */
struct klass {
	enum code code;
	enum resource resource;
	enum cause cause;
};

struct class_count {
	struct klass k;
	size_t n;
};

struct process {
	size_t id;		/* 0, 1, 2... in the order processes were seen */
	long pid;
	char *name;
	size_t total;
	size_t by_resource[RES_COUNT];
	struct class_count *classes;
	size_t nclasses;
	logtime_t first, last;
	struct incident *latest;
};

struct problem {
	char *path;
	char *error;
};

/* A file found but not read, and why: binary, compressed, not a regular
 * file, too deep.  Only the first MODEL_LISTED are kept by name. */
struct skipped {
	char *path;
	const char *why;	/* a static string */
};

#define MODEL_LISTED 100

struct scan_stats {
	size_t files, lines;
	unsigned long long bytes;
	size_t truncated_lines;
	double seconds;
};

/* One section of a report: all incidents of a class. */
struct section {
	struct klass k;
	size_t n;
	struct incident *example;	/* keeps its raw lines */
	long *pids;			/* distinct processes hit */
	char **names;
	size_t nprocs;
};

struct model {
	struct incident **incidents;
	size_t n, cap;
	struct process **procs;
	size_t nprocs;
	struct section *sections;
	size_t nsections;
	struct problem *problems;
	size_t nproblems;
	char **files;		/* interned paths */
	size_t nfiles;
	char **roots;
	size_t *root_files;	/* files read from each root */
	size_t nroots;
	struct skipped *skipped;
	size_t nskipped_listed;
	size_t nskipped;	/* all of them, listed or not */
	struct scan_stats stats;
	logtime_t since;	/* LOGTIME_UNKNOWN: no filter */
	size_t filtered;	/* incidents left out by since */
};

void model_init(struct model *m);
void model_free(struct model *m);

const char *model_intern(struct model *m, const char *path);
void model_add_root(struct model *m, const char *root);
void model_problem(struct model *m, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

void model_skip(struct model *m, const char *path, const char *why);
/* Roots that nothing was read from. */
size_t model_roots_unread(const struct model *m);

/* Takes ownership of the incident. */
void model_add(struct model *m, struct incident *inc);

/* Puts incidents, processes and sections in their stable report order:
 * incidents by time then file and line; processes by incidents, most
 * first; sections by count. */
void model_sort(struct model *m);

size_t model_count(const struct model *m, enum code code);

#endif
