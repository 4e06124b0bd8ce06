/* SPDX-License-Identifier: GPL-2.0 */
/*
 * profile.h - load a perf.data file into call graphs: read (perfdata.h),
 * symbolize (symbolize.h), aggregate (output.h). Used by report, collapse, flamegraph and run.
 * Public header of profiler/profile/ (may use script/, perfdata/, symbolize/, output/, lib/).
 * profile_load() runs two threads of its own and returns when both are done; a struct profile
 * is owned by the caller (profile_free, NULL-safe). Errors: -errno with a reason in the
 * caller's buffer that does not name the file (the caller does).
 *
 * One call graph per event that has samples. Frames are leaf first, call-chain context markers
 * dropped; a frame that does not resolve keeps sym == NULL and its module name (and its address
 * with keep_addrs), so -U-style consumers can drop it and folded output can show it.
 */
#ifndef KPROF_PROFILE_H
#define KPROF_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "output/output.h"

struct pd_build_id;

struct profile_load_opts {
	const char	*vmlinux;	/* --vmlinux PATH, or NULL */
	const char	*kallsyms;	/* --kallsyms PATH; NULL: "<file>.kallsyms" if it exists
					 * (written by kprof record), else /proc/kallsyms */
	bool		keep_pid;	/* tasks carry pid (collapse --pid/--tid); else -1 */
	bool		keep_tid;
	bool		keep_addrs;	/* unresolved frames keep their address (--addrs) */
};

struct profile_event {
	/* perf's event name: "cpu-clock", "cycles:pp", "sched:sched_switch" */
	char		*name;
	struct callgraph *cg;		/* owned by the profile */
	uint64_t	nr_samples;
	/* how it was sampled: every @period events, or @freq times a second (attr.freq) */
	uint64_t	period, freq;
};

/* Whether a sample was DWARF-unwound, and why not (pipeline-unwind.c). */
enum unwind_want {
	UNWIND_NONE,		/* no registers or stack copy: an ordinary sample */
	UNWIND_YES,
	UNWIND_ABI32,		/* a 32-bit process: not unwound (x86_64 only) */
	UNWIND_NO_REGS,		/* sample_regs_user lacks registers the unwinder needs */
	UNWIND_ARCH,		/* recorded on (or read on) another architecture than x86_64 */
};

struct profile {
	struct profile_event	*events;	/* events that have samples, in attr order */
	size_t			nr_events;
	uint64_t		nr_samples, nr_lost, nr_lost_records, nr_throttle;
	char			*hostname, *osrelease, *cmdline;	/* NULL when absent */
	int			nr_cpus;			/* 0 when absent */
	uint64_t		nr_unthrottle;
	uint64_t		nr_lost_samples;	/* PERF_RECORD_LOST_SAMPLES totals */
	uint64_t		nr_unknown_id;	/* samples of no known event (skipped) */
	char			*kernel_source;	/* symbolize's kernel symbol source */
	/*
	 * Mapped files whose build-id is not the recording's (rebuilt since): not used, their
	 * frames unresolved as in perf; the first one's path. Files found in perf's build-id
	 * cache instead are counted apart.
	 */
	uint64_t		nr_stale_files;
	char			*first_stale;
	uint64_t		nr_files_from_cache;
	/* Symbols not named: their file changed after kprof loaded its symbols; the first file. */
	uint64_t		nr_names_unread;
	char			*first_names_unread;
	/* The recording's build-ids (perf's BUILD_ID feature), for export; owned. */
	struct pd_build_id	*build_ids;
	size_t			nr_build_ids;
	/*
	 * DWARF unwinding (--call-graph dwarf): samples unwound, of those with no caller found,
	 * and samples not unwound by enum unwind_want (index 0: no stack copy, as any other).
	 */
	uint64_t		nr_unwound, nr_unwind_short;
	/*
	 * The recorded kernel build-id (hex) when nothing here has it (not this machine's
	 * kernel, nothing in perf's build-id cache): kernel frames unresolved, as in perf. "".
	 */
	char			kernel_build_id_missing[41];
	/*
	 * Kernel modules with a recorded build-id that the module loaded now (named in this
	 * machine's kallsyms) does not have, and found nowhere else: frames unresolved. The
	 * first one's "[name]".
	 */
	uint64_t		nr_stale_modules;
	char			*first_stale_module;
	/*
	 * Kernel modules named from kallsyms met before any kernel address, in perf's order
	 * (symbolize.h sym_stats.modules_early): perf 6.1 leaves those frames unnamed and, when
	 * a kernel address came at all, the module's first symbol (owned, or NULL: perf names
	 * nothing in the module) too. The first one's "[name]" (owned).
	 */
	uint64_t		nr_early_modules;
	char			*first_early_module, *first_early_symbol;
	/*
	 * PLT-stub addresses a symbol without a size covers too (symbolize.h
	 * sym_stats.plt_shadowed): perf 6.1 may name them by that symbol. The first one's stub,
	 * covering symbol and file (owned).
	 */
	uint64_t		nr_plt_shadowed;
	char			*first_plt_stub, *first_plt_shadow, *first_plt_file;
	uint64_t		nr_not_unwound[UNWIND_ARCH + 1];
	/*
	 * Unwound samples whose chain ends where perf 6.1 finds no CFI and goes on with callers
	 * guessed from %rbp (symbolize.h sym_session_unwind_guessed): perf's chain is longer.
	 */
	uint64_t		nr_unwind_guessed;
	/*
	 * Unwound samples whose chain ends at a frame in a file libdwfl could not place (mapped a
	 * second time elsewhere: symbolize.h sym_session_unwind_unplaced): perf's goes on. The
	 * first such file (owned).
	 */
	uint64_t		nr_unwind_unplaced;
	char			*first_unplaced;
	/*
	 * Unwound samples with an inlined frame that perf reaches through more than one of its
	 * map objects (pipeline-inlmaps.c): perf report 6.1 may count its Children under the
	 * function's name too. The functions: their number, their names space separated, the
	 * most perf can add to each one's Children (period, in their order), their files'
	 * basenames space separated (all owned).
	 */
	uint64_t		nr_inline_multimap;
	uint64_t		nr_inline_multimap_funcs;
	char			*inline_multimap_funcs;
	uint64_t		*inline_multimap_excess;
	char			*inline_multimap_files;
	/* What the file holds and kprof does not use; the CLI says each in one line. */
	uint64_t		nr_auxtrace, auxtrace_bytes;	/* AUXTRACE records skipped */
	uint32_t		auxtrace_type;	/* AUXTRACE_INFO's type, 0 none */
	uint64_t		nr_late_headers;	/* header records not usable where they are */
	/*
	 * Samples whose ip resolves to another frame than their chain's first entry (precise-ip
	 * skid, LBR): Self goes to the ip's symbol, as in perf; counted for --verbose.
	 */
	uint64_t		nr_self_elsewhere;
};

