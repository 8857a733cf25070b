/* Finding the compression libraries at run time (codec.h says why). */
#include "config.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "i18n.h"

struct lib {
	const char *soname;
	const char *tag;		/* as PLOGTOP_TEST_NO_LIBS names it */
	int built;			/* its headers were there at build time */
	const char *const *names;	/* the symbols, in the api's order */
	size_t nnames;
	const char *not_built, *not_loaded;
};

static const char *const zlib_names[] = {
	"inflateInit2_", "inflate", "inflateEnd", "inflateReset",
};
static const char *const lzma_names[] = {
	"lzma_stream_decoder", "lzma_code", "lzma_end",
};
static const char *const zstd_names[] = {
	"ZSTD_createDStream", "ZSTD_initDStream", "ZSTD_decompressStream",
	"ZSTD_freeDStream", "ZSTD_isError", "ZSTD_getErrorName",
	"ZSTD_DCtx_setParameter",
};
static const char *const archive_names[] = {
	"archive_read_new", "archive_read_support_filter_gzip",
	"archive_read_support_filter_xz", "archive_read_support_filter_zstd",
	"archive_read_support_format_tar", "archive_read_open_fd",
	"archive_read_next_header", "archive_read_data", "archive_read_free",
	"archive_error_string", "archive_entry_pathname",
	"archive_entry_filetype",
};

#ifdef HAVE_ZLIB
#define BUILT_ZLIB 1
#else
#define BUILT_ZLIB 0
#endif
#ifdef HAVE_LZMA
#define BUILT_LZMA 1
#else
#define BUILT_LZMA 0
#endif
#ifdef HAVE_ZSTD
#define BUILT_ZSTD 1
#else
#define BUILT_ZSTD 0
#endif
#ifdef HAVE_LIBARCHIVE
#define BUILT_ARCHIVE 1
#else
#define BUILT_ARCHIVE 0
#endif

#define N(a) (sizeof a / sizeof a[0])

/* The reasons are whole sentences, one per kind, so that a translator
 * sees each; the skipped list says them as they are. */
static const struct lib libs[] = {
	[PACK_GZ] = { "libz.so.1", "zlib", BUILT_ZLIB, zlib_names,
		N(zlib_names),
		N_("gzip-compressed: this plogtop was built without zlib (read it with: zcat FILE | plogtop -)"),
		N_("gzip-compressed: zlib (libz.so.1) cannot be loaded (read it with: zcat FILE | plogtop -)") },
	[PACK_XZ] = { "liblzma.so.5", "lzma", BUILT_LZMA, lzma_names,
		N(lzma_names),
		N_("xz-compressed: this plogtop was built without liblzma (read it with: xzcat FILE | plogtop -)"),
		N_("xz-compressed: liblzma (liblzma.so.5) cannot be loaded (read it with: xzcat FILE | plogtop -)") },
	[PACK_ZST] = { "libzstd.so.1", "zstd", BUILT_ZSTD, zstd_names,
		N(zstd_names),
		N_("zstd-compressed: this plogtop was built without libzstd (read it with: zstdcat FILE | plogtop -)"),
		N_("zstd-compressed: libzstd (libzstd.so.1) cannot be loaded (read it with: zstdcat FILE | plogtop -)") },
	[PACK_TAR] = { "libarchive.so.13", "archive", BUILT_ARCHIVE,
		archive_names, N(archive_names),
		N_("a tar archive: this plogtop was built without libarchive (unpack it first)"),
		N_("a tar archive: libarchive (libarchive.so.13) cannot be loaded (unpack it first)") },
};

/* The tests' way to run as on a host without a library: a comma-separated
 * list of tags (zlib, lzma, zstd, archive) taken as not found. */
static int hidden(const char *tag)
{
	const char *env = getenv("PLOGTOP_TEST_NO_LIBS");
	size_t n = strlen(tag);

	for (const char *p = env; p && *p; p += strcspn(p, ",")) {
		p += *p == ',';
		if (strncmp(p, tag, n) == 0 && (p[n] == ',' || !p[n]))
			return 1;
	}
	return 0;
}

int codec_load(enum packed kind, void *api, const char **why)
{
	if (kind <= PACK_NONE || kind > PACK_TAR) {
		*why = N_("not a kind plogtop unpacks");
		return -1;
	}
	const struct lib *l = &libs[kind];
	void **slot = api;

	memset(api, 0, l->nnames * sizeof *slot);
	if (!l->built) {
		*why = l->not_built;
		return -1;
	}
	/* Loaded once per file, found again by the loader (no unload: the
	 * next file needs it, and libarchive cannot be unloaded safely). */
	void *h = hidden(l->tag) ? NULL : dlopen(l->soname, RTLD_NOW | RTLD_LOCAL);
	for (size_t i = 0; h && i < l->nnames; i++)
		if (!(slot[i] = dlsym(h, l->names[i])))
			h = NULL;
	if (!h) {
		memset(api, 0, l->nnames * sizeof *slot);
		*why = l->not_loaded;
		return -1;
	}
	return 0;
}

enum packed codec_sniff(const unsigned char *buf, size_t n)
{
	if (n >= 2 && buf[0] == 0x1f && buf[1] == 0x8b)
		return PACK_GZ;
	if (n >= 6 && memcmp(buf, "\xfd" "7zXZ\0", 6) == 0)
		return PACK_XZ;
	if (n >= 4 && memcmp(buf, "\x28\xb5\x2f\xfd", 4) == 0)
		return PACK_ZST;
	if (n >= 262 && memcmp(buf + 257, "ustar", 5) == 0)
		return PACK_TAR;
	return PACK_NONE;
}

size_t codec_suffix(const char *name)
{
	static const char *const sfx[] = { ".gz", ".xz", ".zst" };
	size_t n = strlen(name);

	for (size_t i = 0; i < N(sfx); i++) {
		size_t k = strlen(sfx[i]);
		if (n > k && strcmp(name + n - k, sfx[i]) == 0)
			return k;
	}
	return 0;
}

int codec_archive_name(const char *name, size_t n)
{
	static const char *const sfx[] = { ".tar", ".tar.gz", ".tgz",
					   ".tar.xz", ".txz", ".tar.zst",
					   ".tzst" };

	for (size_t i = 0; i < N(sfx); i++) {
		size_t k = strlen(sfx[i]);
		if (n > k && strncmp(name + n - k, sfx[i], k) == 0)
			return 1;
	}
	return 0;
}
