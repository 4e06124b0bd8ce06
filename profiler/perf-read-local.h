/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf-read-local.h - a streaming reader of perf.data (PERFILE2) files and the pure decoder of
 * PERF_RECORD_SAMPLE bodies.
 *
 * The reader validates everything it takes from the file (header, attrs, ids, feature sections,
 * every record size) before using it, reads the data section sequentially through a fixed
 * buffer, and hands out records one at a time in the order `perf report` delivers them: records
 * carrying a timestamp are queued and released, sorted by time, at each FINISHED_ROUND exactly
 * as perf's ordered_events do (so memory is bounded by two rounds, not by the file), records
 * without a timestamp are delivered at once.
 *
 * Read as well: pipe-mode streams (perf record -o -, from a file or a pipe; attrs, names and
 * features come as records), zstd-compressed records (perf record -z). AUXTRACE payloads (Intel
 * PT and the like) are skipped and counted.
 *
 * Rejected with a one-line reason: wrong magic, big-endian (byte-swapped) files, PERFFILE v1,
 * sizes or offsets outside the file, truncated files.
 *
 * Errors: 0 / 1 or a negative errno; with a message in the caller's err buffer (no prefix: the
 * caller names the file).
 */
#ifndef KPROF_PERF_READ_LOCAL_H
#define KPROF_PERF_READ_LOCAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "profiler/perf-file-local.h"

/* ---- PERF_RECORD_SAMPLE decoder (sample.c) ---------------------------------------------- */

/*
 * A decoded sample. Pointers point into the record body given to the decoder and live as long
 * as it; arrays there may be unaligned, read them with perf_u64_at(). Fields whose sample_type
 * bit is absent keep the defaults documented here.
 */
struct perf_sample {
	uint64_t	id;		/* IDENTIFIER or ID; -1 when absent */
	uint64_t	ip;
	int32_t		pid, tid;	/* -1 when absent */
	uint64_t	time;		/* -1 when absent */
	uint64_t	addr;
	uint64_t	stream_id;	/* -1 when absent */
	int32_t		cpu;		/* -1 when absent */
	uint64_t	period;		/* attr.sample_period when absent */
	struct {
		uint64_t	nr;		/* group members (1 without PERF_FORMAT_GROUP) */
		uint64_t	time_enabled, time_running;
		/* PERF_FORMAT_GROUP: nr x {value, [id], [lost]}, value_size bytes each */
		const void	*values;
		size_t		value_size;
		uint64_t	value, id, lost;	/* without PERF_FORMAT_GROUP */
	} read;
	uint64_t	callchain_nr;
	const void	*callchain;	/* u64 ips[callchain_nr], markers included */
	uint32_t	raw_size;
	const void	*raw;
	uint64_t	branch_nr, branch_hw_idx;
	const void	*branches;	/* branch_nr x {from, to, flags} */
	uint64_t	user_regs_abi;
	const void	*user_regs;	/* popcount(sample_regs_user) u64 when abi != 0 */
	uint64_t	user_stack_size, user_stack_dyn_size;
	const void	*user_stack;
	uint64_t	weight, data_src, transaction;
	uint64_t	intr_regs_abi;
	const void	*intr_regs;
	uint64_t	phys_addr, cgroup, data_page_size, code_page_size;
	uint64_t	aux_size;
	const void	*aux;
};

/* An unaligned little-endian u64 of an array in a record body. */
static inline uint64_t perf_u64_at(const void *base, size_t i)
{
	uint64_t v;

	memcpy(&v, (const char *)base + i * 8, 8);
	return v;
}

/* sample_type bits this decoder understands (everything of Linux 6.1). */
#define PERF_SAMPLE_KNOWN_BITS	((uint64_t)PERF_SAMPLE_MAX - 1)

/*
 * Decode the body (the bytes after struct perf_event_header) of a PERF_RECORD_SAMPLE of @attr.
 * 0, or -EINVAL when the body is shorter than its fields say, or the attr has sample_type bits
 * this decoder does not know.
 */
int perf_sample_decode(const void *body, size_t len, const struct perf_event_attr *attr,
		       struct perf_sample *s);
/*
 * Decode the sample_id_all trailer at the end of the body of a non-sample record
 * (pid/tid, time, id, stream_id, cpu, identifier, as attr.sample_type selects). Fields not in
 * the trailer keep perf_sample_decode()'s defaults. 0, or -EINVAL when @len is too short.
 */
int perf_sample_id_decode(const void *body, size_t len, const struct perf_event_attr *attr,
			  struct perf_sample *s);
