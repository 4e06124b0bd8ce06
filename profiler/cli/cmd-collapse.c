// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-collapse.c - `kprof collapse`: folded stacks, stackcollapse-perf.pl's output, from a
 * perf.data file (read and symbolized by profile_load) or from `perf script` text (parsed by
 * script_read_file with the Perl script's rules). docs/collapse.md is the manual.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profiler/lib/lib.h"
#include "profiler/cli/cmd-int.h"
#include "profiler/perfdata/perfdata.h"
#include "profiler/profile/profile.h"
#include "profiler/script/script.h"

struct collapse_args {
	const char		*input;		/* NULL: perf's rule, see default_input() */
	const char		*output;	/* NULL: stdout */
	struct script_opts	script;
	struct profile_load_opts load;
	bool			count_samples;
};

static void usage(FILE *fp)
{
	fprintf(fp,
		"usage: kprof collapse [-i FILE|-] [-o FILE] [--pid] [--tid] [--kernel] [--jit]\n"
		"                      [--all] [--addrs] [--event-filter EVENT]\n"
		"                      [--count period|samples] [--perl-compat]\n"
		"                      [--vmlinux PATH] [--kallsyms PATH] [FILE]\n"
		"\n"
		"Folded stacks as stackcollapse-perf.pl prints them, from perf.data or from\n"
		"`perf script` text (detected from the content).\n"
		"\n"
		"  -i, --input FILE      input; '-' is stdin (default: stdin when it is a pipe,\n"
		"                        else perf.data)\n"
		"  -o, --output FILE     write here instead of stdout (replaced when complete)\n"
		"      --pid             root frame comm-PID\n"
		"      --tid             root frame comm-PID/TID\n"
		"      --kernel          append _[k] to kernel frames\n"
		"      --jit             append _[j] to frames of perf JIT maps (/tmp/perf-PID.map)\n"
		"      --all             --kernel and --jit\n"
		"      --addrs           show the address of unresolved frames: [module <addr>]\n"
		"      --event-filter EV keep the samples of event EV (default: the first event)\n"
		"      --count C         period (default: the sample periods, like the Perl\n"
		"                        script) or samples (one per sample)\n"
		"      --perl-compat     exactly the Perl script, quirks included (perf.data:\n"
		"                        \"(anonymous namespace)::f\" frames dropped as it does)\n"
		"      --vmlinux PATH    perf.data: kernel image with symbols\n"
		"      --kallsyms PATH   perf.data: kallsyms text (default: FILE.kallsyms, else\n"
		"                        /proc/kallsyms)\n"
		"  -h, --help            this text\n");
}

enum { OPT_PID = 256, OPT_TID, OPT_KERNEL, OPT_JIT, OPT_ALL, OPT_ADDRS, OPT_EVENT, OPT_COUNT,
       OPT_COMPAT, OPT_VMLINUX, OPT_KALLSYMS };

static int parse_args(int argc, char **argv, struct collapse_args *a)
{
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "output", required_argument, NULL, 'o' },
		{ "pid", no_argument, NULL, OPT_PID },
		{ "tid", no_argument, NULL, OPT_TID },
		{ "kernel", no_argument, NULL, OPT_KERNEL },
		{ "jit", no_argument, NULL, OPT_JIT },
		{ "all", no_argument, NULL, OPT_ALL },
		{ "addrs", no_argument, NULL, OPT_ADDRS },
		{ "event-filter", required_argument, NULL, OPT_EVENT },
		{ "count", required_argument, NULL, OPT_COUNT },
		{ "perl-compat", no_argument, NULL, OPT_COMPAT },
		{ "vmlinux", required_argument, NULL, OPT_VMLINUX },
		{ "kallsyms", required_argument, NULL, OPT_KALLSYMS },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned int *flags = &a->script.flags;
	int c;

	*a = (struct collapse_args){ 0 };
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "i:o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'i':
			a->input = optarg;
			break;
		case 'o':
			a->output = optarg;
			break;
		case OPT_PID:
			*flags |= SCRIPT_PID;
			break;
		case OPT_TID:
			*flags |= SCRIPT_TID;
			break;
		case OPT_KERNEL:
			*flags |= SCRIPT_KERNEL;
			break;
		case OPT_JIT:
			*flags |= SCRIPT_JIT;
			break;
		case OPT_ALL:
			*flags |= SCRIPT_KERNEL | SCRIPT_JIT;
			break;
		case OPT_ADDRS:
			*flags |= SCRIPT_ADDRS;
			break;
		case OPT_EVENT:
			a->script.event_filter = optarg;
			break;
		case OPT_COUNT:
			if (strcmp(optarg, "period") && strcmp(optarg, "samples"))
				return cli_bad_value("collapse", "--count", optarg,
						     "period or samples"), -1;
			a->count_samples = !strcmp(optarg, "samples");
			break;
		case OPT_COMPAT:
			*flags |= SCRIPT_PERL_COMPAT;
			break;
		case OPT_VMLINUX:
			a->load.vmlinux = optarg;
			break;
		case OPT_KALLSYMS:
			a->load.kallsyms = optarg;
			break;
		case 'h':
			return 1;
		default:
			return cli_bad_option("collapse", argv, "i:o:h", longopts), -1;
		}
	}
	/* stackcollapse-perf.pl takes its input as an argument */
	if (optind < argc && !a->input)
		a->input = argv[optind++];
	if (optind < argc)
		return cli_usage_error("collapse", "unexpected argument '%s'", argv[optind]), -1;
	a->load.keep_pid = *flags & (SCRIPT_PID | SCRIPT_TID);
	a->load.keep_tid = *flags & SCRIPT_TID;
	a->load.keep_addrs = *flags & SCRIPT_ADDRS;
	return 0;
}

