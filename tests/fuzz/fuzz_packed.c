/* Compressed files and tar archives (src/read/decompress.c, tarread.c):
 * whatever the bytes, reading them ends, within the bound (set small
 * here, so that a made bomb costs milliseconds), with data, an end or an
 * error, never a crash; the libraries are those loaded at run time. */
#include "config.h"

#define _GNU_SOURCE 1
#include <sys/mman.h>
#include <unistd.h>

#include "decompress.h"
#include "fuzz.h"
#include "tarread.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	setenv("PLOGTOP_DECOMPRESS_MAX", "1048576", 1);
	return 0;
}

/* A file of the input's bytes, at its start. */
static int as_file(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz", MFD_CLOEXEC);

	FUZZ_ASSERT(fd >= 0);
	FUZZ_ASSERT(write(fd, data, size) == (ssize_t)size);
	FUZZ_ASSERT(lseek(fd, 0, SEEK_SET) == 0);
	return fd;
}

static void read_stream(enum packed kind, const uint8_t *data, size_t size)
{
	static char buf[64 * 1024];
	const char *why = NULL;
	struct dstream *d = dstream_open(kind, as_file(data, size), &why);
	struct strbuf err = STRBUF_INIT;
	struct bound b;

	if (!d) {
		FUZZ_ASSERT(why != NULL);
		return;
	}
	bound_init(&b, size);
	for (ssize_t n; (n = dstream_read(d, buf, sizeof buf, &err)) > 0;) {
		FUZZ_ASSERT((size_t)n <= sizeof buf);
		size_t take = (size_t)n;
		if (bound_take(&b, &take) < 0)
			break;
	}
	dstream_close(d);
	sb_free(&err);
}

static void read_archive(const uint8_t *data, size_t size)
{
	const char *why = NULL, *name, *bytes;
	struct tarread *tr = tarread_open(as_file(data, size), &why);
	struct strbuf err = STRBUF_INIT;
	struct bound b;

	if (!tr)
		return;
	bound_init(&b, size);
	int more = 1;
	for (int rc; more && (rc = tarread_next(tr, &name, &err)) > 0;) {
		FUZZ_ASSERT(name != NULL);
		if (rc == 2)
			continue;	/* no data */
		ssize_t n;
		while ((n = tarread_data(tr, &bytes, &err)) > 0) {
			FUZZ_ASSERT(bytes != NULL);
			size_t take = (size_t)n;
			if (bound_take(&b, &take) < 0)
				break;
		}
		more = n == 0;	/* the member's end: the next one */
	}
	tarread_close(tr);
	sb_free(&err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	enum packed kind = codec_sniff(data, size);

	if (kind == PACK_GZ || kind == PACK_XZ || kind == PACK_ZST)
		read_stream(kind, data, size);
	/* libarchive takes every kind: a tar inside any of them. */
	if (kind != PACK_NONE)
		read_archive(data, size);
	return 0;
}
