/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run.h - running workloads for `kprof run`: public header of profiler/run/ (may use profile/,
 * record/, workloads/ and what they use). Single-threaded: called from the CLI's thread only.
 * Objects returned by _new/_start are owned by the caller and freed by the matching *_free
 * (NULL-safe); errors are -errno.
 *
 * Run profiling (run-profile.c): system-wide sampling of the measured phase of a run, and the
 * perf-profile.* keys, profile.folded and summary rows made from it.
 */
#ifndef KPROF_RUN_H
#define KPROF_RUN_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/utsname.h>

#include "output/output.h"
#include "workloads/workloads.h"

struct run_profile;

/* What one run leaves for the next ones and for the summary (owned by the run context). */
struct run_history {
	char		*event_used;	/* of the latest profile, for meta.json; NULL before */
	struct kv_list	latest_keys;	/* perf-profile.* of the latest profile, for the summary */
	bool		counters_started; /* perf-stat said once what it cannot count */
};

/* Start sampling all CPUs with call chains into @perf_data; @event NULL = default. 0/-errno. */
int run_profile_start(struct run_profile **out, const char *perf_data, const char *event);
/* Stop sampling, finish perf.data, and derive profile.folded in @dir. 0 / -errno. */
int run_profile_stop(struct run_profile *rp, const char *dir, struct run_history *h);
/* Append the perf-profile.* keys of the stopped profile (none when @rp is NULL). */
int run_profile_metrics(struct run_profile *rp, struct wl_metrics *out);
/* The event that was sampled, or NULL before the first profile. */
const char *run_profile_event_used(const struct run_history *h);
/* Print the top perf-profile rows of the latest profiled run (nothing without profiles). */
void run_profile_summary(const struct run_history *h, FILE *fp);
void run_profile_free(struct run_profile *rp);	/* NULL-safe */
struct stat_session;
/*
 * LKP's perf-stat monitor over the measured phase: every CPU, its default event set, the whole
 * phase as one interval (runs are often shorter than LKP's 1-s intervals). Failing to start is
 * not fatal (*out NULL, a warning printed).
 */
int run_counters_start(struct run_history *h, struct stat_session **out);
/* Stop counting (NULL-safe) and append the perf-stat.* keys to @out. */
int run_counters_stop(struct stat_session *s, struct wl_metrics *out);

/* Free what a history holds (the latest event name and keys); it stays reusable. */
void run_history_release(struct run_history *h);


/*
 * The result set of `kprof run`:
 *   RESULTS/<workload>/<params>/<kernel release>/<run#>/{stats.json,<workload>.log,meta.json,...}
 *   RESULTS/<workload>/<params>/<kernel release>/matrix.json
 * Every file is written to a temporary name and renamed into place; a run directory is built
 * under a temporary name and renamed to its number only when complete.
 */

#include <stdio.h>


/* mkdir -p. 0 / -errno. */
int run_mkdirs(const char *path);
/* The next run number under @base: one more than the largest numeric directory, or 0. */
int run_next_number(const char *base);
/* Remove a directory tree (the temporary directory of an unfinished run). */
int run_remove_tree(const char *path);

/* Write @path via "<path>.tmp" + rename; @fn writes the content. 0 / -errno. */
/* A flat JSON object {"key": number} (stats.json), keys in the list's order. */
int run_write_stats(const char *path, const struct wl_metrics *m);
/*
 * Append the run whose stats.json is @stats_json as one more column of <base>/matrix.json
 * (created when absent); a reason in @err on failure. 0 / -errno.
 */
int run_update_matrix(const char *base, const char *stats_json, char *err, size_t errlen);


/*
 * LKP-style system monitors for `kprof run` (profiler/run/monitor.c).
 */


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
int monitor_metrics(const struct monitor *m, struct wl_metrics *out);
void monitor_free(struct monitor *m);	/* NULL-safe */

/* ---- a run of a workload (run.c) ------------------------------------------------------------ */

/* What `kprof run` asked for and what the finished runs left; filled by the CLI, then run_setup. */
struct run_ctx {
	const struct workload	*w;
	struct wl_params	p;
	const char		*results;	/* -o: the result root */
	const char		*event;		/* -e, or NULL for the default */
	char			*event_copy;	/* owned: the first run's event */
	bool			profile;
	int			nr_runs;
	char			path_params[256];
	char			*base;		/* owned: .../<workload>/<params>/<release> */
	struct utsname		uts;
	double			*main_values;	/* main metric of each finished run */
	int			nr_done;
	double			last_duration;
	struct run_history	hist;		/* owned: release with run_history_release */
};

/* Set by run_on_signal (the CLI's SIGINT/SIGTERM/SIGHUP handler): stop the current run. */
extern volatile sig_atomic_t run_interrupted;
void run_on_signal(int sig);
/* Create c->base under c->results. 0 or -errno (printed). */
int run_setup(struct run_ctx *c);
/*
 * One run: 0 with its directory c->base/<N> complete and c->nr_done advanced, -EINTR when
 * interrupted, or another -errno (the reason already printed).
 */
int run_once(struct run_ctx *c);

#endif
