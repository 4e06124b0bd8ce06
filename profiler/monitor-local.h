/* SPDX-License-Identifier: GPL-2.0 */
/*
 * monitor-local.h - LKP-style system monitors for `kprof run` (profiler/monitor.c).
 */
#ifndef KPROF_MONITOR_LOCAL_H
#define KPROF_MONITOR_LOCAL_H

#include "workloads/workloads.h"

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

#endif
