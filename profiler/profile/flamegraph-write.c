// SPDX-License-Identifier: GPL-2.0
/*
 * flamegraph-write.c - write a flame graph SVG file without ever leaving a half-written one: the
 * SVG goes to a temporary file next to the target, renamed into place once complete.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profiler/lib/lib.h"
#include "profiler/profile/profile.h"

static int svg_failed(int ret, const char *path, char *err, size_t errlen)
{
	if (ret == -ENODATA)
		snprintf(err, errlen, "%s: no samples to draw", path);
	else
		snprintf(err, errlen, "%s: %s", path, strerror(-ret));
	return ret;
}

struct svg_out {
	const struct flame_tree		*tree;
	const struct flame_svg_opts	*o;
};

static int write_svg(FILE *fp, void *arg)
{
	const struct svg_out *so = arg;

	return flame_svg_write(fp, so->tree, so->o, NULL);
}

int flamegraph_write_file(const char *path, const struct flame_tree *tree,
			  const struct flame_svg_opts *o, char *err, size_t errlen)
{
	struct svg_out so = { .tree = tree, .o = o };
	int ret;

	if (!path || !strcmp(path, "-")) {
		ret = write_svg(stdout, &so);
		if (!ret && fflush(stdout))
			ret = -errno;
		return ret ? svg_failed(ret, "standard output", err, errlen) : 0;
	}
	ret = write_file_atomic(path, write_svg, &so);
	return ret ? svg_failed(ret, path, err, errlen) : 0;
}

int flamegraph_write_run_svg(const char *run_dir, const struct callgraph *cg, const char *event)
{
	struct flame_svg_opts svg = {
		.minwidth = 0.1, .colors = FLAME_COLORS_KERNEL, .countname = event,
	};
	struct flame_tree *tree;
	char err[512], *out;
	int ret;

	if (asprintf(&out, "%s/flamegraph.svg", run_dir) < 0)
		out = NULL;
	tree = out ? flame_tree_new(false) : NULL;
	ret = tree ? flame_tree_add_callgraph(tree, FLAME_AFTER, cg, false) : -ENOMEM;
	if (!ret)
		ret = flamegraph_write_file(out, tree, &svg, err, sizeof(err));
	else
		svg_failed(ret, out ? out : run_dir, err, sizeof(err));
	if (ret)
		pr_warn("%s", err);
	flame_tree_free(tree);
	free(out);
	return ret;
}
