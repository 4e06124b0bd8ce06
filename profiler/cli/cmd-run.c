// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-run.c - `kprof run WORKLOAD [k=v...] [--runs N] [-e EVENT] [--no-profile] [--sched]
 * [-o RESULTS]`:
 * the options, the signals and the summary; the runs are profiler/run's (run.h). See
 * docs/run.md.
 *
 * Interrupts: SIGINT/SIGTERM/SIGHUP only set the flag the batch watches; it kills the workload,
 * restores the system and removes the unfinished run, and the finished runs are said here.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output/output.h"
#include "profiler/lib/lib.h"
#include "profiler/cli/cmd-int.h"
#include "profiler/record/record.h"
#include "profiler/run/run.h"

static volatile sig_atomic_t run_interrupted;

static void on_signal(int sig)
{
	run_interrupted = sig;
}

static void usage(FILE *fp)
{
	fprintf(fp,
		"usage: kprof run WORKLOAD [k=v...] [--runs N] [-e EVENT] [--no-profile] "
		"[--sched] [--keep-sched-data]\n"
		"                [-o RESULTS]\n"
		"                [--call-graph fp|dwarf[,SIZE]|lbr]\n"
		"                [--name NAME] [--commit SHA] [--note TEXT]\n"
		"                [--interleave 'k=v,...' --interleave 'k=v,...']\n"
		"       kprof run --list\n\n"
		"  k=v             nr_task, unit_size, size, runtime (testtime), seed, thp\n"
		"  -r, --runs N    run the workload N times (default 3)\n"
		"  -e, --event E   sampling event (default: cycles:pp, else cpu-clock)\n"
		"  --no-profile    no perf sampling, only the workload metrics and monitors\n"
		"  --sched         LKP's perf-sched monitor (sched tracepoints with call chains;\n"
		"                  off by default: it costs ~11%% of the throughput)\n"
		"  --keep-sched-data  the same, its recording kept as perf-sched.data in each run\n"
		"  --call-graph M  user call chains: fp (default, LKP's -g), dwarf[,SIZE] (the\n"
		"                  workload's own stacks, as its programs are built without frame\n"
		"                  pointers like LKP's) or lbr\n"
		"  -o, --output D  result root (default ./results)\n"
		"  -n, --name NAME the result set's name: its directory and compare label\n"
		"                  (default: the kernel release, uname -r)\n"
		"  --commit SHA    the kernel's commit, kept in meta.json\n"
		"  --note TEXT     a free-form note, kept in meta.json\n"
		"  -I, --interleave SPEC  A/B on one kernel: one parameter set per option (k=v,...\n"
		"                  over the command line's), runs alternating A B A B; each set\n"
		"                  its own result directory\n"
		"  -l, --list      list the workloads\n");
}

static int list_workloads(void)
{
	char metric[128];

	printf("%-22s %-15s %-30s %s\n", "WORKLOAD", "FAMILY", "MAIN METRIC", "WHAT");
	for (const struct workload *w = workload_next(NULL); w; w = workload_next(w))
		printf("%-22s %-15s %-30s %s%s\n", workload_name(w), workload_family(w),
		       workload_main_metric(w, metric, sizeof(metric)), workload_summary(w),
		       workload_needs_root(w) ? " [root]" : "");
	return KPROF_EXIT_OK;
}

/* The main metric of each set (mean ± population stddev, LKP's) and the hottest rows. */
static void summary(const struct run_batch *b)
{
	for (size_t i = 0; i < run_batch_nr_sets(b); i++) {
		struct run_set_result r;
		double mean, sd;

		run_batch_result(b, i, &r);
		if (!r.nr_done)
			continue;
		mean = stats_mean(r.main_values, (size_t)r.nr_done);
		sd = r.nr_done > 1 ? stats_pstddev(r.main_values, (size_t)r.nr_done) : 0;
		printf("%s: %d run%s, results in %s\n", r.workload, r.nr_done,
		       r.nr_done == 1 ? "" : "s", r.base);
		printf("  %s: %.2f ± %.2f (%.1f%%)\n", r.main_metric, mean, sd,
		       mean ? 100 * sd / mean : 0);
	}
	run_batch_write_top_rows(b, stdout);
}

/* The program directory: next to kprof (the build dir), or ./build of a source tree. */
static int find_programs(char *bindir, size_t len)
{
	char exe[4096], msg[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n < 0)
		return cli_fail("/proc/self/exe", -errno, NULL);
	exe[n] = '\0';
	*strrchr(exe, '/') = '\0';
	if (workload_find_programs(exe, bindir, len, msg, sizeof(msg))) {
		pr_err("%s", msg);
		return KPROF_EXIT_ERROR;
	}
	return KPROF_EXIT_OK;
}

/*
 * Root's runs change the system: leave a guardian (`kprof recover --wait-fd 3`) that undoes
 * those changes the moment this process dies, even by SIGKILL. Without one a killed run's
 * changes wait for the next `kprof run` (or `kprof recover`): said, not fatal.
 */
static void start_guardian(void)
{
	char pid[16], err[256] = "";
	char *const argv[] = { "kprof", "-q", "recover", "--wait-fd", "3", "--pid", pid, NULL };

	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	if (run_guardian_start(argv, 3, err, sizeof(err)))
		pr_warn("%s: a killed run's system changes wait for the next kprof run", err);
}

int cmd_run(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "runs", required_argument, NULL, 'r' },
		{ "event", required_argument, NULL, 'e' },
		{ "no-profile", no_argument, NULL, 'P' },
		{ "sched", no_argument, NULL, 's' },
		{ "no-sched", no_argument, NULL, 'S' },
		{ "keep-sched-data", no_argument, NULL, 'K' },
		{ "output", required_argument, NULL, 'o' },
		{ "list", no_argument, NULL, 'l' },
		{ "name", required_argument, NULL, 'n' },
		{ "commit", required_argument, NULL, 'C' },
		{ "note", required_argument, NULL, 'N' },
		{ "interleave", required_argument, NULL, 'I' },
		{ "call-graph", required_argument, NULL, 'G' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct run_request rq = { .results = "results", .profile = true, .nr_runs = 3 };
	struct sigaction sa = { .sa_handler = on_signal };
	char bindir[4096] = "";
	struct run_batch *b = NULL;
	char err[1024] = "", *end;
	int opt, ret;

	wl_params_init(&rq.p);
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "r:e:o:n:I:lh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'I':
			if (rq.nr_interleave == RUN_MAX_INTERLEAVE) {
				pr_err("--interleave: at most %d parameter sets", RUN_MAX_INTERLEAVE);
				return KPROF_EXIT_USAGE;
			}
			rq.interleave[rq.nr_interleave++] = optarg;
			break;
		case 'n':
			rq.name = optarg;
			break;
		case 'C':
			rq.commit = optarg;
			break;
		case 'N':
			rq.note = optarg;
			break;
		case 'r':
			rq.nr_runs = (int)strtol(optarg, &end, 10);
			if (*end || rq.nr_runs < 1 || rq.nr_runs > 1000)
				return cli_bad_value("run", "--runs", optarg, "1 to 1000");
			break;
		case 'e':
			rq.event = optarg;
			break;
		case 'P':
			rq.profile = false;
			break;
		case 's':
			rq.sched = true;
			break;
		case 'S':
			rq.sched = rq.keep_sched = false;
			break;
		case 'K':
			rq.sched = rq.keep_sched = true;
			break;
		case 'G': {
			struct record_opts ro = { 0 };

			if (record_parse_callgraph(optarg, &ro))
				return cli_bad_value("run", "--call-graph", optarg,
						     "fp, dwarf[,SIZE] (SIZE 8..65528, a multiple "
						     "of 8) or lbr");
			rq.call_graph = optarg;
			break;
		}
		case 'o':
			rq.results = optarg;
			break;
		case 'l':
			return list_workloads();
		case 'h':
			usage(stdout);
			return KPROF_EXIT_OK;
		default:
			return cli_bad_option("run", argv, "r:e:o:lh", longopts);
		}
	}
	if (optind >= argc)
		return cli_usage_error("run", "no WORKLOAD given");
	rq.w = workload_find(argv[optind]);
	if (!rq.w) {
		pr_err("'%s' is not a workload (see 'kprof run --list')", argv[optind]);
		return KPROF_EXIT_USAGE;
	}
	for (int i = optind + 1; i < argc; i++) {
		if (wl_params_set(&rq.p, argv[i], err, sizeof(err))) {
			pr_err("%s", err);
			return KPROF_EXIT_USAGE;
		}
	}
	if (rq.event && rq.profile && (opt = cmd_check_events("run", &rq.event, 1)) >= 0)
		return opt;
	rq.bindir = bindir;	/* borrowed by the batch, filled once the request is known good */
	ret = run_batch_new(&rq, &b, err, sizeof(err));
	if (ret) {
		pr_err("%s", err[0] ? err : strerror(-ret));
		return ret == -EINVAL ? KPROF_EXIT_USAGE : KPROF_EXIT_ERROR;
	}
	opt = find_programs(bindir, sizeof(bindir));
	if (opt != KPROF_EXIT_OK)
		goto out;
	ret = run_batch_prepare(b, err, sizeof(err));
	if (!ret && !geteuid())
		start_guardian();
	/* interrupts end a run cleanly */
	sigemptyset(&sa.sa_mask);
	if (!ret && (sigaction(SIGINT, &sa, NULL) || sigaction(SIGTERM, &sa, NULL) ||
		     sigaction(SIGHUP, &sa, NULL))) {
		ret = -errno;
		snprintf(err, sizeof(err), "run: signal setup: %s", strerror(errno));
	}
	if (!ret)
		ret = run_batch_run(b, &run_interrupted, err, sizeof(err));
	if (ret && ret != -EINTR)
		pr_err("%s", err[0] ? err : strerror(-ret));
	if (run_interrupted) {
		for (size_t i = 0; i < run_batch_nr_sets(b); i++) {
			struct run_set_result r;

			run_batch_result(b, i, &r);
			pr_err("interrupted: %d finished run%s kept in %s", r.nr_done,
			       r.nr_done == 1 ? "" : "s", r.base);
		}
		opt = 128 + run_interrupted;
		goto out;
	}
	summary(b);
	if (run_batch_nr_sets(b) > 1 && !ret) {
		struct run_set_result r0, r1;

		run_batch_result(b, 0, &r0);
		run_batch_result(b, 1, &r1);
		printf("interleaved %zu parameter sets, %d runs each: kprof compare %s %s\n",
		       run_batch_nr_sets(b), rq.nr_runs, r0.base, r1.base);
	}
	opt = ret ? KPROF_EXIT_ERROR : KPROF_EXIT_OK;
out:
	run_batch_free(b);
	return opt;
}
