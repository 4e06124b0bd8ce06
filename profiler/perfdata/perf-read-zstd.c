// SPDX-License-Identifier: GPL-2.0
/*
 * perf-read-zstd.c - PERF_RECORD_COMPRESSED (perf record -z): the payloads of all such records
 * are one zstd stream (perf keeps one ZSTD_DStream per session, tools/perf/util/zstd.c), whose
 * output is the kernel's records, a record possibly continued in the next COMPRESSED record
 * (perf's decomp_last). perf flushes the stream after each batch and never ends its frame, so
 * a stream cut short is seen only by a record left incomplete. They are handed out from here before the next record of the file, each
 * with the file offset of the COMPRESSED record it came from.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <zstd.h>

#include "profiler/lib/lib.h"
#include "profiler/perfdata/perf-read-int.h"

struct reader_zstd {
	ZSTD_DStream	*ds;
	unsigned char	*out;		/* decompressed records: [pos, len) not handed out yet */
	size_t		pos, len, alloc;
	uint64_t	offset;		/* of the COMPRESSED record they came from */
};

void reader_zstd_release(struct pd_reader *r)
{
	if (!r->zstd)
		return;
	ZSTD_freeDStream(r->zstd->ds);
	free(r->zstd->out);
	free(r->zstd);
	r->zstd = NULL;
}

static int zstd_init(struct pd_reader *r, char *err, size_t errlen)
{
	struct reader_zstd *z = calloc(1, sizeof(*z));

	if (!z)
		return err_set(err, errlen, -ENOMEM, "out of memory");
	r->zstd = z;
	z->ds = ZSTD_createDStream();
	if (!z->ds || ZSTD_isError(ZSTD_initDStream(z->ds)))
		return err_set(err, errlen, -ENOMEM, "cannot start zstd decompression");
	return 0;
}

int reader_zstd_feed(struct pd_reader *r, const struct pd_record *rec, char *err,
		     size_t errlen)
{
	ZSTD_inBuffer in = { rec->body, rec->body_len, 0 };
	struct reader_zstd *z;
	int ret;

	if (!r->zstd && (ret = zstd_init(r, err, errlen)))
		return ret;
	z = r->zstd;
	/* what is left is the start of a record continued in this batch */
	if (z->pos)	/* not memmove(NULL, NULL, 0) before the first batch: UB */
		memmove(z->out, z->out + z->pos, z->len - z->pos);
	z->len -= z->pos;
	z->pos = 0;
	z->offset = rec->offset;
	r->stats.compressed++;
	for (bool full = true; in.pos < in.size || full;) {
		ZSTD_outBuffer out;
		size_t left;
		unsigned char *grown;

		grown = grow_array(z->out, &z->alloc, z->len + ZSTD_DStreamOutSize(), 1);
		if (!grown)
			return err_set(err, errlen, -ENOMEM, "out of memory");
		z->out = grown;
		out = (ZSTD_outBuffer){ z->out + z->len, z->alloc - z->len, 0 };
		left = ZSTD_decompressStream(z->ds, &out, &in);
		if (ZSTD_isError(left))
			return err_set(err, errlen, -EINVAL,
				       "compressed record at offset %llu (size %u) does not "
				       "decompress: %s", (unsigned long long)rec->offset,
				       rec->hdr.size, ZSTD_getErrorName(left));
		z->len += out.pos;
		/* a full output buffer may leave more output inside the decoder */
		full = out.pos == out.size;
		if (!out.pos && in.pos < in.size)
			return err_set(err, errlen, -EINVAL,
				       "compressed record at offset %llu makes no progress",
				       (unsigned long long)rec->offset);
	}
	return 0;
}

int reader_zstd_next(struct pd_reader *r, struct pd_record *rec, char *err, size_t errlen)
{
	struct reader_zstd *z = r->zstd;
	size_t have;

	if (!z)
		return 0;
	have = z->len - z->pos;
	if (have < sizeof(rec->hdr))
		return 0;
	memcpy(&rec->hdr, z->out + z->pos, sizeof(rec->hdr));
	if (rec->hdr.size < sizeof(rec->hdr))
		return err_set(err, errlen, -EINVAL,
			       "bad record size %u in the compressed record at offset %llu",
			       rec->hdr.size, (unsigned long long)z->offset);
	if (rec->hdr.size > have)
		return 0;
	if (rec->hdr.type >= PERF_RECORD_HEADER_ATTR)
		return err_set(err, errlen, -EINVAL,
			       "record of type %u inside the compressed record at offset %llu",
			       rec->hdr.type, (unsigned long long)z->offset);
	rec->body = z->out + z->pos + sizeof(rec->hdr);
	rec->body_len = rec->hdr.size - sizeof(rec->hdr);
	rec->offset = z->offset;
	rec->time = UINT64_MAX;
	rec->attr = NULL;
	z->pos += rec->hdr.size;
	return 1;
}

int reader_zstd_finish(struct pd_reader *r, char *err, size_t errlen)
{
	if (r->zstd && r->zstd->pos != r->zstd->len)
		return err_set(err, errlen, -EINVAL,
			       "the last compressed record (offset %llu) ends inside a record",
			       (unsigned long long)r->zstd->offset);
	return 0;
}
