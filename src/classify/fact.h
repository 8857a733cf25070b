/* A fact: what a line says of its process that is not a failure: the
 * device it set, its rank, a create or a destroy of a resource, the
 * statistics ACL writes at aclFinalize.  Facts come from rules with a
 * "fact" key (rules/plogtop.rules, plogtop-rules(5)), are handed on like
 * incidents (classifier -> follower -> model_fact) and become the
 * model's identities and ledgers (src/model/ident.h).  A fact is small
 * and short-lived: its strings are the reader's until fact_dup. */
#ifndef PLOGTOP_FACT_H
#define PLOGTOP_FACT_H

#include "logtime.h"
#include "taxonomy.h"

/* Not said (a rank of -1 in torch_npu's RankID:-1 is not said too). */
#define FACT_UNSAID (-1L)

enum fact_kind {
	FACT_DEVICE,		/* the process set (or works on) device */
	FACT_RANK,		/* its rank (and dp/tp/ep indices) */
	FACT_CREATE,		/* "start to execute aclrtCreateX": an attempt */
	FACT_CREATED,		/* "successfully execute aclrtCreateX" */
	FACT_DESTROYED,		/* "aclrtDestroyX success" */
	FACT_STATISTICS,	/* TraverseStatistics at aclFinalize */
	FACT_KIND_COUNT
};

struct fact {
	const char *host;	/* NULL: local input (the model sets it) */
	long pid;		/* 0: not said */
	const char *name;	/* the process name as logged ("" if none) */
	long tid;
	logtime_t time;
	const char *file;	/* interned path of the line */
	unsigned long line;
	enum fact_kind kind;
	/* FACT_CREATE .. FACT_STATISTICS: RES_STREAM, RES_EVENT or
	 * RES_NOTIFY (a statistics type plogtop does not keep is no fact). */
	enum resource resource;
	long device;		/* FACT_DEVICE: the logged (logical) id */
	long rank, dp, tp, ep;	/* FACT_RANK; FACT_UNSAID where not said */
	/* FACT_STATISTICS: the line's four counters. */
	unsigned long long apply_total, apply_succ;
	unsigned long long release_total, release_succ;
};

/* The names of the kinds (the rules' "fact = " values). */
const char *fact_kind_name(enum fact_kind k);
/* FACT_KIND_COUNT when s names none. */
enum fact_kind fact_kind_from_name(const char *s);

/* A copy that owns its name (file stays interned: the reader's path);
 * fact_free frees it. */
struct fact *fact_dup(const struct fact *f);
void fact_free(struct fact *f);

#endif
