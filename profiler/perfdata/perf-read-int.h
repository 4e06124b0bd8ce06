/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf-read-int.h - the perf.data reader's internals, shared by perf-read.c (header, attrs),
 * perf-read-features.c (feature sections) and perf-read-data.c (the record stream).
 */
#ifndef KPROF_PERF_READ_INT_H
#define KPROF_PERF_READ_INT_H

#include <stdbool.h>

#include "profiler/perfdata/perfdata.h"

struct reader_zstd;

struct reader_id {
	uint64_t	id;
	size_t		attr;
};

/*
 * A block of the data section as read (1 MiB), or of records copied for the ordering queue
 * (decompressed ones, whose buffer is reused): perf-read-data.c. A queued record stays where it
 * is; the block goes back to the reader's pool once none of its records is queued any more.
 */
struct read_chunk {
	struct read_chunk	*next;		/* the pool's free list */
	struct read_chunk	*all;		/* every chunk, to free them */
	size_t			refs;		/* queued records in it, and the one handed out */
	size_t			used;		/* a copy chunk's bytes taken */
	unsigned char		data[];
};

/* A record waiting in the time-ordering queue, where it was read (or copied). */
struct queued_record {
	uint64_t			time, seq, offset;
	const unsigned char		*at;	/* its header */
	struct read_chunk		*chunk;
	const struct pd_evattr	*attr;
};

struct pd_reader {
	int			fd;
	uint64_t		file_size;
	struct pd_file_header	header;
	struct pd_evattr	*attrs;
	size_t			nr_attrs;
	struct reader_id	*ids;		/* sorted by id */
	size_t			nr_ids;
	int			id_pos, is_pos;	/* see pd_sample_id_pos() */
	/* The last sample id looked up and its attr's index (samples come in runs of one id). */
	uint64_t		last_id;
	size_t			last_id_attr;
	bool			last_id_ok;	/* cleared when the ids are indexed again */
	struct pd_file_info	info;
	struct pd_record_stats stats;
	struct pd_file_section	tracing_data;	/* TRACING_DATA's section, size 0 when absent */

	/* Sequential reading of the data section through cur's data (perf-read-data.c). */
	struct read_chunk	*cur;
	size_t			buf_pos, buf_len;	/* consumed / valid bytes of it */
	uint64_t		buf_off;		/* file offset of its first byte */
	uint64_t		data_end;

	/* perf's ordered_events: queued records, sorted and released at FINISHED_ROUND. */
	struct read_chunk	*copy;			/* where records not in cur are copied */
	struct read_chunk	*free_chunks, *all_chunks;
	struct read_chunk	*held;			/* the queued record handed out last */
	struct queued_record	*queue;
	size_t			nr_queued, queue_alloc;
	struct queued_record	*sort_tmp;		/* sort_queue()'s merge buffer */
	size_t			sort_tmp_alloc;
	size_t			*runs;			/* sort_queue()'s run boundaries */
	size_t			runs_alloc;
	size_t			ready, ready_pos;	/* [ready_pos, ready): next out */
	uint64_t		seq, next_flush, max_time, last_flush;
	size_t			queue_limit;	/* queued bytes that force a half flush */
	size_t			chunks_limit;	/* chunks out of the pool that do too */
	size_t			chunks_out;	/* taken and not back in the pool */
	size_t			queued_bytes;	/* of the records queued, not handed out yet */
	bool			eof;

	/*
	 * Pipe mode (perf record -o -): attrs, names and features come as records
	 * (perf-read-pipe.c); a pipe or terminal is read sequentially (no file size).
	 */
	bool			pipe_mode, stream;
	bool			prescan_done;	/* attrs are fixed from here on */
	size_t			attrs_alloc;
	/* PERF_RECORD_COMPRESSED (perf record -z): perf-read-zstd.c */
	struct reader_zstd	*zstd;
};

int reader_pread(struct pd_reader *r, void *buf, size_t len, uint64_t off,
		 char *err, size_t errlen);
