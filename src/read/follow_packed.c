/* Compressed files and archives in the follower: a .gz, .xz or .zst file
 * is read as the text it holds, under its own name; a tar archive's
 * members each as a file of their own, named ARCHIVE:MEMBER, whose name
 * says plog or captured output as a file's does (logname.h).  Each is
 * read once, whole (a budget at a time in live modes), within the bound
 * of decompress.h; such a file is finished, never tailed. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "decompress.h"
#include "follow_int.h"
#include "htab.h"
#include "i18n.h"
#include "logname.h"
#include "rules.h"
#include "tarread.h"
#include "xalloc.h"

struct packed_read {
	struct dstream *ds;	/* a compressed file */
	struct tarread *tr;	/* or an archive */
	struct tail *member;	/* the archive's member being read */
	int drain;		/* the member is skipped: its bytes passed */
	/* An archive is read in two passes, as the history is: its plog
	 * members, then (a second pass, only when it has any) its captured
	 * output, whose pid-only blocks then join the processes plog named.
	 * passing: the member is the other pass's. */
	int pass, later, passing;
	int archive;		/* tr was opened: the members are the files */
	/* The newest stamp read of each plog stream (logname_stream's key):
	 * rotations out of stamp order (tar without --sort=name) may count
	 * a chain cut by a rotation twice, and plogtop says so. */
	struct htab streams;
	int unsorted;
	struct bound b;
	unsigned long long csize;
};

struct stream_last {
	struct hnode node;
	unsigned long long stamp;
	char key[];
};

static int stream_eq(const struct hnode *n, const void *key)
{
	return strcmp(((const struct stream_last *)n)->key, key) == 0;
}

static void streams_free(struct htab *h)
{
	htab_free_nodes(h);
}

/* A plog member read: whether its stamp is older than one of its stream
 * read before it. */
static void stream_order(struct follower *fw, struct packed_read *pr,
			 const char *path)
{
	const struct lognames *ln = ruleset_lognames(fw->rs);
	struct logname name;
	struct strbuf key = STRBUF_INIT;

	logname_parse(ln, path, &name);
	if (!name.stamp)
		return;
	logname_stream(ln, &key, path);
	size_t h = htab_hash_str(sb_str(&key), 0);
	struct stream_last *sl = (struct stream_last *)htab_find(
		&pr->streams, h, stream_eq, sb_str(&key));
	if (!sl) {
		sl = xcalloc(1, sizeof *sl + key.len + 1);
		memcpy(sl->key, sb_str(&key), key.len + 1);
		sl->node.hash = h;
		htab_insert(&pr->streams, &sl->node);
	} else if (name.stamp < sl->stamp) {
		pr->unsorted = 1;
	}
	if (name.stamp > sl->stamp)
		sl->stamp = name.stamp;
	sb_free(&key);
}

static void packed_free(void *p)
{
	struct packed_read *pr = p;

	streams_free(&pr->streams);
	dstream_close(pr->ds);
	tarread_close(pr->tr);
	tail_free(pr->member);
	free(pr);
}

static void say_skip(struct follower *fw, const char *path, const char *why)
{
	model_skip(fw->m, path, why);
	if (!fw->o.once)
		msglog_about(fw->o.log, path, _(why));
	fw->generation++;
}

static void say_problem(struct follower *fw, const char *path,
			const char *what)
{
	msglog_about(fw->o.log, path, what);
	model_problem(fw->m, path, "%s", what);
	fw->generation++;
}