/* Read, symbolize and aggregate a perf.data file. 0, or -errno with a one-line reason in err. */
int profile_load(const char *path, const struct profile_load_opts *o, struct profile **out,
		 char *err, size_t errlen);
void profile_free(struct profile *p);			/* NULL-safe */


/*
 * Loading any profile kprof reads into a flame tree, and writing the SVG
 * file; used by `kprof flamegraph` and by `kprof run` (flamegraph.svg in each run directory).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>


struct flamegraph_input_opts {
	const char	*event;		/* perf.data: event to draw; NULL: the first with samples */
	bool		samples;	/* perf.data: weight by samples instead of period */
	const char	*vmlinux;	/* perf.data: as profile_load_opts */
	const char	*kallsyms;
	/* filled in by flamegraph_load() */
	char		event_used[128];	/* perf.data: the event drawn; "" for text inputs */
	bool		had_two_counts;	/* folded input had "stack before after" lines */
	uint64_t	invalid_lines;	/* folded/script lines that were skipped */
	uint64_t	first_invalid;	/* line number of the first one */
};

/*
 * Add the profile at @path ("-": standard input) to @tree on @side. @path may be perf.data,
 * folded text, `perf script` text or a `kprof run` directory (its perf.data, else its
 * profile.folded). perf.data stacks are weighted by period (or samples) and named like
 * `kprof collapse` names them. 0, or -errno with a one-line reason naming the file in @err.
 */
int flamegraph_load(const char *path, struct flame_tree *tree, enum flame_side side,
		    struct flamegraph_input_opts *o, char *err, size_t errlen);

/* Write the SVG to @path atomically (temp file + rename; NULL or "-": stdout). 0 or -errno with
 * a one-line reason in @err. */
int flamegraph_write_file(const char *path, const struct flame_tree *tree,
			  const struct flame_svg_opts *o, char *err, size_t errlen);

/*
 * `kprof run`: draw @cg (the run's profile of @event, weighted by period) into
 * @run_dir/flamegraph.svg with the kernel/user colours and @title (NULL: the default). 0, or
 * -errno after a one-line warning: a run without its picture is still a good run.
 */
int flamegraph_write_run_svg(const char *run_dir, const struct callgraph *cg, const char *event,
			     const char *title);

/*
 * Names from a `kprof run` result's meta.json (in @path when it is a directory, else beside
 * it), malloc'ed, NULL when there is none:
 *  - the title of a run's graph: "brk_test 5s - base (kernel 6.1.0) - run 2";
 *  - a side of a diff: "base run 2" (the set's name and the run), else NULL.
 */
char *flamegraph_run_title(const char *path);
char *flamegraph_side_name(const char *path);
/* The run title from its parts; @run < 0: not numbered. */
char *flamegraph_format_run_title(const char *workload, const char *params, const char *name,
				  const char *kernel, int run);

/* ---- what an input is (input.c): one rule for collapse, report and flamegraph ----------- */

