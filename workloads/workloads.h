/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads.h - built-in benchmark workloads (vm-scalability's usemem cases, AIM9 tests) and
 * the derivation of their LKP metrics from the logs they write.
 *
 * libc only. Nothing here prints to the terminal: a workload writes its log lines (the same
 * lines the upstream benchmark prints, so LKP's parsers accept them) to the FILE * it is given.
 * Errors are 0 or a negative errno, with a one-line reason in the caller's err buffer.
 *
 * Life cycle of one run (the CLI, profiler/cli/cmd-run.c, drives it):
 *   wl_params_init() + wl_params_set() for each k=v, workload_resolve()  -- parameters
 *   workload_prepare()   in the controlling process: hugetlb reservation, loop filesystem
 *   workload_run()       in a forked child that the controller may kill at any time
 *   workload_cleanup()   in the controller, on every exit path: restores what prepare changed
 *   workload_parse_log() on the log text: the <family>.* metrics
 */
#ifndef KPROF_WORKLOADS_H
#define KPROF_WORKLOADS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "profiler/lib/lib.h"

/* Metrics travel in lib.h's struct kv_list (kv_list_set/get/release). */

/* ---- parameters -------------------------------------------------------------------------- */

enum wl_thp {
	WL_THP_SYSTEM,		/* leave the mappings alone (sysfs decides) */
	WL_THP_ALWAYS,		/* want THP: MADV_HUGEPAGE in madvise mode */
	WL_THP_MADVISE,		/* always call MADV_HUGEPAGE */
	WL_THP_NEVER,		/* MADV_NOHUGEPAGE */
};

enum wl_param_bits {
	WL_P_NR_TASK	= 1 << 0,
	WL_P_UNIT_SIZE	= 1 << 1,
	WL_P_SIZE	= 1 << 2,
	WL_P_RUNTIME	= 1 << 3,
	WL_P_SEED	= 1 << 4,
	WL_P_THP	= 1 << 5,
	WL_P_LKP_COMPAT	= 1 << 6,
	WL_P_FS		= 1 << 7,
};

enum wl_fs {
	WL_FS_XFS,		/* LKP's default for the sparse root (hw_vars: ${fs:-xfs}) */
	WL_FS_EXT4,
};

struct wl_params {
	unsigned int	set;		/* enum wl_param_bits: given on the command line */
	long		nr_task;	/* workers (vm-scalability); default: online CPUs */
	uint64_t	unit_size;	/* bytes per case run; default per workload (docs) */
	uint64_t	size;		/* LKP's: repeat = size / unit_size; 0: once */
	unsigned int	runtime;	/* s: usemem --runtime and budget; testtime */
	uint64_t	seed;		/* random cases; unset: time(0) ^ tid as usemem does */
	enum wl_thp	thp;
	bool		lkp_compat;	/* aim9 brk/page_test as LKP's binary behaves (default) */
	enum wl_fs	fs;		/* truncate cases: the loop filesystem */
};

void wl_params_init(struct wl_params *p);
/*
 * Apply one "key=value" (nr_task, unit_size, size, runtime or testtime, seed, thp, lkp_compat,
 * fs). Sizes take
 * LKP's binary suffixes (K, M, G, T, P); times an optional "s". 0 or -EINVAL with a reason.
 */
int wl_params_set(struct wl_params *p, const char *kv, char *err, size_t errlen);

/* ---- the registry ------------------------------------------------------------------------ */

struct workload;

/* NULL when there is no such workload. */
const struct workload *workload_find(const char *name);
/* Iterate: workload_next(NULL) is the first, NULL after the last. */
const struct workload *workload_next(const struct workload *prev);
const char *workload_name(const struct workload *w);
const char *workload_family(const struct workload *w);	/* "vm-scalability", "aim9" */
const char *workload_summary(const struct workload *w);
/* The name of the stat that summarises a run, e.g. "vm-scalability.throughput". */
const char *workload_main_metric(const struct workload *w, char *buf, size_t len);
/* True when the workload needs root (hugetlb reservation, loop mounts). */
bool workload_needs_root(const struct workload *w);

/* Fill the defaults that depend on this machine and check the combination. 0 / -EINVAL. */
int workload_resolve(const struct workload *w, struct wl_params *p, char *err, size_t errlen);
/*
 * LKP's path_params: the values of the workload's parameters sorted by name, joined with '-'
 * (each value cut to 31 characters, characters outside [-a-zA-Z0-9+=:.%] as '_').
 */
int workload_path_params(const struct workload *w, const struct wl_params *p, char *buf,
			 size_t len);
/* Write the effective parameters as a JSON object (for meta.json). */
int workload_params_json(const struct workload *w, const struct wl_params *p, FILE *fp);

/* ---- running ----------------------------------------------------------------------------- */

/* System state a workload changed (hugetlb sysctl, loop-mounted filesystem), to be undone. */
struct wl_env;

/*
 * Change the system as LKP's harness and the case scripts do, in the controlling process
 * (vm-scalability: LKP's sysctls, hugetlb reservation, loop filesystem). *out is NULL when
 * nothing is needed; otherwise the caller owns it and must pass it to workload_cleanup().
 * On error everything done so far is already undone. On success @err may hold a note on what
 * could not be set up like LKP (e.g. the sysctls, not root): print it as a warning.
 */
int workload_prepare(const struct workload *w, const struct wl_params *p, struct wl_env **out,
		     char *err, size_t errlen);
/* Undo workload_prepare() and free @env. NULL-safe. Returns the first error, still undoing all. */
int workload_cleanup(struct wl_env *env, char *err, size_t errlen);
/*
 * Undo what controllers that died without cleaning up (kill -9) left: workload_prepare()
 * records each change in a state file before making it (workloads/state.c). A state file whose
 * process is alive is left alone. @report gets what was undone, "; "-separated ("" when
 * nothing). 0, or the first -errno (what could not be undone stays recorded for next time).
 * Root only; for other users nothing was ever changed and this returns 0.
 */
int workload_recover(char *report, size_t len);
/*
 * Whether the kprof of process @pid still holds its state file: it, or a process it forked
 * that has not exited yet (they share its flock). False when it has none, or when it has died
 * and every such process with it: then workload_recover() undoes what it left.
 */
bool workload_state_held(pid_t pid);
/*
 * In the process about to exec the workload's program (after its fork): keep @env's state file
 * open across the exec, so that the program and every process it starts share the flock, and a
 * recovery waits until all of them have exited -- not only kprof's own processes: truncate's
 * `truncate FILE` could otherwise create its file under the mount point after the recovery's
 * unmount. 0 or -errno; a NULL @env (nothing changed) or no state file: 0.
 */
int workload_state_inherit(const struct wl_env *env);

/*
 * Run the workload (all its repeats) in the calling process, which is expected to be a child
 * the controller created: it forks, uses signals (SIGALRM for aim9) and may be killed.
 * Log lines go to @log (one write() per worker line). 0, or -errno with the reason in err;
 * a failed worker (e.g. no huge pages) is an error, never a silent zero.
 */
int workload_run(const struct workload *w, const struct wl_params *p, const struct wl_env *env,
		 FILE *log, char *err, size_t errlen);

/* ---- the workload programs (exec.c; docs/run.md) ----------------------------------------- */

/*
 * Find the workload programs (vm-scalability, usemem, singleuser, true) next to the kprof
 * executable in @exe_dir, or in @exe_dir/build (a source tree's ./kprof); the directory into
 * @bindir. 0, or -ENOENT with a reason.
 */
int workload_find_programs(const char *exe_dir, char *bindir, size_t len, char *err,
			   size_t errlen);
/*
 * The command line that runs @w with @p as its own program from @bindir (NULL-terminated,
 * malloc'd; free with workload_argv_free()). The program waits for one byte on @go_fd; with
 * @ctl_fd >= 0 it announces phases there ('p': pause the profile, 'r': resume) and waits for
 * one byte on @ack_fd after each. 0 / -ENOMEM.
 */
int workload_argv(const struct workload *w, const struct wl_params *p,
		  const struct wl_env *env, const char *bindir, int go_fd, int ctl_fd,
		  int ack_fd, char ***argv);
void workload_argv_free(char **argv);	/* NULL-safe */
/*
 * main() of the workload programs: `vm-scalability` and `singleuser` (@family "vm-scalability"
 * / "aim9") run one workload (its log on stdout); exit status 0, 1 (failed) or 2 (usage).
 */
int wl_runner_main(const char *family, int argc, char **argv);
/* main() of `usemem`: upstream usemem's options for what the cases use (usemem-cli.c). */
int usemem_main(int argc, char **argv);

/* ---- metrics from the log ---------------------------------------------------------------- */

/* LKP's parser for the workload's family, prefixed with the family ("vm-scalability.x"). */
int workload_parse_log(const struct workload *w, const char *text, size_t len,
		       struct kv_list *m);
/* programs/vm-scalability/parse over @text; keys without prefix ("throughput"). */
int vmscal_parse(const char *text, size_t len, struct kv_list *m);
/* programs/aim9/parse over @text; keys without prefix ("brk_test.ops_per_sec"). */
int aim9_parse(const char *text, size_t len, struct kv_list *m);

/*
 * The <prefix>.time.* keys LKP derives from `time -v` (programs/time/parse), from a wait4()
 * rusage, the wall-clock seconds and the wait status. Keys that are zero are included; the
 * caller applies LKP's "drop all-zero" rule.
 */
int wl_time_metrics(const char *prefix, const struct rusage *ru, double elapsed_s,
		    int wait_status, struct kv_list *m);

#endif
