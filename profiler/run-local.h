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
int run_write_atomic(const char *path, int (*fn)(FILE *fp, void *arg), void *arg);
/* A flat JSON object {"key": number} (stats.json), keys in the list's order. */
int run_write_stats(const char *path, const struct wl_metrics *m);
/* Read a flat {"key": number} object (non-numeric values are skipped). 0 / -errno. */
int run_read_stats(const char *path, struct wl_metrics *m);
/*
 * Rebuild <base>/matrix.json from the stats.json of every numbered run under @base:
 * {"key": [run0, run1, ...], "stats_source": [paths]}; a key missing from a run is 0 there,
 * keys that are 0 in every run are left out (LKP's unite_to).
 */
int run_update_matrix(const char *base);

/* JSON helpers: a string with escapes; a number in the shortest round-trip form. */
void json_put_string(FILE *fp, const char *s);
void json_put_number(FILE *fp, double v);

#endif
