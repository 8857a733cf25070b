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

/* Facts one record may give (one per matching fact rule); more are
 * dropped. */
#define FACTS_PER_RECORD 8

/* One fact being read. */
struct one {
	struct fact f;
	int said[2];		/* statistics: apply, release seen */
	char name[256];		/* the process name */
};

/* The facts of a record, finished once every rule has matched: finishing
 * one may run the prefix rules, whose matches would clobber the match
 * the fact rules' captures are still being read from. */
struct reading {
	struct classifier *c;
	const struct record *rec;
	struct one v[FACTS_PER_RECORD];
	size_t n;
	struct one *cur;	/* the one the captures go to, or NULL */
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
static int complete(const struct one *o)
{
	const struct fact *f = &o->f;

	switch (f->kind) {
	case FACT_DEVICE:
		return f->device >= 0;
	case FACT_RANK:
		return f->rank >= 0 || f->dp >= 0 || f->tp >= 0 || f->ep >= 0;
	case FACT_STATISTICS:
		return ledger_resource_ok(f->resource) && o->said[0] &&
		       o->said[1];
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
	struct one *o = ctx;
	long long v;

	if (strcmp(name, "pid") == 0 && !o->f.pid &&
	    (v = number(value, len)) > 0)
		o->f.pid = (long)v;
	else if (strcmp(name, "name") == 0 && !o->name[0]) {
		size_t n = len < sizeof o->name - 1 ? len : sizeof o->name - 1;
		memcpy(o->name, value, n);
		o->name[n] = '\0';
	}
}

/* A fact goes out if it is whole.  Captured output names its process
 * only in a prefix, if at all: no pid, no fact (but its device is still
 * the file's). */
static void finish(struct classifier *c, const struct record *rec,
		   struct one *o)
{
	if (!complete(o))
		return;
	if (rec->level == LEVEL_SCREEN) {
		/* A device line that names no process (llama.cpp's) is the
		 * file's: one process writes that output.  One that names
		 * its pid (torch_npu's) is that process's only: the output
		 * of several ranks may be in one file. */
		if (o->f.kind == FACT_DEVICE && !o->f.pid)
			note_file_device(c, rec->file, o->f.device);
		if (!o->f.pid)
			ruleset_prefix_process(c->rs, rec->raw, rec->rawlen,
					       on_prefix, o);
		if (!o->f.pid)
			return;
	}
	o->f.name = o->name;
	if (c->fact_emit)
		c->fact_emit(c->fact_ctx, &o->f);
}

static void start(struct reading *rd, const struct rule_info *info)
{
	const struct record *rec = rd->rec;

	if (rd->n == FACTS_PER_RECORD) {
		rd->cur = NULL;
		return;
	}
	struct one *o = rd->cur = &rd->v[rd->n++];
	o->f = (struct fact){
		.pid = rec->pid, .tid = rec->tid, .time = rec->time,
		.file = rec->file, .line = rec->line,
		.kind = (enum fact_kind)(info->fact - 1),
		.resource = info->resource,
		.device = FACT_UNSAID, .rank = FACT_UNSAID,
		.dp = FACT_UNSAID, .tp = FACT_UNSAID, .ep = FACT_UNSAID,
	};
	o->said[0] = o->said[1] = 0;
	o->name[0] = '\0';
	if (rec->level != LEVEL_SCREEN) {
		size_t n = rec->namelen < sizeof o->name - 1
			   ? rec->namelen : sizeof o->name - 1;
		memcpy(o->name, rec->name ? rec->name : "", n);
		o->name[n] = '\0';
	}
}

static void on_rule(void *ctx, const struct rule_info *info)
{
	start(ctx, info);
}

static void set_count(struct one *o, unsigned long long *to, long long v,
		      int which)
{
	if (v < 0)
		return;
	*to = (unsigned long long)v;
	if (which >= 0)
		o->said[which] = 1;
}

static void on_capture(void *ctx, const char *name, const char *value,
		       size_t len)
{
	struct reading *rd = ctx;
	struct one *o = rd->cur;
	if (!o)
		return;
	struct fact *f = &o->f;
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
		set_count(o, &f->apply_total, v, -1);
	else if (strcmp(name, "apply_succ") == 0)
		set_count(o, &f->apply_succ, v, 0);
	else if (strcmp(name, "release_total") == 0)
		set_count(o, &f->release_total, v, -1);
	else if (strcmp(name, "release_succ") == 0)
		set_count(o, &f->release_succ, v, 1);
	else if (strcmp(name, "stat") == 0)
		f->resource = stat_resource(value, len);
	else if (strcmp(name, "pid") == 0 && rd->rec->level == LEVEL_SCREEN)
		f->pid = v > 0 ? (long)v : 0;
	else if (strcmp(name, "name") == 0 && rd->rec->level == LEVEL_SCREEN)
		on_prefix(o, name, value, len);
}

void fact_read(struct classifier *c, const struct record *rec)
{
	struct reading rd;

	/* Without a receiver only captured output's devices matter. */
	if (!c->fact_emit && rec->level != LEVEL_SCREEN)
		return;
	rd.c = c;
	rd.rec = rec;
	rd.n = 0;
	rd.cur = NULL;
	ruleset_match_facts(c->rs, rec->level, rec->module, rec->modulelen,
			    rec->text, rec->len, on_rule, on_capture, &rd);
	for (size_t i = 0; i < rd.n; i++)
		finish(c, rec, &rd.v[i]);
}
