/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf-file-local.h - the on-disk layout of perf.data (PERFILE2), shared by the reader and the
 * writer. Mirrors tools/perf/util/header.h and Documentation/perf.data-file-format.txt of Linux
 * 6.1; record bodies are those of <linux/perf_event.h>. Little-endian host files only.
 *
 *   struct perf_file_header            at offset 0
 *   struct perf_file_attr[]            at header.attrs (each: attr, then its ids section)
 *   u64 ids[]                          wherever each perf_file_attr.ids points
 *   records                            at header.data: struct perf_event_header + body, each
 *   struct perf_file_section[]         right after the data section: one per set feature bit,
 *                                      in bit order, each pointing at that feature's payload
 */
#ifndef KPROF_PERF_FILE_LOCAL_H
#define KPROF_PERF_FILE_LOCAL_H

#include <stdint.h>
#include <linux/perf_event.h>

#define PERF_FILE_MAGIC2	0x32454c4946524550ULL	/* "PERFILE2" little-endian */
#define PERF_FILE_MAGIC2_SWAPPED 0x50455246494c4532ULL	/* written by a big-endian host */

struct perf_file_section {
	uint64_t	offset;
	uint64_t	size;
};

#define PERF_FILE_FEAT_BITS	256

struct perf_file_header {
	uint64_t			magic;
	uint64_t			size;		/* sizeof(struct perf_file_header) */
	uint64_t			attr_size;	/* sizeof(struct perf_file_attr) as written */
	struct perf_file_section	attrs;
	struct perf_file_section	data;
	struct perf_file_section	event_types;	/* unused since 2.6.x */
	uint64_t			adds_features[PERF_FILE_FEAT_BITS / 64];
};

/* One entry of the attrs section. attr.size may be smaller or larger than ours. */
struct perf_file_attr {
	struct perf_event_attr		attr;
	struct perf_file_section	ids;
};

/* Feature bits (tools/perf/util/header.h, HEADER_*). */
enum perf_file_feature {
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
enum perf_auxtrace_type {
	PERF_AUXTRACE_INTEL_PT = 1, PERF_AUXTRACE_INTEL_BTS, PERF_AUXTRACE_CS_ETM,
	PERF_AUXTRACE_ARM_SPE, PERF_AUXTRACE_S390_CPUMSF, PERF_AUXTRACE_HISI_PTT,
};

/* EVENT_UPDATE's type (tools/lib/perf/include/perf/event.h). */
#define PERF_EVENT_UPDATE_NAME	2

/*
 * Strings in feature payloads are "struct perf_header_string": u32 len (including padding to a
 * multiple of 8, NUL included), then the bytes.
 */

/*
 * perf_record_header_build_id.misc: the id's size is in its byte 20 (ids shorter than SHA-1's).
 * Not in every linux/perf_event.h; its value is tools/lib/perf/include/perf/event.h's.
 */
#ifndef PERF_RECORD_MISC_BUILD_ID_SIZE
#define PERF_RECORD_MISC_BUILD_ID_SIZE	(1 << 15)
#endif

/* perf's user-space record types (tools/lib/perf/include/perf/event.h), >= 64. */
enum perf_user_record_type {
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

#endif
