/* Groups records into chains (the lines one failed API call wrote on one
 * thread, or one screen-print block) and turns each closed chain that
 * carries evidence into an incident.  It is fed one record at a time, so
 * the same code serves a whole tree read at once and a file followed
 * live. */
#ifndef PLOGTOP_CLASSIFIER_H
#define PLOGTOP_CLASSIFIER_H

#include <stddef.h>

#include "fact.h"
#include "incident.h"
#include "logtime.h"
#include "plogline.h"
#include "rules.h"

/* One log record: a plog line with its continuation lines, or one line
 * of screen output. */
struct record {
	const char *text;	/* what rules see: the message */
	size_t len;
	const char *raw;	/* the whole line(s), for showing */
	size_t rawlen;
	enum plog_level level;	/* LEVEL_SCREEN for screen output */
	long pid, tid;
	const char *name;
	size_t namelen;
	logtime_t time;
	const char *srcloc;	/* "RUNTIME file.cc:123" (module and place)
				 * or NULL */
	size_t srcloclen;
	const char *file;	/* interned path */
	unsigned long line;
	unsigned nlines;	/* 1 + continuation lines */
	/* A continuation line that came after its record was given out
	 * (its writer paused between them): it joins the chain that record
	 * went to, if that is still open. */
	int late;
	const char *module;	/* plog: the header's module, or NULL */
	size_t modulelen;
	const char *prefix;	/* screen: the shape of the line's prefix */
	size_t prefixlen;
	unsigned long long off;	/* byte offset of its first line in file */
	/* plog behind a prefix ("[pod/x/y] [ERROR] RUNTIME(..."): the
	 * prefix's bytes at the start of raw, whose fields the incident
	 * takes as a screen block's prefix gives its own. */
	size_t lead;
};

/* Receives each incident; it takes ownership. */
typedef void (*incident_fn)(void *ctx, struct incident *inc);

struct classifier;

struct classifier *classifier_new(struct ruleset *rs, incident_fn emit,
				  void *ctx);
void classifier_free(struct classifier *c);

/* Feeds a plog record; lines of screen output go through screenblock.h. */
void classifier_feed(struct classifier *c, const struct record *rec);

/* Facts (fact.h): fn is given each fact a record says, its strings
 * valid during the call only.  Facts come from fact rules on every
 * record of their levels; they never join, split or close a chain.
 * Without fn, fact rules do not run. */
typedef void (*fact_fn)(void *ctx, const struct fact *f);
void classifier_set_facts(struct classifier *c, fact_fn fn, void *ctx);
/* A record only fact rules may take (a plog record of another level
 * than ERROR, or any line of captured output, given beside what
 * screen_feed makes of it): its facts, and nothing else.  A device a
 * line of captured output states (llama.cpp's "current device: 3") is
 * also the device of the later incidents of that file whose lines name
 * none (their field device_id). */
void classifier_feed_facts(struct classifier *c, const struct record *rec);

/* Closes every open chain: the end of the input. */
void classifier_flush(struct classifier *c);

/* Live reading.  The caller sets the arrival clock (milliseconds) before
 * feeding; a chain then closes when it has been quiet: quiet_done ms once
 * its API boundary (or a screen block's body) has arrived, quiet_open ms
 * before, since the logger writes in batches and a batch can end inside a
 * chain.  A trailer line that arrives after its chain was closed this way
 * is dropped, not counted again. */
void classifier_set_tick(struct classifier *c, unsigned long long now_ms);
void classifier_set_quiet(struct classifier *c, unsigned quiet_done,
			  unsigned quiet_open);
/* settle(ctx, file) says how the file a chain's last line came from is
 * written: > 0 by a writer of whole lines (each write ends at a line's
 * end, as the CANN logger's flush of its buffer does), so that a chain
 * of it that has its trailer (a line after the API boundary) is whole
 * once that many ms have passed since its last line came, instead of
 * quiet_done; 0 keeps quiet_done.  Without it, quiet_done. */
typedef unsigned (*settle_fn)(void *ctx, const char *file);
void classifier_set_settle(struct classifier *c, settle_fn settle, void *ctx);
void classifier_expire(struct classifier *c, unsigned long long now_ms);
/* As classifier_flush at the end of a stream, but the chains whose last
 * line's file keep(ctx, file) says is still being written stay open (a
 * live reader's quiet timers close them): a restart while a job writes
 * must not split the calls it was in the middle of. */
void classifier_flush_but(struct classifier *c,
			  int (*keep)(void *ctx, const char *file), void *ctx);
/* held(ctx, file, now_ms) says whether the file a chain's last line came
 * from still holds more of it back (a line being written, a record being
 * assembled): such a chain goes on, however long its writer pauses, and
 * is not closed for being quiet.  The reader bounds how long it holds. */
typedef int (*held_fn)(void *ctx, const char *file, unsigned long long now_ms);
void classifier_set_hold(struct classifier *c, held_fn held, void *ctx);
/* The arrival time at which the next chain would close, or 0 if none is
 * open. */
unsigned long long classifier_next_expiry(const struct classifier *c);
size_t classifier_open_chains(const struct classifier *c);

/* Resume points (follow_resume.c).  The reader says where in its file
 * the line it is about to feed starts; a chain remembers where its first
 * line (and its first line in a second file) started, and each open
 * chain is told to fn with its file, that byte offset and line number. */
void classifier_set_line_off(struct classifier *c, unsigned long long off);
unsigned long long classifier_line_off(const struct classifier *c);
typedef void (*open_line_fn)(void *ctx, const char *file,
			     unsigned long long off, unsigned long line);
void classifier_each_open(const struct classifier *c, open_line_fn fn,
			  void *ctx);
/* Lets go, without giving them out, the open chains still waiting for
 * their API boundary that hold(ctx, file, off, line) says to hold: a
 * later read from their first line gives them whole. */
void classifier_hold(struct classifier *c, int (*hold)(void *ctx,
		     const char *file, unsigned long long off,
		     unsigned long line), void *ctx);

#endif
