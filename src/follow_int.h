/* What the follower's two halves share: follow.c reads files (the
 * history in one order, then what they gain), follow_dirs.c finds them
 * (directories, inotify, polling, roots still to come).  Private. */
#ifndef PLOGTOP_FOLLOW_INT_H
#define PLOGTOP_FOLLOW_INT_H

#include "classifier.h"
#include "follow.h"
#include "tail.h"

#define TAIL_BUCKETS 16384
#define READ_BUF (256 * 1024)
/* What one read of a file or of standard input takes at most in live
 * modes before plogtop looks at its signals, keys and other files. */
#define READ_BUDGET (8ULL * 1024 * 1024)
/* Deeper trees are skipped, and said so: a link loop made of bind mounts
 * or a runaway job must not make plogtop recurse for ever. */
#define MAX_DEPTH 64

struct tailnode {
	struct tail *t;
	struct tailnode *next;
};

enum dir_kind {
	DIR_TREE,	/* part of a followed tree: everything in it counts */
	DIR_WAITER,	/* the nearest parent of a root not there yet */
	DIR_SINGLE,	/* holds a file named on the command line, only */
	DIR_SKIPPED,	/* too deep: known so that it is said once */
};

struct dir {
	char *path;
	int wd;			/* -1: polled (or not watched at all) */
	enum dir_kind kind;
	size_t root;		/* the root it was found under */
	int depth;		/* below its root */
	int unreadable;		/* said once; listed again when readable */
	size_t slot;		/* its index in follower.dirs */
	struct dir *by_path, *by_wd;	/* next in its hash buckets */
};

#define DIR_BUCKETS 4096

struct order {
	struct tail *t;
	char *stream;		/* files of one stream share it */
	unsigned long long stamp;
};

struct named {
	char *path;
	size_t root;
};

struct taillist {
	struct tail **v;
	size_t n, cap;
};

struct follower {
	struct ruleset *rs;
	struct model *m;
	struct classifier *cl;
	struct follow_opts o;
	int ifd;
	char *buf;
	struct tailnode *bucket[TAIL_BUCKETS];
	struct tail **tails;	/* every followed file, in discovery order */
	size_t ntails, captails;
	struct dir **dirs;	/* pointers: a dir stays put as more are added */
	size_t ndirs, capdirs;
	struct dir *dir_by_path[DIR_BUCKETS];
	struct dir *dir_by_wd[DIR_BUCKETS];
	struct named *waiting;	/* roots that do not exist yet */
	size_t nwaiting;
	struct named *single;	/* files named on the command line */
	size_t nsingle;
	struct tail *stdin_tail;
	int stdin_flags;	/* as they were, restored at the end */
	size_t nwatches;
	size_t nunwatched;	/* live directories inotify does not cover */
	int warned_watches, warned_remote, warned_poll;
	unsigned long long next_poll;
	unsigned long long generation;
	int started;
	struct taillist dirty;	/* modified in this batch of events */
	struct taillist backlog;	/* more to read than one budget */
	struct taillist pending;	/* holding back a record or a line */
	/* Files dropped (deleted, or renamed: a rotation), in case they turn
	 * up under another name (follow_resume.c). */
	struct gone *gone;
	size_t ngone;
	struct order *hist;	/* files whose history is still to read */
	size_t nhist, hpos;
	unsigned long long hist_bytes;
	unsigned partial_ms;	/* PARTIAL_LIMIT_MS, or the tests' value */
};

/* follow.c */
char *follow_dir_of(const char *path);
struct tail *follow_add_tail(struct follower *fw, const char *path,
			     size_t root);
/* dir/name, or name alone in ".": the one spelling of a path. */
void follow_join(struct strbuf *out, const char *dir, const char *name);
void follow_say(const struct follower *fw, const char *path,
		const char *why);
struct tail *follow_find_tail(struct follower *fw, const char *path);
/* regular: the directory listing said it is a regular file.  Returns
 * its tail, or NULL (gone already). */
struct tail *follow_file_seen(struct follower *fw, const char *path,
			      size_t root, int regular,
			      unsigned long long now);
void follow_read_tail(struct follower *fw, struct tail *t,
		      unsigned long long now);
void follow_drop_tail(struct follower *fw, struct tail *t);
void follow_mark_dirty(struct follower *fw, struct tail *t);
void follow_read_dirty(struct follower *fw, unsigned long long now);
int follow_is_named_file(const struct follower *fw, const char *path);
void follow_count_read(struct follower *fw, struct tail *t);

/* follow_roots.c */
void follow_add_single(struct follower *fw, const char *path, size_t root,
		       unsigned long long now);

/* follow_resume.c */
/* A tail about to be dropped: remembered a while, so that the same file
 * found under another name (a rotation by rename) goes on where it was. */
void follow_note_gone(struct follower *fw, const struct tail *t);
void follow_free_gone(struct follower *fw);
/* --once with resume points, before chains are closed at the end of a
 * stream: a chain still waiting for its API boundary in a file written
 * to in the last RESUME_HOLD_MS is left to the next run (it is being
 * written), which reads it whole from its first line. */
#define RESUME_HOLD_MS 10000
void follow_hold_recent(struct follower *fw);
/* A file found: starts it at its resume point, if it has one (1). */
int follow_resume_tail(struct follower *fw, struct tail *t);
/* An incident about to be given out: 1 when it was before a restart (it
 * is then dropped), else it is noted as given. */
int follow_given_before(struct follower *fw, const struct incident *inc);

/* follow_history.c */
void follow_free_history(struct follower *fw);

/* follow_dirs.c */
struct dir *follow_find_dir(struct follower *fw, const char *path);
struct dir *follow_new_dir(struct follower *fw, const char *path,
			   enum dir_kind kind, size_t root);
void follow_add_dir(struct follower *fw, const char *path, size_t root,
		    unsigned long long now, int depth);
void follow_wait_for(struct follower *fw, const char *path, size_t root);
void follow_check_waiting(struct follower *fw, unsigned long long now);
void follow_read_events(struct follower *fw, unsigned long long now);
void follow_poll_dirs(struct follower *fw, unsigned long long now);
/* Whether anything is found by polling: directories without a watch,
 * or roots waited for without inotify. */
int follow_polling(const struct follower *fw);
void follow_free_dirs(struct follower *fw);

#endif
