/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfdata.h - the perf.data format: a streaming reader of perf.data (PERFILE2) files, the
 * pure decoder of PERF_RECORD_SAMPLE bodies, and the writer. Public header of profiler/perfdata/
 * (depends on lib/ only). Every name here is pd_* (PD_* for macros of our own): never perf's
 * own perf_* names, which readers of perf's source would take for perf's structures.
 * Threading: a reader or writer is used by one thread at a time; the decoders are pure.
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
#ifndef KPROF_PERFDATA_H
#define KPROF_PERFDATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*
 * The on-disk layout of perf.data (PERFILE2), shared by the reader and the
 * writer. Mirrors tools/perf/util/header.h and Documentation/perf.data-file-format.txt of Linux
 * 6.1; record bodies are those of <linux/perf_event.h>. Little-endian host files only.
 *
 *   struct pd_file_header              at offset 0
 *   struct pd_file_attr[]              at header.attrs (each: attr, then its ids section)
 *   u64 ids[]                          wherever each pd_file_attr.ids points
 *   records                            at header.data: struct perf_event_header + body, each
 *   struct pd_file_section[]           right after the data section: one per set feature bit,
 *                                      in bit order, each pointing at that feature's payload
 */

#include <stdint.h>
#include <linux/perf_event.h>

#define PERF_FILE_MAGIC2	0x32454c4946524550ULL	/* "PERFILE2" little-endian */
#define PERF_FILE_MAGIC2_SWAPPED 0x50455246494c4532ULL	/* written by a big-endian host */

struct pd_file_section {
	uint64_t	offset;
	uint64_t	size;
};

#define PERF_FILE_FEAT_BITS	256

struct pd_file_header {
	uint64_t			magic;
	uint64_t			size;		/* sizeof(struct pd_file_header) */
	uint64_t			attr_size;	/* sizeof(struct pd_file_attr) as written */
	struct pd_file_section	attrs;
	struct pd_file_section	data;
	struct pd_file_section	event_types;	/* unused since 2.6.x */
	uint64_t			adds_features[PERF_FILE_FEAT_BITS / 64];
};

/* One entry of the attrs section. attr.size may be smaller or larger than ours. */
struct pd_file_attr {
	struct perf_event_attr		attr;
	struct pd_file_section	ids;
};

/* Feature bits (tools/perf/util/header.h, HEADER_*). */
enum pd_file_feature {
	PERF_FEAT_TRACING_DATA	= 1,
	PERF_FEAT_BUILD_ID	= 2,
	PERF_FEAT_HOSTNAME	= 3,
	PERF_FEAT_OSRELEASE	= 4,
	PERF_FEAT_VERSION	= 5,
	PERF_FEAT_ARCH		= 6,
	PERF_FEAT_NRCPUS	= 7,
	PERF_FEAT_CPUDESC	= 8,
	PERF_FEAT_CPUID		= 9,
	PERF_FEAT_TOTAL_MEM	= 10,
	PERF_FEAT_CMDLINE	= 11,
	PERF_FEAT_EVENT_DESC	= 12,
	PERF_FEAT_CPU_TOPOLOGY	= 13,
	PERF_FEAT_NUMA_TOPOLOGY	= 14,
	PERF_FEAT_BRANCH_STACK	= 15,
	PERF_FEAT_PMU_MAPPINGS	= 16,
	PERF_FEAT_GROUP_DESC	= 17,
	PERF_FEAT_AUXTRACE	= 18,
	PERF_FEAT_STAT		= 19,
	PERF_FEAT_CACHE		= 20,
	PERF_FEAT_SAMPLE_TIME	= 21,
	PERF_FEAT_MEM_TOPOLOGY	= 22,
	PERF_FEAT_CLOCKID	= 23,
	PERF_FEAT_DIR_FORMAT	= 24,
	PERF_FEAT_BPF_PROG_INFO	= 25,
	PERF_FEAT_BPF_BTF	= 26,
	PERF_FEAT_COMPRESSED	= 27,
	PERF_FEAT_CPU_PMU_CAPS	= 28,
	PERF_FEAT_CLOCK_DATA	= 29,
	PERF_FEAT_HYBRID_TOPOLOGY = 30,
	PERF_FEAT_PMU_CAPS	= 31,
};

/* HEADER_COMPRESSED's type (tools/perf/util/compress.h). */
#define PERF_COMP_ZSTD		1

/* AUXTRACE_INFO's type (tools/perf/util/auxtrace.h enum auxtrace_type). */
enum pd_auxtrace_type {
	PERF_AUXTRACE_INTEL_PT = 1, PERF_AUXTRACE_INTEL_BTS, PERF_AUXTRACE_CS_ETM,
	PERF_AUXTRACE_ARM_SPE, PERF_AUXTRACE_S390_CPUMSF, PERF_AUXTRACE_HISI_PTT,
};

/* EVENT_UPDATE's type (tools/lib/perf/include/perf/event.h). */
#define PERF_EVENT_UPDATE_NAME	2

