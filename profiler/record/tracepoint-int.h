/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracepoint-int.h - record/'s check of tracepoint format texts read from a file
 * (tracepoint-format.c), used by the TRACING_DATA reader (tracepoint-data.c).
 */
#ifndef KPROF_RECORD_TRACEPOINT_INT_H
#define KPROF_RECORD_TRACEPOINT_INT_H

#include <stddef.h>

/*
 * Check one event format text (untrusted: from a file) against the shape the kernel writes and
 * return a canonical copy for tep_parse_event(): same name, id and fields, an empty print
 * format (tracepoint-format.c says why). 0 with *@out malloc'd (caller frees); -EINVAL with
 * "line N: what" in @err; -ENOMEM. Thread-safe, no global state.
 */
int tp_format_sanitize(const char *fmt, size_t len, char **out, size_t *out_len, char *err,
		       size_t errlen);

#endif
