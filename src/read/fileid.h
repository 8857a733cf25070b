/* Which file is which, across restarts: the rule that decides whether a
 * file found now is the one a resume point (a state file, a cursor) was
 * taken of, so that reading goes on where it stopped.
 *
 * The rule.  A resume point records the file's inode, the hash of its
 * first FILEID_HEAD bytes (fewer when the file was shorter) and the hash
 * of the FILEID_BEFORE bytes just before the offset.  A file found now is
 * that file when it is at least offset bytes long and both hashes match
 * its bytes; the path and the inode only say which resume point to try
 * (the one of its path, then one of its inode under another name).  The
 * device number is never compared: a remount (NFS above all) changes it.
 * So a file renamed by a rotation keeps its position under its new name;
 * a file replaced under the same name (new bytes, whatever its inode)
 * is read from its start; files that begin with the same banner differ
 * in the bytes before their offsets (their log times); a file truncated
 * below the offset is a new file. */
#ifndef PLOGTOP_FILEID_H
#define PLOGTOP_FILEID_H

#include <stdint.h>
#include <sys/types.h>

#define FILEID_HEAD 1024
#define FILEID_BEFORE 1024

struct fileid {
	unsigned long long ino, dev;	/* dev: kept, never compared */
	unsigned long long offset;	/* the resume point */
	unsigned long line;		/* lines before it */
	uint64_t head, before;		/* FNV-1a 64 of those bytes */
	unsigned headlen, beforelen;
};

/* Takes the identity of the open file fd at a resume point.  Returns 0,
 * or -1 with errno set (the file is shorter than offset: EINVAL). */
int fileid_take(int fd, unsigned long long offset, unsigned long line,
		struct fileid *id);

/* Whether the open file fd is the file id was taken of. */
int fileid_matches(const struct fileid *id, int fd);

/* Whether two (device, inode) pairs name the same file for a reader that
 * keeps a file's position while it runs: the inode decides, the device
 * may change under a remount. */
int fileid_same_node(dev_t dev_was, ino_t ino_was, dev_t dev_now,
		     ino_t ino_now);

uint64_t fileid_hash(const void *p, size_t n);

#endif
