// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-run.c - `kprof run WORKLOAD [k=v...] [--runs N] [-e EVENT] [--no-profile] [-o RESULTS]`:
 * run a built-in workload N times the way LKP does (run/ does each run) and write a result set:
 * per run stats.json, the raw log and meta.json; per kernel a matrix.json. See docs/run.md.
 *
 * Interrupts: SIGINT/SIGTERM/SIGHUP only set run_interrupted (run.h). Finished runs are
 * complete on disk before the next starts.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "output/output.h"
#include "profiler/lib/lib.h"
#include "profiler/cli/cmd-int.h"
#include "profiler/run/run.h"

static void usage(FILE *fp)
{
	fprintf(fp,
		"usage: kprof run WORKLOAD [k=v...] [--runs N] [-e EVENT] [--no-profile] "
		"[-o RESULTS]\n"
		"       kprof run --list\n\n"
		"  k=v             nr_task, unit_size, size, runtime (testtime), seed, thp\n"
		"  -r, --runs N    run the workload N times (default 3)\n"
		"  -e, --event E   sampling event (default: cycles:pp, else cpu-clock)\n"
		"  --no-profile    no perf sampling, only the workload metrics and monitors\n"
		"  -o, --output D  result root (default ./results)\n"
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

static void summary(const struct run_ctx *c)
{
	char metric[128];
	int n = c->nr_done;
	double mean, sd;

	if (!n)
		return;
	mean = stats_mean(c->main_values, n);
	sd = n < 2 ? 0 : stats_pstddev(c->main_values, n);	/* population, as LKP's */
	printf("%s: %d run%s, results in %s\n", workload_name(c->w), n, n == 1 ? "" : "s",
	       c->base);
	printf("  %s: %.2f ± %.2f (%.1f%%)\n", workload_main_metric(c->w, metric, sizeof(metric)),
	       mean, sd, mean ? 100 * sd / mean : 0);
	run_profile_summary(&c->hist, stdout);
}

int cmd_run(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "runs", required_argument, NULL, 'r' },
		{ "event", required_argument, NULL, 'e' },
		{ "no-profile", no_argument, NULL, 'P' },
		{ "output", required_argument, NULL, 'o' },
		{ "list", no_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct run_ctx c = { .results = "results", .profile = true, .nr_runs = 3 };
	struct sigaction sa = { .sa_handler = run_on_signal };
	char err[256], *end;
	int opt, ret = 0, status;

	wl_params_init(&c.p);
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "r:e:o:lh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'r':
			c.nr_runs = (int)strtol(optarg, &end, 10);
			if (*end || c.nr_runs < 1 || c.nr_runs > 1000)
				return cli_bad_value("run", "--runs", optarg, "1 to 1000");
			break;
		case 'e':
			c.event = optarg;
			break;
		case 'P':
			c.profile = false;
			break;
		case 'o':
			c.results = optarg;
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
	c.w = workload_find(argv[optind]);
	if (!c.w)
		return cli_usage_error("run", "'%s' is not a workload (see 'kprof run --list')",
				       argv[optind]);
	for (int i = optind + 1; i < argc; i++)
		if (wl_params_set(&c.p, argv[i], err, sizeof(err)))
			return cli_usage_error("run", "%s", err);
	if (workload_resolve(c.w, &c.p, err, sizeof(err)))
		return cli_usage_error("run", "%s", err);
	if (workload_needs_root(c.w) && geteuid()) {
		pr_err("%s: needs root (hugetlb reservation or loop mount)", workload_name(c.w));
		return KPROF_EXIT_ERROR;
	}
	c.main_values = calloc((size_t)c.nr_runs, sizeof(double));
	if (!c.main_values || run_setup(&c)) {
		free(c.main_values);
		free(c.base);
		return KPROF_EXIT_ERROR;
	}

	/* interrupts end a run cleanly; as subreaper we reap what the workload leaves behind */
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGINT, &sa, NULL) || sigaction(SIGTERM, &sa, NULL) ||
	    sigaction(SIGHUP, &sa, NULL) || prctl(PR_SET_CHILD_SUBREAPER, 1)) {
		pr_err("run: signal setup: %s", strerror(errno));
		free(c.main_values);
		free(c.base);
		return KPROF_EXIT_ERROR;
	}

	for (int i = 0; i < c.nr_runs && !ret && !run_interrupted; i++)
		ret = run_once(&c);
	if (run_interrupted) {
		pr_err("interrupted: %d finished run%s kept in %s", c.nr_done,
		       c.nr_done == 1 ? "" : "s", c.base);
		status = 128 + run_interrupted;
	} else {
		summary(&c);
		status = ret ? KPROF_EXIT_ERROR : KPROF_EXIT_OK;
	}
	run_history_release(&c.hist);
	free(c.event_copy);
	free(c.main_values);
	free(c.base);
	return status;
}
