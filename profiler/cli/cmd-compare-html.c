// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-compare-html.c - `kprof compare --html -o FILE`: the regression report page. This side
 * gathers what the page embeds from the result sets' run directories -- the profiles of every
 * run of the base (one side) and of the first new set (the other side), merged into one
 * differential flame graph -- and has output/compare-html.c write the page atomically.
 */
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "output/output.h"
#include "profiler/cli/cmd-compare-int.h"
#include "profiler/lib/lib.h"
#include "profiler/profile/profile.h"

/*
 * Add the profile of every run of @m to @tree on @side: the run directory's profile.folded when
 * there is one (kprof run writes it: fast), else its perf.data. Returns the number of runs
 * added; a run without a profile is skipped, one that fails to load is said on stderr.
 */
static size_t add_runs(struct flame_tree *tree, enum flame_side side, const struct matrix *m)
{
	size_t added = 0;

	for (size_t i = 0; i < m->nr_runs; i++) {
		struct flamegraph_input_opts in = { 0 };
		char *copy = m->sources && m->sources[i] ? strdup(m->sources[i]) : NULL;
		char path[4096], err[512];
		const char *dir;
		struct stat sb;

		if (!copy)
			continue;
		dir = dirname(copy);
		snprintf(path, sizeof(path), "%s/profile.folded", dir);
		if (stat(path, &sb)) {
			snprintf(path, sizeof(path), "%s/perf.data", dir);
			if (stat(path, &sb)) {
				free(copy);
				continue;
			}
		}
		if (flamegraph_load(path, tree, side, &in, err, sizeof(err)))
			pr_warn("compare: %s (left out of the flame graph)", err);
		else
			added++;
		free(copy);
	}
	return added;
}

struct html_job {
	const struct compare_result	*r;
	const struct compare_opts	*o;
	struct compare_html_opts	h;
};

static int write_page(FILE *fp, void *arg)
{
	const struct html_job *j = arg;

	return compare_write_html(fp, j->r, j->o, &j->h);
}

/* The differential flame graph of sets 0 and 1 as SVG text in *svg (malloc'ed), or a note. */
static int diff_svg(const struct compare_sets *s, char **svg, size_t *len, char *note,
		    size_t notelen)
{
	struct flame_tree *tree = flame_tree_new(false);
	char title[512];
	struct flame_svg_opts so = { .diff = true, .title = title };
	size_t before, after;
	FILE *mem;
	int ret;

	*svg = NULL;
	if (!tree)
		return -ENOMEM;
	before = add_runs(tree, FLAME_BEFORE, s->cols[0].m);
	after = add_runs(tree, FLAME_AFTER, s->cols[1].m);
	if (!before || !after) {
		snprintf(note, notelen, "No flame graph: the %s set has no run with a profile "
			 "(profile.folded or perf.data next to stats.json).",
			 !before ? s->cols[0].label : s->cols[1].label);
		flame_tree_free(tree);
		return 0;
	}
	snprintf(title, sizeof(title), "Differential flame graph: %s (%zu runs) to %s (%zu runs)",
		 s->cols[0].label, before, s->cols[1].label, after);
	mem = open_memstream(svg, len);
	if (!mem) {
		flame_tree_free(tree);
		return -ENOMEM;
	}
	ret = flame_svg_write(mem, tree, &so, NULL);
	if (fclose(mem) && !ret)
		ret = -EIO;
	flame_tree_free(tree);
	if (ret == -ENODATA) {
		snprintf(note, notelen, "No flame graph: the runs' profiles hold no samples.");
		ret = 0;
	}
	if (ret || !note[0])
		return ret;
	free(*svg);
	*svg = NULL;
	return 0;
}

int compare_html_write(const char *path, const struct compare_sets *s,
		       const struct compare_result *r, const struct compare_opts *o, size_t top)
{
	struct html_job j = { .r = r, .o = o, .h = { .top = top, .max_plots = 60 } };
	char note[512] = "";
	char *svg = NULL;
	size_t len = 0;
	int ret;

	if (s->nr > 2)
		pr_warn("compare: the flame graph of the HTML page compares the first two sets only");
	ret = diff_svg(s, &svg, &len, note, sizeof(note));
	if (ret) {
		pr_err("compare: the flame graph: %s", strerror(-ret));
		return ret;
	}
	j.h.diff_svg = svg;
	j.h.diff_svg_len = len;
	j.h.diff_note = note;
	ret = write_file_atomic(path, write_page, &j);
	if (ret)
		pr_err("compare: cannot write %s: %s", path, strerror(-ret));
	free(svg);
	return ret;
}
