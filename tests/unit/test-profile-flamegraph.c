// SPDX-License-Identifier: GPL-2.0
/*
 * flamegraph_write_run_svg(), the call `kprof run` makes after writing profile.folded: the SVG
 * of the run's call graph appears in the run directory, with kernel/user colours and the event
 * as the unit; an unwritable directory is an error that leaves nothing behind.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profiler/profile/profile.h"
#include "profiler/lib/lib.h"
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

/* The fill of the frame named @name in @svg, or 0 when absent. */
static bool fill_of(const char *svg, const char *name, unsigned int rgb[3])
{
	char needle[128];
	const char *k;

	snprintf(needle, sizeof(needle), "<title>%s (", name);
	k = strstr(svg, needle);
	k = k ? strstr(k, "fill=\"rgb(") : NULL;
	return k && sscanf(k, "fill=\"rgb(%u,%u,%u)", &rgb[0], &rgb[1], &rgb[2]) == 3;
}

int main(void)
{
	char dir[] = "/tmp/kprof-fg-XXXXXX", path[256];
	struct cg_task task = { .comm = "hackbench", .pid = -1, .tid = -1 };
	struct cg_frame frames[] = {	/* leaf first */
		{ .sym = "do_syscall_64", .dso = "[kernel.kallsyms]", .flags = CG_FRAME_KERNEL },
		{ .sym = "main", .dso = "/usr/bin/hackbench" },
	};
	struct callgraph *cg = callgraph_new();
	unsigned int k[3], u[3];
	char *svg;

	if (!mkdtemp(dir))
		skip_all("mkdtemp: %s", strerror(errno));
	callgraph_add(cg, &task, frames, 2, 3000, 3);
	callgraph_add(cg, &task, frames + 1, 1, 1000, 1);

	is_int(flamegraph_write_run_svg(dir, cg, "cpu-clock"), 0, "the run's call graph drawn");
	snprintf(path, sizeof(path), "%s/flamegraph.svg", dir);
	svg = slurp(path);
	ok(svg && strstr(svg, "<title>do_syscall_64 (3,000 cpu-clock, 75.00%)</title>"),
	   "flamegraph.svg in the run directory, periods of the event");
	ok(svg && fill_of(svg, "do_syscall_64", k) && fill_of(svg, "main", u) && k[2] == 0 &&
	   u[1] > u[0], "kernel/user colours: kernel orange, user green");
	ok(svg && strstr(svg, "</svg>\n"), "complete SVG");
	free(svg);
	unlink(path);
	rmdir(dir);

	log_verbosity = LOG_ERR;	/* the expected warning below */
	ok(flamegraph_write_run_svg("/nonexistent/run", cg, "cpu-clock") < 0,
	   "an unwritable run directory is an error");
	callgraph_free(cg);
	return done_testing();
}
