// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-compare.c - `kprof compare BASE NEW [NEW2...]`: LKP's comparison table of result sets
 * (one kernel each), plus --stats, --raw, --json and the --perf-profile call-graph view.
 * See docs/compare.md.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/output.h"
#include "profiler/cli/cmd-compare-int.h"
#include "profiler/cli/cmd-int.h"
#include "profiler/lib/lib.h"

static void usage(FILE *fp)
{
	fprintf(fp,
		"usage: kprof compare [options] BASE NEW [NEW2...]\n"
		"\n"
		"Each argument is one kernel's result set: a directory of run directories with\n"
		"stats.json, a kernel directory with matrix.json, or a matrix.json file.\n"
		"\n"
		"  -a, --all                     list every row, not only LKP's changed ones\n"
		"  -p, --perf-profile-threshold X  perf-profile threshold as LKP's -p (a Float)\n"
		"      --label NAME              column header, once per set in order\n"
		"      --stats                   always show %%stddev, runs and Welch's p-value\n"
		"      --alpha A                 significance level for --stats marks (0.05)\n"
		"      --raw                     per-run values under each row\n"
		"      --json                    everything as JSON\n"
		"      --perf-profile            call-graph view: perf-profile rows by change\n"
		"      --top N                   rows per kind in --perf-profile (20)\n"
		"  -h, --help                    this text\n");
}

static bool parse_double(const char *s, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(s, &end);
	return *s && !*end && !errno && isfinite(*out);
}

void compare_sets_release(struct compare_sets *s)
{
	for (size_t i = 0; i < s->nr; i++) {
		matrix_release(&s->m[i]);
		free(s->labels[i]);
		free(s->dirs[i]);
	}
	for (size_t i = 0; i < s->nr_families; i++)
		free(s->families[i]);
	free(s->families);
	free(s->m);
	free(s->labels);
	free(s->dirs);
	free(s->cols);
	memset(s, 0, sizeof(*s));
}

int compare_sets_load(struct compare_sets *s, char **paths, size_t nr, char **labels,
		      size_t nr_labels)
{
	char err[PATH_MAX + 256];

	memset(s, 0, sizeof(*s));
	s->m = calloc(nr, sizeof(*s->m));
	s->labels = calloc(nr, sizeof(*s->labels));
	s->dirs = calloc(nr, sizeof(*s->dirs));
	s->cols = calloc(nr, sizeof(*s->cols));
	s->families = calloc(nr, sizeof(*s->families));
	if (!s->m || !s->labels || !s->dirs || !s->cols || !s->families) {
		pr_err("out of memory");
		compare_sets_release(s);
		return -ENOMEM;
	}
	for (size_t i = 0; i < nr; i++) {
		int ret = matrix_load_set(paths[i], &s->m[i], &s->labels[i], &s->dirs[i], err,
					  sizeof(err));

		if (ret) {
			pr_err("%s", err);
			compare_sets_release(s);
			return ret;
		}
		s->nr++;
		s->cols[i] = (struct compare_col){ &s->m[i],
			i < nr_labels ? labels[i] : s->labels[i], paths[i] };
		/* the workload family is the test whose own metrics LKP ranks first */
		s->families[s->nr_families] = matrix_set_meta_string(s->dirs[i], &s->m[i],
			(const char *const[]){ "family" }, 1);
		s->nr_families += s->families[s->nr_families] != NULL;
	}
	return 0;
}

/* "testcase/params" when every set lives in RESULTS/<workload>/<params>/<kernel>. */
static void axis_header(const struct compare_sets *s, char **keys, char **values)
{
	char *first = NULL;

	*keys = *values = NULL;
	for (size_t i = 0; i < s->nr; i++) {
		char *real = realpath(s->dirs[i], NULL), *slash;

		if (!real)
			goto differ;
		slash = strrchr(real, '/');
		if (slash)
			*slash = 0;
		if (!first) {
			first = real;
		} else {
			bool same = !strcmp(first, real);

			free(real);
			if (!same)
				goto differ;
		}
	}
	if (first) {
		char *params = strrchr(first, '/'), *workload;

		if (params && params != first) {
			*params++ = 0;
			workload = strrchr(first, '/');
			if (workload && workload[1] && params[0] &&
			    asprintf(values, "%s/%s", workload + 1, params) >= 0)
				*keys = strdup("testcase/path_params");
		}
	}
differ:
	free(first);
	if (!*keys) {
		free(*values);
		*values = NULL;
	}
}

