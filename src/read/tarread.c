/* tar archives on libarchive (tarread.h).  Only the tar format and the
 * gzip, xz and zstd filters are asked for: libarchive's "all" would also
 * run outside programs (lrzip, lzop) on what a hostile file claims to be. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef HAVE_LIBARCHIVE
#include <archive.h>
#include <archive_entry.h>
#endif

#include "codec.h"
#include "i18n.h"
#include "readahead.h"
#include "tarread.h"
#include "xalloc.h"

/* Decompressed bytes are handed over in records of this size, from a ring
 * of RING of them (2 MiB in all), made ahead on a thread (readahead.h).
 * A record is filled: the ends of one member, the headers and whole data
 * of the next few, the start of another.  A record per member's header,
 * data and end made four records of a 136 KB plog rotation, and the
 * reader, faster than the decompressor, woke every two members. */
#define CHUNK (128 * 1024)
#define RING 16
/* A record's list of what its bytes are (names included) stops growing
 * past this: a record of millions of empty members stays small. */
#define SEGS_MAX (16 * 1024)

/* What a record's text lists, in order: a kind byte, then for SEG_DATA
 * the number of its bytes (a size_t, the next bytes of buf), for
 * SEG_MEMBER and SEG_OTHER the member's name and a NUL. */
enum seg_kind {
	SEG_MEMBER = 1,	/* a member starts */
	SEG_OTHER,	/* a member that holds no data (a directory, a link) */
	SEG_DATA,	/* bytes of the member */
	SEG_END,	/* the member's data ended */
};

struct seg {
	enum seg_kind kind;
	const char *name;	/* SEG_MEMBER, SEG_OTHER */
	size_t len;		/* SEG_DATA */
	size_t size;		/* bytes of text it takes */
};

struct tarread {
	struct codec_archive api;
	int fd;
	struct readahead *ra;
	int in_member;		/* the producer is inside a member's data */
	/* The producer met the archive's end (RA_END) or an error (RA_ERROR,
	 * why says it): made as the next record, after those it fills. */
	int last;
	struct strbuf why;
	size_t tpos;		/* the reader's place in the record's text */
	struct strbuf name;	/* the member tarread_next gave */
#ifdef HAVE_LIBARCHIVE
	struct archive *a;
#endif
};

#ifdef HAVE_LIBARCHIVE
typedef struct archive *(*ar_new_fn)(void);
typedef int (*ar_a_fn)(struct archive *);
typedef int (*ar_open_fn)(struct archive *, int, size_t);
typedef int (*ar_next_fn)(struct archive *, struct archive_entry **);
typedef la_ssize_t (*ar_data_fn)(struct archive *, void *, size_t);
typedef const char *(*ar_err_fn)(struct archive *);
typedef const char *(*ae_name_fn)(struct archive_entry *);
typedef __LA_MODE_T (*ae_type_fn)(struct archive_entry *);

static void say_error(struct tarread *tr, struct strbuf *err)
{
	const char *e = ((ar_err_fn)tr->api.error_string)(tr->a);

	sb_addf(err, _("a damaged archive (%s)"), e ? e : "?");
}

static int start(struct tarread *tr)
{
	struct codec_archive *p = &tr->api;

	tr->a = ((ar_new_fn)p->read_new)();
	if (!tr->a)
		return -1;
	/* A filter libarchive was built without is ARCHIVE_WARN (it would
	 * run a program): that kind is then not read. */
	((ar_a_fn)p->support_format_tar)(tr->a);
	if (((ar_a_fn)p->support_filter_gzip)(tr->a) != ARCHIVE_OK ||
	    ((ar_a_fn)p->support_filter_xz)(tr->a) != ARCHIVE_OK ||
	    ((ar_a_fn)p->support_filter_zstd)(tr->a) != ARCHIVE_OK)
		return -1;
	return ((ar_open_fn)p->open_fd)(tr->a, tr->fd, 64 * 1024) ==
	       ARCHIVE_OK ? 0 : -1;
}
#endif

#ifdef HAVE_LIBARCHIVE
static void produce(void *ctx, struct ra_record *r, size_t chunk);
#endif

struct tarread *tarread_open(int fd, const char **why)
{
	struct tarread *tr = xcalloc(1, sizeof *tr);

	tr->fd = fd;
	if (codec_load(PACK_TAR, &tr->api, why) < 0) {
		tarread_close(tr);
		return NULL;
	}
#ifdef HAVE_LIBARCHIVE
	if (start(tr) < 0) {
		*why = N_("a tar archive that libarchive cannot open (damaged, or compressed in a way it was built without)");
		tarread_close(tr);
		return NULL;
	}
	tr->ra = readahead_start(produce, tr, RING, CHUNK, readahead_wanted());
#endif
	return tr;
}

#ifdef HAVE_LIBARCHIVE
static void add_seg(struct ra_record *r, enum seg_kind kind, const char *name,
		    size_t len)
{
	char k = (char)kind;

	sb_add(&r->text, &k, 1);
	if (kind == SEG_DATA)
		sb_add(&r->text, (const char *)&len, sizeof len);
	if (name)
		sb_add(&r->text, name, strlen(name) + 1);
}

