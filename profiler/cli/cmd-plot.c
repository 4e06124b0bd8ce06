// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-plot.c - `kprof plot BASE NEW KEY`: LKP's bisect-style plot of one metric's per-run values,
 * '*' for the base (good) runs and 'O' for the new (bad) ones, as ASCII (80x20 like gnuplot's
 * dumb terminal) and, with --svg FILE, as a picture. See docs/compare.md.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output/output.h"
#include "profiler/cli/cmd-compare-int.h"
#include "profiler/lib/lib.h"
#include "profiler/cli/cmd-int.h"

static void usage(FILE *fp)
{
	fprintf(fp,
		"usage: kprof plot [options] BASE NEW KEY\n"
		"\n"
		"Plot KEY's per-run values of two result sets: '*' base (good), 'O' new (bad).\n"
		"\n"
		"      --svg FILE       also write the plot as an SVG picture\n"
		"      --label NAME     set name for the SVG legend, once per set in order\n"
		"      --size WxH       ASCII size (80x20)\n"
		"  -h, --help           this text\n");
}

/* The values of @key in set @m, LKP's filler 0 for runs (or a set) without it. */
static double *values_of(const struct matrix *m, const char *key)
{
	const struct matrix_row *r = matrix_find(m, key);
	double *v = calloc(m->nr_runs ? m->nr_runs : 1, sizeof(*v));

	if (v && r)
		memcpy(v, r->v, m->nr_runs * sizeof(*v));
	return v;
}

struct plot_svg {
	const char	*key, *good_label, *bad_label;
	const double	*good, *bad;
	size_t		ngood, nbad;
};

static int write_plot_svg(FILE *fp, void *arg)
{
	const struct plot_svg *p = arg;

	return plot_write_svg(fp, p->key, p->good, p->ngood, p->good_label, p->bad, p->nbad,
			      p->bad_label);
}

/* Written whole or not at all, so a failed run leaves no half picture. */
static int write_svg(const char *path, const char *key, const double *good, size_t ngood,
		     const char *good_label, const double *bad, size_t nbad, const char *bad_label)
{
	struct plot_svg p = {
		.key = key, .good = good, .ngood = ngood, .good_label = good_label,
		.bad = bad, .nbad = nbad, .bad_label = bad_label,
	};
	int ret = write_file_atomic(path, write_plot_svg, &p);

	if (ret)
		pr_err("%s: %s", path, strerror(-ret));
	return ret;
}

int cmd_plot(int argc, char **argv)
{
	enum { OPT_SVG = 256, OPT_LABEL, OPT_SIZE };
	static const struct option longopts[] = {
		{ "svg", required_argument, NULL, OPT_SVG },
		{ "label", required_argument, NULL, OPT_LABEL },
		{ "size", required_argument, NULL, OPT_SIZE },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *svg = NULL, *key;
	char *labels[2] = { NULL, NULL };
	size_t nr_labels = 0;
	int c, width = 80, height = 20, ret;
	struct compare_sets sets;
	double *good, *bad;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_SVG:
			svg = optarg;
			break;
		case OPT_LABEL:
			if (nr_labels == 2)
				return cli_usage_error("plot", "more than two --label");
			labels[nr_labels++] = optarg;
			break;
		case OPT_SIZE: {
			char tail;

			if (sscanf(optarg, "%dx%d%c", &width, &height, &tail) != 2 || width < 30 ||
			    height < 8 || width > 1000 || height > 1000) {
				return cli_bad_value("plot", "--size", optarg,
						     "WxH, 30x8 to 1000x1000");
			}
			break;
		}
		case 'h':
			usage(stdout);
			return KPROF_EXIT_OK;
		default:
			return cli_bad_option("plot", argv, "h", longopts);
		}
	}
	if (argc - optind != 3)
		return cli_usage_error("plot", "need BASE, NEW and a KEY");
	key = argv[optind + 2];
	if (compare_sets_load(&sets, argv + optind, 2, labels, nr_labels))
		return KPROF_EXIT_ERROR;
	if (!matrix_find(&sets.m[0], key) && !matrix_find(&sets.m[1], key)) {
		pr_err("plot: %s: in neither %s nor %s", key, argv[optind], argv[optind + 1]);
		compare_sets_release(&sets);
		return KPROF_EXIT_ERROR;
	}
	good = values_of(&sets.m[0], key);
	bad = values_of(&sets.m[1], key);
	ret = good && bad ? 0 : -ENOMEM;
	if (!ret)
		ret = plot_write_ascii(stdout, key, good, sets.m[0].nr_runs, bad, sets.m[1].nr_runs,
				       width, height);
	if (ret)
		pr_err("plot: %s", strerror(-ret));
	else if (svg)
		ret = write_svg(svg, key, good, sets.m[0].nr_runs, sets.cols[0].label, bad,
				sets.m[1].nr_runs, sets.cols[1].label);
	free(good);
	free(bad);
	compare_sets_release(&sets);
	return ret ? KPROF_EXIT_ERROR : KPROF_EXIT_OK;
}
