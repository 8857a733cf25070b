/* gzip, xz and zstd streams on the libraries loaded by codec.c
 * (decompress.h says what the bound is and why). */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef HAVE_ZLIB
#include <zlib.h>
#endif
#ifdef HAVE_LZMA
#include <lzma.h>
#endif
#ifdef HAVE_ZSTD
#include <zstd.h>
#endif

#include "decompress.h"
#include "i18n.h"
#include "readahead.h"
#include "xalloc.h"

#define IN_BUF (64 * 1024)
/* A file this large (compressed) is decompressed ahead on a thread of its
 * own (readahead.h), in records of AHEAD_CHUNK from a ring of AHEAD_RING;
 * a smaller one is over before a thread would pay for itself. */
#define AHEAD_MIN (4 << 20)
#define AHEAD_CHUNK (256 * 1024)
#define AHEAD_RING 8
/* xz's decoder may take this much (xz -9 needs 65 MiB); zstd's window
 * at most 2^27 (its default bound): a made file asking more is refused
 * by the library, not given the memory. */
#define XZ_MEMLIMIT (128ULL << 20)
#define ZSTD_WINDOWLOG_MAX 27

void bound_init(struct bound *b, unsigned long long csize)
{
	unsigned long long max = DECOMPRESS_MAX;
	const char *env = getenv("PLOGTOP_DECOMPRESS_MAX");

	if (env && *env && strtoull(env, NULL, 10) > 0)
		max = strtoull(env, NULL, 10);
	unsigned long long floor = DECOMPRESS_FLOOR < max ? DECOMPRESS_FLOOR
							   : max;
	unsigned long long ratio = csize > max / DECOMPRESS_RATIO
				   ? max : csize * DECOMPRESS_RATIO;
	if (ratio < floor)
		ratio = floor;
	b->out = 0;
	b->by_ratio = ratio < max;
	b->limit = b->by_ratio ? ratio : max;
}

int bound_take(struct bound *b, size_t *n)
{
	if (b->out >= b->limit)
		return -1;
	if (*n > b->limit - b->out)
		*n = (size_t)(b->limit - b->out);
	b->out += *n;
	return 0;
}

static void say_size(struct strbuf *sb, unsigned long long n)
{
	if (n >= (1ULL << 30) && n % (1ULL << 30) == 0)
		sb_addf(sb, "%llu GiB", n >> 30);
	else if (n >= (1ULL << 20) && n % (1ULL << 20) == 0)
		sb_addf(sb, "%llu MiB", n >> 20);
	else
		sb_addf(sb, _("%llu bytes"), n);
}

void bound_say(const struct bound *b, struct strbuf *sb)
{
	/* The two sentences whole, for the translator. */
	struct strbuf size = STRBUF_INIT;

	say_size(&size, b->limit);
	if (b->by_ratio)
		sb_addf(sb, _("stops at %s decompressed (over %llu times its compressed size): skipped the rest"),
			sb_str(&size), DECOMPRESS_RATIO);
	else
		sb_addf(sb, _("stops at %s decompressed: skipped the rest"),
			sb_str(&size));
	sb_free(&size);
}

struct dstream {
	enum packed kind;
	int fd, eof;
	int open;		/* inside a member or frame */
	int done;		/* xz: its last stream ended */
	unsigned char in[IN_BUF];
	struct readahead *ra;	/* NULL: decoded on the reader's call */
	union {
		struct codec_zlib z;
		struct codec_lzma x;
		struct codec_zstd s;
	} api;
#ifdef HAVE_ZLIB
	z_stream zs;
#endif
#ifdef HAVE_LZMA
	lzma_stream xs;
#endif
#ifdef HAVE_ZSTD
	ZSTD_DStream *ds;
	ZSTD_inBuffer zin;
#endif
};

/* Shared by the decoders this build has (none without their headers). */
#if defined(HAVE_ZLIB) || defined(HAVE_LZMA) || defined(HAVE_ZSTD)
/* More compressed bytes into d->in: their number (0 at the end), or -1
 * with err told the read error. */
static ssize_t fill(struct dstream *d, struct strbuf *err)
{
	ssize_t n;

	while ((n = read(d->fd, d->in, sizeof d->in)) < 0 && errno == EINTR)
		;
	if (n < 0) {
		sb_adds(err, strerror(errno));
		return -1;
	}
	d->eof = n == 0;
	return n;
}

static ssize_t cut_short(struct strbuf *err)
{
	sb_adds(err, _("the compressed data ends before its stream does (cut short)"));
	return -1;
}
#endif

#ifdef HAVE_ZLIB
typedef int (*inflate_init_fn)(z_streamp, int, const char *, int);
typedef int (*inflate_fn)(z_streamp, int);

static int gz_open(struct dstream *d)
{
	memset(&d->zs, 0, sizeof d->zs);
	/* 15 + 32: a gzip or zlib header, found by its magic. */
	return ((inflate_init_fn)d->api.z.inflateInit2_)(
		       &d->zs, 15 + 32, ZLIB_VERSION, (int)sizeof d->zs) == Z_OK
	       ? 0 : -1;
}