int cmd_compare(int argc, char **argv)
{
	enum { OPT_LABEL = 256, OPT_STATS, OPT_ALPHA, OPT_RAW, OPT_JSON, OPT_PP, OPT_TOP };
	static const struct option longopts[] = {
		{ "all", no_argument, NULL, 'a' },
		{ "perf-profile-threshold", required_argument, NULL, 'p' },
		{ "label", required_argument, NULL, OPT_LABEL },
		{ "stats", no_argument, NULL, OPT_STATS },
		{ "alpha", required_argument, NULL, OPT_ALPHA },
		{ "raw", no_argument, NULL, OPT_RAW },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "perf-profile", no_argument, NULL, OPT_PP },
		{ "top", required_argument, NULL, OPT_TOP },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct compare_opts o = { .select = { .pp_threshold = 5 }, .alpha = 0.05 };
	bool json = false, perf_profile = false;
	char **labels = calloc(argc, sizeof(*labels)), *axis_keys, *axis_values;
	size_t nr_labels = 0, top = 20;
	struct compare_sets sets;
	struct compare_result r;
	const char *what = "", *valid = "";
	double d;
	int c, ret;

	if (!labels) {
		pr_err("out of memory");
		return KPROF_EXIT_ERROR;
	}
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "ap:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'a':
			o.all = true;
			break;
		case 'p':
			if (!parse_double(optarg, &d) || d < 0) {
				what = "--perf-profile-threshold";
				valid = "a number >= 0";
				goto bad_value;
			}
			o.select.pp_threshold = d;
			o.select.pp_threshold_float = true;
			break;
		case OPT_LABEL:
			labels[nr_labels++] = optarg;
			break;
		case OPT_STATS:
			o.stats = true;
			break;
		case OPT_ALPHA:
			if (!parse_double(optarg, &d) || !(d > 0 && d < 1)) {
				what = "--alpha";
				valid = "a number between 0 and 1";
				goto bad_value;
			}
			o.alpha = d;
			break;
		case OPT_RAW:
			o.raw = true;
			break;
		case OPT_JSON:
			json = true;
			break;
		case OPT_PP:
			perf_profile = true;
			break;
		case OPT_TOP:
			if (!parse_double(optarg, &d) || d < 1 || d != floor(d) || d > 1e9) {
				what = "--top";
				valid = "a positive integer";
				goto bad_value;
			}
			top = d;
			break;
		case 'h':
			usage(stdout);
			free(labels);
			return KPROF_EXIT_OK;
		default:
			free(labels);
			return cli_bad_option("compare", argv, "ap:h", longopts);
		}
	}
	if (argc - optind < 2) {
		free(labels);
		return cli_usage_error("compare", "need a BASE and at least one NEW result set");
	}
	if (nr_labels > (size_t)(argc - optind)) {
		free(labels);
		return cli_usage_error("compare", "%zu --label for %d result sets", nr_labels,
				       argc - optind);
	}
	if (compare_sets_load(&sets, argv + optind, argc - optind, labels, nr_labels)) {
		free(labels);
		return KPROF_EXIT_ERROR;
	}
	axis_header(&sets, &axis_keys, &axis_values);
	o.select.tests = (const char *const *)sets.families;
	o.select.nr_tests = sets.nr_families;
	o.axis_keys = axis_keys;
	o.axis_values = axis_values;
	ret = compare_build(sets.cols, sets.nr, &o, &r);
	if (ret) {
		pr_err("compare: %s", strerror(-ret));
	} else {
		if (perf_profile)
			ret = compare_write_perf_profile(stdout, &r, top);
		else if (json)
			ret = compare_write_json(stdout, &r, &o);
		else
			ret = compare_write_table(stdout, &r, &o);
		if (!ret && fflush(stdout))
			ret = -errno;
		if (ret)
			pr_err("compare: writing the output: %s", strerror(-ret));
	}
	if (!ret && !json && !perf_profile && !r.nr_listed) {
		bool few = true;

		for (size_t i = 0; i < sets.nr; i++)
			few &= sets.m[i].nr_runs < 3;
		if (few)
			pr_warn("no set has 3 runs: LKP lists no row (-a lists every row)");
		else
			pr_info("no row changed by LKP's rules (-a lists every row)");
	}
	compare_result_release(&r);
	compare_sets_release(&sets);
	free(axis_keys);
	free(axis_values);
	free(labels);
	return ret ? KPROF_EXIT_ERROR : KPROF_EXIT_OK;
bad_value:
	free(labels);
	return cli_bad_value("compare", what, optarg, "%s", valid);
}
