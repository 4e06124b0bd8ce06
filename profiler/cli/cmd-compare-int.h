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

#endif
