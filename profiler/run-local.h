/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run-local.h - the result set of `kprof run`:
 *   RESULTS/<workload>/<params>/<kernel release>/<run#>/{stats.json,<workload>.log,meta.json,...}
 *   RESULTS/<workload>/<params>/<kernel release>/matrix.json
 * Every file is written to a temporary name and renamed into place; a run directory is built
 * under a temporary name and renamed to its number only when complete.
 */
#ifndef KPROF_RUN_LOCAL_H
#define KPROF_RUN_LOCAL_H

#include <stdio.h>

#include "workloads/workloads.h"

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

/* ---- sharing a result set (run-set.c) ----------------------------------------------------- */

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

#endif