/* Size in bytes of the sample_id_all trailer of @attr (0 without sample_id_all). */
size_t perf_sample_id_size(const struct perf_event_attr *attr);
/*
 * Where a record's event id is, per sample_type (perf's id_pos / is_pos): the u64 index of the
 * id from the start of a sample body, and from the end of a non-sample body (1 = last u64).
 * -1 when the records carry no id.
 */
int perf_sample_id_pos(uint64_t sample_type);
int perf_sample_is_pos(uint64_t sample_type);

/* ---- the file reader (perf-read.c) ------------------------------------------------------ */

struct perf_reader;

/* One event of the file (one perf_file_attr). */
struct perf_evattr {
	struct perf_event_attr	attr;	/* as written, zero-extended or cut to ours */
	char			*name;	/* EVENT_DESC's, else from type/config; owned */
	uint64_t		*ids;	/* owned */
	size_t			nr_ids;
	size_t			idx;	/* position in the attrs section */
};

/* Feature sections of interest; NULL / 0 when absent. Owned by the reader. */
/* A file's build-id as perf record saw it (the BUILD_ID feature). */
struct perf_build_id {
	int32_t		pid;		/* -1: the kernel's (kernel and modules) */
	bool		kernel;		/* misc cpumode KERNEL (or GUEST_KERNEL) */
	uint8_t		size;		/* bytes in id (20 for SHA-1) */
	uint8_t		id[20];
	char		*filename;	/* owned */
};

struct perf_file_info {
	char		*hostname, *osrelease, *version, *arch, *cmdline;
	int		nr_cpus_avail, nr_cpus_online;
	struct perf_build_id *build_ids;	/* owned; nr_build_ids of them */
	size_t		nr_build_ids;
};

struct perf_record_stats {
	uint64_t	records, samples;
	uint64_t	unknown_id;		/* samples whose id matches no attr (skipped) */
	uint64_t	unordered;	/* records older than the last flush (perf warns too) */
	/* Said on stderr by the CLI: what was in the file and not understood. */
	uint64_t	auxtrace, auxtrace_bytes;	/* AUXTRACE records, their payloads */
	uint32_t	auxtrace_type;		/* AUXTRACE_INFO's type (1: Intel PT), 0 none */
	uint64_t	compressed;		/* COMPRESSED records decompressed */
	uint64_t	late_headers;	/* pipe mode: build-ids/features after the first sample */
};

/* A record as handed out by perf_reader_next(). Valid until the next call. */
struct perf_record {
	struct perf_event_header	hdr;
	const void			*body;	/* hdr.size - 8 bytes */
	size_t				body_len;
	uint64_t			offset;	/* file offset of the record */
	uint64_t			time;	/* -1 when it has none */
	/* The attr a SAMPLE belongs to; for other records the attr named by their sample_id_all
	 * trailer, or NULL. Never NULL for a SAMPLE. */
	const struct perf_evattr	*attr;
};

/*
 * Open and validate @path ("-": standard input, which may be a pipe: pipe mode only). 0, or
 * -errno with a one-line reason in @err.
 */
int perf_reader_open(const char *path, struct perf_reader **out, char *err, size_t errlen);
void perf_reader_close(struct perf_reader *r);			/* NULL-safe */

size_t perf_reader_nr_attrs(const struct perf_reader *r);
const struct perf_evattr *perf_reader_attr(const struct perf_reader *r, size_t i);
const struct perf_file_info *perf_reader_info(const struct perf_reader *r);
const struct perf_record_stats *perf_reader_stats(const struct perf_reader *r);

/*
 * How many bytes of records may wait for time ordering before the older half is released
 * regardless (a file without FINISHED_ROUND records); default 256 MiB. For tests and tuning.
 */
void perf_reader_set_queue_limit(struct perf_reader *r, size_t bytes);

/*
 * The next record, in perf's delivery order. 1 and *rec filled, 0 at the end of the data,
 * -errno with a one-line reason in @err (corrupt or truncated data, compressed records).
 */
int perf_reader_next(struct perf_reader *r, struct perf_record *rec, char *err, size_t errlen);

/*
 * Grow an array to hold @need elements of @elem bytes (doubling). The (possibly moved) array,
 * or NULL with the old one intact on ENOMEM. Used by the reader and the pipeline's tables.
 */
void *perf_grow_array(void *p, size_t *alloc, size_t need, size_t elem);

/* True when the first bytes of a file are perf.data's magic (either byte order). */
bool perf_file_magic_ok(const void *head, size_t len);
/* perf's name of an AUXTRACE type (1: "Intel PT"), or "unknown". */
const char *perf_auxtrace_name(uint32_t type);

#endif
