// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-sched.c - `kprof sched`: the wait time and scheduling delay of every switch-out of a
 * `perf sched record -g` file, as `perf sched timehist` prints them, or LKP's perf-sched.* keys
 * per call chain (docs/sched.md).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profiler/cli/cmd-int.h"
#include "profiler/lib/lib.h"
#include "profiler/profile/profile.h"

static const char usage_text[] =
	"usage: kprof sched [-i FILE] [--lkp] [--vmlinux PATH] [--kallsyms PATH]\n"
	"\n"
	"  -i, --input FILE   perf.data of `perf sched record -g` (default perf.data)\n"
	"      --lkp          LKP's perf-sched.* keys per call chain instead of the table\n"
	"      --vmlinux PATH kernel symbols from this vmlinux\n"
	"      --kallsyms PATH kernel symbols from this kallsyms text\n";

enum { OPT_LKP = 256, OPT_VMLINUX, OPT_KALLSYMS };

static const struct option long_opts[] = {
	{ "input", required_argument, NULL, 'i' },
	{ "lkp", no_argument, NULL, OPT_LKP },
	{ "vmlinux", required_argument, NULL, OPT_VMLINUX },
	{ "kallsyms", required_argument, NULL, OPT_KALLSYMS },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

struct sched_args {
	const char		*input;
	bool			lkp;
	struct sched_opts	o;
};

static int parse(int argc, char **argv, struct sched_args *a)
{
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "i:h", long_opts, NULL)) != -1) {
		switch (c) {
		case 'i':
			a->input = optarg;
			break;
		case OPT_LKP:
			a->lkp = true;
			break;
		case OPT_VMLINUX:
			a->o.vmlinux = optarg;
			break;
		case OPT_KALLSYMS:
			a->o.kallsyms = optarg;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return KPROF_EXIT_OK;
		default:
			return cli_bad_option("sched", argv, "i:h", long_opts);
		}
	}
	if (optind < argc)
		return cli_usage_error("sched", "unexpected argument '%s'", argv[optind]);
	return -1;
}

/* timehist's header, for its default comm width of 30 */
static void print_header(void)
{
	printf("%15s %6s  %-30s  %9s  %9s  %9s\n", "time", "cpu", "task name", "wait time",
	       "sch delay", "run time");
	printf("%15s %-6s  %-30s  %9s  %9s  %9s\n", "", "", "[tid/pid]", "(msec)", "(msec)",
	       "(msec)");
	printf("%.15s %.6s  %.30s  %.9s  %.9s  %.9s\n", "----------------", "-------",
	       "------------------------------", "----------", "----------", "----------");
}

/* The header comes with the first line, so that a file refused up front prints nothing. */
static int print_line(const struct sched_line *l, void *arg)
{
	bool *header_done = arg;
	char line[8192];

	if (!*header_done)
		print_header();
	*header_done = true;
	sched_line_format(l, line, sizeof(line));
	puts(line);
	return 0;
}

static void print_keys(const struct kv_list *keys)
{
	for (size_t i = 0; i < keys->nr; i++) {
		char v[64];

		sched_lkp_format(keys->items[i].key, keys->items[i].value, v, sizeof(v));
		printf("%s: %s\n", keys->items[i].key, v);
	}
}

int cmd_sched(int argc, char **argv)
{
	struct sched_args a = { .input = "perf.data" };
	struct kv_list keys = { 0 };
	struct sched_stats st;
	bool header_done = false;
	char err[512] = "";
	int ret = parse(argc, argv, &a);

	if (ret >= 0)
		return ret;
	if (a.lkp) {
		ret = sched_lkp_file(a.input, &a.o, "perf-sched.", &keys, &st, err, sizeof(err));
		if (!ret && !keys.nr) {
			snprintf(err, sizeof(err), "no sched_switch sample with a call chain of two "
				 "frames or more: no perf-sched keys");
			ret = -ENODATA;
		}
	} else {
		ret = sched_timehist(a.input, &a.o, print_line, &header_done, &st, err,
				     sizeof(err));
		if (!ret && !header_done)
			print_header();
	}
	if (!ret && a.lkp)
		print_keys(&keys);
	kv_list_release(&keys);
	if (ret)
		return cli_fail(a.input, ret, err);
	if (st.lost)
		pr_warn("sched: %s: %llu LOST records: some sched events are missing, as in perf",
			a.input, (unsigned long long)st.lost);
	if (st.kernel_build_id_missing[0])
		pr_warn("sched: %s: no kallsyms or vmlinux with the recorded kernel's build-id %s "
			"(not this machine's kernel, not in perf's build-id cache): kernel frames are "
			"unresolved", a.input, st.kernel_build_id_missing);
	if (st.kernel_mmap2_only)
		pr_warn("sched: %s: the kernel is mapped by an MMAP2 record only (perf record "
			"--buildid-mmap), which perf sched timehist 6.1 does not read: its kernel frames "
			"are [unknown] there; kprof names them", a.input);
	if (st.no_chain)
		pr_warn("sched: %s: %llu sched_switch samples without a call chain", a.input,
			(unsigned long long)st.no_chain);
	return KPROF_EXIT_OK;
}
