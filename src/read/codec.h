/* The compression libraries (zlib, liblzma, libzstd, libarchive), found
 * at run time with dlopen as src/net/httpc.c finds libcurl: the binary
 * needs none of them (a copy runs on a bare host), and a kind whose
 * library is missing, at build or at run time, is skipped with its
 * reason.  Only their headers are used at build time (pkg-config). */
#ifndef PLOGTOP_CODEC_H
#define PLOGTOP_CODEC_H

#include <stddef.h>
#include <sys/types.h>

/* What the first bytes of a file say it is packed as. */
enum packed {
	PACK_NONE,
	PACK_GZ,	/* gzip (zlib) */
	PACK_XZ,	/* xz (liblzma) */
	PACK_ZST,	/* zstd (libzstd) */
	PACK_TAR,	/* a tar archive, compressed or not (libarchive) */
};

/* Each library's functions plogtop calls, as void pointers cast at the
 * call (decompress.c, tarread.c know their types from the headers).
 * Every field NULL when not loaded. */
struct codec_zlib {
	void *inflateInit2_, *inflate, *inflateEnd, *inflateReset;
};
struct codec_lzma {
	void *stream_decoder, *code, *end;
};
struct codec_zstd {
	void *createDStream, *initDStream, *decompressStream, *freeDStream,
	     *isError, *getErrorName, *DCtx_setParameter;
};
struct codec_archive {
	void *read_new, *support_filter_gzip, *support_filter_xz,
	     *support_filter_zstd, *support_format_tar, *open_fd,
	     *next_header, *read_data, *read_free, *error_string,
	     *entry_pathname, *entry_filetype;
};

/* Loads kind's library into api (one of the structs above).  Returns 0,
 * or -1 with why (a static string: the reason a skipped file is listed
 * with, never freed, the same for every file of that kind). */
int codec_load(enum packed kind, void *api, const char **why);

/* The file's kind by its first n bytes (PACK_NONE: not packed). */
enum packed codec_sniff(const unsigned char *buf, size_t n);

/* Whether a name ends as a compressed file's (.gz, .xz, .zst): the
 * length of that suffix, else 0. */
size_t codec_suffix(const char *name);

/* Whether the n first bytes of name end as an archive's name (.tar,
 * .tar.gz, .tgz, .tar.xz, .txz, .tar.zst, .tzst). */
int codec_archive_name(const char *name, size_t n);

#endif
