/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run-int.h - the parts of `kprof run` behind run.h: the profile of the measured phase
 * (run-profile.c), the result set on disk (run-results.c, run-set-guard.c, run-set.c), the
 * noisy-machine share (run-noise.c) and the monitors (monitor.c, monitor-sched.c). Only run/
 * and its unit tests include it. Errors: -errno, with the reason in an @err buffer where one
 * is taken; warnings go through lib's log.
 */
#ifndef KPROF_RUN_INT_H
#define KPROF_RUN_INT_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "profiler/run/run.h"

struct run_profile;

/*
 * Start sampling all CPUs with call chains into @perf_data; @event NULL = default; @call_graph
 * NULL = frame pointers, else record's --call-graph syntax. The samples of this process (the
 * controller, not the workload) are left out. @title: the flamegraph.svg title (copied; NULL:
 * the default). 0, or -errno with the reason in @err.
 */
int run_profile_start(struct run_profile **out, const char *perf_data, const char *event,
		      const char *call_graph, const char *title, char *err, size_t errlen);
/* Stop sampling over a phase the profile does not cover (@pause), or start again. NULL-safe. */
void run_profile_pause(struct run_profile *rp, bool pause);
/*
 * Stop sampling, finish perf.data, and derive profile.folded, flamegraph.svg and the keys in
 * @dir; the share of samples outside the process tree of @root (the workload) is measured from
 * the recording's own FORK and COMM records. A profile that cannot be read back costs only its
 * keys (a warning). 0, or -errno with the reason in @err (perf.data not finished).
 */
int run_profile_stop(struct run_profile *rp, const char *dir, pid_t root, char *err,
		     size_t errlen);
/* Append the perf-profile.* keys of the stopped profile (none when @rp is NULL). */
int run_profile_metrics(const struct run_profile *rp, struct kv_list *out);
/* The event that was sampled (owned by @rp), or NULL before the stop. */
const char *run_profile_event(const struct run_profile *rp);
/* The perf-profile.* keys of the stopped profile (owned by @rp). */
const struct kv_list *run_profile_keys(const struct run_profile *rp);
/* Print the top self/children rows of @keys sampled with @event (nothing without keys). */
void run_profile_summary(FILE *fp, const char *event, const struct kv_list *keys);
void run_profile_free(struct run_profile *rp);	/* NULL-safe */
struct stat_session;
/*
 * LKP's perf-stat monitor over the measured phase: every CPU, its default event set, the whole
 * phase as one interval (runs are often shorter than LKP's 1-s intervals). Failing to start is
 * not fatal (*out NULL, a warning printed; what cannot be counted is said only when !@quiet).
 */
int run_counters_start(struct stat_session **out, bool quiet);
/* Stop counting (NULL-safe) and append the perf-stat.* keys to @out. */
int run_counters_stop(struct stat_session *s, struct kv_list *out);

/* ---- the result set on disk (run-results.c; the layout is in run.h) ---- */

/* mkdir -p. 0 / -errno. */
int run_mkdirs(const char *path);
/*
 * Give the complete run in @tmpdir its number: the next free one under @base, retried (100
 * times) when a concurrent run took it. The final directory in *@final (malloc'd), or -errno
 * with the reason in @err. @try_rename is rename(2), or the tests' fault injection.
 */
int run_claim_number(const char *base, const char *tmpdir, char **final,
		     int (*try_rename)(const char *from, const char *to), char *err,
		     size_t errlen);
/* The next run number under @base: one more than the largest numeric directory, or 0. */
int run_next_number(const char *base);
/* Remove a directory tree (the temporary directory of an unfinished run). */
int run_remove_tree(const char *path);

/* A flat JSON object {"key": number} (stats.json), keys in the list's order. */
int run_write_stats(const char *path, const struct kv_list *m);
/*
 * Append the run whose stats.json is @stats_json as one more column of <base>/matrix.json
 * (created when absent); a reason in @err on failure. 0 / -errno.
 */
int run_update_matrix(const char *base, const char *stats_json, char *err, size_t errlen);

/* ---- sharing a result set (run-set-guard.c) ---- */

/*
 * Take the result set's lock (flock on <base>/.lock, held until the process ends): the fd, or
 * -EBUSY when another kprof run holds it (@err names its pid), or another -errno.
 */
