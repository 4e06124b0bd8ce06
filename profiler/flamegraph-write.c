// SPDX-License-Identifier: GPL-2.0
/*
 * flamegraph-write.c - write a flame graph SVG file without ever leaving a half-written one: the
 * SVG goes to a temporary file next to the target, renamed into place once complete.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profiler/flamegraph-local.h"
#include "profiler/log-local.h"

static int svg_failed(int ret, const char *path, char *err, size_t errlen)
{
	if (ret == -ENODATA)
		snprintf(err, errlen, "%s: no samples to draw", path);
	else
		snprintf(err, errlen, "%s: %s", path, strerror(-ret));
	return ret;
}

static mode_t umask_of_process(void)
{
	mode_t m = umask(022);

	umask(m);
	return m;
}

int flamegraph_write_file(const char *path, const struct flame_tree *tree,
			  const struct flame_svg_opts *o, char *err, size_t errlen)
{
	char *tmp;
	FILE *fp;
	int fd, ret;

	if (!path || !strcmp(path, "-")) {
		ret = flame_svg_write(stdout, tree, o, NULL);
		if (!ret && fflush(stdout))
			ret = -errno;
		return ret ? svg_failed(ret, "standard output", err, errlen) : 0;
	}
	if (asprintf(&tmp, "%s.tmpXXXXXX", path) < 0)
		return svg_failed(-ENOMEM, path, err, errlen);
	fd = mkstemp(tmp);
	if (fd < 0) {
		ret = -errno;
		goto out;
	}
	fp = fdopen(fd, "w");
	if (!fp) {
		ret = -errno;
		close(fd);
		unlink(tmp);
		goto out;
	}
	/* mkstemp() makes the file 0600; an SVG is meant to be shared like any output file */
	fchmod(fd, 0644 & ~umask_of_process());
	ret = flame_svg_write(fp, tree, o, NULL);
	if (fclose(fp) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret)
		unlink(tmp);
out:
	free(tmp);
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
