/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmd-int.h - the subcommands of kprof. One file per command (profiler/cli/cmd-<name>.c), each
 * exporting cmd_<name>(argc, argv) with argv[0] the command name. A command returns the process
 * exit status (see KPROF_EXIT_*); it is the only layer that prints for the user.
 */
#ifndef KPROF_CMD_LOCAL_H
#define KPROF_CMD_LOCAL_H

enum kprof_exit {
	KPROF_EXIT_OK		= 0,
	KPROF_EXIT_ERROR	= 1,	/* bad input, failed syscall, nothing usable produced */
	KPROF_EXIT_USAGE	= 2,	/* bad command line */
};

struct kprof_cmd {
	const char	*name;
	int		(*fn)(int argc, char **argv);
	const char	*summary;	/* one line for `kprof help` */
};

/*
 * The command table: add one line per command, keep it sorted by name.
 * X(name, summary)
 */
#define KPROF_COMMANDS(X)							\
	X(collapse, "folded stacks from perf.data or perf script, like stackcollapse-perf.pl") \
	X(compare, "compare result sets across kernels, as LKP's tables")	\
	X(flamegraph, "draw an interactive SVG flame graph, plain or differential")	\
	X(plot, "plot one metric's per-run values of two result sets")	\
	X(record, "sample events into a perf.data file (perf's format)")	\
	X(report, "perf.data as LKP perf-profile keys, a Children/Self table or JSON")	\
	X(run, "run a built-in workload N times: LKP metrics, monitors, profile")	\
	X(stat, "count events, print LKP's perf-stat keys")			\
	X(trace, "tracepoint counts, rates, top field values, histograms")	\


struct profile;
/*
 * Warn (stderr) about mapped files rebuilt since @input was recorded: their frames are left
 * unresolved. Shared by the commands that read perf.data (cmd-report.c).
 */
void warn_stale_files(const char *input, const struct profile *p);
/* warn_stale_files() and every other thing the file holds that kprof did not use. */
void warn_profile_notes(const char *input, const struct profile *p);

#define KPROF_CMD_DECLARE(name, summary) int cmd_##name(int argc, char **argv);
KPROF_COMMANDS(KPROF_CMD_DECLARE)
#undef KPROF_CMD_DECLARE

#endif
