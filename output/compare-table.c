// SPDX-License-Identifier: GPL-2.0
/*
 * compare-table.c - the comparison table as LKP's Compare prints it (show_group_header,
 * show_perf_change), and kprof's --stats/--raw additions to it.
 *
 * LKP row: for each column, the change field (12 wide, not for the base), the mean (10 wide)
 * and the stddev field (6 wide), then two spaces and the key. --stats widens every column by an
 * always-shown stddev with one decimal and the number of runs, adds Welch's p-value and its
 * Benjamini-Hochberg q-value after each change, and puts a mark before the key when the change
 * is not significant at the false discovery rate alpha. The workload's main metric is always
 * there, with a line under the table when LKP's selection would not list it.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "output/output.h"

#define LKP_RULE_WIDTH	89	/* Compare.show_group_header's line of '=' */

static void repeat(FILE *fp, char c, size_t n)
{
	while (n--)
		putc(c, fp);
}

static void write_stats_legend(FILE *fp, const struct compare_result *r,
			       const struct compare_opts *o)
{
	size_t min_runs = SIZE_MAX;

	fprintf(fp, "# --stats: %%stddev is the population stddev in %% of the mean, always shown; "
		"runs is the number of runs.\n");
	fprintf(fp, "# p is the two-sided p-value of Welch's unequal-variances t-test against the "
		"base (missing values count as 0);\n");
	fprintf(fp, "# q is p adjusted for the false discovery rate (Benjamini-Hochberg) over all "
		"%zu tested rows,\n# listed or not: %zu of them have q < alpha = %g.\n",
		r->nr_tested, r->nr_significant, o->alpha);
	fprintf(fp, "# '~' marks rows with q >= alpha (the change may be noise), '?' rows "
		"without a p-value.\n");
	for (size_t c = 0; c < r->nr_cols; c++) {
		size_t n = r->cols[c].m->nr_runs;

		if (n < min_runs)
			min_runs = n;
		if (n < 2)
			fprintf(fp, "# warning: %s has %zu run: no stddev and no p-value for it\n",
				r->cols[c].label, n);
		else if (n < 3)
			fprintf(fp, "# warning: %s has %zu runs: LKP needs >= 3 runs on one side "
				"to list a row\n", r->cols[c].label, n);
	}
	if (min_runs >= 2 && min_runs < 5)
		fprintf(fp, "# warning: with fewer than 5 runs per kernel only large changes can "
			"reach p < %g; a missing mark is weak evidence\n", o->alpha);
}

static void write_header(FILE *fp, const struct compare_result *r, const struct compare_opts *o)
{
	size_t first_w = o->stats ? 23 : 16, col_w = o->stats ? 52 : 27;

	repeat(fp, '=', LKP_RULE_WIDTH);
	putc('\n', fp);
	if (o->axis_keys && o->axis_values)
		fprintf(fp, "%s:\n  %s\n\n", o->axis_keys, o->axis_values);
	fprintf(fp, "commit: \n");
	for (size_t c = 0; c < r->nr_cols; c++) {
		fprintf(fp, "  %s", r->cols[c].label);
		/* LKP prints the name alone; --stats says where it came from and how many runs */
		if (o->stats && r->cols[c].path && strcmp(r->cols[c].path, r->cols[c].label))
			fprintf(fp, " (%s)", r->cols[c].path);
		if (o->stats)
			fprintf(fp, " [%zu run%s]", r->cols[c].m->nr_runs,
				r->cols[c].m->nr_runs == 1 ? "" : "s");
		fprintf(fp, "\n");
	}
	fprintf(fp, "\n");
	if (o->stats)
		write_stats_legend(fp, r, o);
	fprintf(fp, "%*.*s ", (int)first_w, (int)first_w, r->cols[0].label);
	for (size_t c = 1; c < r->nr_cols; c++)
		fprintf(fp, "%*.*s ", (int)col_w, (int)col_w, r->cols[c].label);
	fprintf(fp, "\n");
	repeat(fp, '-', first_w);
	for (size_t c = 1; c < r->nr_cols; c++) {
		putc(' ', fp);
		repeat(fp, '-', col_w);
	}
	fprintf(fp, " \n");
	if (o->stats) {
		fprintf(fp, "      mean %%stddev runs");
		for (size_t c = 1; c < r->nr_cols; c++)
			fprintf(fp, "    %%change  p-value  q-value       mean %%stddev runs");
		fprintf(fp, "\n");
		return;
	}
	fprintf(fp, "         %%stddev");
	for (size_t c = 1; c < r->nr_cols; c++)
		fprintf(fp, "     %%change         %%stddev");
	fprintf(fp, "\n             \\");
	for (size_t c = 1; c < r->nr_cols; c++)
		fprintf(fp, "          |                \\");
	fprintf(fp, "  \n");
}

