/* SPDX-License-Identifier: GPL-2.0 */
/*
 * export.h - a call graph (output.h) in the formats other profile tools read: pprof's
 * profile.proto (gzip-compressed, as `go tool pprof`, Pyroscope and Parca take it) and
 * speedscope's JSON file format. docs/export.md describes what each field holds.
 *
 * Knows nothing of perf: the caller names the event, its sampling period or frequency and the
 * build-ids of the files it saw. Memory grows with the distinct stacks of the graph (each is
 * visited once), never with the number of samples.
 *
 * Ownership: everything given is borrowed for the call only. Writers write only to the FILE *
 * they are given and never close it. Errors: 0 or a negative errno (-ENOMEM, -EIO for a failed
 * write, -ENODATA for a graph without samples). Not thread-safe on one FILE; otherwise
 * reentrant (no global state).
 */
#ifndef KPROF_EXPORT_H
#define KPROF_EXPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "output/output.h"

/* A file's build-id as the recording saw it. */
struct export_build_id {
	const char	*filename;	/* as the call graph names the module ("[kernel.kallsyms]",
					 * a path) */
	const uint8_t	*id;
	size_t		size;
};

/* One event's samples. */
struct export_event {
	const char		*name;		/* perf's name: "cpu-clock", "cycles:pp" */
	const struct callgraph	*cg;		/* task pid/tid kept when known (labels) */
	uint64_t		period;		/* fixed sampling period, 0 when sampled by freq */
	uint64_t		freq;		/* sampling frequency in Hz, 0 when by period */
};

struct export_opts {
	const struct export_build_id	*build_ids;	/* may be NULL */
	size_t				nr_build_ids;
	const char *const		*comments;	/* free text lines (host, kernel, command) */
	size_t				nr_comments;
	/* speedscope: one profile per thread ("comm pid/tid") instead of one per comm */
	bool				per_thread;
	/* speedscope: weights are sample counts, not periods */
	bool				weight_samples;
};

/*
 * The unit of an event's period: "nanoseconds" for the clock events (cpu-clock, task-clock,
 * with or without modifiers), else "count". Static strings.
 */
const char *export_event_unit(const char *event);

/*
 * A frame's display name, as folded output names it: the symbol, else "[<module basename>]",
 * else "[unknown]". @buf (>= 256 bytes) is used for the bracketed forms; the result is @buf or
 * frame->sym.
 */
const char *export_frame_name(const struct cg_frame *f, char *buf, size_t len);

/*
 * pprof: sample types [samples/count, <event>/<unit>] (values: sample count, period sum),
 * period_type/period from the event, one Location per distinct frame (address: the symbol's
 * start in its module), one Function per (name, module, start), one Mapping per module with
 * its build-id, labels comm (string), pid and tid (numbers, when known). Gzip-compressed.
 */
int export_pprof(FILE *fp, const struct export_event *ev, const struct export_opts *o);

/*
 * speedscope's file format (https://www.speedscope.app/file-format-schema.json): a shared frame
 * table and one "sampled" profile per comm (or per thread), heaviest first; samples root first,
 * one per distinct stack, weighted by period (unit from export_event_unit()) or by samples.
 */
int export_speedscope(FILE *fp, const struct export_event *ev, const struct export_opts *o);

/*
 * Chrome's .cpuprofile (DevTools, also read by speedscope and VS Code): the merged call tree
 * under "(root)" (comm first, as folded), then one sample per distinct stack with timeDeltas in
 * microseconds spaced by its weight (period for clock events, else 1 ms per sample), so totals
 * are exact and the timeline is grouped by stack.
 */
int export_chrome(FILE *fp, const struct export_event *ev, const struct export_opts *o);

#endif
