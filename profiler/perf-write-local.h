/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf-write-local.h - writing perf.data (PERFILE2, layout in perf-file-local.h) and the
 * records perf would synthesize for what existed before recording started (synth.c).
 *
 * File layout written: header | ids of every attr | attrs | data records | feature section
 * table | feature payloads. The file is built as "<path>.tmp.XXXXXX" (atomic_tmp_create(): new,
 * never through a symlink) and renamed over <path> only when complete, so an interrupted or
 * failed recording never leaves a half file under the name.
 */
#ifndef KPROF_PERF_WRITE_LOCAL_H
#define KPROF_PERF_WRITE_LOCAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/perf_event.h>

struct perf_writer;

struct perf_write_event {
	const char			*name;	/* EVENT_DESC name; borrowed */
	const struct perf_event_attr	*attr;	/* borrowed */
	const uint64_t			*ids;	/* kernel ids of its fds; borrowed */
	size_t				nr_ids;
};

/* Create <path>.tmp.XXXXXX and write header, ids and attrs. 0 / -errno. */
int perf_writer_open(const char *path, const struct perf_write_event *evs, size_t nr,
		     struct perf_writer **out);
/* Append one record (header.size bytes at @rec). Errors are sticky, reported at close. */
void perf_writer_add(struct perf_writer *w, const void *rec);
uint64_t perf_writer_data_size(const struct perf_writer *w);
/* The first failed write's -errno (sticky), or 0. Same thread as perf_writer_add(). */
int perf_writer_error(const struct perf_writer *w);

struct perf_write_meta {
	int		argc;		/* CMDLINE: the arguments after the kprof binary */
	char *const	*argv;
	const void	*tracing_data;	/* TRACING_DATA payload, or NULL */
	size_t		tracing_data_len;
};
/* Write the feature sections and the final header, rename into place, free. 0 / -errno. */
int perf_writer_close(struct perf_writer *w, const struct perf_write_meta *m);
void perf_writer_abort(struct perf_writer *w);	/* remove the temp file, free; NULL-safe */

/* ---- synthesized records (synth.c) -------------------------------------------------------- */

/* Bytes of the sample_id trailer that sample_id_all appends for @sample_type. */
size_t synth_id_hdr_size(uint64_t sample_type);
/* "[kernel.kallsyms]_text" MMAP for pid -1 spanning _text.._etext of @kallsyms. */
int synth_kernel_mmap(struct perf_writer *w, size_t id_hdr, const char *kallsyms);
/* COMM for every thread, FORK for non-leader threads, MMAP2 for executable maps of @pid. */
int synth_task(struct perf_writer *w, size_t id_hdr, pid_t pid);
/* synth_task() for every process in /proc (system-wide recording). */
int synth_all_tasks(struct perf_writer *w, size_t id_hdr);
/* Copy /proc/kallsyms to @dst (via write_file_atomic()). 0 / -errno. */
int synth_kallsyms_snapshot(const char *dst);

/* TRACING_DATA payload (perf's trace-event-info.c format, v0.6) for these tracepoints. */
int synth_tracing_data(char *const *systems, char *const *events, size_t nr, void **out,
		       size_t *len);

#endif