/* The attr of a sample id; with a single attr, that attr whatever the id. */
const struct pd_evattr *reader_attr_by_id(const struct pd_reader *r, uint64_t id);
/* The attr whose ids section lists @id, or NULL. O(log ids). */
const struct pd_evattr *reader_id_lookup(const struct pd_reader *r, uint64_t id);

static inline bool feature_set(const struct pd_reader *r, unsigned int bit)
{
	return r->header.adds_features[bit / 64] & (1ULL << (bit % 64));
}

/* perf-read-features.c: the feature sections (and event names). */
int reader_read_features(struct pd_reader *r, char *err, size_t errlen);
/* One feature payload (a section, or a pipe-mode HEADER_FEATURE record). 0 or -errno. */
int reader_parse_feature(struct pd_reader *r, unsigned int bit, const void *p, size_t len);
/* Give every attr without an EVENT_DESC name perf's generic one. 0 or -ENOMEM. */
int reader_name_attrs(struct pd_reader *r);
/* perf-read.c: the id -> attr index and where ids sit, once the attrs are known. */
int reader_index_ids(struct pd_reader *r, char *err, size_t errlen);
/* Check and zero-extend one attr of @size bytes as written; 0 or -errno with err set. */
int reader_take_attr(struct pd_reader *r, struct pd_evattr *ev, const void *buf,
		     size_t room, char *err, size_t errlen);
/*
 * Read a pipe into @buf (room @len) until at least @min bytes are there or it ends; *got says
 * how many. 0 or -errno with err set.
 */
int reader_read_stream(struct pd_reader *r, void *buf, size_t len, size_t *got,
		       size_t min, char *err, size_t errlen);
/* perf-read-data.c: @n bytes of the data stream at cur->data + buf_pos, reading as needed. */
int reader_fill(struct pd_reader *r, size_t n, char *err, size_t errlen);
/* Bytes of the stream buffered or still readable, up to @n (EOF of a pipe: fewer). */
size_t reader_avail(struct pd_reader *r, size_t n, char *err, size_t errlen, int *ret);
/* The type of the next record in the stream without taking it: 1, 0 at the end, -errno. */
int reader_peek_type(struct pd_reader *r, uint32_t *type, char *err, size_t errlen);
/*
 * The next record in stream order (not time-ordered): 1, 0 at the end, -errno; while a
 * pipe-mode stream is opened, 2 for a record whose payload was skipped (TRACING_DATA, AUXTRACE).
 */
int reader_next_raw(struct pd_reader *r, struct pd_record *rec, char *err, size_t errlen);
/* Skip @n bytes of the data stream (AUXTRACE and TRACING_DATA payloads). */
int reader_skip(struct pd_reader *r, uint64_t n, char *err, size_t errlen);
/* perf-read-pipe.c: the records before the first kernel record of a pipe-mode stream. */
int reader_pipe_open(struct pd_reader *r, char *err, size_t errlen);
/*
 * A perf user record (type >= 64) met in the stream: names, features, the payloads that follow
 * some of them. 0, or -errno with err set.
 */
int reader_user_record(struct pd_reader *r, const struct pd_record *rec, char *err,
		       size_t errlen);
/* perf-read-zstd.c */
int reader_zstd_feed(struct pd_reader *r, const struct pd_record *rec, char *err,
		     size_t errlen);
/* The next decompressed record: 1 and *rec filled, 0 when none is complete. */
int reader_zstd_next(struct pd_reader *r, struct pd_record *rec, char *err, size_t errlen);
/* At the end of the stream: -EINVAL when a decompressed record was left incomplete. */
int reader_zstd_finish(struct pd_reader *r, char *err, size_t errlen);
void reader_zstd_release(struct pd_reader *r);
/* perf-read-data.c: the record stream. */
int reader_data_init(struct pd_reader *r, char *err, size_t errlen);
void reader_data_release(struct pd_reader *r);

#endif
