/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmd-compare-int.h - loading the result sets named on a command line, shared by
 * `kprof compare` and `kprof plot`.
 */
#ifndef KPROF_CMD_COMPARE_INT_H
#define KPROF_CMD_COMPARE_INT_H

#include "output/output.h"

struct compare_sets {
	struct matrix		*m;	/* nr, owned */
	char			**labels;	/* default labels (meta.json, dir name), owned */
	char			**dirs;	/* each set's directory, owned */
	char			**families;	/* meta.json "family" (the test), owned */
	size_t			nr_families;
	struct compare_col	*cols;	/* nr; point into the above and the caller's strings */
	size_t			nr;
};

/*
 * Load every path; labels[i] (borrowed, i < nr_labels) overrides set i's default label.
 * On error, prints one line naming the file and returns -errno with nothing to release.
 */
int compare_sets_load(struct compare_sets *s, char **paths, size_t nr, char **labels,
		      size_t nr_labels);
void compare_sets_release(struct compare_sets *s);
/*
 * Refuse sets that do not belong together (meta.json "workload" or "path_params" differ): an
 * error naming both and -EINVAL; with @force a loud warning and 0. @cmd prefixes the error.
 */
int compare_sets_check(const struct compare_sets *s, const char *cmd, bool force);
/* The workload's main metric (meta.json "main_metric", else the workload's); malloc'ed/NULL. */
char *compare_sets_main_metric(const struct compare_sets *s);

struct compare_result;
struct compare_opts;
/*
 * `compare --html`: the report page of @r into @path (atomically), with the differential flame
 * graph of the runs of sets 0 and 1 and the @top perf-profile share changes
 * (cmd-compare-html.c). Prints one line on failure; 0 or -errno.
 */
int compare_html_write(const char *path, const struct compare_sets *s,
		       const struct compare_result *r, const struct compare_opts *o, size_t top);

#endif
