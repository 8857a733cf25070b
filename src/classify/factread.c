/* What a record says as facts (fact.h): the fact rules' matches, each
 * one fact, their captures its values.  Facts stand apart from chains:
 * nothing here opens, feeds or closes one.  Captures a fact rule may
 * give: device, rank, dp, tp, ep, apply_total, apply_succ,
 * release_total, release_succ, stat (the ACL_STATISTICS_ type, which
 * says the resource), pid and name (captured output, which has no
 * header). */
#include "config.h"

#include <string.h>

#include "chain.h"

/* The fact being read, and whether a rule matched for it. */
struct reading {
	struct classifier *c;
	const struct record *rec;
	struct fact f;
	int open;
	int said[2];		/* statistics: apply, release seen */
	char name[256];		/* a captured process name */
};

/* A number of at most 18 digits (a leading '-' allowed); -2 if the text
 * is none, so that "-1" (not said) and junk stay apart. */
static long long number(const char *s, size_t n)
{
	long long v = 0;
	int neg = n && s[0] == '-';
	size_t i = neg;

	if (i == n || n - i > 18)
		return -2;
	for (; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -2;
		v = v * 10 + (s[i] - '0');
	}
	return neg ? -v : v;
}

/* The resource of an ACL_STATISTICS_ type; RES_NONE for a type no
 * ledger keeps (handles, DVPP, RECORD_RESET_EVENT). */
static enum resource stat_resource(const char *s, size_t n)
{
	static const char STREAM[] = "ACL_STATISTICS_CREATE_DESTROY_STREAM";
	static const char EVENT[] = "ACL_STATISTICS_CREATE_DESTROY_EVENT";

	if (n == sizeof STREAM - 1 && memcmp(s, STREAM, n) == 0)
		return RES_STREAM;
	if (n == sizeof EVENT - 1 && memcmp(s, EVENT, n) == 0)
		return RES_EVENT;
	return RES_NONE;
}

static int ledger_resource_ok(enum resource r)
{
	return r == RES_STREAM || r == RES_EVENT || r == RES_NOTIFY;
}

/* Whether the fact says what its kind needs. */
static int complete(const struct reading *rd)
{
	const struct fact *f = &rd->f;

	switch (f->kind) {
	case FACT_DEVICE:
		return f->device >= 0;
	case FACT_RANK:
		return f->rank >= 0 || f->dp >= 0 || f->tp >= 0 || f->ep >= 0;
	case FACT_STATISTICS:
		return ledger_resource_ok(f->resource) && rd->said[0] &&
		       rd->said[1];
	default:
		return ledger_resource_ok(f->resource);
	}
}

static void note_file_device(struct classifier *c, const char *file,
			     long device)
{
	for (size_t i = 0; i < FILE_DEVICES; i++)
		if (c->devs[i].file == file) {
			c->devs[i].device = device;
			return;
		}
	c->devs[c->ndevs++ % FILE_DEVICES] = (struct file_device){
		file, device
	};
}

long fact_file_device(const struct classifier *c, const char *file)
{
	for (size_t i = 0; i < FILE_DEVICES; i++)
		if (c->devs[i].file && c->devs[i].file == file)
			return c->devs[i].device;
	return -1;
}

static void on_prefix(void *ctx, const char *name, const char *value,
		      size_t len)
{
	struct reading *rd = ctx;
	long long v;

	if (strcmp(name, "pid") == 0 && !rd->f.pid &&
	    (v = number(value, len)) > 0)
		rd->f.pid = (long)v;
	else if (strcmp(name, "name") == 0 && !rd->name[0]) {
		size_t n = len < sizeof rd->name - 1 ? len : sizeof rd->name - 1;
		memcpy(rd->name, value, n);
		rd->name[n] = '\0';
	}
}

/* The fact read so far goes out if it is whole.  Captured output names
 * its process only in a prefix, if at all: no pid, no fact (but its
 * device is still the file's). */