/* The next header into r: 0, or -1 when the archive ends there. */
static int member_header(struct tarread *tr, struct ra_record *r)
{
	struct archive_entry *e;
	int rc = ((ar_next_fn)tr->api.next_header)(tr->a, &e);

	if (rc == ARCHIVE_EOF) {
		tr->last = RA_END;
		return -1;
	}
	if (rc != ARCHIVE_OK && rc != ARCHIVE_WARN) {
		tr->last = RA_ERROR;
		say_error(tr, &tr->why);
		return -1;
	}
	const char *name = ((ae_name_fn)tr->api.entry_pathname)(e);
	/* Directories, links and devices hold no lines. */
	int reg = ((ae_type_fn)tr->api.entry_filetype)(e) == AE_IFREG;
	add_seg(r, reg ? SEG_MEMBER : SEG_OTHER, name ? name : "?", 0);
	tr->in_member = reg;
	return 0;
}

/* The member's next bytes into what is left of r's buf: 0, or -1. */
static int member_data(struct tarread *tr, struct ra_record *r, size_t chunk)
{
	la_ssize_t got = ((ar_data_fn)tr->api.read_data)(tr->a, r->buf + r->len,
							 chunk - r->len);
	if (got < 0) {
		tr->last = RA_ERROR;
		say_error(tr, &tr->why);
		return -1;
	}
	if (got == 0) {
		add_seg(r, SEG_END, NULL, 0);
		tr->in_member = 0;
		return 0;
	}
	add_seg(r, SEG_DATA, NULL, (size_t)got);
	r->len += (size_t)got;
	return 0;
}

/* The producer (on the read-ahead thread): a record filled with what
 * follows in the archive, or its last record. */
static void produce(void *ctx, struct ra_record *r, size_t chunk)
{
	struct tarread *tr = ctx;

	r->kind = RA_DATA;
	while (!tr->last && r->len < chunk && r->text.len < SEGS_MAX)
		if ((tr->in_member ? member_data(tr, r, chunk)
				   : member_header(tr, r)) < 0)
			break;
	if (!r->text.len) {
		r->kind = tr->last;
		sb_add(&r->text, tr->why.buf, tr->why.len);
	}
}
#endif

/* The record the reader is in: one whose list it has not gone through,
 * or the last; those gone through go back to the ring (the bytes
 * tarread_data gave stay until this next call). */
static struct ra_record *current(struct tarread *tr)
{
	for (;;) {
		struct ra_record *r = readahead_peek(tr->ra);
		if (r->kind != RA_DATA || tr->tpos < r->text.len)
			return r;
		readahead_pop(tr->ra);
		tr->tpos = 0;
	}
}

/* The segment at the reader's place in r (a record of RA_DATA). */
static void seg_at(const struct tarread *tr, const struct ra_record *r,
		   struct seg *sg)
{
	const char *p = r->text.buf + tr->tpos;

	sg->kind = (enum seg_kind)p[0];
	sg->name = NULL;
	sg->len = 0;
	sg->size = 1;
	if (sg->kind == SEG_DATA) {
		memcpy(&sg->len, p + 1, sizeof sg->len);
		sg->size += sizeof sg->len;
	} else if (sg->kind != SEG_END) {
		sg->name = p + 1;
		sg->size += strlen(sg->name) + 1;
	}
}

/* The last record's answer: 0 at the end, -1 with err told why. */
static int last_record(const struct ra_record *r, struct strbuf *err)
{
	if (r->kind == RA_END)
		return 0;
	sb_add(err, r->text.buf, r->text.len);
	return -1;
}

int tarread_next(struct tarread *tr, const char **name, struct strbuf *err)
{
	if (!tr->ra)
		return 0;
	for (;;) {
		struct ra_record *r = current(tr);
		if (r->kind != RA_DATA)
			return last_record(r, err);
		struct seg sg;
		seg_at(tr, r, &sg);
		tr->tpos += sg.size;
		/* The rest of a member the reader left. */
		if (sg.kind == SEG_DATA)
			r->off += sg.len;
		if (!sg.name)
			continue;
		sb_reset(&tr->name);
		sb_adds(&tr->name, sg.name);
		*name = sb_str(&tr->name);
		return sg.kind == SEG_MEMBER ? 1 : 2;
	}
}

ssize_t tarread_data(struct tarread *tr, const char **buf, struct strbuf *err)
{
	if (!tr->ra)
		return 0;
	struct ra_record *r = current(tr);
	if (r->kind != RA_DATA)
		return last_record(r, err);
	struct seg sg;
	seg_at(tr, r, &sg);
	/* Past the member's end: the next one is tarread_next's. */
	if (sg.name)
		return 0;
	tr->tpos += sg.size;
	if (sg.kind == SEG_END)
		return 0;
	*buf = r->buf + r->off;
	r->off += sg.len;
	return (ssize_t)sg.len;
}

void tarread_close(struct tarread *tr)
{
	if (!tr)
		return;
#ifdef HAVE_LIBARCHIVE
	/* The producer first: it is the one using the archive. */
	readahead_stop(tr->ra);
	if (tr->a)
		((ar_a_fn)tr->api.read_free)(tr->a);
#endif
	sb_free(&tr->name);
	sb_free(&tr->why);
	close(tr->fd);
	free(tr);
}
