/* The inside of a classifier, shared by the two files that feed it,
 * classifier.c (plog chains) and screenblock.c (screen-print blocks),
 * and the files below them: chain.c (one chain), chain_facts.c,
 * chain_index.c.  Nothing else includes this. */
#ifndef PLOGTOP_CHAIN_H
#define PLOGTOP_CHAIN_H

#include <stddef.h>
#include <stdint.h>

#include "classifier.h"
#include "dlist.h"
#include "strbuf.h"

#define MAX_RAW 40		/* raw lines kept per incident */
#define MAX_LOCS 64		/* source locations remembered per chain */
/* Open chains before the stalest is closed.  Thousands of threads can
 * fail at once with their lines interleaved; closing a chain that is
 * still being written would split it, so the cap is far above that. */
#define MAX_OPEN 8192
#define MAX_EVIDENCE 16		/* evidence items one line may give */
#define MAX_RAW_BYTES 2048	/* of one raw line */
#define MAX_SEEN_BYTES 8192	/* of the text the rules saw of a line */
/* One failed call writes its chain within microseconds; lines of the same
 * thread a second apart belong to another call. */
#define CHAIN_GAP_USEC 1000000
/* A call that fails again at once (a retry loop) writes the same lines
 * again; when its text varies with each try (a counter, an address) the
 * repetition is not always seen.  However its lines arrive, a chain ends
 * at this many lines, or when a line comes this long (in log time) after
 * its first: far above any real chain (the longest seen has 10 lines,
 * written within milliseconds), so only a loop reaches them. */
#define CHAIN_MAX_LINES 128
#define CHAIN_SPAN_USEC 2000000

struct evidence {
	enum code code;
	enum resource resource;
	enum cause cause;
	int weight;
};

/* 32-bit offsets: one record's captures are far below 4 GiB (lines are
 * cut at the maximum line length), and open chains keep them per line. */
struct capture {
	uint32_t name, value, len;	/* offsets into facts.caps */
	int weight;
};

/* What the rules say of one record. */
struct facts {
	unsigned roles;
	struct evidence ev[MAX_EVIDENCE];
	int nev;
	int weight;		/* of the rule whose captures come next */
	struct strbuf caps;
	struct capture *cap;
	size_t ncap, capcap;
};

struct chain {
	int screen;
	unsigned long order;	/* when opened or last fed: the latest wins ties */
	long pid, tid;
	char *name;
	size_t namelen;		/* a name may hold a NUL byte */
	size_t slot;		/* its index in classifier.open */
	struct chain *hnext;	/* plog chains: next in its hash bucket */
	const char *file;	/* screen key */
	const char *lastfile;	/* where its last line came from */
	char *prefix;		/* screen key */
	unsigned long long tick;
	logtime_t last;
	int boundary, veto, heading, body;
	int trailer;		/* a line came after the API boundary */
	/* screen blocks (screenblock.c) */
	char hcode[8];		/* the code its heading printed, or "" */
	size_t prefixlen;	/* of the shape in prefix */
	size_t keep;		/* of that shape, what loose lines carry */
	int loose;		/* body lines carry less of the prefix */
	int own_body;		/* a body line came with the whole prefix */
	int blanks;		/* blank lines since the last line */
	int spaced;		/* double-spaced: a blank line after each */
	int headless;		/* a TraceBack whose heading was cut off */
	int call;		/* a line names the API call that failed */
	uint32_t *locs;		/* grown as needed, up to MAX_LOCS */
	size_t nlocs, caplocs;
	uint32_t lastloc;
	uint32_t lastshape;	/* of the last text with its numbers left out */
	int code_w[CODE_COUNT];
	enum resource res[CODE_COUNT];
	int res_w[CODE_COUNT];
	enum cause cause[CODE_COUNT];
	int cause_w[CODE_COUNT];
	int reported_w;
	struct incident *inc;
	/* What the rules saw of each line, kept to take the fields from
	 * once the chain turns out to be an incident. */
	struct seen {
		char *text;	/* own, or the end of the incident's raw line */
		size_t len;
		enum plog_level level;
		/* The captures of the rules it matched (names and values in
		 * caps, as in struct facts), kept from the first match so
		 * that an incident's fields need not match it again.  caps
		 * lies in cap's allocation. */
		char *caps;
		struct capture *cap;
		size_t ncap;
		int own;	/* text is its own copy */
	} *seen;		/* grown as needed, up to MAX_RAW */
	size_t nseen, capseen;
	struct dlink lru;	/* in the classifier's LRU list */
	/* Where its lines start, for resume points: its first line's byte
	 * offset (in inc->file), and its first in a second file. */
	unsigned long long off, off2;
	const char *file2;
	unsigned long line2;
};