/* perf's rule for a missing -i: stdin when it is a pipe, else perf.data. */
static const char *default_input(void)
{
	struct stat st;

	if (!fstat(STDIN_FILENO, &st) && S_ISFIFO(st.st_mode))
		return "-";
	return "perf.data";
}

/* A perf.data redirected from a file (`< perf.data`) can be read by path; a pipe cannot. */
static bool stdin_is_perf_data(void)
{
	struct stat st;
	char head[8];
	ssize_t n;

	if (fstat(STDIN_FILENO, &st) || !S_ISREG(st.st_mode))
		return false;
	n = pread(STDIN_FILENO, head, sizeof(head), 0);
	return n > 0 && pd_magic_ok(head, (size_t)n);
}

/* The event the Perl script would keep: --event-filter, else the first. */
static struct callgraph *pick_event(const char *input, const struct profile *p,
				    const char *filter)
{
	size_t i;

	if (!p->nr_events) {
		pr_warn("%s: no samples", input);
		return NULL;
	}
	if (!filter || !filter[0]) {
		if (p->nr_events > 1)
			pr_warn("%s: %zu events; kept '%s' (choose with --event-filter)", input,
				p->nr_events, p->events[0].name);
		return p->events[0].cg;
	}
	for (i = 0; i < p->nr_events; i++)
		if (!strcmp(p->events[i].name, filter))
			return p->events[i].cg;
	pr_warn("%s: no samples of event '%s'", input, filter);
	return NULL;
}

/* perf.data names are perf's: tidied here as the Perl script tidies perf script's. */
static unsigned int perf_data_flags(unsigned int script_flags)
{
	unsigned int f = FOLDED_TIDY;

	if (script_flags & SCRIPT_PID)
		f |= FOLDED_PID;
	if (script_flags & SCRIPT_TID)
		f |= FOLDED_TID;
	if (script_flags & SCRIPT_KERNEL)
		f |= FOLDED_KERNEL;
	if (script_flags & SCRIPT_ADDRS)
		f |= FOLDED_ADDRS;
	if (script_flags & SCRIPT_PERL_COMPAT)
		f |= FOLDED_PERL_COMPAT;
	return f;
}

struct folded_out {
	const struct callgraph	*cg;
	unsigned int		flags;
};

static int write_folded(FILE *fp, void *arg)
{
	const struct folded_out *o = arg;

	/* folded_write() writes in large blocks itself (a stream's buffer is 4 KiB) */
	return o->cg ? folded_write(fp, o->cg, o->flags) : 0;
}

