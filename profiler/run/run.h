/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run.h - `kprof run`: run a built-in workload N times the way LKP does, with LKP's monitors and
 * a system-wide profile of the measured phase, into a result set (docs/run.md):
 *
 *   RESULTS/<workload>/<params>/<name>/<run#>/{stats.json,<workload>.log,meta.json,perf.data,
 *                                              profile.folded,flamegraph.svg}
 *   RESULTS/<workload>/<params>/<name>/{matrix.json,kallsyms,.lock}
 *
 * Each run is a forked child that execs the workload's program (workloads/bin/) in its own
 * process group and starts when the monitors and the profiler are in place. Every file is
 * written under a temporary name and renamed into place; a run directory is renamed to its
 * number only when complete, and matrix.json lists exactly the complete runs.
 *
 * Errors: -errno with a one-line reason in @err (naming the file where there is one). Warnings
 * and progress while the runs go on are said through lib's log (pr_warn, progress_update),
 * whose sink the CLI owns.
 *
 * Lifetime and threading: one batch per process at a time. A batch forks, makes this process
 * the subreaper of the workload's processes and changes system settings for the workload (all
 * restored before run_batch_run() returns). Not thread-safe.
 */
#ifndef KPROF_RUN_H
#define KPROF_RUN_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "workloads/workloads.h"

#define RUN_MAX_INTERLEAVE	8	/* parameter sets of one --interleave batch */

/* What to run. Borrowed: the strings must outlive the batch. */
struct run_request {
	const struct workload	*w;
	struct wl_params	p;		/* the command line's parameters */
	const char		*results;	/* the result root */
	const char		*event;		/* sampling event; NULL: cycles:pp, else cpu-clock */
	bool			profile;	/* sample the measured phase */
	bool			sched;		/* the perf-sched monitor (run-sched.c) */
	bool			keep_sched;	/* its recording kept in the run directory */
	const char		*call_graph;	/* fp (NULL, LKP's -g) or dwarf[,SIZE] */
	int			nr_runs;	/* per parameter set, 1..1000 */
	const char		*name;		/* the set's name; NULL: the kernel release */
	const char		*commit, *note;	/* kept in meta.json; NULL when not given */
	/* --interleave: 0, or 2..RUN_MAX_INTERLEAVE parameter sets "k=v,k=v" over @p */
	const char		*interleave[RUN_MAX_INTERLEAVE];
	size_t			nr_interleave;
	const char		*bindir;	/* where the workload programs are */
};

struct run_batch;

/*
 * A batch for @rq: the parameter sets resolved (the workload's rules). -EINVAL with the reason
 * in @err for a request the user must change (bad parameters, two equal sets); -EPERM for a
 * workload that needs root; another -errno otherwise. Free with run_batch_free().
 */
int run_batch_new(const struct run_request *rq, struct run_batch **out, char *err,
		  size_t errlen);
/*
 * Claim each set's result directory: create it, take its lock (a second kprof run into the
 * same set is refused), refuse a set of another kernel build, and make it whole again after a
 * kprof killed with SIGKILL (stale temporary directories, missing matrix columns, the system
 * changes its workload left). 0 / -errno with the reason in @err.
 */
int run_batch_prepare(struct run_batch *b, char *err, size_t errlen);
/*
 * The runs: each set's runs alternated A B A B (a drift of the machine hits every set alike).
 * Stops between and inside runs when *@stop becomes non-zero: the unfinished run is killed and
 * removed, the system restored, finished runs stay. 0; -EINTR when stopped; another -errno
 * with the reason in @err (finished runs stay then too).
 */
int run_batch_run(struct run_batch *b, const volatile sig_atomic_t *stop, char *err,
		  size_t errlen);

/* One parameter set's outcome, valid until run_batch_free(). */
struct run_set_result {
	const char	*workload;
	const char	*base;		/* the set's directory */
	const char	*path_params;	/* its parameters as a path component */
	const char	*main_metric;
	const double	*main_values;	/* nr_done values of the main metric */
	int		nr_done;
};
size_t run_batch_nr_sets(const struct run_batch *b);
void run_batch_result(const struct run_batch *b, size_t i, struct run_set_result *out);
/* The top self/children perf-profile rows of the latest profiled run (nothing without one). */
void run_batch_write_top_rows(const struct run_batch *b, FILE *fp);
void run_batch_free(struct run_batch *b);	/* NULL-safe */

/*
 * Start the guardian of this process (run-guardian.c): this program run with @argv, holding at
 * descriptor @wait_fd (>= 3) the read end of a pipe that reads end-of-file once this process
 * has exited, however it exited. Its stdin and stdout are /dev/null, stderr is ours. It is not
 * our child (a double fork), so call this before run_batch_run() makes us a subreaper.
 * Forks: call it while single-threaded. 0; -errno with the reason in @err (no guardian then).
 */
int run_guardian_start(char *const argv[], int wait_fd, char *err, size_t errlen);

/* A set name: one path component of [A-Za-z0-9._+-], 1..64 characters, not starting with
 * '.' or '-'. */
bool run_name_valid(const char *name);

/*
 * LKP's perf-sched monitor (run-sched.c): sched_switch with call chains, sched_waking and
 * sched_wakeup_new on every CPU from start to stop, into a private directory under $TMPDIR (or
 * /tmp) removed at the end, or with @keep into @dir/perf-sched.data. Failing to start
 * is not fatal: one line on stderr, -errno, *@out NULL. Stop (NULL-safe) appends the
 * perf-sched.* keys (none, after one line, when the recording cannot be read); -ENOMEM only.
 */
struct run_sched;
int run_sched_start(struct run_sched **out, const char *dir, bool keep);
int run_sched_stop(struct run_sched *rs, struct kv_list *out);
void run_sched_free(struct run_sched *rs);	/* NULL-safe: stop without keys */

#endif
