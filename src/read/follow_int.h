/* The follower's inside (private to the follow*.c files).  It is built
 * in layers, each a file with its own part of struct follower, and each
 * calls only the layers below it (and reads their parts, never writes
 * them but through their functions; what they all share is in the first
 * fields of struct follower):
 *
 *   follow.c          the public API (follow.h): set-up, the event loop's
 *                     turn, timeouts, the end; the classifier's callbacks
 *   follow_roots.c    what the command line names: follower_add
 *   follow_history.c  the history, read in one order (hs)
 *   follow_events.c   what directories say: inotify's events, polling
 *   follow_dirs.c     finding files: directories and their watches, roots
 *                     still to come, files named alone (ds)
 *   follow_read.c     reading files as they grow, and standard input (rd)
 *   follow_packed.c   compressed files and archives, read once, whole
 *   follow_resume.c   resume points, and files gone that may come back (gs)
 *   follow_tailtab.c  the table of followed files by path (tt)
 *   follow_listing.c  --once: files listed before the start, with no tail
 *                     yet (ds.listed); dir/name (follow_join)
 *
 * A lower layer that must tell a higher one does so through a function
 * the top sets (rd.on_drop), as the classifier does through emit. */
#ifndef PLOGTOP_FOLLOW_INT_H
#define PLOGTOP_FOLLOW_INT_H

#include <string.h>

#include "classifier.h"
#include "follow.h"
#include "htab.h"
#include "tail.h"

#define TAIL_BUCKETS 16384
#define READ_BUF (256 * 1024)
/* What one read of a file or of standard input takes at most in live
 * modes before plogtop looks at its signals, keys and other files. */
#define READ_BUDGET (8ULL * 1024 * 1024)
/* Deeper trees are skipped, and said so: a link loop made of bind mounts
 * or a runaway job must not make plogtop recurse for ever. */
#define MAX_DEPTH 64

/* ---- follow_tailtab.c: every followed file, by path ---- */

struct tailnode {
	struct tail *t;
	struct tailnode *next;
};

struct tailtab {
	struct tailnode *bucket[TAIL_BUCKETS];
	struct tail **v;	/* in discovery order; t->slot is its index */
	size_t n, cap;
};

struct tail *tailtab_find(const struct tailtab *tt, const char *path);
void tailtab_insert(struct tailtab *tt, struct tail *t);
void tailtab_remove(struct tailtab *tt, struct tail *t);
/* Frees the tails marked let_go, the others keeping their order
 * (follower_flush gives what they hold back in it). */
void tailtab_sweep(struct tailtab *tt);
/* Frees the table and every tail in it. */
void tailtab_free(struct tailtab *tt);
struct follower;
/* A file that was read is counted once, for the root it came from (an
 * archive's members each as a file). */
void follow_count_read(struct follower *fw, struct tail *t);

/* ---- follow_resume.c ---- */

struct goneset {
	/* Files dropped (deleted, or renamed: a rotation), in case they
	 * turn up under another name. */
	struct gone *v;
	size_t n;
};

struct follower;

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
/* A fact about to be given: 1 when its line's facts were given before a
 * restart (dropped), else its line is noted. */
int follow_fact_before(struct follower *fw, const struct fact *f);

/* ---- follow_read.c ---- */

struct taillist {
	struct tail **v;
	size_t n, cap;
};

struct reading {
	struct taillist dirty;	/* modified in this batch of events */
	struct taillist backlog;	/* more to read than one budget */
	struct taillist pending;	/* holding back a record or a line */
	struct tail *stdin_tail;
	int stdin_flags;	/* as they were, restored at the end */
	/* Told of a tail about to be freed (the history forgets it). */
	void (*on_drop)(struct follower *fw, struct tail *t);
	size_t nlet_go;		/* tails marked let_go, not yet swept */
};

/* unwatched: its directory has no inotify watch (it is polled). */
struct tail *follow_add_tail(struct follower *fw, const char *path,
			     size_t root, int unwatched);
/* The same, for a path that stays alive as long as the tail without this
 * model's interning it (a plan's, interned in the planner's model). */
struct tail *follow_add_tail_kept(struct follower *fw, const char *path,
				  size_t root, int unwatched);
/* regular: the directory listing said it is a regular file.  Returns
 * its tail, or NULL (gone already). */
struct tail *follow_file_seen(struct follower *fw, const char *path,
			      size_t root, int regular, int unwatched,
			      unsigned long long now);
void follow_read_tail(struct follower *fw, struct tail *t,
		      unsigned long long now);
