// SPDX-License-Identifier: GPL-2.0
/*
 * kprof - perf-counter profiling front end: record, report, compare and draw profiles the way
 * the kernel test robot (LKP) does.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "profiler/cli/cmd-int.h"
#include "profiler/lib/lib.h"

static const struct kprof_cmd commands[] = {
#define KPROF_CMD_ENTRY(n, s) { .name = #n, .fn = cmd_##n, .summary = s },
	KPROF_COMMANDS(KPROF_CMD_ENTRY)
#undef KPROF_CMD_ENTRY
	{ .name = NULL },
};

/*
 * The commands that read a whole profile: their heap goes onto transparent huge pages (lib's
 * heap_on_huge_pages): on a make -B recording `report` took ~21,000 page faults, a third of its
 * CPU time on a VM, and takes ~2,000 with it. 256 MiB of address space is reserved, memory
 * comes as it is touched.
 */
static const char *const profile_readers[] = { "report", "collapse", "export", "flamegraph" };

#define PROFILE_HEAP_RESERVE	(256UL << 20)

/* A command asked for its help only (it may mean something else to it: then only slower). */
static bool asks_help(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return true;
	return false;
}

static void usage(FILE *fp)
{
	fprintf(fp, "usage: kprof [-v|-q] <command> [options]\n\ncommands:\n");
	for (size_t i = 0; commands[i].name; i++)
		fprintf(fp, "  %-12s %s\n", commands[i].name, commands[i].summary);
	fprintf(fp, "\n'kprof help <command>' describes a command; docs/ has the manual.\n");
}

int main(int argc, char **argv)
{
	int i = 1;

	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-v") || !strcmp(argv[i], "--verbose")) {
			log_verbosity = LOG_DEBUG;
		} else if (!strcmp(argv[i], "-q") || !strcmp(argv[i], "--quiet")) {
			log_verbosity = LOG_WARN;
		} else if (!strcmp(argv[i], "--version")) {
			printf("kprof %s\n", KPROF_VERSION);
			return KPROF_EXIT_OK;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout);
			return KPROF_EXIT_OK;
		} else {
			pr_err("%s: unknown option (see 'kprof help')", argv[i]);
			return KPROF_EXIT_USAGE;
		}
	}
	if (i == argc) {
		usage(stderr);
		return KPROF_EXIT_USAGE;
	}
	if (!strcmp(argv[i], "help") && i + 1 < argc) {
		/* kprof help CMD: that command's own --help */
		char *help_argv[] = { argv[i + 1], "--help", NULL };

		for (size_t c = 0; commands[c].name; c++)
			if (!strcmp(argv[i + 1], commands[c].name))
				return commands[c].fn(2, help_argv);
		pr_err("'%s' is not a kprof command (see 'kprof help')", argv[i + 1]);
		return KPROF_EXIT_USAGE;
	}
	if (!strcmp(argv[i], "help")) {
		usage(stdout);
		return KPROF_EXIT_OK;
	}
	for (size_t c = 0; c < sizeof(profile_readers) / sizeof(profile_readers[0]); c++) {
		if (strcmp(argv[i], profile_readers[c]) || asks_help(argc - i, argv + i))
			continue;
		/* only faster or not: a heap that cannot be advised works as before */
		if (heap_on_huge_pages(PROFILE_HEAP_RESERVE) < 0)
			pr_debug("malloc heap: not on huge pages");
		break;
	}
	for (size_t c = 0; commands[c].name; c++)
		if (!strcmp(argv[i], commands[c].name))
			return commands[c].fn(argc - i, argv + i);
	pr_err("'%s' is not a kprof command (see 'kprof help')", argv[i]);
	return KPROF_EXIT_USAGE;
}
