// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-report.c - `kprof report`: a perf.data file as LKP perf-profile keys (what LKP's parser
 * makes of `perf report --children --header -U -g folded,0.5,callee --sort=dso,symbol`), as a
 * Children/Self table, or as the same keys in JSON.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profiler/cli/cmd-int.h"
#include "profiler/lib/lib.h"
#include "profiler/perfdata/perfdata.h"
#include "profiler/profile/profile.h"

enum report_format { FORMAT_LKP, FORMAT_TABLE, FORMAT_JSON };

struct report_args {
	const char		*input;
	enum report_format	format;
	struct profile_load_opts load;
	bool			weight_samples;
	double			calltrace_min;
};

static void usage(FILE *fp)
{
	fprintf(fp,
		"usage: kprof report [-i FILE] [--format lkp|table|json] [--vmlinux PATH]\n"
		"                    [--kallsyms PATH] [--weight period|samples]\n"
		"                    [--calltrace-min PCT]\n"
		"\n"
		"  -i, --input FILE      perf.data to read (default: perf.data; -: stdin,\n"
		"                        also a pipe: perf record -o - ... | kprof report -i -)\n"
		"  -f, --format FMT      lkp: perf-profile.* keys as LKP derives them (default);\n"
		"                        table: Children/Self per symbol;\n"
		"                        json: the lkp keys as JSON\n"
		"      --vmlinux PATH    kernel image with symbols (default: usual places, then\n"
		"                        kallsyms)\n"
		"      --kallsyms PATH   kallsyms text (default: FILE.kallsyms, else\n"
		"                        /proc/kallsyms)\n"
		"      --weight W        period (default) or samples\n"
		"      --calltrace-min P folded call-chain threshold in percent (default 0.5)\n"
		"  -h, --help            this text\n");
}

static int parse_args(int argc, char **argv, struct report_args *a)
{
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "format", required_argument, NULL, 'f' },
		{ "vmlinux", required_argument, NULL, 'V' },
		{ "kallsyms", required_argument, NULL, 'K' },
		{ "weight", required_argument, NULL, 'w' },
		{ "calltrace-min", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	int c;

	*a = (struct report_args){ .input = "perf.data", .calltrace_min = 0.5 };
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "i:f:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'i':
			a->input = optarg;
			break;
		case 'f':
			if (!strcmp(optarg, "lkp"))
				a->format = FORMAT_LKP;
			else if (!strcmp(optarg, "table"))
				a->format = FORMAT_TABLE;
			else if (!strcmp(optarg, "json"))
				a->format = FORMAT_JSON;
			else
				return cli_bad_value("report", "--format", optarg,
						     "lkp, table or json"), -1;
			break;
		case 'V':
			a->load.vmlinux = optarg;
			break;
		case 'K':
			a->load.kallsyms = optarg;
			break;
		case 'w':
			if (strcmp(optarg, "period") && strcmp(optarg, "samples"))
				return cli_bad_value("report", "--weight", optarg,
						     "period or samples"), -1;
			a->weight_samples = !strcmp(optarg, "samples");
			break;
		case 'c':
			a->calltrace_min = strtod(optarg, &end);
			if (end == optarg || *end || a->calltrace_min < 0 || a->calltrace_min > 100)
				return cli_bad_value("report", "--calltrace-min", optarg,
						     "a percentage, 0 to 100"), -1;
			break;
		case 'h':
			return 1;
		default:
			return cli_bad_option("report", argv, "i:f:h", longopts), -1;
		}
	}
	if (optind < argc)
		return cli_usage_error("report", "unexpected argument '%s'", argv[optind]), -1;
	return 0;
}

/* What DWARF unwinding (--call-graph dwarf) could not do, one line each. */
static void warn_unwind(const char *input, const struct profile *p)
{
	static const char *const why[] = {
		[UNWIND_ABI32] = "of 32-bit processes (kprof unwinds x86_64 stacks only)",
		[UNWIND_NO_REGS] = "without the registers DWARF unwinding needs",
		[UNWIND_ARCH] = "of another architecture (kprof unwinds x86_64 stacks only)",
	};

	for (size_t i = UNWIND_ABI32; i < sizeof(why) / sizeof(why[0]); i++)
		if (p->nr_not_unwound[i])
			pr_warn("%s: %llu samples with a user stack copy %s: their user frames "
				"are missing", input, (unsigned long long)p->nr_not_unwound[i],
				why[i]);
}

void warn_stale_files(const char *input, const struct profile *p)
{
	warn_unwind(input, p);
	if (p->kernel_build_id_missing[0])
		pr_warn("%s: no kallsyms or vmlinux with the recorded kernel's build-id %s (not this "
			"machine's kernel, not in perf's build-id cache): kernel frames are unresolved",
			input, p->kernel_build_id_missing);
	if (p->nr_stale_files)
		pr_warn("%s: %llu mapped file%s rebuilt since the recording (build-id differs, e.g. "
			"%s) and not in perf's build-id cache: %s frames are unresolved",
			input, (unsigned long long)p->nr_stale_files,
			p->nr_stale_files == 1 ? "" : "s", p->first_stale,
			p->nr_stale_files == 1 ? "its" : "their");
}