/* What is left of a chain closed for being quiet: enough to know that a
 * late trailer of the same call is not a new failure. */
struct tombstone {
	long pid, tid;
	char *name;
	size_t namelen;
	logtime_t last;
};

#define TOMBSTONES 64

/* The device the captured output of a file last stated, for its later
 * incidents whose lines name none.  A few files at once: a table of
 * FILE_DEVICES, the oldest written over. */
#define FILE_DEVICES 64
struct file_device {
	const char *file;	/* interned */
	long device;
};

/* The hashes of a record's source location (0: it has none) and of its
 * text's shape, made once for the record: whether it starts a new call
 * and the chain it joins both need them. */
struct rec_hash {
	const struct record *rec;	/* whose they are; NULL: none yet */
	uint32_t loc, shape;
};

struct classifier {
	struct ruleset *rs;
	incident_fn emit;
	void *ctx;
	struct chain **open;
	size_t nopen, capopen;
	struct dlist lru;	/* every open chain, least recently used first */
	/* The log's time as it goes, for the sweep: the median of the last
	 * three known times of one process (clock_pid; another process's
	 * line starts it again: --follow reads many processes at once, and
	 * their clocks need not agree), so that one line far in the future
	 * or the past (a clock set wrong, then right) does not move it. */
	logtime_t recent[3];
	unsigned nrecent;
	long clock_pid;
	unsigned long fed;	/* plog records fed, for the sweep */
	struct chain **bucket;	/* plog chains by pid, tid and name */
	size_t nbuckets;	/* a power of two */
	unsigned long long tick;
	unsigned long order;
	unsigned quiet_done, quiet_open;
	settle_fn settle;
	void *settle_ctx;
	held_fn held;
	void *held_ctx;
	struct tombstone tomb[TOMBSTONES];
	size_t ntomb;		/* written round robin */
	struct facts facts;	/* of the record being fed */
	struct facts deferred;	/* of a closing incident's lines */
	struct rec_hash rh;	/* of the plog record being fed */
	unsigned long long line_off;	/* of the line being fed */
	fact_fn fact_emit;
	void *fact_ctx;
	struct file_device devs[FILE_DEVICES];
	size_t ndevs;		/* written round robin */
};


/* chain.c */
struct chain *chain_open(struct classifier *c, const struct record *rec);
/* What a line's prefix (its first len bytes) says besides the process
 * (a rank, a pod and container, a worker's parallel indices): fields of
 * inc, the first value winning. */
void chain_prefix_fields(struct classifier *c, struct incident *inc,
			 const char *prefix, size_t len);
void chain_close_at(struct classifier *c, size_t i);
void chain_close(struct classifier *c, struct chain *ch);
void chain_free(struct chain *ch);
/* Appends a record whose facts c->facts holds. */
void chain_append(struct classifier *c, struct chain *ch,
		  const struct record *rec);
void chain_merge_evidence(struct chain *ch, const struct facts *f);
/* The code a chain closed now would be (CODE_NONE: not an incident). */
enum code chain_code(const struct chain *ch);
/* Marks a chain as just used (its order, and the stalest-first list). */
void chain_touch(struct classifier *c, struct chain *ch);
/* Keeps a tombstone of a chain closed for being quiet (late_trailer). */
void chain_bury(struct classifier *c, const struct chain *ch);
#define LRU_CHAIN(l) DLIST_ENTRY(l, struct chain, lru)

/* chain_facts.c */
void chain_read_facts(struct classifier *c, const struct record *rec);
int chain_has_role(const struct facts *f, enum role r);
void chain_keep_captures(struct seen *sn, const struct facts *f);
void chain_capture_fields(struct classifier *c, struct chain *ch);
void chain_normalise_inner_code(struct incident *inc);

/* factread.c */
void fact_read(struct classifier *c, const struct record *rec);
/* The device the file's output stated last, or -1. */
long fact_file_device(const struct classifier *c, const char *file);

/* chain_index.c */
uint32_t chain_hash(const char *s, size_t n);
/* A hash of s with every number (a run of digits, with the hex digits
 * and 'x' after its first digit) taken as one and the same. */
uint32_t chain_shape_hash(const char *s, size_t n);
/* The hashes of rec: those c->rh holds when they are rec's, else made
 * now (and not kept). */
struct rec_hash chain_rec_hash(const struct classifier *c,
			       const struct record *rec);
void chain_index(struct classifier *c, struct chain *ch);
void chain_unindex(struct classifier *c, struct chain *ch);
struct chain *chain_find(struct classifier *c, const struct record *rec,
			 size_t *index);

#endif