enum profile_input {
	PROFILE_INPUT_PERF_DATA,	/* starts with perf.data's magic */
	PROFILE_INPUT_SCRIPT,		/* `perf script` text (script_looks_like) */
	PROFILE_INPUT_FOLDED,		/* anything else: folded stacks */
};
#define PROFILE_SNIFF_BYTES	4096	/* how much of an input its kind is judged on */

/* The kind of an input whose first bytes are @head (standard input, read already). */
enum profile_input profile_input_kind(const void *head, size_t len);
/*
 * The kind of the input at @path. A kprof run directory stands for its perf.data, else its
 * profile.folded: then *@file is that file's path (malloc'd, the caller frees it), else NULL
 * (read @path itself). 0, or -errno with "<path>: <reason>" in @err.
 */
int profile_input_sniff(const char *path, enum profile_input *kind, char **file, char *err,
			size_t errlen);

/* ---- scheduler waits per call chain (sched-*.c) ---------------------------------------------
 *
 * What `perf sched timehist` (perf 6.1) computes from a `perf sched record -g` file, and LKP's
 * perf-sched monitor keys made from its output (lkp-tests programs/perf-sched/parse).
 * sched_timehist() walks the file in perf's delivery order (time order) and hands out one line
 * per sched_switch sample, as timehist prints it: the task switched out, its wait time (from its
 * previous switch-out to its latest switch-in), scheduling delay (from its first wake-up, via
 * sched_waking when recorded, else sched_wakeup/sched_wakeup_new, to that switch-in) and run
 * time, and the call chain into the scheduler. Single-threaded; errors as profile_load's.
 */
struct sched_line {
	uint64_t	time;		/* ns, the sample's */
	int		cpu;
	int32_t		pid, tid;	/* 0 for a CPU's idle task */
	const char	*comm;		/* "<idle>" for the idle task; valid during the call */
	uint64_t	wait_ns, delay_ns, run_ns;
	const char	*chain;		/* "f <- g <- h"; "" for idle or without a call chain */
};

struct sched_opts {
	const char	*vmlinux;	/* as profile_load_opts */
	const char	*kallsyms;
};

struct sched_stats {
	uint64_t	switches, wakeups;	/* samples used */
	uint64_t	no_chain;		/* sched_switch samples of a task without a chain */
	uint64_t	lost;			/* PERF_RECORD_LOST events */
	/*
	 * The recorded kernel build-id (hex) when nothing here has it (not this machine's
	 * kernel, nothing in perf's build-id cache): kernel frames unresolved, as in perf. "".
	 */
	char		kernel_build_id_missing[41];
	/*
	 * The kernel is mapped by an MMAP2 record only (perf record --buildid-mmap), and named
	 * from it here: perf sched timehist 6.1 reads no MMAP2 record, has no kernel map, and
	 * shows every kernel frame as [unknown].
	 */
	bool		kernel_mmap2_only;
};

typedef int (*sched_line_fn)(const struct sched_line *l, void *arg);
/*
 * Walk @path; @fn (non-zero stops, and is returned) gets every line. 0, or -errno with a reason
 * in @err: no sched:sched_switch event, no call chains, no time/cpu/tid/raw in its samples, no
 * tracepoint formats, or a bad file.
 */
int sched_timehist(const char *path, const struct sched_opts *o, sched_line_fn fn, void *arg,
		   struct sched_stats *st, char *err, size_t errlen);
/* The line as `perf sched timehist` prints it (no newline), cut at @len - 1. */
void sched_line_format(const struct sched_line *l, char *buf, size_t len);

/*
 * LKP's parse over timehist lines: per chain (the first five '.'-separated pieces of the
 * " <- "-joined chain with " <- " as '.') wait_time.{max,avg}.ms, sch_delay.{max,avg}.ms,
 * wait_and_delay.{count,max.ms,avg.ms}, and the total_* keys; a chain whose wait_and_delay
 * average is below the overall one and that has fewer than 0.5 % of the events loses its
 * wait_and_delay keys. Lines without " <- " do not count. Values are computed as Ruby does
 * (Kahan-Babuska sums, Float#round(3)). Owned by the caller; not thread-safe.
 */
struct sched_lkp;
struct sched_lkp *sched_lkp_new(void);				/* NULL on ENOMEM */
void sched_lkp_free(struct sched_lkp *k);			/* NULL-safe */
int sched_lkp_add_line(struct sched_lkp *k, const char *line);	/* 0 or -ENOMEM */
/* Append the keys, each prefixed by @prefix ("perf-sched." or ""); none without lines. */
int sched_lkp_keys(const struct sched_lkp *k, const char *prefix, struct kv_list *out);
/* The value as LKP's parse prints it: counts as integers, the rest as Ruby's Float#to_s. */
void sched_lkp_format(const char *key, double value, char *buf, size_t len);
/* sched_timehist() into sched_lkp, keys appended to @out with @prefix. */
int sched_lkp_file(const char *path, const struct sched_opts *o, const char *prefix,
		   struct kv_list *out, struct sched_stats *st, char *err, size_t errlen);

#endif
