// SPDX-License-Identifier: GPL-2.0
/*
 * flamegraph_write_run_dir(), the call `kprof run` makes after writing profile.folded: the SVG
 * appears in the run directory, written atomically, and a directory without a profile is a
 * one-line error that leaves nothing behind.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profiler/flamegraph-local.h"
#include "tests/tap.h"

static char *slurp(const char *path)
{
	FILE *fp = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0;
	ssize_t n;

	if (!fp)
		return NULL;
	n = getdelim(&buf, &cap, '\0', fp);
	fclose(fp);
	if (n < 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

int main(void)
{
	char dir[] = "/tmp/kprof-fg-XXXXXX", path[256], err[512] = "";
	char *svg;
	FILE *fp;
	int ret;

	if (!mkdtemp(dir))
		skip_all("mkdtemp: %s", strerror(errno));

	ret = flamegraph_write_run_dir(dir, err, sizeof(err));
	ok(ret < 0, "a directory without a profile is an error (%d)", ret);
	ok(strstr(err, dir) && strstr(err, "not a kprof run directory") && !strchr(err, '\n'),
	   "one line naming the directory: %s", err);
	snprintf(path, sizeof(path), "%s/flamegraph.svg", dir);
	ok(access(path, F_OK) != 0, "and no SVG");

	snprintf(path, sizeof(path), "%s/profile.folded", dir);
	fp = fopen(path, "w");
	fputs("hackbench;main;do_syscall_64_[k] 3\nhackbench;main 1\n", fp);
	fclose(fp);
	is_int(flamegraph_write_run_dir(dir, err, sizeof(err)), 0, "profile.folded drawn");
	snprintf(path, sizeof(path), "%s/flamegraph.svg", dir);
	svg = slurp(path);
	ok(svg && strstr(svg, "<title>do_syscall_64 (3 samples, 75.00%)</title>"),
	   "flamegraph.svg holds the profile");
	ok(svg && strstr(svg, "fill=\"rgb(") && strstr(svg, "</svg>\n"), "complete SVG");
	if (svg) {
		const char *k = strstr(svg, "<title>do_syscall_64 (");
		unsigned int r = 0, g = 0, b = 1;

		k = k ? strstr(k, "fill=\"rgb(") : NULL;
		if (k)
			sscanf(k, "fill=\"rgb(%u,%u,%u)", &r, &g, &b);
		ok(b == 0 && r > g, "kernel/user colours: the kernel frame is orange");
	}
	free(svg);

	unlink(path);
	snprintf(path, sizeof(path), "%s/profile.folded", dir);
	unlink(path);
	rmdir(dir);
	return done_testing();
}