/* Write @cg to the output: stdout, or -o FILE (which appears only once complete). */
static int write_output(const struct collapse_args *a, const struct callgraph *cg,
			unsigned int flags)
{
	struct folded_out o = { .cg = cg, .flags = flags };
	int ret;

	if (a->count_samples)
		o.flags |= FOLDED_SAMPLES;
	if (a->output) {
		ret = write_file_atomic(a->output, write_folded, &o);
	} else {
		ret = write_folded(stdout, &o);
		if (!ret && fflush(stdout))
			ret = -errno;
	}
	if (ret)
		pr_err("%s: cannot write: %s", a->output ? a->output : "<stdout>", strerror(-ret));
	return ret;
}

static int collapse_perf_data(const struct collapse_args *a, const char *input)
{
	struct profile *p;
	char err[512];
	int ret;

	ret = profile_load(input, &a->load, &p, err, sizeof(err));
	if (ret) {
		return cli_fail(input, ret, err);
	}
	warn_profile_notes(input, p);
	if (a->script.flags & SCRIPT_JIT)
		pr_debug("%s: --jit applies to perf script text only", input);
	ret = write_output(a, pick_event(input, p, a->script.event_filter),
			   perf_data_flags(a->script.flags));
	profile_free(p);
	return ret ? KPROF_EXIT_ERROR : KPROF_EXIT_OK;
}

static void report_stats(const char *input, const struct script_stats *st)
{
	char skipped[192] = "";

	if (st->skipped_events)
		snprintf(skipped, sizeof(skipped), "%s%llu samples of events other than '%s' skipped",
			 st->malformed ? ", " : "", (unsigned long long)st->skipped_events,
			 st->event);
	if (st->malformed)
		pr_warn("%s: %llu unrecognized lines skipped%s", input,
			(unsigned long long)st->malformed, skipped);
	else if (st->skipped_events)
		pr_warn("%s: %s", input, skipped);
	pr_debug("%s: %llu lines, %llu samples", input, (unsigned long long)st->lines,
		 (unsigned long long)st->samples);
}

static int collapse_script(const struct collapse_args *a, const char *input)
{
	struct callgraph *cg = callgraph_new();
	struct script_stats st;
	char err[512];
	int ret;

	if (!cg) {
		pr_err("collapse: out of memory");
		return KPROF_EXIT_ERROR;
	}
	ret = script_read_file(input, &a->script, cg, &st, err, sizeof(err));
	if (ret) {
		pr_err("%s", err);
	} else if ((!st.samples && st.malformed) || st.binary > st.samples) {
		/* the wrong kind of file, not an empty profile */
		pr_err("%s: neither perf.data nor perf script output (%llu unrecognized lines)",
		       !strcmp(input, "-") ? "<stdin>" : input,
		       (unsigned long long)st.malformed);
		ret = -EINVAL;
	} else {
		report_stats(!strcmp(input, "-") ? "<stdin>" : input, &st);
		ret = write_output(a, cg, 0);
	}
	callgraph_free(cg);
	return ret ? KPROF_EXIT_ERROR : KPROF_EXIT_OK;
}

int cmd_collapse(int argc, char **argv)
{
	struct collapse_args a;
	enum profile_input kind;
	const char *input;
	char err[512], *file;
	int ret;

	ret = parse_args(argc, argv, &a);
	if (ret) {
		if (ret > 0)
			usage(stdout);
		return ret > 0 ? KPROF_EXIT_OK : KPROF_EXIT_USAGE;
	}
	input = a.input ? a.input : default_input();
	if (!strcmp(input, "-"))
		return stdin_is_perf_data() ? collapse_perf_data(&a, "/dev/stdin") :
					      collapse_script(&a, input);
	/* the same rule as report and flamegraph: a run directory is its perf.data */
	ret = profile_input_sniff(input, &kind, &file, err, sizeof(err));
	if (ret)
		return cli_fail(NULL, ret, err);	/* err names the file */
	if (file)
		input = file;
	ret = kind == PROFILE_INPUT_PERF_DATA ? collapse_perf_data(&a, input) :
						collapse_script(&a, input);
	free(file);
	return ret;
}