static void finish(struct reading *rd)
{
	struct classifier *c = rd->c;

	if (!rd->open)
		return;
	rd->open = 0;
	if (!complete(rd))
		return;
	if (rd->rec->level == LEVEL_SCREEN) {
		/* A device line that names no process (llama.cpp's) is the
		 * file's: one process writes that output.  One that names
		 * its pid (torch_npu's) is that process's only: the output
		 * of several ranks may be in one file. */
		if (rd->f.kind == FACT_DEVICE && !rd->f.pid)
			note_file_device(c, rd->rec->file, rd->f.device);
		if (!rd->f.pid)
			ruleset_prefix_process(c->rs, rd->rec->raw,
					       rd->rec->rawlen, on_prefix, rd);
		rd->f.name = rd->name;
		if (!rd->f.pid)
			return;
	}
	if (c->fact_emit)
		c->fact_emit(c->fact_ctx, &rd->f);
}

static void start(struct reading *rd, const struct rule_info *info)
{
	const struct record *rec = rd->rec;

	finish(rd);
	rd->f = (struct fact){
		.pid = rec->pid, .tid = rec->tid, .time = rec->time,
		.file = rec->file, .line = rec->line,
		.kind = (enum fact_kind)(info->fact - 1),
		.resource = info->resource,
		.device = FACT_UNSAID, .rank = FACT_UNSAID,
		.dp = FACT_UNSAID, .tp = FACT_UNSAID, .ep = FACT_UNSAID,
	};
	rd->said[0] = rd->said[1] = 0;
	rd->name[0] = '\0';
	if (rec->level != LEVEL_SCREEN) {
		size_t n = rec->namelen < sizeof rd->name - 1
			   ? rec->namelen : sizeof rd->name - 1;
		memcpy(rd->name, rec->name ? rec->name : "", n);
		rd->name[n] = '\0';
	}
	rd->f.name = rd->name;
	rd->open = 1;
}

static void on_rule(void *ctx, const struct rule_info *info)
{
	start(ctx, info);
}

static void set_count(struct reading *rd, unsigned long long *to,
		      long long v, int which)
{
	if (v < 0)
		return;
	*to = (unsigned long long)v;
	if (which >= 0)
		rd->said[which] = 1;
}

static void on_capture(void *ctx, const char *name, const char *value,
		       size_t len)
{
	struct reading *rd = ctx;
	struct fact *f = &rd->f;
	long long v = number(value, len);

	if (strcmp(name, "device") == 0)
		f->device = v >= 0 ? (long)v : FACT_UNSAID;
	else if (strcmp(name, "rank") == 0)
		f->rank = v >= 0 ? (long)v : FACT_UNSAID;
	else if (strcmp(name, "dp") == 0)
		f->dp = v >= 0 ? (long)v : FACT_UNSAID;
	else if (strcmp(name, "tp") == 0)
		f->tp = v >= 0 ? (long)v : FACT_UNSAID;
	else if (strcmp(name, "ep") == 0)
		f->ep = v >= 0 ? (long)v : FACT_UNSAID;
	else if (strcmp(name, "apply_total") == 0)
		set_count(rd, &f->apply_total, v, -1);
	else if (strcmp(name, "apply_succ") == 0)
		set_count(rd, &f->apply_succ, v, 0);
	else if (strcmp(name, "release_total") == 0)
		set_count(rd, &f->release_total, v, -1);
	else if (strcmp(name, "release_succ") == 0)
		set_count(rd, &f->release_succ, v, 1);
	else if (strcmp(name, "stat") == 0)
		f->resource = stat_resource(value, len);
	else if (strcmp(name, "pid") == 0 && rd->rec->level == LEVEL_SCREEN)
		f->pid = v > 0 ? (long)v : 0;
	else if (strcmp(name, "name") == 0 && rd->rec->level == LEVEL_SCREEN)
		on_prefix(rd, name, value, len);
}

void fact_read(struct classifier *c, const struct record *rec)
{
	struct reading rd = { .c = c, .rec = rec };

	/* Without a receiver only captured output's devices matter. */
	if (!c->fact_emit && rec->level != LEVEL_SCREEN)
		return;
	ruleset_match_facts(c->rs, rec->level, rec->module, rec->modulelen,
			    rec->text, rec->len, on_rule, on_capture, &rd);
	finish(&rd);
}
