// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-recover.c - `kprof recover [--wait-fd N --pid P]`: undo what a kprof that died without
 * cleaning up (SIGKILL, a crash) left on this system: LKP's sysctls, a hugetlb reservation,
 * truncate's loop mount and image (workloads/state.c). `kprof run` does it when it starts; with
 * --wait-fd it is the guardian each `kprof run` leaves (profiler/run/run-guardian.c), which
 * waits for its run to end and undoes at once what a killed run held.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "profiler/cli/cmd-int.h"
#include "profiler/lib/lib.h"
#include "workloads/workloads.h"

static void usage(FILE *fp)
{
	fprintf(fp, "usage: kprof recover [--wait-fd N [--pid P]]\n\n"
		"Undo what a kprof that died (SIGKILL, a crash) left on this system: LKP's sysctls,\n"
		"a hugetlb reservation, truncate's loop mount and image. Root only; a live kprof's\n"
		"changes are never touched. `kprof run` does this when it starts and leaves a guardian\n"
		"that does it as soon as the run dies; this command does it now.\n\n"
		"  --wait-fd N   first read descriptor N until end-of-file (the guardian's wait)\n"
		"  --pid P       then wait (10 s at most) until the processes of kprof P are gone\n");
}

/*
 * The run's own forks, its workload's program and what that starts share its state file's flock
 * (workload_state_inherit) and die a moment after it (PDEATHSIG): until they have, its changes
 * are a live kprof's and recovery leaves them alone.
 */
static void wait_released(pid_t pid)
{
	const struct timespec tick = { 0, 20 * 1000 * 1000 };

	for (int i = 0; i < 500 && workload_state_held(pid); i++)
		nanosleep(&tick, NULL);
}

/* Read @fd until end-of-file: its writer (the run) has exited. */
static int wait_eof(int fd)
{
	char buf[64];
	ssize_t n;

	/* the run's Ctrl-C or a `pkill kprof` must not end the guardian before its run */
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	while ((n = read(fd, buf, sizeof(buf))) != 0)
		if (n < 0 && errno != EINTR)
			return -errno;
	close(fd);
	return 0;
}

int cmd_recover(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "wait-fd", required_argument, NULL, 'w' },
		{ "pid", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char report[1024] = "", *end;
	long wait_fd = -1, pid = 0;
	int c, ret;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'w':
			errno = 0;
			wait_fd = strtol(optarg, &end, 10);
			if (errno || end == optarg || *end || wait_fd < 0 || wait_fd > 65535)
				return cli_bad_value("recover", "--wait-fd", optarg,
						     "a file descriptor number");
			break;
		case 'p':
			errno = 0;
			pid = strtol(optarg, &end, 10);
			if (errno || end == optarg || *end || pid < 1 || pid > 4194304)
				return cli_bad_value("recover", "--pid", optarg, "a process id");
			break;
		case 'h':
			usage(stdout);
			return KPROF_EXIT_OK;
		default:
			return cli_bad_option("recover", argv, "h", longopts);
		}
	}
	if (optind < argc)
		return cli_usage_error("recover", "unexpected argument '%s'", argv[optind]);
	if (pid && wait_fd < 0)
		return cli_usage_error("recover", "--pid goes with --wait-fd");
	if (wait_fd >= 0 && (ret = wait_eof((int)wait_fd)))
		return cli_fail("recover: --wait-fd", ret, NULL);
	if (pid && !geteuid())
		wait_released((pid_t)pid);
	if (geteuid()) {
		pr_info("recover: nothing to do: only root's kprof changes the system");
		return KPROF_EXIT_OK;
	}
	ret = workload_recover(report, sizeof(report));
	if (report[0] && wait_fd >= 0)	/* the guardian: said even with -q, where the run was */
		pr_warn("undone after a kprof that died: %s", report);
	else if (report[0])
		pr_info("undone after a kprof that died: %s", report);
	else if (!ret)
		pr_info("recover: nothing to undo");
	if (ret) {
		char why[256];

		snprintf(why, sizeof(why), "could not undo all a killed kprof left: %s (kept for "
			 "the next try)", strerror(-ret));
		return cli_fail("recover", ret, why);
	}
	return KPROF_EXIT_OK;
}
