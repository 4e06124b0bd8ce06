/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf-read-int.h - the perf.data reader's internals, shared by perf-read.c (header, attrs),
 * perf-read-features.c (feature sections) and perf-read-data.c (the record stream).
 */
#ifndef KPROF_PERF_READ_INT_H
#define KPROF_PERF_READ_INT_H

#include <stdbool.h>

#include "profiler/perfdata/perfdata.h"

struct reader_id {
	uint64_t	id;
	size_t		attr;
};

/* A record waiting in the time-ordering queue. Its bytes are in perf_reader.arena. */
struct queued_record {
	uint64_t			time, seq, offset;
	size_t				at;	/* offset of the record in the arena */
	const struct perf_evattr	*attr;
};

struct perf_reader {
	int			fd;
	uint64_t		file_size;
	struct perf_file_header	header;
	struct perf_evattr	*attrs;
	size_t			nr_attrs;
	struct reader_id	*ids;		/* sorted by id; only with several attrs */
	size_t			nr_ids;
	int			id_pos, is_pos;	/* see perf_sample_id_pos() */
	struct perf_file_info	info;
	struct perf_record_stats stats;

	/* Sequential reading of the data section through buf. */
	unsigned char		*buf;
	size_t			buf_pos, buf_len;	/* consumed / valid bytes of buf */
	uint64_t		buf_off;		/* file offset of buf[0] */
	uint64_t		data_end;

	/* perf's ordered_events: queued records, sorted and released at FINISHED_ROUND. */
	unsigned char		*arena, *arena2;
	size_t			arena_len, arena_alloc, arena2_alloc;
	struct queued_record	*queue;
	size_t			nr_queued, queue_alloc;
	struct queued_record	*sort_tmp;		/* sort_queue()'s merge buffer */
	size_t			sort_tmp_alloc;
	size_t			*runs;			/* sort_queue()'s run boundaries */
	size_t			runs_alloc;
	size_t			ready, ready_pos;	/* [ready_pos, ready): next out */
	uint64_t		seq, next_flush, max_time, last_flush;
	size_t			queue_limit;	/* queued bytes that force a half flush */
	bool			eof;
};

int reader_pread(struct perf_reader *r, void *buf, size_t len, uint64_t off,
		 char *err, size_t errlen);
const struct perf_evattr *reader_attr_by_id(const struct perf_reader *r, uint64_t id);

static inline bool feature_set(const struct perf_reader *r, unsigned int bit)
{
	return r->header.adds_features[bit / 64] & (1ULL << (bit % 64));
}

/* perf-read-features.c: the feature sections (and event names). */
int reader_read_features(struct perf_reader *r, char *err, size_t errlen);
/* perf-read-data.c: the record stream. */
int reader_data_init(struct perf_reader *r, char *err, size_t errlen);
void reader_data_release(struct perf_reader *r);

#endif