/*
 * Strings in feature payloads are "struct pd_header_string": u32 len (including padding to a
 * multiple of 8, NUL included), then the bytes.
 */

/*
 * pd_build_id_header.misc: the id's size is in its byte 20 (ids shorter than SHA-1's).
 * Not in every linux/perf_event.h; its value is tools/lib/perf/include/perf/event.h's.
 */
#ifndef PERF_RECORD_MISC_BUILD_ID_SIZE
#define PERF_RECORD_MISC_BUILD_ID_SIZE	(1 << 15)
#endif

/* perf's user-space record types (tools/lib/perf/include/perf/event.h), >= 64. */
enum pd_user_record_type {
	PERF_RECORD_HEADER_ATTR		= 64,
	PERF_RECORD_HEADER_EVENT_TYPE	= 65,
	PERF_RECORD_HEADER_TRACING_DATA	= 66,
	PERF_RECORD_HEADER_BUILD_ID	= 67,
	PERF_RECORD_FINISHED_ROUND	= 68,
	PERF_RECORD_ID_INDEX		= 69,
	PERF_RECORD_AUXTRACE_INFO	= 70,
	PERF_RECORD_AUXTRACE		= 71,
	PERF_RECORD_AUXTRACE_ERROR	= 72,
	PERF_RECORD_THREAD_MAP		= 73,
	PERF_RECORD_CPU_MAP		= 74,
	PERF_RECORD_STAT_CONFIG		= 75,
	PERF_RECORD_STAT		= 76,
	PERF_RECORD_STAT_ROUND		= 77,
	PERF_RECORD_EVENT_UPDATE	= 78,
	PERF_RECORD_TIME_CONV		= 79,
	PERF_RECORD_HEADER_FEATURE	= 80,
	PERF_RECORD_COMPRESSED		= 81,
	PERF_RECORD_FINISHED_INIT	= 82,
};

/* ---- PERF_RECORD_SAMPLE decoder (sample.c) ---------------------------------------------- */

/*
 * A decoded sample. Pointers point into the record body given to the decoder and live as long
 * as it; arrays there may be unaligned, read them with pd_u64_at(). Fields whose sample_type
 * bit is absent keep the defaults documented here.
 */
