/* tar archives on libarchive (tarread.h).  Only the tar format and the
 * gzip, xz and zstd filters are asked for: libarchive's "all" would also
 * run outside programs (lrzip, lzop) on what a hostile file claims to be. */
#include "config.h"

#include <stdlib.h>
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
 * of RING of them (2 MiB in all), made ahead on a thread (readahead.h): a
 * member of a plog tree (a 136 KB rotation) is some four records, its
 * start, its data and its end, so the ring holds a few members. */
#define CHUNK (128 * 1024)
#define RING 16

struct tarread {
	struct codec_archive api;
	int fd;
	struct readahead *ra;
	int in_member;		/* the producer is inside a member's data */
	int taken;		/* the reader holds the record peek gave */
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
/* The producer (on the read-ahead thread): one record of the archive. */
static void produce(void *ctx, struct ra_record *r, size_t chunk)
{
	struct tarread *tr = ctx;

	if (tr->in_member) {
		la_ssize_t got = ((ar_data_fn)tr->api.read_data)(tr->a, r->buf, chunk);
		if (got < 0) {
			r->kind = RA_ERROR;
			say_error(tr, &r->text);
		} else if (got == 0) {
			r->kind = RA_MEMBER_END;
			tr->in_member = 0;
		} else {
			r->kind = RA_DATA;
			r->len = (size_t)got;
		}
		return;
	}
	struct archive_entry *e;
	int rc = ((ar_next_fn)tr->api.next_header)(tr->a, &e);
	if (rc == ARCHIVE_EOF) {
		r->kind = RA_END;
		return;
	}
	if (rc != ARCHIVE_OK && rc != ARCHIVE_WARN) {
		r->kind = RA_ERROR;
		say_error(tr, &r->text);
		return;
	}
	const char *name = ((ae_name_fn)tr->api.entry_pathname)(e);
	sb_adds(&r->text, name ? name : "?");
	/* Directories, links and devices hold no lines. */
	if (((ae_type_fn)tr->api.entry_filetype)(e) != AE_IFREG) {
		r->kind = RA_OTHER;
		return;
	}
	r->kind = RA_MEMBER;
	tr->in_member = 1;
}
#endif

/* The next record, the one the reader held going back to the ring. */
static struct ra_record *next_record(struct tarread *tr)
{
	if (tr->taken)
		readahead_pop(tr->ra);
	tr->taken = 0;
	return readahead_peek(tr->ra);
}

int tarread_next(struct tarread *tr, const char **name, struct strbuf *err)
{
	if (!tr->ra)
		return 0;
	for (;;) {
		struct ra_record *r = next_record(tr);
		switch (r->kind) {
		case RA_DATA:
		case RA_MEMBER_END:
			/* The rest of a member the reader left. */
			tr->taken = 1;
			continue;
		case RA_MEMBER:
		case RA_OTHER:
			sb_reset(&tr->name);
			sb_add(&tr->name, r->text.buf, r->text.len);
			*name = sb_str(&tr->name);
			tr->taken = 1;
			return r->kind == RA_MEMBER ? 1 : 2;
		case RA_END:
			return 0;
		case RA_ERROR:
			sb_add(err, r->text.buf, r->text.len);
			return -1;
		}
	}
}

ssize_t tarread_data(struct tarread *tr, const char **buf, struct strbuf *err)
{
	if (!tr->ra)
		return 0;
	struct ra_record *r = next_record(tr);
	switch (r->kind) {
	case RA_DATA:
		*buf = r->buf;
		tr->taken = 1;
		return (ssize_t)r->len;
	case RA_MEMBER_END:
		tr->taken = 1;
		return 0;
	case RA_ERROR:
		sb_add(err, r->text.buf, r->text.len);
		return -1;
	default:
		/* Past the member's end: the next one is tarread_next's. */
		return 0;
	}
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
	close(tr->fd);
	free(tr);
}
