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
#include "tarread.h"
#include "xalloc.h"

struct tarread {
	struct codec_archive api;
	int fd;
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
#endif
	return tr;
}

int tarread_next(struct tarread *tr, const char **name, struct strbuf *err)
{
#ifdef HAVE_LIBARCHIVE
	struct archive_entry *e;
	int rc = ((ar_next_fn)tr->api.next_header)(tr->a, &e);

	if (rc == ARCHIVE_EOF)
		return 0;
	if (rc != ARCHIVE_OK && rc != ARCHIVE_WARN) {
		say_error(tr, err);
		return -1;
	}
	*name = ((ae_name_fn)tr->api.entry_pathname)(e);
	if (!*name)
		*name = "?";
	/* Directories, links and devices hold no lines. */
	return ((ae_type_fn)tr->api.entry_filetype)(e) == AE_IFREG ? 1 : 2;
#else
	(void)tr, (void)name, (void)err;
	return 0;
#endif
}

ssize_t tarread_data(struct tarread *tr, char *buf, size_t n,
		     struct strbuf *err)
{
#ifdef HAVE_LIBARCHIVE
	la_ssize_t got = ((ar_data_fn)tr->api.read_data)(tr->a, buf, n);
	if (got < 0) {
		say_error(tr, err);
		return -1;
	}
	return (ssize_t)got;
#else
	(void)tr, (void)buf, (void)n, (void)err;
	return 0;
#endif
}

void tarread_close(struct tarread *tr)
{
	if (!tr)
		return;
#ifdef HAVE_LIBARCHIVE
	if (tr->a)
		((ar_a_fn)tr->api.read_free)(tr->a);
#endif
	close(tr->fd);
	free(tr);
}