struct pd_sample {
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
static inline uint64_t pd_u64_at(const void *base, size_t i)
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
int pd_sample_decode(const void *body, size_t len, const struct perf_event_attr *attr,
		       struct pd_sample *s);
/*
 * Decode the sample_id_all trailer at the end of the body of a non-sample record
 * (pid/tid, time, id, stream_id, cpu, identifier, as attr.sample_type selects). Fields not in
 * the trailer keep pd_sample_decode()'s defaults. 0, or -EINVAL when @len is too short.
 */
int pd_sample_id_decode(const void *body, size_t len, const struct perf_event_attr *attr,
			  struct pd_sample *s);
/* Size in bytes of the sample_id_all trailer of @attr (0 without sample_id_all). */
size_t pd_sample_id_size(const struct perf_event_attr *attr);
/*
 * Where a record's event id is, per sample_type (perf's id_pos / is_pos): the u64 index of the
 * id from the start of a sample body, and from the end of a non-sample body (1 = last u64).
 * -1 when the records carry no id.
 */
int pd_sample_id_pos(uint64_t sample_type);
int pd_sample_is_pos(uint64_t sample_type);

/* ---- the file reader (perf-read.c) ------------------------------------------------------ */

struct pd_reader;

/* One event of the file (one pd_file_attr). */
struct pd_evattr {
	struct perf_event_attr	attr;	/* as written, zero-extended or cut to ours */
	char			*name;	/* EVENT_DESC's, else from type/config; owned */
	uint64_t		*ids;	/* owned */
	size_t			nr_ids;
	size_t			idx;	/* position in the attrs section */
};

/* Feature sections of interest; NULL / 0 when absent. Owned by the reader. */
/* A file's build-id as perf record saw it (the BUILD_ID feature). */
struct pd_build_id {
	int32_t		pid;		/* -1: the kernel's (kernel and modules) */
	bool		kernel;		/* misc cpumode KERNEL (or GUEST_KERNEL) */
	uint8_t		size;		/* bytes in id (20 for SHA-1) */
	uint8_t		id[20];
	char		*filename;	/* owned */
};

struct pd_file_info {
	char		*hostname, *osrelease, *version, *arch, *cmdline;
	int		nr_cpus_avail, nr_cpus_online;
	struct pd_build_id *build_ids;	/* owned; nr_build_ids of them */
	size_t		nr_build_ids;
};

struct pd_record_stats {
	uint64_t	records, samples;
	uint64_t	unknown_id;		/* samples whose id matches no attr (skipped) */
	uint64_t	unordered;	/* records older than the last flush (perf warns too) */
	/* Said on stderr by the CLI: what was in the file and not understood. */
	uint64_t	auxtrace, auxtrace_bytes;	/* AUXTRACE records, their payloads */
	uint32_t	auxtrace_type;		/* AUXTRACE_INFO's type (1: Intel PT), 0 none */
	uint64_t	compressed;		/* COMPRESSED records decompressed */
	uint64_t	late_headers;	/* headers kprof cannot use where they are: pipe-mode
					 * build-ids/features after the first sample, attrs in a
					 * file's data section */
};

/* A record as handed out by pd_reader_next(). Valid until the next call. */
struct pd_record {
	struct perf_event_header	hdr;
	const void			*body;	/* hdr.size - 8 bytes */
	size_t				body_len;
	uint64_t			offset;	/* file offset of the record */
	uint64_t			time;	/* -1 when it has none */
	/* The attr a SAMPLE belongs to; for other records the attr named by their sample_id_all
	 * trailer, or NULL. Never NULL for a SAMPLE. */
	const struct pd_evattr	*attr;
};

/*
 * Open and validate @path ("-": standard input, which may be a pipe: pipe mode only). 0, or
 * -errno with a one-line reason in @err.
 */
int pd_reader_open(const char *path, struct pd_reader **out, char *err, size_t errlen);
void pd_reader_close(struct pd_reader *r);			/* NULL-safe */

/*
 * The kernel's build-id from its MMAP2 record ("[kernel.kallsyms]_text" with
 * PERF_RECORD_MISC_MMAP_BUILD_ID: perf record --buildid-mmap) among the first records of
 * regular file @path's data section, into @out (filename NULL). 1 found, 0 not (or not a
 * regular perf.data file), -errno (perf-read-kbid.c).
 */
int pd_file_kernel_mmap_build_id(const char *path, struct pd_build_id *out);

size_t pd_reader_nr_attrs(const struct pd_reader *r);
const struct pd_evattr *pd_reader_attr(const struct pd_reader *r, size_t i);
const struct pd_file_info *pd_reader_info(const struct pd_reader *r);
const struct pd_record_stats *pd_reader_stats(const struct pd_reader *r);
/*
 * The TRACING_DATA feature's payload (tracepoint formats, perf's trace-event-info.c layout;
 * parsed by record/'s tracing_data_load) in a malloc'd *@buf. 0; -ENOENT when the file has
 * none; another -errno with a reason in @err.
 */
int pd_reader_tracing_data(struct pd_reader *r, void **buf, size_t *len, char *err,
			   size_t errlen);

/*
 * How many bytes of records may wait for time ordering before the older half is released
 * regardless (a file without FINISHED_ROUND records); default 256 MiB. The 1 MiB buffers that
 * hold them count too (at least 4 of them): a few queued records among many that go out at
 * once keep a buffer each. For tests and tuning.
 */
void pd_reader_set_queue_limit(struct pd_reader *r, size_t bytes);

/*
 * The next record, in perf's delivery order. 1 and *rec filled, 0 at the end of the data,
 * -errno with a one-line reason in @err (corrupt or truncated data, compressed records).
 */
int pd_reader_next(struct pd_reader *r, struct pd_record *rec, char *err, size_t errlen);

/* True when the first bytes of a file are perf.data's magic (either byte order). */
bool pd_magic_ok(const void *head, size_t len);
/* perf's name of an AUXTRACE type (1: "Intel PT"), or "unknown". */
const char *pd_auxtrace_name(uint32_t type);


/*
 * Writing perf.data (PERFILE2, layout in perfdata.h) and the
 * records perf would synthesize for what existed before recording started (synth.c, in record/).
 *
 * File layout written: header | ids of every attr | attrs | data records | feature section
 * table | feature payloads. The file is built as "<path>.tmp.XXXXXX" (atomic_tmp_create(): new,
 * never through a symlink) and renamed over <path> only when complete, so an interrupted or
 * failed recording never leaves a half file under the name.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/perf_event.h>

struct pd_writer;

struct pd_write_event {
	const char			*name;	/* EVENT_DESC name; borrowed */
	const struct perf_event_attr	*attr;	/* borrowed */
	const uint64_t			*ids;	/* kernel ids of its fds; borrowed */
	size_t				nr_ids;
};

/* Create <path>.tmp.XXXXXX and write header, ids and attrs. 0 / -errno. */
int pd_writer_open(const char *path, const struct pd_write_event *evs, size_t nr,
		     struct pd_writer **out);
/* Append one record (header.size bytes at @rec). Errors are sticky, reported at close. */
void pd_writer_add(struct pd_writer *w, const void *rec);
/* The first failed write's -errno (sticky), or 0. Same thread as pd_writer_add(). */
int pd_writer_error(const struct pd_writer *w);

struct pd_write_meta {
	int		argc;		/* CMDLINE: the arguments after the kprof binary */
	char *const	*argv;
	const void	*tracing_data;	/* TRACING_DATA payload, or NULL */
	size_t		tracing_data_len;
};
/* Write the feature sections and the final header, rename into place, free. 0 / -errno. */
int pd_writer_close(struct pd_writer *w, const struct pd_write_meta *m);
void pd_writer_abort(struct pd_writer *w);	/* remove the temp file, free; NULL-safe */

#endif