void follow_drop_tail(struct follower *fw, struct tail *t);
/* --once: a file read to its end, holding nothing back, is never read
 * again: its tail and buffers go (swept in batches).  Its path stays
 * interned: incidents and open chains point at it.  Returns 1 if so. */
int follow_let_go(struct follower *fw, struct tail *t);
void follow_mark_dirty(struct follower *fw, struct tail *t);
void follow_read_dirty(struct follower *fw, unsigned long long now);
void follow_read_backlog(struct follower *fw, unsigned long long now);
/* Standard input, named as root. */
void follow_open_stdin(struct follower *fw, size_t root);
void follow_read_stdin(struct follower *fw, unsigned long long now);
/* Records and last lines whose writer has gone quiet are given out. */
void follow_flush_quiet(struct follower *fw, unsigned long long now);
/* Whether t holds something back (a record, a line being written), and
 * whether that may still continue a chain. */
int follow_holding(const struct tail *t);
int follow_held(const struct follower *fw, const struct tail *t,
		unsigned long long now);
/* How long a chain of t that has its trailer waits after its last line
 * (classifier_set_settle): > 0 when t's writer writes whole lines. */
unsigned follow_settle(const struct tail *t);
/* When the next record or line held back is due (0: none). */
unsigned long long follow_read_due(const struct follower *fw,
				   unsigned long long now);
void follow_free_reading(struct follower *fw);

/* ---- follow_packed.c ---- */

/* A file whose first bytes said it is compressed or an archive
 * (t->packed): read whole, once, a budget at a time (t->more). */
void follow_read_packed(struct follower *fw, struct tail *t,
			unsigned long long now);
/* Before the history is ordered: X.gz (.xz, .zst) beside X is skipped. */
void follow_skip_copies(struct follower *fw);

/* ---- follow_dirs.c ---- */

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
	size_t slot;		/* its index in follower.ds.v */
	struct dir *by_path, *by_wd;	/* next in its hash buckets */
};

#define DIR_BUCKETS 4096

/* --once's listing (ds.listed): a file with no tail until its turn. */
struct listed {
	const char *name;	/* in the listing's names */
	const char *dir;	/* its directory's path (the dir's); NULL:
				 * name is its path (a plan's) */
	unsigned long long size;	/* when it was listed */
	size_t root;
};

struct named {
	char *path;
	size_t root;
};

struct dirset {
	struct dir **v;		/* pointers: a dir stays put as more are added */
	size_t n, cap;
	struct dir *by_path[DIR_BUCKETS];
	struct dir *by_wd[DIR_BUCKETS];
	struct named *waiting;	/* roots that do not exist yet */
	size_t nwaiting;
	struct named *single;	/* files named on the command line */
	size_t nsingle;
	size_t nwatches;
	size_t nunwatched;	/* live directories inotify does not cover */
	int warned_watches, warned_remote;
	/* --once: regular files listed in a tree, with no tail until their
	 * turn in the history (follow_list_file). */
	struct listed *listed;
	size_t nlisted, caplisted;
	struct name_block *names;	/* their names, end to end */
};

#define WATCH_MASK (IN_CREATE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | \
		    IN_MOVED_FROM | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF | \
		    IN_ATTRIB | IN_ONLYDIR)

/* --once, before the start: whether a tree's regular file named name is
 * listed without a tail (not when it may be a compressed copy, an
 * archive, or a file with a resume point). */
int follow_may_list(const struct follower *fw, const char *name);
/* Lists it (in the directory dir, alive until the follower ends, with
 * its root and size). */
void follow_list_file(struct follower *fw, const char *dir,
		      const char *name, size_t root, unsigned long long size);
/* A file named alone that the listing holds: taken out of it (into
 * out), to be a tail as it would have been (1); else 0. */
int follow_unlist(struct follower *fw, const char *path, struct listed *out);
/* Every listed file's path written from at on, in the listing's order
 * (the end returned); each is then the path of its listed (dir NULL),
 * and the names copied go.  For follower_plan. */
char *follow_listed_to_plan(struct follower *fw, char *at);
/* A listed file's path, made in sb (or its plan's). */
const char *follow_listed_path(const struct listed *l, struct strbuf *sb);
/* Its room cut to what it holds (at the start: no more are listed). */
void follow_fit_listing(struct follower *fw);
/* The listing goes (its files read, or made tails). */
void follow_free_listing(struct follower *fw);

/* The directory part of path ("." or "/" at the top). */
char *follow_dir_of(const char *path);
/* dir/name, or name alone in ".": the one spelling of a path. */
void follow_join(struct strbuf *out, const char *dir, const char *name);
struct dir *follow_find_dir(struct follower *fw, const char *path);
void follow_add_dir(struct follower *fw, const char *path, size_t root,
		    unsigned long long now, int depth);