/* What the file holds and kprof did not use, each in one line: never a silent difference. */
void warn_profile_notes(const char *input, const struct profile *p)
{
	warn_stale_files(input, p);
	if (p->nr_auxtrace)
		pr_warn("%s: %llu AUXTRACE records (%s) ignored: their %llu bytes of trace are not "
			"decoded into samples", input, (unsigned long long)p->nr_auxtrace,
			pd_auxtrace_name(p->auxtrace_type), (unsigned long long)p->auxtrace_bytes);
	if (p->nr_late_headers)
		pr_warn("%s: %llu pipe-mode feature/build-id records after the first sample "
			"ignored", input, (unsigned long long)p->nr_late_headers);
	if (p->nr_self_elsewhere)
		pr_debug("%s: %llu samples have their ip in another function than their call "
			 "chain's first entry (precise-ip skid or LBR): Self goes to the ip's, the "
			 "chain is used as recorded (as perf does)", input,
			 (unsigned long long)p->nr_self_elsewhere);
}

/* Lost samples and throttling make the percentages less trustworthy: say so on stderr. */
static void report_losses(const char *input, const struct profile *p)
{
	warn_profile_notes(input, p);
	if (p->nr_lost || p->nr_lost_records)
		pr_warn("%s: %llu samples lost (%llu LOST records)", input,
			(unsigned long long)p->nr_lost, (unsigned long long)p->nr_lost_records);
	if (p->nr_lost_samples)
		pr_warn("%s: %llu samples lost (LOST_SAMPLES)", input,
			(unsigned long long)p->nr_lost_samples);
	if (p->nr_throttle)
		pr_warn("%s: sampling was throttled %llu times (unthrottled %llu times)", input,
			(unsigned long long)p->nr_throttle, (unsigned long long)p->nr_unthrottle);
	if (p->nr_unknown_id)
		pr_warn("%s: %llu samples of unknown events skipped", input,
			(unsigned long long)p->nr_unknown_id);
}

static int write_keys(const struct report_args *a, const struct profile *p)
{
	struct kv_list keys = { 0 };
	int ret = 0;

	for (size_t i = 0; !ret && i < p->nr_events; i++) {
		struct lkp_profile_opts lo = {
			.event = p->events[i].name,
			.calltrace_min = a->calltrace_min,
			.print_min = 0.05,
			.weight_samples = a->weight_samples,
		};

		ret = lkp_profile_keys(p->events[i].cg, &lo, &keys);
	}
	if (!ret) {
		kv_list_sort(&keys);
		ret = a->format == FORMAT_JSON ? kv_list_write_json(stdout, &keys) :
						 kv_list_write_text(stdout, &keys);
	}
	kv_list_release(&keys);
	return ret;
}

static int write_tables(const struct report_args *a, const struct profile *p)
{
	struct table_opts to = { .weight_samples = a->weight_samples, .show_unresolved = true };
	int ret = 0;

	for (size_t i = 0; !ret && i < p->nr_events; i++) {
		printf("%s# Event: '%s'\n", i ? "\n" : "", p->events[i].name);
		ret = table_write(stdout, p->events[i].cg, &to);
	}
	return ret;
}

int cmd_report(int argc, char **argv)
{
	struct report_args a;
	enum profile_input kind;
	struct profile *p;
	char err[512], *file = NULL;
	int ret;

	ret = parse_args(argc, argv, &a);
	if (ret) {
		if (ret > 0)
			usage(stdout);
		return ret > 0 ? KPROF_EXIT_OK : KPROF_EXIT_USAGE;
	}
	/* the same rule as collapse and flamegraph: a run directory is its perf.data */
	ret = strcmp(a.input, "-") ? profile_input_sniff(a.input, &kind, &file, err, sizeof(err)) : 0;
	if (ret)
		return cli_fail(NULL, ret, err);	/* err names the file */
	if (file)
		a.input = file;
	ret = profile_load(a.input, &a.load, &p, err, sizeof(err));
	if (ret) {
		ret = cli_fail(a.input, ret, err);
		free(file);
		return ret;
	}
	report_losses(a.input, p);
	if (!p->nr_events)
		pr_warn("%s: no samples", a.input);
	ret = a.format == FORMAT_TABLE ? write_tables(&a, p) : write_keys(&a, p);
	if (!ret && fflush(stdout))
		ret = -errno;
	profile_free(p);
	if (ret)
		pr_err("%s: cannot write the report: %s", a.input, strerror(-ret));
	free(file);
	return ret ? KPROF_EXIT_ERROR : KPROF_EXIT_OK;
}
