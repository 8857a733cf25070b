/* The one rule for log file names: which names are of the plog family,
 * what a name says of its file, and which files are one stream (the
 * rotations of one writer), read one after another in stamp order.
 *
 * The names themselves are data: the [file NAME] sections of the rules
 * file (rules/plogtop.rules, plogtop-rules(5)), each a PCRE2 pattern that
 * must match a whole base name and has a group named stamp.  What they
 * mean is here. */
#ifndef PLOGTOP_LOGNAME_H
#define PLOGTOP_LOGNAME_H

#include "feeder.h"
#include "strbuf.h"

struct logname {
	enum file_kind kind;	/* FILE_PLOG for plog family names */
	unsigned long long stamp;	/* from the name, 0 when none */
};

/* The file-name patterns loaded, in the order they are tried (NULL: no
 * name is of the plog family). */
struct lognames;

/* A name's kind and stamp: a name that some pattern matches whole is of
 * the plog family. */
void logname_parse(const struct lognames *ln, const char *path,
		   struct logname *out);

/* Appends the key of the stream a file belongs to: a plog family file's
 * directory and its name up to the stamp (plog-<pid>_*.log files of one
 * directory are one stream, device-<pid>_*.log another); any other file
 * is a stream of its own. */
void logname_stream(const struct lognames *ln, struct strbuf *key,
		    const char *path);

/* Shorthand: the kind a name gives. */
enum file_kind file_kind_of(const struct lognames *ln, const char *path);

/* ---- loading, for the rules loader ---- */

struct lognames *lognames_new(void);
void lognames_free(struct lognames *ln);
size_t lognames_count(const struct lognames *ln);

/* A [file NAME] section being read.  Each step returns 0, or -1 with the
 * message in err and, in *line, the line at fault. */
struct logname_rule;
/* Starts section NAME (at line) in pending, the sections of one file. */
int logname_rule_start(struct lognames *pending, struct logname_rule **cur,
		       const char *name, unsigned long line,
		       struct strbuf *err);
int logname_rule_key(struct logname_rule *r, const char *key,
		     const char *value, unsigned long line, struct strbuf *err);
/* Compiles the pattern and checks the samples; on success the section
 * joins pending.  *cur is NULL afterwards either way. */
int logname_rule_finish(struct lognames *pending, struct logname_rule **cur,
			struct strbuf *err, unsigned long *line);
void logname_rule_free(struct logname_rule *r);

/* Moves the sections of from into to: one whose name is already there
 * replaces it in place, others are added after.  from is left empty. */
void lognames_merge(struct lognames *to, struct lognames *from);

#endif
