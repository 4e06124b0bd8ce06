// SPDX-License-Identifier: GPL-2.0
/* cmd-stat.c - `kprof stat`: count events, print LKP's perf-stat keys (docs/stat.md). */
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profiler/cli/cmd-int.h"
#include "profiler/lib/lib.h"
#include "profiler/record/record.h"

static const char usage_text[] =
	"usage: kprof stat [-a | -C CPUS | -p PID[,PID..] | -- CMD [ARGS...]] [-e EVENT]...\n"
	"                  [-I MS] [--duration SECONDS]\n"
	"\n"
	"  -a, --all-cpus        count every CPU, every task (system-wide)\n"
	"  -C, --cpu CPUS        only these CPUs, system-wide on them\n"
	"  -p, --pid PIDS        existing processes, all their threads\n"
	"  -e, --event EVENT     event (repeatable); default: LKP's perf-stat set\n"
	"  -I, --interval MS     close an interval every MS ms (LKP uses 1000); the last\n"
	"                        interval is dropped, as LKP's parser does\n"
	"      --duration SECS   stop after SECS seconds (a command is then sent SIGTERM)\n"
	"\n"
	"Counts go to stderr (like perf stat), perf-stat.* keys to stdout.\n";

static const struct option long_opts[] = {
	{ "all-cpus", no_argument, NULL, 'a' },
	{ "cpu", required_argument, NULL, 'C' },
	{ "pid", required_argument, NULL, 'p' },
	{ "event", required_argument, NULL, 'e' },
	{ "interval", required_argument, NULL, 'I' },
	{ "duration", required_argument, NULL, TARGET_OPT_DURATION },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int parse(int argc, char **argv, struct stat_opts *o, struct target_args *t)
{
	const char *what = "", *bad;
	uint64_t v;
	int c, r;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+aC:p:e:I:h", long_opts, NULL)) != -1) {
		switch (c) {
		case 'I':
			if (record_parse_u64(optarg, &v) || v < 10 || v > 3600000)
				return cli_bad_value("stat", "-I", optarg, "10 to 3600000 ms");
			o->interval_ms = (unsigned int)v;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return KPROF_EXIT_OK;
		default:
			r = target_opt(c, optarg, t, &what);
			if (r > 0)
				break;
			if (r < 0)
				return cli_bad_target("stat", c, optarg, what);
			return cli_bad_option("stat", argv, "+aC:p:e:I:h", long_opts);
		}
	}
	bad = target_check(t, optind < argc);
	if (bad)
		return cli_usage_error("stat", "%s", bad);
	o->system_wide = t->system_wide;
	o->cpus = t->cpus;
	o->pids = t->pids;
	o->nr_pids = t->nr_pids;
	o->events = t->events;
	o->nr_events = t->nr_events;
	return -1;
}

static void print_counts(const struct kv_list *totals)
{
	fprintf(stderr, "\n Performance counter stats (kprof):\n\n");
	for (size_t i = 0; i < totals->nr; i++) {
		if (isnan(totals->items[i].value))
			fprintf(stderr, "%20s      %s\n", "<not counted>", totals->items[i].key);
		else
			fprintf(stderr, "%20.0f      %s\n", totals->items[i].value,
				totals->items[i].key);
	}
	fputc('\n', stderr);
}

int cmd_stat(int argc, char **argv)
{
	struct stat_opts o = { 0 };
	struct stat_session *s = NULL;
	struct kv_list keys = { 0 }, totals = { 0 };
	struct target_args t = { 0 };
	char err[512] = "";
	char **cmd;
	int ret, status;

	ret = parse(argc, argv, &o, &t);
	if (ret >= 0)
		goto out;
	cmd = optind < argc ? argv + optind : NULL;
	record_block_signals();
	ret = cmd ? stat_session_start_cmd(&o, cmd, &s, err, sizeof(err)) :
		    stat_session_start(&o, &s, err, sizeof(err));
	if (!ret && cmd && (ret = stat_session_go(s, err, sizeof(err)))) {
		stat_session_stop(s, NULL, NULL);
		s = NULL;
	}
	if (ret) {
		pr_err("stat: %s", err);
		ret = KPROF_EXIT_ERROR;
		goto out;
	}
	record_wait(&(struct record_wait_opts){ .child = stat_session_child(s),
						.duration_s = t.duration }, &status);
	ret = stat_session_stop(s, &keys, &totals);
	if (ret) {
		pr_err("stat: %s", strerror(-ret));
		ret = KPROF_EXIT_ERROR;
		goto out;
	}
	print_counts(&totals);
	kv_list_sort(&keys);
	kv_list_write_text(stdout, &keys);
	ret = KPROF_EXIT_OK;
out:
	kv_list_release(&keys);
	kv_list_release(&totals);
	target_release(&t);
	return ret;
}
