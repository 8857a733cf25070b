#include "config.h"

#include <string.h>

#include "filetype.h"
#include "i18n.h"

struct magic {
	const char *bytes;
	size_t len;
	const char *why;
};

/* Compressed logs are common in collected bundles; reading them as text
 * would find nothing and say "no incident". */
static const struct magic magics[] = {
	{ "\x1f\x8b", 2, N_("gzip-compressed (read it with: zcat FILE | plogtop -)") },
	{ "BZh", 3, N_("bzip2-compressed (read it with: bzcat FILE | plogtop -)") },
	{ "\xfd" "7zXZ\0", 6, N_("xz-compressed (read it with: xzcat FILE | plogtop -)") },
	{ "\x28\xb5\x2f\xfd", 4, N_("zstd-compressed (read it with: zstdcat FILE | plogtop -)") },
	{ "\x04\x22\x4d\x18", 4, N_("lz4-compressed (read it with: lz4cat FILE | plogtop -)") },
	{ "PK\x03\x04", 4, N_("a zip archive (unpack it first)") },
	{ "\x37\x7a\xbc\xaf\x27\x1c", 6, N_("a 7z archive (unpack it first)") },
};

/* Text has few control bytes; a first block with a NUL that is mostly
 * control bytes is not a log. */
static int looks_binary(const char *buf, size_t n)
{
	size_t ctl = 0, nul = 0;

	if (n > 8192)
		n = 8192;
	/* Most files have no NUL at all: a vector search says so. */
	if (!memchr(buf, 0, n))
		return 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)buf[i];
		nul += c == 0;
		ctl += c < 0x09 || (c > 0x0d && c < 0x20) || c == 0x7f;
	}
	return nul > 0 && ctl * 10 > n;
}

const char *filetype_not_text(const char *buf, size_t n)
{
	for (size_t i = 0; i < sizeof magics / sizeof magics[0]; i++)
		if (n >= magics[i].len &&
		    memcmp(buf, magics[i].bytes, magics[i].len) == 0)
			return magics[i].why;
	if (n >= 262 && memcmp(buf + 257, "ustar", 5) == 0)
		return N_("a tar archive (unpack it first)");
	return looks_binary(buf, n) ? N_("binary, not text") : NULL;
}

const char *filetype_not_regular(const struct stat *st)
{
	if (S_ISREG(st->st_mode))
		return NULL;
	if (S_ISFIFO(st->st_mode))
		return N_("a FIFO, not a regular file");
	if (S_ISSOCK(st->st_mode))
		return N_("a socket, not a regular file");
	if (S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode))
		return N_("a device, not a regular file");
	return N_("not a regular file");
}
