/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmd-int.h - the subcommands of kprof. One file per command (profiler/cli/cmd-<name>.c), each
 * exporting cmd_<name>(argc, argv) with argv[0] the command name. A command returns the process
 * exit status (see KPROF_EXIT_*); it is the only layer that prints for the user.
 */
#ifndef KPROF_CMD_INT_H
#define KPROF_CMD_INT_H

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
	X(export, "a profile as pprof (go tool pprof, Pyroscope, Parca), speedscope or Chrome JSON") \
	X(flamegraph, "draw an interactive SVG flame graph, plain or differential")	\
	X(list, "the events and tracepoints -e accepts on this machine")	\
	X(plot, "plot one metric's per-run values of two result sets")	\
	X(record, "sample events into a perf.data file (perf's format)")	\
	X(recover, "undo the system changes of a kprof that died (sysctls, hugetlb, mounts)") \
	X(report, "perf.data as LKP perf-profile keys, a Children/Self table or JSON")	\
	X(run, "run a built-in workload N times: LKP metrics, monitors, profile")	\
	X(sched, "scheduler wait and delay per call chain (perf sched timehist), LKP keys")	\
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

#include <stddef.h>
/*
 * Parse every -e before a command starts: -1 when all are events here, else the exit status
 * after one line (KPROF_EXIT_USAGE for a name that is no event, pointing at `kprof list`).
 */
int cmd_check_events(const char *cmd, const char *const *events, size_t nr);
/*
 * ---- reporting (cli-util.c): every message to the user goes through these ----
 * cli_fail: "kprof: error: <subject>: <reason>" (@err when non-empty, else strerror of @ret;
 * @subject NULL when @err names the file already); returns KPROF_EXIT_ERROR.
 * cli_bad_value: "kprof: error: <cmd>: <opt> '<value>': <what is valid>"; KPROF_EXIT_USAGE.
 * cli_usage_error: "kprof: error: <cmd>: <what> (see 'kprof help <cmd>')"; KPROF_EXIT_USAGE.
 * cli_bad_option: after getopt_long() returned '?' (with opterr = 0): the unknown option, or
 * the one that needs a value, through cli_usage_error.
 */
struct option;
int cli_fail(const char *subject, int ret, const char *err);
int cli_bad_value(const char *cmd, const char *opt, const char *value, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int cli_bad_option(const char *cmd, char **argv, const char *optstring,
		   const struct option *longopts);
/* A target option (-p, -e, -C, --duration; see target_opt()) whose value is not @what. */
int cli_bad_target(const char *cmd, int c, const char *value, const char *what);

#define KPROF_CMD_DECLARE(name, summary) int cmd_##name(int argc, char **argv);
KPROF_COMMANDS(KPROF_CMD_DECLARE)
#undef KPROF_CMD_DECLARE

#endif