static int open_file(struct follower *fw, struct tail *t,
		     unsigned long long *csize)
{
	int fd = open(t->path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	struct stat sb;

	if (fd < 0 || fstat(fd, &sb) < 0) {
		say_problem(fw, t->path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	*csize = (unsigned long long)sb.st_size;
	return fd;
}

/* The archive's member: a tail of its own, not in the table of files
 * (nothing watches it), its path interned as a file's. */
static void member_start(struct follower *fw, struct tail *t,
			 struct packed_read *pr, const char *name)
{
	struct strbuf path = STRBUF_INIT;

	/* tar -C DIR -czf x.tgz . names them ./debug/...: the same file. */
	while (name[0] == '.' && name[1] == '/')
		name += 2;
	sb_addf(&path, "%s:%s", t->path, name);
	enum file_kind kind = file_kind_of(ruleset_lognames(fw->rs),
					   sb_str(&path));
	pr->drain = 0;
	pr->passing = (kind == FILE_PLOG) != (pr->pass == 0);
	pr->later |= pr->passing && pr->pass == 0;
	if (!pr->passing && kind == FILE_PLOG && !pr->unsorted)
		stream_order(fw, pr, sb_str(&path));
	if (!pr->passing) {
		const char *p = model_intern(fw->m, sb_str(&path));
		pr->member = tail_new(p, kind, fw->rs, fw->cl);
		pr->member->root = t->root;
	}
	sb_free(&path);
}

/* Whether a chain's file is not a member of the archive (ctx): those
 * stay open when the plog members' chains are closed. */
static int not_member(void *ctx, const char *file)
{
	const struct tail *t = ctx;
	size_t n = strlen(t->path);

	return !file || strncmp(file, t->path, n) != 0 || file[n] != ':';
}

/* The first pass ended with captured members seen: its chains are
 * closed, as at the end of a stream of the history, and the archive is
 * read again for them. */
static int second_pass(struct follower *fw, struct tail *t,
		       struct packed_read *pr, struct strbuf *err)
{
	const char *why = NULL;

	classifier_flush_but(fw->cl, not_member, t);
	int fd = open_file(fw, t, &pr->csize);

	tarread_close(pr->tr);
	pr->tr = NULL;
	if (fd < 0)
		return 0;	/* said by open_file: the first pass stands */
	if (!(pr->tr = tarread_open(fd, &why))) {
		sb_adds(err, _(why));
		return -1;
	}
	pr->pass = 1;
	bound_init(&pr->b, pr->csize);
	return 1;
}

static void member_end(struct follower *fw, struct packed_read *pr)
{
	struct tail *mt = pr->member;

	if (!mt)
		return;
	if (!pr->drain) {
		tail_flush(mt);
		follow_count_read(fw, mt);
	}
	pr->member = NULL;
	model_release_path(fw->m, mt->path);
	tail_free(mt);
}

/* Decompressed bytes for tail t (the file, or the member): fed, or, when
 * they are not text, the member skipped with why. */
static void feed(struct follower *fw, struct packed_read *pr, struct tail *t,
		 const char *buf, size_t n, unsigned long long now)
{
	if (pr->drain)
		return;
	if (tail_feed(t, buf, n, &fw->m->stats, now) < 0) {
		say_skip(fw, t->path, t->skip_why ? t->skip_why
				      : N_("binary, not text"));
		pr->drain = 1;
	}
}

/* One buffer of the archive: 1 while there is more, 0 at its end, -1
 * with err told why. */
static int archive_step(struct follower *fw, struct tail *t,
			struct packed_read *pr, unsigned long long now,
			struct strbuf *err)
{
	if (!pr->member && !pr->passing) {
		const char *name;
		int rc = tarread_next(pr->tr, &name, err);
		if (rc == 0 && pr->pass == 0 && pr->later)
			return second_pass(fw, t, pr, err);
		if (rc <= 0)
			return rc;
		/* Each member's header counts, as tar's 512 bytes: an
		 * archive of millions of empty members is a bomb too. */
		size_t header = 512;
		if (bound_take(&pr->b, &header) < 0) {
			bound_say(&pr->b, err);
			return -1;
		}
		if (rc == 2)
			return 1;
		member_start(fw, t, pr, name);
	}
	const char *data;
	ssize_t n = tarread_data(pr->tr, &data, err);
	if (n < 0)
		return -1;
	if (n == 0) {
		member_end(fw, pr);
		pr->passing = 0;
		return 1;
	}
	size_t take = (size_t)n;
	if (bound_take(&pr->b, &take) < 0) {
		bound_say(&pr->b, err);
		return -1;
	}
	if (pr->member)
		feed(fw, pr, pr->member, data, take, now);
	return 1;
}

static int file_step(struct follower *fw, struct tail *t,
		     struct packed_read *pr, unsigned long long now,
		     struct strbuf *err)
{
	const char *data;
	ssize_t n = dstream_data(pr->ds, fw->buf, READ_BUF, &data, err);

	if (n <= 0)
		return (int)n;
	size_t take = (size_t)n;
	if (bound_take(&pr->b, &take) < 0) {
		bound_say(&pr->b, err);
		return -1;
	}
	feed(fw, pr, t, data, take, now);
	return pr->drain ? 0 : 1;
}

/* The first bytes of a compressed file: when they are a tar archive's
 * (a .tar.gz, whatever its name), the file is read again as one. */
static int peek_tar(struct follower *fw, struct packed_read *pr,
		    size_t *have, struct strbuf *err)
{
	*have = 0;
	while (*have < 512) {
		ssize_t n = dstream_read(pr->ds, fw->buf + *have,
					 512 - *have, err);
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		*have += (size_t)n;
	}
	return codec_sniff((const unsigned char *)fw->buf, *have) == PACK_TAR;
}

/* The reading of t set up (t->pk), its first bytes fed: 0, or -1 when
 * it is not read (skipped or failed, and said so). */
static int packed_open(struct follower *fw, struct tail *t,
		       unsigned long long now)
{
	struct packed_read *pr = xcalloc(1, sizeof *pr);
	struct strbuf err = STRBUF_INIT;
	const char *why = NULL;
	size_t have = 0;
	int fd = open_file(fw, t, &pr->csize), tar = t->packed == PACK_TAR;

	if (fd >= 0 && !tar && (pr->ds = dstream_open(t->packed, fd, &why))) {
		tar = peek_tar(fw, pr, &have, &err);
		if (tar > 0) {
			dstream_close(pr->ds);
			pr->ds = NULL;
			fd = open_file(fw, t, &pr->csize);
		}
	}
	if (fd >= 0 && tar > 0)
		pr->archive = (pr->tr = tarread_open(fd, &why)) != NULL;
	bound_init(&pr->b, pr->csize);
	t->pk = pr;
	t->pk_free = packed_free;
	if (why)
		say_skip(fw, t->path, why);
	else if (tar < 0)
		say_problem(fw, t->path, sb_str(&err));
	sb_free(&err);
	if (fd < 0 || why || tar < 0)
		return -1;
	if (!pr->archive && have && bound_take(&pr->b, &have) == 0)
		feed(fw, pr, t, fw->buf, have, now);
	return 0;
}

/* Read whole: what it held given out, and the file taken as read to its
 * end (a resume point there: a restart does not read it again). */
static void packed_end(struct follower *fw, struct tail *t, int rc,
		       struct strbuf *err)
{
	struct packed_read *pr = t->pk;

	if (rc < 0)
		say_problem(fw, t->path, sb_str(err));
	if (pr->unsorted)
		msglog_about(fw->o.log, t->path, _("its plog rotations are not in stamp order: a chain cut by a rotation may count twice (make the archive with tar --sort=name)"));
	member_end(fw, pr);
	if (!pr->archive && !pr->drain) {
		tail_flush(t);
		follow_count_read(fw, t);
	}
	packed_free(pr);
	t->pk = NULL;
	t->packed_done = 1;
	t->more = 0;
	tail_skip_to_end(t);
	fw->generation++;
}

void follow_read_packed(struct follower *fw, struct tail *t,
			unsigned long long now)
{
	if (t->packed_done)
		return;
	t->more = 0;
	/* Found while followed: made from a file being read (logrotate's
	 * compress), or still being written; its lines came from that. */
	if (!t->pk && !fw->o.once && !t->at_start) {
		say_skip(fw, t->path, N_("compressed after plogtop started (its lines were read from the file it was made from)"));
		t->packed_done = 1;
		return;
	}
	classifier_set_tick(fw->cl, now);
	if (!t->pk && packed_open(fw, t, now) < 0) {
		if (t->pk)
			packed_free(t->pk);
		t->pk = NULL;
		t->packed_done = 1;
		return;
	}
	struct packed_read *pr = t->pk;
	struct strbuf err = STRBUF_INIT;
	unsigned long long budget = fw->o.once ? ~0ULL : READ_BUDGET;
	unsigned long long start = pr->b.out;
	int rc = 1;

	while (rc > 0 && pr->b.out - start < budget)
		rc = pr->archive ? archive_step(fw, t, pr, now, &err)
			    : file_step(fw, t, pr, now, &err);
	if (rc > 0) {
		t->more = 1;	/* the rest next time */
		fw->generation++;
	} else {
		packed_end(fw, t, rc, &err);
	}
	sb_free(&err);
}

/* A rotated pair, job.log.1 and job.log.1.gz (logrotate's delaycompress
 * leaves both a while): the same lines twice.  The plain one is read. */
void follow_skip_copies(struct follower *fw)
{
	struct strbuf plain = STRBUF_INIT;

	for (size_t i = 0; i < fw->tt.n; i++) {
		struct tail *t = fw->tt.v[i];
		size_t k = codec_suffix(t->path);
		if (!k || t->skip_why)
			continue;
		sb_reset(&plain);
		sb_add(&plain, t->path, strlen(t->path) - k);
		struct tail *o = tailtab_find(&fw->tt, sb_str(&plain));
		if (!o || o->skip_why)
			continue;
		t->skip_why = N_("a compressed copy of the file of the same name without its suffix (that one is read)");
		model_skip(fw->m, t->path, t->skip_why);
	}
	sb_free(&plain);
}
