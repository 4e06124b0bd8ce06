// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-flamegraph.c - `kprof flamegraph`: draw an interactive SVG flame graph (or icicle, or
 * differential graph) from perf.data, folded text, `perf script` text or a `kprof run` result
 * directory, recognised by content. Options follow flamegraph.pl's. See docs/flamegraph.md.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output/output.h"
#include "profiler/cli/cmd-int.h"
#include "profiler/profile/profile.h"
#include "profiler/lib/lib.h"

static void usage(FILE *fp)
{
	fprintf(fp,
		"usage: kprof flamegraph [options] [-i INPUT | INPUT] [-o FILE.svg]\n"
		"       kprof flamegraph [options] --diff BEFORE AFTER [-o FILE.svg]\n"
		"\n"
		"INPUT is perf.data, folded stacks, `perf script` text or a `kprof run` directory\n"
		"(recognised by content; '-' or none: standard input).\n"
		"\n"
		"  -i, --input PATH      the profile to draw\n"
		"  -o, --output FILE     write the SVG here (default: standard output)\n"
		"      --title TEXT      heading (default \"Flame Graph\" / \"Icicle Graph\")\n"
		"      --subtitle TEXT   second heading\n"
		"      --width PX        image width (default 1200)\n"
		"      --height PX       height of one frame row (default 16)\n"
		"      --minwidth N[%%]   omit frames narrower than N px or N%% of the total "
		"(default 0.1)\n"
		"      --colors SCHEME   hot (default), mem, io, or kernel (kernel frames orange)\n"
		"      --inverted        icicle graph: root at the top\n"
		"      --reverse         merge stacks at the leaf (callers of hot functions)\n"
		"      --countname NAME  unit of the counts in tooltips (default \"samples\")\n"
		"      --nametype TEXT   label before a frame's details (default \"Function:\")\n"
		"      --event NAME      perf.data: the event to draw (default: the first one)\n"
		"      --samples         perf.data: weight by sample count instead of period\n"
		"      --vmlinux PATH    perf.data: kernel symbols from this image\n"
		"      --kallsyms PATH   perf.data: kernel symbols from this kallsyms copy\n"
		"      --diff            differential graph of BEFORE and AFTER: widths from\n"
		"                        AFTER, red/blue by the change of each frame's\n"
		"                        inclusive share\n"
		"      --self-delta      colour by the change of self share (flamegraph.pl's way)\n"
		"      --no-normalize    do not scale BEFORE to AFTER's total\n"
		"  -h, --help            this help\n");
}

enum {
	OPT_TITLE = 256, OPT_SUBTITLE, OPT_WIDTH, OPT_HEIGHT, OPT_MINWIDTH, OPT_COLORS,
	OPT_INVERTED, OPT_REVERSE, OPT_COUNTNAME, OPT_NAMETYPE, OPT_DIFF, OPT_SELF_DELTA,
	OPT_NO_NORMALIZE, OPT_EVENT, OPT_SAMPLES, OPT_VMLINUX, OPT_KALLSYMS,
};

