/* Following plog trees live: inotify on every directory (polling where
 * inotify cannot serve), each plog file read as it grows, chains closed
 * when they go quiet.  It feeds the same classifier and model as a
 * one-shot scan and knows nothing of how incidents are shown. */
#ifndef PLOGTOP_FOLLOW_H
#define PLOGTOP_FOLLOW_H

#include <stddef.h>

#include "fileid.h"
#include "incident.h"
#include "model.h"
#include "monoclock.h"
#include "msglog.h"
#include "rules.h"

/* Where to start a file again: its identity at the resume point, and the
 * first lines of the incidents already given out after it (chains that
 * closed while one that started before them was still open). */
struct resume_at {
	struct fileid id;
	const unsigned long *given;
	size_t ngiven;
	/* The facts of lines up to this one were given out (0: none after
	 * the point), not to be given again. */
	unsigned long facts_to;
};

struct follow_opts {
	int once;		/* read what is there now, then stop: no
				 * watches, no waiting, stdin to its end */
	int skip_history;	/* --since=now: start at the end of files */
	unsigned poll_ms;	/* > 0: poll everywhere, this often */
	size_t max_watches;	/* 0: as many as the kernel gives */
	/* Where status messages ("PATH: what happened") go; NULL: stderr
	 * at once (src/base/msglog.h). */
	struct msglog *log;
	/* A reader that splits the work between threads: incidents go to
	 * hand_over (which owns them) instead of the model (model_add),
	 * and on_stream_end is called when a stream of the history has
	 * ended, its chains closed. */
	void (*hand_over)(void *ctx, struct incident *inc);
	/* Facts (fact.h) likewise: without hand_over_fact they go to
	 * model_fact (host NULL); with it, a fact_dup'd copy the receiver
	 * owns, in the stream's order among its incidents.  --since does
	 * not filter facts: a device set before it still names the device
	 * of an incident after it. */
	void (*hand_over_fact)(void *ctx, struct fact *f);
	void (*on_stream_end)(void *ctx);
	void *ctx;
	/* Resume points (--state, --resume, cursor lines): asked of every
	 * file found; returns 1 with where to start in *at when that file
	 * was read before (see fileid.h for the rule), else 0.  Set it (to
	 * a function that may always say 0) whenever follower_positions
	 * will be asked: only then are the incidents given out after a
	 * point remembered. */
	int (*resume_for)(void *ctx, const char *path, struct resume_at *at);
	void *resume_ctx;
};

/* Where a followed file has been read to (the positions of the state file, plogtop(1) --state): every
 * incident whose lines lie wholly before id.offset has been given out,
 * and no chain still open has a line before it. */
struct position {
	const char *path;		/* interned in the model */
	struct fileid id;
	unsigned long long last_ms;	/* when its last bytes were read */
	/* The first lines of incidents given out after id.offset (valid
	 * until the follower is called again). */
	const unsigned long *given;
	size_t ngiven;
	/* The last line whose facts were given out (facts go out as their
	 * lines are read, before the point when a chain is open). */
	unsigned long facts_to;
};

/* At most this many incidents given out after a file's resume point are
 * remembered (the oldest are forgotten: counted again after a restart). */
#define RESUME_GIVEN_MAX 4096

/* One file of the history, for a reader that splits the work. */
struct plan_file {
	const char *path;	/* the plan's own, in one block of its paths
				 * (follower_free_plan), not in order */
	size_t root;
	size_t stream;		/* 0, 1, 2...: files of one stream share it */
	unsigned long long size;
};

struct follower;

/* Returns NULL with a message in err if inotify cannot be set up at all
 * (then --poll still works). */
struct follower *follower_new(struct ruleset *rs, struct model *m,
			      const struct follow_opts *o, struct strbuf *err);
void follower_free(struct follower *fw);

/* Adds a directory tree, a single file or "-" to follow.  A path that
 * does not exist yet is waited for when may_wait is set (not in a
 * one-shot read); else it is an error: -1, with a message in err.  Call
 * before follower_start. */
int follower_add(struct follower *fw, const char *path, int may_wait,
		 struct strbuf *err);

/* After follower_start: the history's files in reading order, made of
 * the history (fw reads nothing after it; follower_free_plan frees it).
 * Returns how many. */
size_t follower_plan(struct follower *fw, struct plan_file **out);
void follower_free_plan(struct plan_file *plan, size_t n);
/* What the plan holds, without making it: its streams and bytes. */
void follower_plan_totals(const struct follower *fw, size_t *nstreams,
			  unsigned long long *bytes);
/* Reads the files of another follower's plan (n of them, alive until fw
 * ends) whose stream owner[] gives to me, in the plan's order, with no
 * look at their directories.  Call before follower_start. */
void follower_add_plan(struct follower *fw, const struct plan_file *plan,
		       size_t n, const size_t *owner, size_t me);

/* Starts: the files found so far are the history (what they hold now),
 * to be read with follower_history_step unless told to skip it. */
void follower_start(struct follower *fw, unsigned long long now_ms);
/* Reads history for about budget_ms; returns 1 while some is left. */
int follower_history_step(struct follower *fw, unsigned budget_ms);
int follower_reading_history(const struct follower *fw);
void follower_history_progress(const struct follower *fw, size_t *files,
			       size_t *files_total,
			       unsigned long long *bytes,
			       unsigned long long *bytes_total);

/* How changes are found: "inotify", "polling", or "inotify+polling"
 * when some directories are polled (out of watches, remote mounts). */
const char *follower_how(const struct follower *fw);
/* The descriptor to wait on for reading (-1 when only polling). */
int follower_fd(const struct follower *fw);
/* Standard input's descriptor while it is followed, else -1. */
int follower_stdin_fd(const struct follower *fw);

/* Handles what the descriptors say and what the clock says is due. */
void follower_handle(struct follower *fw, int inotify_ready, int stdin_ready,
		     unsigned long long now_ms);

/* Milliseconds until follower_handle needs calling again (-1: never). */
int follower_timeout(const struct follower *fw, unsigned long long now_ms);

/* Whether there is nothing left that could ever change (only standard
 * input was followed, and it has ended). */
int follower_finished(const struct follower *fw);

/* Closes every open chain: plogtop is ending. */
void follower_flush(struct follower *fw);
/* Ending with a state: the open chains are left to the next run, which
 * reads them again from their first line; but a chain whose file is
 * gone (deleted by a log cleaner) cannot be read again, and is given out
 * as it stands. */
void follower_flush_gone(struct follower *fw);

/* Files read so far. */
size_t follower_files(const struct follower *fw);
/* Files followed now (read or not yet: --since=now), those skipped
 * (binary, compressed) left out: the prom file's plogtop_files_watched. */
size_t follower_watched(const struct follower *fw);
/* Whether no chain is open and no record or partial line held back:
 * every incident of what was read so far has been given out. */
int follower_settled(const struct follower *fw);
/* --exec's question, whether an incident is of the history: at the
 * history's end each file's lines read so far are noted; an incident
 * whose first line is among them is the history's (a chain the history
 * left open completes later).  Standard input has no history. */
void follower_mark_history_end(struct follower *fw);
int follower_of_history(const struct follower *fw, const char *file,
			unsigned long line);
/* Rule matches PCRE2 gave up on so far (its match, depth or heap limit). */
unsigned long follower_limit_hits(const struct follower *fw);
/* A counter that changes whenever something was read or found. */
unsigned long long follower_generation(const struct follower *fw);

/* The resume points of every file read so far (not standard input),
 * into *out (the caller frees it); returns how many. */
size_t follower_positions(struct follower *fw, struct position **out);

#endif