static void format_p(char *buf, size_t len, double p)
{
	if (isnan(p))
		snprintf(buf, len, "%8s", "n/a");
	else if (p < 1e-99)
		snprintf(buf, len, "%8s", "<1e-99");
	else if (p < 0.001)
		snprintf(buf, len, "%8.1e", p);
	else
		snprintf(buf, len, "%8.4f", p);
}

static void write_row(FILE *fp, const struct compare_result *r, const struct compare_row *row,
		      const struct compare_opts *o)
{
	char buf[64];
	char mark = ' ';

	for (size_t c = 0; c < r->nr_cols; c++) {
		const struct compare_cell *cell = &row->cells[c];

		if (c) {
			lkp_fmt_change(buf, sizeof(buf), cell->change, row->absolute);
			fputs(buf, fp);
			if (o->stats) {
				format_p(buf, sizeof(buf), cell->p);
				fprintf(fp, "%s ", buf);
				format_p(buf, sizeof(buf), cell->q);
				fprintf(fp, "%s ", buf);
				if (isnan(cell->q) && mark == ' ')
					mark = '?';
				else if (!isnan(cell->q) && cell->q >= o->alpha)
					mark = '~';
			}
		}
		lkp_fmt_mean(buf, sizeof(buf), cell->mean);
		fputs(buf, fp);
		if (!o->stats) {
			lkp_fmt_stddev(buf, sizeof(buf), cell->mean, cell->stddev);
			fputs(buf, fp);
		} else if (cell->stddev < 0) {
			fprintf(fp, "        %4zu", r->cols[c].m->nr_runs);
		} else {
			fprintf(fp, " \xc2\xb1%5.1f%% %4zu", fabs(cell->rel_stddev),
				r->cols[c].m->nr_runs);
		}
	}
	if (o->stats)
		fprintf(fp, " %c%s\n", mark, row->key);
	else
		fprintf(fp, "  %s\n", row->key);
}

/* --raw: the per-run values under the row; '-' where the run lacks the key (counted as 0). */
static void write_raw(FILE *fp, const struct compare_result *r, const struct compare_row *row)
{
	char buf[64];

	for (size_t c = 0; c < r->nr_cols; c++) {
		const struct compare_cell *cell = &row->cells[c];

		fprintf(fp, "%12s%s:", "", r->cols[c].label);
		for (size_t k = 0; k < r->cols[c].m->nr_runs; k++) {
			if (!cell->row || !cell->row->present[k]) {
				fputs(" -", fp);
				continue;
			}
			compare_fmt_raw(buf, sizeof(buf), cell->row->v[k]);
			fprintf(fp, " %s", buf);
		}
		putc('\n', fp);
	}
}

int compare_write_table(FILE *fp, const struct compare_result *r, const struct compare_opts *o)
{
	if (!r->nr_listed)
		return 0;	/* LKP prints nothing at all for a group without rows */
	write_header(fp, r, o);
	for (size_t i = 0; i < r->nr_rows && r->rows[i].listed; i++) {
		write_row(fp, r, &r->rows[i], o);
		if (o->raw)
			write_raw(fp, r, &r->rows[i]);
	}
	/* the headline number is always there, but never passed off as one of LKP's changes */
	if (r->main && !r->main->lkp_listed)
		fprintf(fp, "# %s: the workload's main metric, shown although LKP's selection "
			"would not list it (no change by LKP's rules)\n", r->main->key);
	putc('\n', fp);	/* Compare.show_group ends each group with a blank line */
	return ferror(fp) ? -EIO : 0;
}
