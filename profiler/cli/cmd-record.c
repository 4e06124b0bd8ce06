// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-record.c - `kprof record`: sample into a perf.data that perf itself reads
 * (docs/record.md).
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profiler/cli/cmd-int.h"
#include "profiler/lib/lib.h"
#include "profiler/record/record.h"

static const char usage_text[] =
	"usage: kprof record [-a | -C CPUS | -p PID[,PID..] | -- CMD [ARGS...]] [-e EVENT]...\n"
	"                    [-F HZ | -c PERIOD] [-g] [-m PAGES] [--duration SECONDS]\n"
	"                    [-o FILE] [--filter EXPR]\n"
	"\n"
	"  -a, --all-cpus        every CPU, every task (system-wide)\n"
	"  -C, --cpu CPUS        only these CPUs (e.g. 0,2-3), system-wide on them\n"
	"  -p, --pid PIDS        existing processes, all their threads\n"
	"  -e, --event EVENT     event (repeatable); default cycles:pp, falling back to\n"
	"                        cycles:p, cycles, cpu-clock\n"
	"  -F, --freq HZ         sample at this frequency (default 4000, cycles: -c 1000003)\n"
	"  -c, --count PERIOD    sample every PERIOD events\n"
	"  -g                    record call chains (frame pointers, kernel and user)\n"
	"  -m, --mmap-pages N    ring buffer data pages per CPU, a power of two (default 128)\n"
	"      --duration SECS   stop after SECS seconds (a command is then sent SIGTERM)\n"
	"  -o, --output FILE     output file (default perf.data; kallsyms in FILE.kallsyms)\n"
	"      --filter EXPR     kernel filter for the tracepoint events\n";

enum { OPT_FILTER = TARGET_OPT_DURATION + 1 };

static const struct option long_opts[] = {
	{ "all-cpus", no_argument, NULL, 'a' },
	{ "cpu", required_argument, NULL, 'C' },
	{ "pid", required_argument, NULL, 'p' },
	{ "event", required_argument, NULL, 'e' },
	{ "freq", required_argument, NULL, 'F' },
	{ "count", required_argument, NULL, 'c' },
	{ "call-graph", no_argument, NULL, 'g' },
	{ "mmap-pages", required_argument, NULL, 'm' },
	{ "duration", required_argument, NULL, TARGET_OPT_DURATION },
	{ "output", required_argument, NULL, 'o' },
	{ "filter", required_argument, NULL, OPT_FILTER },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static bool power_of_two(uint64_t v)
{
	return v && !(v & (v - 1));
}

/* Parse options into @o and @t; returns -1 to go on, else an exit status. */
static int parse(int argc, char **argv, struct record_opts *o, struct target_args *t)
{
	const char *what = "", *bad;
	uint64_t v;
	int c, r;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+aC:p:e:F:c:gm:o:h", long_opts, NULL)) != -1) {
		switch (c) {
		case 'F':
			if (record_parse_u64(optarg, &o->freq) || !o->freq)
				return cli_bad_value("record", "-F", optarg, "a frequency in Hz > 0");
			break;
		case 'c':
			if (record_parse_u64(optarg, &o->period) || !o->period)
				return cli_bad_value("record", "-c", optarg, "a period > 0");
			break;
		case 'g':
			o->callgraph = true;
			break;
		case 'm':
			if (record_parse_u64(optarg, &v) || !power_of_two(v) || v > (1 << 20))
				return cli_bad_value("record", "-m", optarg,
						     "a power of two of pages, up to 1048576");
			o->mmap_pages = (unsigned int)v;
			break;
		case 'o':
			o->output = optarg;
			break;
		case OPT_FILTER:
			o->filter = optarg;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return KPROF_EXIT_OK;
		default:
			r = target_opt(c, optarg, t, &what);
			if (r > 0)
				break;
			if (r < 0)
				return cli_bad_target("record", c, optarg, what);
			return cli_bad_option("record", argv, "+aC:p:e:F:c:gm:o:h", long_opts);
		}
	}
	if (o->freq && o->period)
		return cli_usage_error("record", "-F and -c exclude each other");
	bad = target_check(t, optind < argc);
	if (bad)
		return cli_usage_error("record", "%s", bad);
	o->system_wide = t->system_wide;
	o->cpus = t->cpus;
	o->pids = t->pids;
	o->nr_pids = t->nr_pids;
	o->events = t->events;
	o->nr_events = t->nr_events;
	return -1;
}

/* "a,b,c,..." as is when short, else "a and N more events". */
static const char *short_list(const char *list, char *buf, size_t len)
{
	size_t n = 0;

	if (!list)
		return "?";
	if (strlen(list) < len / 2)
		return list;
	for (const char *p = list; (p = strchr(p, ',')); p++)
		n++;
	snprintf(buf, len, "%.*s and %zu more events", (int)strcspn(list, ","), list, n);
	return buf;
}

int cmd_record(int argc, char **argv)
{
	struct record_opts o = { 0 };
	struct record_session *rs = NULL;
	struct record_stats st = { 0 };
	struct target_args t = { 0 };
	char err[512] = "", events[96];
	int ret, status, sig;
	char **cmd;

	ret = parse(argc, argv, &o, &t);
	if (ret >= 0)
		goto out;
	cmd = optind < argc ? argv + optind : NULL;
	if (!o.output)
		o.output = "perf.data";
	record_block_signals();
	ret = cmd ? record_session_start_cmd(&o, cmd, &rs, err, sizeof(err)) :
		    record_session_start(&o, &rs, err, sizeof(err));
	if (ret) {
		pr_err("record: %s", err[0] ? err : strerror(-ret));
		ret = KPROF_EXIT_ERROR;
		goto out;
	}
	record_session_set_cmdline(rs, argc, argv);
	if (cmd && (ret = record_session_go(rs, err, sizeof(err)))) {
		pr_err("record: %s: %s", cmd[0], err);
		record_session_abort(rs);
		ret = KPROF_EXIT_ERROR;
		goto out;
	}
	/* said once the events count and the command runs: tests wait for it (kprof -v record) */
	pr_debug("record: recording into %s", o.output);
	sig = record_wait(&(struct record_wait_opts){ .child = record_session_child(rs),
						      .duration_s = t.duration }, &status);
	if (sig == SIGINT || sig == SIGTERM)
		pr_debug("record: %s, writing %s", strsignal(sig), o.output);
	ret = record_session_stop(rs, &st);
	if (ret) {
		ret = cli_fail(o.output, ret, NULL);
		goto out;
	}
	pr_info("recorded %llu samples (%llu lost, %llu throttled) of %s into %s",
		(unsigned long long)st.samples, (unsigned long long)st.lost,
		(unsigned long long)st.throttled, short_list(st.event_used, events, sizeof(events)),
		o.output);
	free(st.event_used);
	ret = KPROF_EXIT_OK;
out:
	target_release(&t);
	return ret;
}