int run_lock_set(const char *base, char *err, size_t errlen);
/* Remove the .run-*.tmp directories of runs that died unfinished (call with the lock held). */
int run_remove_stale(const char *base, int *removed);
/*
 * Add to matrix.json every finished run directory (one with stats.json) it does not list, in
 * run order (a kprof killed between the two steps). Call with the lock held. 0 / -errno.
 */
int run_reconcile_matrix(const char *base, int *added, char *err, size_t errlen);

/* ---- a noisy machine (run-noise.c) ---- */
/* The names of the workload's processes. Zero-initialise. */
struct run_comms {
	char	(*v)[16];
	size_t	nr;
};
/*
 * Add the name of every process of @root's tree that the recording @perf_data saw: @root and
 * its descendants (FORK records), with every name they had (COMM records, the synthesized
 * ones included). 0, or -errno with the reason in @err.
 */
int run_comms_from_perf_data(const char *perf_data, pid_t root, struct run_comms *c, char *err,
			     size_t errlen);
void run_comms_release(struct run_comms *c);
/*
 * Of @cg's samples (idle excluded), the share in percent whose command is not one of @c's, and
 * in @top the three busiest of those ("cc1 29%, chromium 6%"). 0 / -ENOMEM.
 */
struct callgraph;
int run_outside_share(const struct callgraph *cg, const struct run_comms *c, double *pct,
		      char *top, size_t toplen);
/* The share of samples outside the workload of the stopped profile; NAN when unknown. */
double run_profile_outside(const struct run_profile *rp, const char **top);

/* ---- the set's identity (run-set.c) ---- */
struct run_kernel {
	char	release[65], version[65];	/* uname -r, uname -v */
	char	config_hash[17];		/* FNV-1a of /proc/config.gz or /boot/config-*; "" */
};
struct run_identity {
	const char		*name;		/* the set's directory and label (--name, or release) */
	const char		*commit, *note;	/* --commit, --note; NULL when not given */
	const char		*main_metric;
	const char		*interleave;	/* the token shared by the sets of one --interleave
						 * run (an intended A/B of parameters); NULL */
	struct run_kernel	kernel;
};
void run_kernel_identify(struct run_kernel *k);
/*
 * 0 when the set in @base is empty or its runs were made on kernel build @k (uname -v and, when
 * both are known, the config hash); -EEXIST with the reason in @err otherwise.
 */
int run_check_set_kernel(const char *base, const struct run_kernel *k, char *err,
			 size_t errlen);
/*
 * The run's perf.data.kallsyms becomes a hard link to <base>/kallsyms when their bytes are the
 * same (the first run's snapshot is the set's). 0 / -errno; a run that keeps its copy is fine.
 */
int run_share_kallsyms(const char *base, const char *run_dir);
/* meta.json members "name", "commit", "note", "kernel_config_hash", "main_metric", "interleave",
 * each a line. */
int run_write_identity(FILE *fp, const struct run_identity *id);

/* ---- LKP-style system monitors (monitor.c) ---- */
struct monitor;

/* NULL with errno on failure. Free with monitor_free(). */
struct monitor *monitor_new(void);
/* Take one sample of /proc/vmstat, /proc/meminfo and /proc/stat. 0 / -errno. */
int monitor_sample(struct monitor *m);
/*
 * Append the per-run values: proc-vmstat.* (counters last - first, gauges the mean),
 * meminfo.* (mean; plus Memused and max_used_kB), mpstat.cpu.all.*% and vmstat.system.{in,cs}
 * (means over the 1-s intervals; need two samples).
 */
int monitor_metrics(const struct monitor *m, struct kv_list *out);
void monitor_free(struct monitor *m);	/* NULL-safe */

/*
 * LKP's sched_debug reduction of one /sys/kernel/debug/sched/debug text: per field of the
 * cpu#N, cfs_rq[N]:/, rt_rq[N]: and dl_rq[N]: sections, sched_debug.<section>.<field>.{max,
 * min,avg,stddev} across CPUs (monitor-sched.c). 0 / -ENOMEM.
 */
int sched_debug_parse(const char *text, struct kv_list *out);
/*
 * /proc/latency_stats ("count total_us max_us frame...") as latency_stats.{hits,sum,max,avg}.
 * <first 5 frames joined by '.'>; back traces that share those frames are merged.
 */
int latency_stats_parse(const char *text, struct kv_list *out);

#endif