/* A gzip member ended: another may follow (cat a.gz b.gz); what is not
 * one (padding) ends the file. */
static void gz_member_end(struct dstream *d)
{
	((int (*)(z_streamp))d->api.z.inflateReset)(&d->zs);
	d->open = 0;
	if (d->zs.avail_in && d->zs.next_in[0] != 0x1f) {
		d->zs.avail_in = 0;
		d->eof = 1;
	}
}

static ssize_t gz_read(struct dstream *d, char *buf, size_t n,
		       struct strbuf *err)
{
	z_stream *z = &d->zs;

	z->next_out = (unsigned char *)buf;
	z->avail_out = (uInt)n;
	for (;;) {
		if (!z->avail_in && !d->eof) {
			ssize_t got = fill(d, err);
			if (got < 0)
				return -1;
			z->next_in = d->in;
			z->avail_in = (uInt)got;
		}
		int rc = ((inflate_fn)d->api.z.inflate)(z, Z_NO_FLUSH);
		if (rc == Z_STREAM_END) {
			gz_member_end(d);
		} else if (rc == Z_OK) {
			d->open = 1;
		} else if (rc != Z_BUF_ERROR) {
			sb_addf(err, _("corrupt gzip data (%s)"),
				z->msg ? z->msg : "?");
			return -1;
		}
		if (z->avail_out != n)
			return (ssize_t)(n - z->avail_out);
		if (!z->avail_in && d->eof)
			return d->open ? cut_short(err) : 0;
	}
}
#endif

#ifdef HAVE_LZMA
typedef lzma_ret (*xz_dec_fn)(lzma_stream *, uint64_t, uint32_t);
typedef lzma_ret (*xz_code_fn)(lzma_stream *, lzma_action);

static int xz_open(struct dstream *d)
{
	lzma_stream init = LZMA_STREAM_INIT;

	d->xs = init;
	return ((xz_dec_fn)d->api.x.stream_decoder)(&d->xs, XZ_MEMLIMIT,
						    LZMA_CONCATENATED) == LZMA_OK
	       ? 0 : -1;
}

static ssize_t xz_read(struct dstream *d, char *buf, size_t n,
		       struct strbuf *err)
{
	lzma_stream *x = &d->xs;

	x->next_out = (uint8_t *)buf;
	x->avail_out = n;
	while (!d->done) {
		if (!x->avail_in && !d->eof) {
			ssize_t got = fill(d, err);
			if (got < 0)
				return -1;
			x->next_in = d->in;
			x->avail_in = (size_t)got;
		}
		lzma_ret rc = ((xz_code_fn)d->api.x.code)(
			x, d->eof ? LZMA_FINISH : LZMA_RUN);
		d->done = rc == LZMA_STREAM_END;
		if (rc == LZMA_BUF_ERROR && d->eof)
			return cut_short(err);
		if (rc == LZMA_MEMLIMIT_ERROR) {
			sb_addf(err, _("xz data that needs more than %llu MiB to read (refused)"),
				XZ_MEMLIMIT >> 20);
			return -1;
		}
		if (rc != LZMA_OK && rc != LZMA_BUF_ERROR && !d->done) {
			sb_addf(err, _("corrupt xz data (error %d)"), (int)rc);
			return -1;
		}
		if (x->avail_out != n)
			break;
	}
	return (ssize_t)(n - x->avail_out);
}
#endif

#ifdef HAVE_ZSTD
typedef ZSTD_DStream *(*zs_create_fn)(void);
typedef size_t (*zs_init_fn)(ZSTD_DStream *);
typedef size_t (*zs_param_fn)(ZSTD_DCtx *, ZSTD_dParameter, int);
typedef size_t (*zs_dec_fn)(ZSTD_DStream *, ZSTD_outBuffer *,
			    ZSTD_inBuffer *);
typedef unsigned (*zs_iserr_fn)(size_t);
typedef const char *(*zs_errname_fn)(size_t);

static int zst_open(struct dstream *d)
{
	d->ds = ((zs_create_fn)d->api.s.createDStream)();
	if (!d->ds)
		return -1;
	((zs_init_fn)d->api.s.initDStream)(d->ds);
	((zs_param_fn)d->api.s.DCtx_setParameter)(d->ds, ZSTD_d_windowLogMax,
						  ZSTD_WINDOWLOG_MAX);
	d->zin = (ZSTD_inBuffer){ d->in, 0, 0 };
	return 0;
}

static ssize_t zst_read(struct dstream *d, char *buf, size_t n,
			struct strbuf *err)
{
	ZSTD_outBuffer out = { buf, n, 0 };