static const struct option long_opts[] = {
	{ "input", required_argument, NULL, 'i' },
	{ "output", required_argument, NULL, 'o' },
	{ "title", required_argument, NULL, OPT_TITLE },
	{ "subtitle", required_argument, NULL, OPT_SUBTITLE },
	{ "width", required_argument, NULL, OPT_WIDTH },
	{ "height", required_argument, NULL, OPT_HEIGHT },
	{ "minwidth", required_argument, NULL, OPT_MINWIDTH },
	{ "colors", required_argument, NULL, OPT_COLORS },
	{ "colours", required_argument, NULL, OPT_COLORS },
	{ "inverted", no_argument, NULL, OPT_INVERTED },
	{ "reverse", no_argument, NULL, OPT_REVERSE },
	{ "countname", required_argument, NULL, OPT_COUNTNAME },
	{ "nametype", required_argument, NULL, OPT_NAMETYPE },
	{ "diff", no_argument, NULL, OPT_DIFF },
	{ "self-delta", no_argument, NULL, OPT_SELF_DELTA },
	{ "no-normalize", no_argument, NULL, OPT_NO_NORMALIZE },
	{ "event", required_argument, NULL, OPT_EVENT },
	{ "samples", no_argument, NULL, OPT_SAMPLES },
	{ "vmlinux", required_argument, NULL, OPT_VMLINUX },
	{ "kallsyms", required_argument, NULL, OPT_KALLSYMS },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int parse_uint(const char *opt, const char *s, unsigned int min, unsigned int *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-' || v < min || v > 100000) {
		cli_bad_value("flamegraph", opt, s, "a number of pixels, %u to 100000", min);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

static int parse_minwidth(const char *s, struct flame_svg_opts *o)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	o->minwidth_percent = *end == '%';
	if (o->minwidth_percent)
		end++;
	if (errno || end == s || *end || !(v >= 0) || (o->minwidth_percent && v > 100) ||
	    v > 1e6) {
		cli_bad_value("flamegraph", "--minwidth", s, "a width in pixels or a percentage");
		return -EINVAL;
	}
	o->minwidth = v;
	return 0;
}

/* Load one input, reporting skipped lines; an input without samples is an error. */
static int load(const char *path, struct flame_tree *tree, enum flame_side side,
		struct flamegraph_input_opts *in)
{
	double before = flame_tree_total(tree, side);
	const char *name = strcmp(path, "-") ? path : "standard input";
	char err[512];

	in->invalid_lines = 0;
	if (flamegraph_load(path, tree, side, in, err, sizeof(err))) {
		pr_err("%s", err);
		return -1;
	}
	if (in->invalid_lines && in->first_invalid)
		pr_warn("%s: ignored %llu lines with invalid format (first at line %llu)", name,
			(unsigned long long)in->invalid_lines,
			(unsigned long long)in->first_invalid);
	else if (in->invalid_lines)
		pr_warn("%s: ignored %llu malformed lines", name,
			(unsigned long long)in->invalid_lines);
	if (!(flame_tree_total(tree, side) > before)) {
		pr_err("%s: no samples to draw (not a profile kprof can read?)", name);
		return -1;
	}
	return 0;
}

int cmd_flamegraph(int argc, char **argv)
{
	char err[512];
	struct flame_svg_opts svg = { .minwidth = 0.1 };
	struct flamegraph_input_opts in = { 0 };
	const char *input = NULL, *output = NULL;
	struct flame_tree *tree = NULL;
	bool diff = false, reverse = false;
	int c, rc = KPROF_EXIT_USAGE;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "i:o:h", long_opts, NULL)) != -1) {
		switch (c) {
		case 'i': input = optarg; break;
		case 'o': output = optarg; break;
		case OPT_TITLE: svg.title = optarg; break;
		case OPT_SUBTITLE: svg.subtitle = optarg; break;
		case OPT_WIDTH:
			/* room for the 10 px margins and a frame */
			if (parse_uint("--width", optarg, 40, &svg.width))
				return KPROF_EXIT_USAGE;
			break;
		case OPT_HEIGHT:
			if (parse_uint("--height", optarg, 2, &svg.frame_height))
				return KPROF_EXIT_USAGE;
			break;
		case OPT_MINWIDTH:
			if (parse_minwidth(optarg, &svg))
				return KPROF_EXIT_USAGE;
			break;
		case OPT_COLORS:
			if (flame_colors_parse(optarg, &svg.colors)) {
				return cli_bad_value("flamegraph", "--colors", optarg,
						     "hot, mem, io or kernel");
			}
			break;
		case OPT_INVERTED: svg.inverted = true; break;
		case OPT_REVERSE: reverse = true; break;
		case OPT_COUNTNAME: svg.countname = optarg; break;
		case OPT_NAMETYPE: svg.nametype = optarg; break;
		case OPT_DIFF: diff = true; break;
		case OPT_SELF_DELTA: svg.self_delta = true; break;
		case OPT_NO_NORMALIZE: svg.no_normalize = true; break;
		case OPT_EVENT: in.event = optarg; break;
		case OPT_SAMPLES: in.samples = true; break;
		case OPT_VMLINUX: in.vmlinux = optarg; break;
		case OPT_KALLSYMS: in.kallsyms = optarg; break;
		case 'h':
			usage(stdout);
			return KPROF_EXIT_OK;
		default:
			return cli_bad_option("flamegraph", argv, "i:o:h", long_opts);
		}
	}
	if (diff) {
		if (input || argc - optind != 2)
			return cli_usage_error("flamegraph", "--diff takes two inputs, BEFORE and AFTER");
	} else if (argc - optind > 1 || (input && argc - optind == 1)) {
		return cli_usage_error("flamegraph",
				       "one input only (use --diff BEFORE AFTER to compare two)");
	} else if (argc - optind == 1) {
		input = argv[optind];
	} else if (!input && isatty(STDIN_FILENO)) {
		/* flamegraph.pl would wait for a terminal's input; nobody means that */
		return cli_usage_error("flamegraph",
				       "no input (give a file, or pipe folded text in)");
	}
	if ((svg.self_delta || svg.no_normalize) && !diff)
		pr_warn("flamegraph: --self-delta and --no-normalize only matter with --diff");

	tree = flame_tree_new(reverse);
	if (!tree) {
		pr_err("flamegraph: %s", strerror(errno));
		return KPROF_EXIT_ERROR;
	}
	rc = KPROF_EXIT_ERROR;
	if (diff) {
		if (load(argv[optind], tree, FLAME_BEFORE, &in) ||
		    load(argv[optind + 1], tree, FLAME_AFTER, &in))
			goto out;
		svg.diff = true;
	} else {
		if (load(input ? input : "-", tree, FLAME_AFTER, &in))
			goto out;
		/* difffolded.pl output ("stack before after") draws as a differential graph */
		svg.diff = in.had_two_counts;
	}
	/* perf.data counts are periods of the event, e.g. nanoseconds of cpu-clock */
	if (!svg.countname && in.event_used[0] && !in.samples)
		svg.countname = in.event_used;
	if (flamegraph_write_file(output, tree, &svg, err, sizeof(err)))
		pr_err("%s", err);
	else
		rc = KPROF_EXIT_OK;
out:
	flame_tree_free(tree);
	return rc;
}
