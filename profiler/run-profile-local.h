/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run-profile-local.h - system-wide sampling of the measured phase of a `kprof run` run, and
 * the perf-profile.* keys, profile.folded and summary rows made from it (run-profile.c).
 */
#ifndef KPROF_RUN_PROFILE_LOCAL_H
#define KPROF_RUN_PROFILE_LOCAL_H

#include <stdbool.h>
#include <stdio.h>

#include "workloads/workloads.h"

struct run_profile;

/*
 * Start sampling all CPUs with call chains into @perf_data; @event NULL = default. The samples
 * of this process (the controller, not the workload) are left out. 0/-errno.
 */
int run_profile_start(struct run_profile **out, const char *perf_data, const char *event);
/* Stop sampling over a phase the profile does not cover (@pause), or start again. NULL-safe. */
void run_profile_pause(struct run_profile *rp, bool pause);
/* Stop sampling, finish perf.data, and derive profile.folded in @dir. 0 / -errno. */
int run_profile_stop(struct run_profile *rp, const char *dir);
/* Append the perf-profile.* keys of the stopped profile (none when @rp is NULL). */
int run_profile_metrics(struct run_profile *rp, struct wl_metrics *out);
/* The event that was sampled, or NULL before the first profile. */
const char *run_profile_event_used(void);
/* Print the top perf-profile rows of the latest run under @base (nothing without profiles). */
void run_profile_summary(const char *base, FILE *fp);
void run_profile_free(struct run_profile *rp);	/* NULL-safe */
struct stat_session;
/*
 * LKP's perf-stat monitor over the measured phase: every CPU, its default event set, the whole
 * phase as one interval (runs are often shorter than LKP's 1-s intervals). Failing to start is
 * not fatal (*out NULL, a warning printed).
 */
int run_counters_start(struct stat_session **out);
/* Stop counting (NULL-safe) and append the perf-stat.* keys to @out. */
int run_counters_stop(struct stat_session *s, struct wl_metrics *out);

/* Free what the module keeps across runs (the latest event name and keys). */
void run_profile_exit(void);

#endif
