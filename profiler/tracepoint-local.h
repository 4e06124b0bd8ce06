/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracepoint-local.h - tracepoint formats of a recording, for decoding PERF_SAMPLE_RAW with
 * libtraceevent. kprof record stores them in perf.data's TRACING_DATA feature (perf's own
 * format, so perf script decodes the fields too); this reads them back.
 */
#ifndef KPROF_TRACEPOINT_LOCAL_H
#define KPROF_TRACEPOINT_LOCAL_H

#include <stddef.h>

struct tep_handle;

/*
 * Parse every event format in the TRACING_DATA feature of the perf.data at @path into @tep.
 * 0; -ENOENT when the file has no TRACING_DATA; -EINVAL (with @err) when it is malformed.
 */
int tracing_data_load(const char *path, struct tep_handle *tep, char *err, size_t errlen);

/*
 * Check one event format text (untrusted: from a file) against the shape the kernel writes and
 * return a canonical copy for tep_parse_event(): same name, id and fields, an empty print
 * format (tracepoint-format.c says why). 0 with *@out malloc'd (caller frees); -EINVAL with
 * "line N: what" in @err; -ENOMEM.
 */
int tp_format_sanitize(const char *fmt, size_t len, char **out, size_t *out_len, char *err,
		       size_t errlen);

#endif