	for (;;) {
		if (d->zin.pos == d->zin.size && !d->eof) {
			ssize_t got = fill(d, err);
			if (got < 0)
				return -1;
			d->zin = (ZSTD_inBuffer){ d->in, (size_t)got, 0 };
		}
		/* Between frames at the end: asked again, the library
		 * would wait for the next frame's header. */
		if (d->zin.pos == d->zin.size && d->eof && !d->open)
			return 0;
		size_t left = ((zs_dec_fn)d->api.s.decompressStream)(
			d->ds, &out, &d->zin);
		if (((zs_iserr_fn)d->api.s.isError)(left)) {
			sb_addf(err, _("corrupt zstd data (%s)"),
				((zs_errname_fn)d->api.s.getErrorName)(left));
			return -1;
		}
		/* 0: a frame ended (another may follow). */
		d->open = left != 0;
		if (out.pos)
			return (ssize_t)out.pos;
		if (d->zin.pos == d->zin.size && d->eof)
			return d->open ? cut_short(err) : 0;
	}
}
#endif

static void produce(void *ctx, struct ra_record *r, size_t chunk);

struct dstream *dstream_open(enum packed kind, int fd, const char **why)
{
	struct dstream *d = xcalloc(1, sizeof *d);
	int rc = -1;

	d->kind = kind;
	d->fd = fd;
	if (codec_load(kind, &d->api, why) == 0) {
		switch (kind) {
#ifdef HAVE_ZLIB
		case PACK_GZ: rc = gz_open(d); break;
#endif
#ifdef HAVE_LZMA
		case PACK_XZ: rc = xz_open(d); break;
#endif
#ifdef HAVE_ZSTD
		case PACK_ZST: rc = zst_open(d); break;
#endif
		default: break;
		}
		if (rc < 0)
			*why = N_("its library could not start a decoder (out of memory?)");
	}
	if (rc < 0) {
		close(fd);
		free(d);
		return NULL;
	}
	struct stat st;
	if (readahead_wanted() && fstat(fd, &st) == 0 && st.st_size >= AHEAD_MIN)
		d->ra = readahead_start(produce, d, AHEAD_RING, AHEAD_CHUNK, 1);
	return d;
}

static ssize_t decode(struct dstream *d, char *buf, size_t n,
		      struct strbuf *err)
{
	switch (d->kind) {
#ifdef HAVE_ZLIB
	case PACK_GZ: return gz_read(d, buf, n, err);
#endif
#ifdef HAVE_LZMA
	case PACK_XZ: return xz_read(d, buf, n, err);
#endif
#ifdef HAVE_ZSTD
	case PACK_ZST: return zst_read(d, buf, n, err);
#endif
	default: break;
	}
	(void)buf, (void)n, (void)err;
	return 0;
}

/* The producer (on the read-ahead thread): one record of the stream. */
static void produce(void *ctx, struct ra_record *r, size_t chunk)
{
	ssize_t n = decode(ctx, r->buf, chunk, &r->text);

	r->kind = n < 0 ? RA_ERROR : n == 0 ? RA_END : RA_DATA;
	r->len = n > 0 ? (size_t)n : 0;
}

/* The record the reader is at, one given out whole by dstream_data going
 * back to the ring first (its bytes stayed until this next call). */
static struct ra_record *ahead(struct dstream *d)
{
	struct ra_record *r = readahead_peek(d->ra);

	if (r->kind == RA_DATA && r->off == r->len) {
		readahead_pop(d->ra);
		r = readahead_peek(d->ra);
	}
	return r;
}

ssize_t dstream_read(struct dstream *d, char *buf, size_t n,
		     struct strbuf *err)
{
	if (!d->ra)
		return decode(d, buf, n, err);
	struct ra_record *r = ahead(d);
	if (r->kind == RA_END)
		return 0;
	if (r->kind == RA_ERROR) {
		sb_add(err, r->text.buf, r->text.len);
		return -1;
	}
	size_t k = r->len - r->off < n ? r->len - r->off : n;
	memcpy(buf, r->buf + r->off, k);
	r->off += k;
	return (ssize_t)k;
}

ssize_t dstream_data(struct dstream *d, char *buf, size_t n,
		     const char **data, struct strbuf *err)
{
	*data = buf;
	if (!d->ra)
		return decode(d, buf, n, err);
	struct ra_record *r = ahead(d);
	if (r->kind != RA_DATA)
		return dstream_read(d, buf, n, err);
	/* The rest of the record where the producer made it: the reader,
	 * the slower side of the two, copies nothing. */
	size_t k = r->len - r->off;
	*data = r->buf + r->off;
	r->off = r->len;
	return (ssize_t)k;
}

void dstream_close(struct dstream *d)
{
	if (!d)
		return;
	/* The producer first: it is the one using the decoder. */
	readahead_stop(d->ra);
	switch (d->kind) {
#ifdef HAVE_ZLIB
	case PACK_GZ: ((int (*)(z_streamp))d->api.z.inflateEnd)(&d->zs); break;
#endif
#ifdef HAVE_LZMA
	case PACK_XZ: ((void (*)(lzma_stream *))d->api.x.end)(&d->xs); break;
#endif
#ifdef HAVE_ZSTD
	case PACK_ZST:
		((size_t (*)(ZSTD_DStream *))d->api.s.freeDStream)(d->ds);
		break;
#endif
	default: break;
	}
	close(d->fd);
	free(d);
}