/* A file named on the command line, there at the start or later. */
void follow_add_single(struct follower *fw, const char *path, size_t root,
		       unsigned long long now);
/* Whether path's directory has no watch: its files are polled. */
int follow_unwatched(struct follower *fw, const char *path);
void follow_wait_for(struct follower *fw, const char *path, size_t root);
void follow_check_waiting(struct follower *fw, unsigned long long now);
void follow_free_dirs(struct follower *fw);
/* For follow_events.c: */
struct dir *follow_find_dir_wd(struct follower *fw, int wd);
/* Lists d: every file in it is seen, every directory added. */
void follow_scan_dir(struct follower *fw, struct dir *d,
		     unsigned long long now);
/* Whether d's files are read (not a waiter's, not a skipped one's). */
int follow_dir_listed(const struct dir *d);
/* d and everything under it are no longer followed. */
void follow_forget_dir(struct follower *fw, struct dir *d);
int follow_is_named(const struct follower *fw, const char *path);
struct tail *follow_seen_file(struct follower *fw, const char *path,
			      size_t root, int regular,
			      unsigned long long now);

/* ---- follow_events.c ---- */

void follow_read_events(struct follower *fw, unsigned long long now);
void follow_poll_dirs(struct follower *fw, unsigned long long now);
/* Whether anything is found by polling: directories without a watch,
 * or roots waited for without inotify. */
int follow_polling(const struct follower *fw);

/* ---- follow_history.c ---- */

/* A planned file's tail is made at its turn (its plan_file's path and
 * root): a share of a plan of 200,000 files holds no tail for those not
 * being read, nor a copy of its entries. */
struct order {
	struct tail *t;
	union {		/* or the file to open: */
		const struct plan_file *p;	/* planned (plan_step) */
		const struct listed *l;		/* listed (listed 1) */
	};
	const char *stream;	/* files of one stream share it (hs.keys) */
	unsigned long long stamp;
	int captured;		/* not of the plog family: read after */
	unsigned char listed;
};

struct history {
	struct order *v;	/* files whose history is still to read */
	size_t n, pos;
	unsigned long long bytes;
	/* Another follower's plan (follower_add_plan): the files of it
	 * whose stream owner[] gives to me, read in its order, not sorted
	 * again (a reading thread's share of --once's plan must keep its
	 * order).  The planner's, alive while this reads. */
	const struct plan_file *plan;
	size_t nplan, me;
	const size_t *owner;
	size_t stream_at;	/* the stream being read, + 1 (0: none) */
	/* The streams' keys (order.stream), one copy of each. */
	struct htab keys;
};

/* A planned or listed file's path, its tail made or not (a listed
 * file's is made in sb), and its name. */
static inline const char *order_path(const struct order *o,
				     struct strbuf *sb)
{
	return o->t ? o->t->path : o->listed ? follow_listed_path(o->l, sb)
		     : o->p->path;
}

static inline const char *order_name(const struct order *o)
{
	if (!o->t && o->listed)
		return o->l->name;
	const char *p = order_path(o, NULL), *b = strrchr(p, '/');
	return b ? b + 1 : p;
}

/* A tail about to be freed: no longer in the history (rd.on_drop). */
void follow_history_forget(struct follower *fw, struct tail *t);
/* follow_copies.c: the streams that are copies of each other next to
 * each other in the plan v (n files, stream by stream), the fullest
 * first. */
void follow_group_copies(struct follower *fw, struct order *v, size_t n);
void follow_free_history(struct follower *fw);

/* ---- the follower ---- */

struct follower {
	/* Every layer's: set up by follower_new. */
	struct ruleset *rs;
	struct model *m;
	struct classifier *cl;
	struct follow_opts o;
	int ifd;		/* inotify, or -1 */
	char *buf;		/* READ_BUF, for every read */
	/* --once: the directory of the last file read, open (O_PATH), so
	 * that the next file of it, most often the next one read, is
	 * opened by its name (follow_read.c's once_dir).  fd -1: none. */
	struct {
		char *path;
		size_t len;
		int fd;
	} lastdir;
	unsigned partial_ms;	/* PARTIAL_LIMIT_MS, or the tests' value */
	int started;		/* follower_start was called */
	unsigned long long next_poll;	/* when polling is due */
	unsigned long long generation;
	/* Each layer's own. */
	struct tailtab tt;
	struct goneset gs;
	struct reading rd;
	struct dirset ds;
	struct history hs;
};

#endif
