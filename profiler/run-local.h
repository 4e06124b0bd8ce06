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

#include <stdbool.h>
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

/* ---- the set's identity (run-set.c) ---- */
struct run_kernel {
	char	release[65], version[65];	/* uname -r, uname -v */
	char	config_hash[17];		/* FNV-1a of /proc/config.gz or /boot/config-*; "" */
};
struct run_identity {
	const char		*name;		/* the set's directory and label (--name, or release) */
	const char		*commit, *note;	/* --commit, --note; NULL when not given */
	const char		*main_metric;
	struct run_kernel	kernel;
};
/* One path component of [A-Za-z0-9._+-], 1..64 characters, not starting with '.' or '-'. */
bool run_name_valid(const char *name);
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
/* meta.json members "name", "commit", "note", "kernel_config_hash", "main_metric", each a line. */
int run_write_identity(FILE *fp, const struct run_identity *id);

#endif
