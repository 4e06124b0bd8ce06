// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-list.c - `kprof list [GLOB]`: the events and tracepoints `-e` accepts on this machine,
 * like `perf list`, with the named events this machine cannot count marked; and the check every
 * command with -e makes before it starts, so that a misspelt event is a usage error pointing
 * here rather than a failure halfway through a run.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "profiler/cli/cmd-int.h"
#include "profiler/lib/lib.h"
#include "profiler/record/record.h"

int cmd_check_events(const char *cmd, const char *const *events, size_t nr)
{
	char err[768] = "";
	int ret = record_check_events(events, nr, err, sizeof(err));

	if (!ret)
		return -1;
	pr_err("%s: %s", cmd, err[0] ? err : strerror(-ret));
	return ret == -EINVAL ? KPROF_EXIT_USAGE : KPROF_EXIT_ERROR;
}

static void usage(FILE *fp)
{
	fprintf(fp, "usage: kprof list [GLOB]\n\n"
		"The events and tracepoints -e accepts here (GLOB: a shell pattern, e.g. 'sched:*'\n"
		"or '*fault*'). Named events this machine cannot count are marked.\n");
}

int cmd_list(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct record_known_event *v;
	const char *kind = NULL;
	char err[768] = "";
	size_t nr = 0;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return KPROF_EXIT_OK;
		}
		usage(stderr);
		return KPROF_EXIT_USAGE;
	}
	if (argc - optind > 1) {
		pr_err("list: one GLOB at most");
		usage(stderr);
		return KPROF_EXIT_USAGE;
	}
	if (record_known_events(argc > optind ? argv[optind] : NULL, &v, &nr, err, sizeof(err))) {
		pr_err("list: %s", err);
		return KPROF_EXIT_ERROR;
	}
	for (size_t i = 0; i < nr; i++) {
		if (!kind || strcmp(kind, v[i].kind))
			printf("%s%s events:\n", kind ? "\n" : "", v[i].kind);
		kind = v[i].kind;
		if (v[i].supported)
			printf("  %s\n", v[i].name);
		else
			printf("  %-40s [not supported here]\n", v[i].name);
	}
	if (err[0])
		pr_warn("list: no tracepoints: %s", err);
	else if (!nr)
		pr_warn("list: no event matches '%s'", argv[optind]);
	record_known_events_free(v, nr);
	return fflush(stdout) ? KPROF_EXIT_ERROR : KPROF_EXIT_OK;
}
