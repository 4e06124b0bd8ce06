/* SPDX-License-Identifier: GPL-2.0 */
/*
 * output.h - the call graph and everything written from it: LKP perf-profile keys, the
 * Children/Self table, folded stacks, flame graphs, and the comparison of result sets.
 *
 * Plain C: knows nothing of perf, DWARF or pids beyond the numbers it is given.
 *
 * Invariants of the call graph:
 *  - It aggregates *distinct stacks*: (task, frames) -> (period sum, sample count), so memory
 *    grows with the shape of the profile, not with the number of samples.
 *  - Frames are given leaf first (as perf records them) and stored that way.
 *  - Every string given to it is copied (interned); the caller keeps ownership of its own.
 *    Strings handed out by it live until callgraph_free().
 *
 * Errors: 0 or a negative errno; constructors return NULL with errno set. Writers only write
 * to the FILE * they are given.
 */
#ifndef KPROF_OUTPUT_H
#define KPROF_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- call graph -------------------------------------------------------------------------- */

struct callgraph;

enum cg_frame_flags {
	CG_FRAME_KERNEL	= 1 << 0,	/* a kernel frame (perf's [k]) */
};

struct cg_frame {
	const char	*sym;		/* function name; NULL when unresolved */
	const char	*dso;		/* module: "[kernel.kallsyms]", a path, "[unknown]"; never NULL */
	uint64_t	addr;		/* kept only for unresolved frames (collapse --addrs), else 0 */
	unsigned int	flags;		/* enum cg_frame_flags */
};

struct cg_task {
	const char	*comm;		/* process name, the root frame of folded stacks; NULL: none */
	int		pid;		/* -1 when not tracked */
	int		tid;		/* -1 when not tracked */
};

/* One distinct stack, as handed to callgraph_for_each() callbacks. All pointers borrowed. */
struct cg_stack {
	const struct cg_task	*task;
	const struct cg_frame	*frames;	/* leaf first */
	size_t			nr;
	uint64_t		period;		/* sum of sample periods */
	uint64_t		samples;	/* number of samples */
};

struct callgraph *callgraph_new(void);
void callgraph_free(struct callgraph *cg);		/* NULL-safe */

/* Add one sample (or @samples identical ones) of total weight @period. */
int callgraph_add(struct callgraph *cg, const struct cg_task *task,
		  const struct cg_frame *frames, size_t nr, uint64_t period, uint64_t samples);

uint64_t callgraph_total_period(const struct callgraph *cg);
uint64_t callgraph_total_samples(const struct callgraph *cg);
size_t callgraph_nr_stacks(const struct callgraph *cg);

/* Visit every distinct stack (in no particular order); a non-zero return stops and is returned. */
typedef int (*cg_stack_fn)(const struct cg_stack *st, void *arg);
int callgraph_for_each(const struct callgraph *cg, cg_stack_fn fn, void *arg);

/* ---- key/value lists (LKP metrics, stats.json) ------------------------------------------- */

struct kv {
	char	*key;		/* owned by the list */
	double	value;
};

struct kv_list {
	struct kv	*items;
	size_t		nr, alloc;
};

int kv_list_add(struct kv_list *l, const char *key, double value);
void kv_list_sort(struct kv_list *l);			/* bytewise by key */
void kv_list_release(struct kv_list *l);		/* frees items; the list is reusable */
/* "key: %.2f\n" lines (LKP's parse output format). */
int kv_list_write_text(FILE *fp, const struct kv_list *l);
/* A flat JSON object {"key": value, ...}; numbers in shortest round-trip form. */
int kv_list_write_json(FILE *fp, const struct kv_list *l);

/* ---- LKP perf-profile keys --------------------------------------------------------------- */

struct lkp_profile_opts {
	const char	*event;		/* perf's event name, e.g. "cycles:pp"; ':' becomes '-' */
	double		calltrace_min;	/* percent; perf's -g folded,<min>,callee (LKP: 0.5) */
	double		print_min;	/* percent; keys below are not printed (LKP: 0.05) */
	bool		weight_samples;	/* weight by sample count instead of period */
};

/*
 * Append perf-profile.{calltrace,children,self}.<event>.* keys for @cg to @out, exactly as LKP's
 * parser derives them from `perf report --children --header -U -g folded,0.5,callee
 * --sort=dso,symbol` (see docs/report.md). Unresolved frames are dropped, samples whose own IP
 * is unresolved are dropped; percentages are of the remaining total.
 */
int lkp_profile_keys(const struct callgraph *cg, const struct lkp_profile_opts *o,
		     struct kv_list *out);

/* ---- Children/Self table ----------------------------------------------------------------- */

struct table_opts {
	double		min_percent;	/* rows whose Children and Self are both below are hidden */
	bool		weight_samples;
	bool		show_unresolved;	/* keep unresolved frames as [unknown] rows */
};

/* Like `perf report --children -g none --sort=dso,symbol`: Children%, Self%, dso, symbol. */
int table_write(FILE *fp, const struct callgraph *cg, const struct table_opts *o);

/* ---- folded stacks ----------------------------------------------------------------------- */

enum folded_flags {
	FOLDED_PID	= 1 << 0,	/* root "comm-PID" */
	FOLDED_TID	= 1 << 1,	/* root "comm-PID/TID" */
	FOLDED_KERNEL	= 1 << 2,	/* "_[k]" on kernel frames */
	FOLDED_ADDRS	= 1 << 3,	/* "[module <addr>]" for unresolved frames */
	FOLDED_SAMPLES	= 1 << 4,	/* counts are sample counts, not periods */
};

/*
 * stackcollapse-perf.pl's format: root first, the comm (spaces as '_') as root frame, ';'
 * between frames, one space, the count; lines sorted bytewise; unresolved frames as
 * "[<module basename>]" or "[unknown]".
 */
int folded_write(FILE *fp, const struct callgraph *cg, unsigned int flags);

/* ---- LKP perf-stat keys (record area, issue 3; docs/stat.md) ---------------------------- */

/*
 * A perf-stat run as LKP's `perf stat -I` parser sees it: per interval, the count of every
 * event (NAN: not counted in that interval). Event names are perf's: "cpu-cycles",
 * "instructions", "cache-misses", "dTLB-load-misses", "page-faults", ...
 */
struct perf_stat_series {
	const char *const	*events;	/* nr_events names; borrowed */
	size_t			nr_events;
	size_t			nr_intervals;
	const double		*t_end;		/* [nr_intervals] seconds since start, increasing */
	const double		*counts;	/* [nr_intervals * nr_events] */
	bool			drop_last;	/* LKP skips the last interval perf printed */
};

/* Receives one key; a non-zero return stops the producer and is returned by it. */
typedef int (*perf_stat_emit_fn)(void *arg, const char *key, double value);

/*
 * Emit perf-stat.i.*, .ps.*, .total.instructions and .overall.* (the per-run scalars LKP puts
 * in stats.json), derived keys only where their counters exist and denominators are non-zero.
 */
int perf_stat_keys(const struct perf_stat_series *s, perf_stat_emit_fn emit, void *arg);
/* LKP's calc_addon_keys on one set of counts (@vals parallel to s->events), keys
 * "perf-stat.<prefix><name>": *-miss-rate%, ipc, cpi, MPKI, cycles-between-cache-misses,
 * instructions-per-iTLB-miss. */
int perf_stat_derive(const struct perf_stat_series *s, const double *vals, const char *prefix,
		     perf_stat_emit_fn emit, void *arg);

/* ---- flame graphs (issue 6) -------------------------------------------------------------- */

/* ---- comparison of result sets (issue 5) ------------------------------------------------- */

#endif
