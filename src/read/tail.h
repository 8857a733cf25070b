/* One followed file: read by offset with pread, never kept open, and
 * known by (device, inode), so that a file replaced under the same name,
 * truncated, or truncated and rewritten past the old offset is read again
 * from its start, and nothing is counted twice. */
#ifndef PLOGTOP_TAIL_H
#define PLOGTOP_TAIL_H

#include <sys/types.h>

#include "classifier.h"
#include "codec.h"
#include "feeder.h"
#include "linesplit.h"
#include "model.h"

#define TAIL_HEAD 64	/* first bytes kept to notice a rewrite */

/* Where a chain given out lies in its file (tail.given). */
struct given_span {
	unsigned long long off;
	unsigned long end;
};

struct tail {
	const char *path;	/* interned in the model */
	enum file_kind kind;
	/* How its writer writes (follow_read.c; here, in the room kind
	 * leaves): cuts_lines, a read has found the end of what was written
	 * inside a line, so its writer writes pieces, not whole lines, and
	 * the rest of a call may be in its next piece; floods, its last read
	 * was of READ_BUF bytes or more (the CANN logger writes its buffer
	 * early when a process logs 768 KiB in less than 200 ms, and then its
	 * next write can come within tens of ms, with the rest of a call its
	 * last write cut). */
	unsigned char cuts_lines, floods;
	dev_t dev;
	ino_t ino;
	off_t offset;		/* bytes read so far */
	unsigned char head[TAIL_HEAD];
	size_t headlen;
	struct linesplit ls;
	/* Each file assembles its own records: its feeder is made when its
	 * first bytes are read (a planning follower reads none). */
	struct feeder *feeder;
	struct ruleset *rs;
	struct classifier *c;
	unsigned long long last_ms;	/* when its last bytes arrived */
	/* When the line without its newline yet began to arrive (0: none):
	 * a line written for ever (a progress bar that redraws itself with
	 * \r) must not hold the chains of its file for ever. */
	unsigned long long partial_since_ms;
	unsigned char stdin_eof;
	unsigned char in_history; /* waiting for its turn in the history */
	unsigned char unwatched; /* its directory is polled, not watched */
	unsigned char more; /* the last read stopped at its budget */
	unsigned char in_backlog; /* listed in the follower's backlog */
	unsigned char in_dirty, in_pending; /* and in its other lists */
	unsigned char let_go; /* --once: read, to be freed (follow_let_go) */
	size_t root;		/* index of the root it was found under */
	const char *skip_why;	/* not read, and why (NULL: read) */
	unsigned long truncated_seen;	/* of ls.truncated, in the stats */
	size_t slot;		/* its index in the follower's tails */
	/* --once: its size when its directory was listed, for the plan. */
	unsigned char scan_sized;
	unsigned char counted; /* counted as read from its root */
	unsigned long long scan_size;
	/* Resume points: the identity last taken of it (fileid.h), NULL
	 * until one is. */
	struct fileid *fid;
	/* First lines of incidents given out, kept while they lie after its
	 * resume point; and, resumed, those not to give out again. */
	unsigned long *given, *skip;
	/* By given: its first line's offset and last line (end 0: not
	 * known), so that a point does not cut a chain given out. */
	struct given_span *span;
	size_t ngiven, capgiven, nskip;
	/* Facts (fact.h) are given as their line is read, not when a chain
	 * closes: fact_line is the last line whose facts were given, and,
	 * resumed, the facts of lines up to fact_skip were given before the
	 * restart (a resume point before them: an open chain's first line)
	 * and are not given again. */
	unsigned long fact_line, fact_skip;
	/* Its lines read when the history ended (--exec's). */
	unsigned long history_lines;
	/* --once: a chain held for the next run starts here (held set). */
	unsigned char held;
	/* How long the file had not been written to (its mtime) when it
	 * was last read, in ms: a line without its newline in a file idle
	 * that long is finished, not being written. */
	unsigned long long idle_ms;
	unsigned long long hold_off;
	unsigned long hold_line;
	/* Compressed files and archives (follow_packed.c): may_pack, a file
	 * whose first bytes may say so (not standard input, not a member);
	 * packed, what they said; at_start, found before the follower
	 * started; packed_done, read whole (never again: such a file is
	 * finished); pk, the reading under way, freed by pk_free. */
	unsigned char may_pack, at_start, packed_done;
	enum packed packed;
	void *pk;
	void (*pk_free)(void *pk);
};

struct tail *tail_new(const char *path, enum file_kind kind,
		      struct ruleset *rs, struct classifier *c);
void tail_free(struct tail *t);

/* Reads what was appended since the last read into the classifier.
 * Returns the bytes read (0: nothing new), or -1 with errno set (ENOENT:
 * the file is gone).  now_ms stamps the data's arrival.  A file whose
 * first bytes are not text is not read: skip_why says why, and -1 is
 * returned with errno EILSEQ.  At most budget bytes are read: more
 * sets t->more, so that a large backlog is read in steps and plogtop
 * stays responsive.  dir, when not -1, is an open descriptor of the
 * file's directory: the file is opened by its name there, without a walk
 * of its whole path (a tenth of reading a tree of small files). */
long long tail_read(struct tail *t, int dir, char *buf, size_t size,
		    unsigned long long budget, struct scan_stats *st,
		    unsigned long long now_ms);

/* Feeds bytes that were read elsewhere (standard input, a decompressed
 * file); the first ones are checked as tail_read checks a file's.
 * Returns -1 (EILSEQ) when they are not text, or (may_pack) when they
 * are compressed: packed then says how, skip_why is NULL. */
int tail_feed(struct tail *t, const char *buf, size_t n,
	      struct scan_stats *st, unsigned long long now_ms);

/* Starts following at the current end: the past is not read. */
int tail_skip_to_end(struct tail *t);

/* Gives out an unfinished last line and the record being assembled: the
 * writer has been quiet for long enough. */
void tail_flush(struct tail *t);

/* Resume points (the promise: everything before them given out).  Where the
 * bytes the tail holds back start: the unfinished last line, the record
 * being assembled; else its offset.  line: lines before that offset. */
void tail_held_from(const struct tail *t, unsigned long long *off,
		    unsigned long *line);
/* Starts reading at a resume point: off bytes in, after line lines. */
int tail_start_at(struct tail *t, unsigned long long off, unsigned long line);

#endif
