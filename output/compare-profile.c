// SPDX-License-Identifier: GPL-2.0
/*
 * compare-profile.c - `kprof compare --perf-profile`: the call-graph view of a comparison. For
 * each kind of perf-profile key (calltrace, children, self) the rows whose share moved most, by
 * the largest absolute change in percentage points against the base, with the share in every set.
 * Unlike the LKP table, no selection rule applies: this answers "what moved", not "what is
 * significant".
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/output.h"

static const char *const kinds[] = { "calltrace", "children", "self" };

struct ranked {
	const struct compare_row	*row;
	double				score;
};

static double max_abs_change(const struct compare_row *row, size_t nr_cols)
{
	double m = 0;

	for (size_t c = 1; c < nr_cols; c++)
		if (fabs(row->cells[c].change) > m)
			m = fabs(row->cells[c].change);
	return m;
}

static int ranked_cmp(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->score != y->score)
		return x->score > y->score ? -1 : 1;
	return strcmp(x->row->key, y->row->key);
}

/* "perf-profile.<kind>." prefix match; returns the rest (event.symbol...). */
static const char *kind_rest(const char *key, const char *kind)
{
	size_t n = strlen(kind);

	if (strncmp(key, "perf-profile.", 13) || strncmp(key + 13, kind, n) || key[13 + n] != '.')
		return NULL;
	return key + 14 + n;
}

static void write_kind(FILE *fp, const struct compare_result *r, const char *kind,
		       struct ranked *buf, size_t top)
{
	size_t n = 0;

	for (size_t i = 0; i < r->nr_rows; i++)
		if (kind_rest(r->rows[i].key, kind))
			buf[n++] = (struct ranked){ &r->rows[i], max_abs_change(&r->rows[i],
										r->nr_cols) };
	if (!n)
		return;
	qsort(buf, n, sizeof(*buf), ranked_cmp);
	if (n > top)
		n = top;
	fprintf(fp, "\nperf-profile.%s: top %zu by |change| in percentage points\n", kind, n);
	fprintf(fp, "%10.10s", r->cols[0].label);
	for (size_t c = 1; c < r->nr_cols; c++)
		fprintf(fp, " %10.10s %8s", r->cols[c].label, "change");
	fprintf(fp, "  %s.*\n", kind);
	for (size_t i = 0; i < n; i++) {
		const struct compare_row *row = buf[i].row;

		fprintf(fp, "%10.2f", row->cells[0].mean);
		for (size_t c = 1; c < r->nr_cols; c++)
			fprintf(fp, " %10.2f %+8.2f", row->cells[c].mean, row->cells[c].change);
		fprintf(fp, "  %s\n", kind_rest(row->key, kind));
	}
}

int compare_write_perf_profile(FILE *fp, const struct compare_result *r, size_t top)
{
	struct ranked *buf = calloc(r->nr_rows ? r->nr_rows : 1, sizeof(*buf));

	if (!buf)
		return -ENOMEM;
	fprintf(fp, "perf-profile shares (%% of all resolved samples), base %s\n",
		r->cols[0].label);
	for (size_t k = 0; k < sizeof(kinds) / sizeof(*kinds); k++)
		write_kind(fp, r, kinds[k], buf, top);
	free(buf);
	return ferror(fp) ? -EIO : 0;
}
