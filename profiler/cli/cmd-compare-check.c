// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-compare-check.c - do the result sets named on a `compare` or `plot` command line belong
 * together? Two different workloads compare to -100% everywhere, and a 64M run against a 64G
 * run shows the parameters' effect, not the kernel's: both are refused unless --force, which
 * only turns the refusal into a loud warning. Also finds the workload's main metric, which the
 * comparison always shows.
 *
 * The identity comes from meta.json (the set's own or its first run's): "workload" and
 * "path_params" (LKP's path_params, every parameter of the run). A set without meta.json (an LKP
 * matrix.json) cannot be checked; that is said when other sets could be. The sets of one
 * `kprof run --interleave` (the same "interleave" token) are an intended A/B of parameters.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "output/output.h"
#include "profiler/cli/cmd-compare-int.h"
#include "profiler/lib/lib.h"
#include "workloads/workloads.h"

struct identity {
	char	*workload, *params, *interleave;
};

static void identity_of(const struct compare_sets *s, size_t i, struct identity *id)
{
	id->workload = matrix_set_meta_string(s->dirs[i], &s->m[i],
					      (const char *const[]){ "workload" }, 1);
	id->params = matrix_set_meta_string(s->dirs[i], &s->m[i],
					    (const char *const[]){ "path_params" }, 1);
	id->interleave = matrix_set_meta_string(s->dirs[i], &s->m[i],
						(const char *const[]){ "interleave" }, 1);
}

static void identity_release(struct identity *id)
{
	free(id->workload);
	free(id->params);
	free(id->interleave);
}

/* One mismatch: refused (an error) or, with --force, a warning that cannot be missed. */
static bool mismatch(const char *cmd, bool force, const char *what, const char *a,
		     const char *pa, const char *b, const char *pb)
{
	if (force) {
		pr_warn("COMPARED ANYWAY (--force): the sets differ in %s: '%s' (%s) vs '%s' (%s): "
			"the changes mix the difference in %s with the kernels'", what, a, pa, b, pb,
			what);
		return false;
	}
	pr_err("%s: the sets differ in %s: '%s' (%s) vs '%s' (%s): they do not belong together "
	       "(--force compares them anyway)", cmd, what, a, pa, b, pb);
	return true;
}

int compare_sets_check(const struct compare_sets *s, const char *cmd, bool force)
{
	struct identity base, id;
	bool refused = false, unknown, known;

	identity_of(s, 0, &base);
	unknown = !base.workload;
	known = !unknown;
	for (size_t i = 1; i < s->nr && !refused; i++) {
		identity_of(s, i, &id);
		if (base.workload && id.workload && strcmp(base.workload, id.workload))
			refused = mismatch(cmd, force, "workload", base.workload,
					   s->cols[0].path, id.workload, s->cols[i].path);
		else if (base.params && id.params && strcmp(base.params, id.params) &&
			 base.interleave && id.interleave && !strcmp(base.interleave, id.interleave))
			pr_info("%s: an interleaved A/B of parameters ('%s' vs '%s', one kprof run "
				"--interleave): the changes are the parameters' on one kernel", cmd,
				base.params, id.params);
		else if (base.params && id.params && strcmp(base.params, id.params))
			refused = mismatch(cmd, force, "parameters", base.params,
					   s->cols[0].path, id.params, s->cols[i].path);
		unknown |= !id.workload;
		known |= id.workload != NULL;
		identity_release(&id);
	}
	/* all LKP matrices: nothing to check, nothing to say; a mix: the check is partial */
	if (!refused && unknown && known)
		pr_info("%s: a set without meta.json: cannot check that the sets ran the same "
			"workload with the same parameters", cmd);
	identity_release(&base);
	return refused ? -EINVAL : 0;
}

char *compare_sets_main_metric(const struct compare_sets *s)
{
	char buf[128], *name;
	const struct workload *w;

	for (size_t i = 0; i < s->nr; i++) {
		char *m = matrix_set_meta_string(s->dirs[i], &s->m[i],
						 (const char *const[]){ "main_metric" }, 1);

		if (m)
			return m;
	}
	name = matrix_set_meta_string(s->dirs[0], &s->m[0], (const char *const[]){ "workload" },
				      1);
	w = name ? workload_find(name) : NULL;
	free(name);
	return w ? strdup(workload_main_metric(w, buf, sizeof(buf))) : NULL;
}
