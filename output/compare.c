// SPDX-License-Identifier: GPL-2.0
/*
 * compare.c - build the comparison of result sets: every key of every set with its per-set mean,
 * stddev, change against the base (column 0) and Welch p-value, which rows LKP would list, and
 * LKP's order (Compare.sort_stats): [group rank, sort key, changes].
 *
 *  - group rank: how many listed rows share the key's first component; 0 for the test's own
 *    metrics (lkp_is_test());
 *  - sort key: the whole key, but only the first two components for perf-profile;
 *  - changes: the changes against the base, ascending. Ruby's sort is not stable; equal tuples
 *    are ordered by key here so the output is deterministic.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/output.h"

struct sort_item {
	struct compare_row	*row;
	size_t			rank;
	size_t			sort_key_len;
	size_t			nr_cols;
};

static int str_ptr_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The sorted union of all keys; the strings are borrowed from the matrices. */
static int union_keys(const struct compare_col *cols, size_t nr_cols, const char ***out,
		      size_t *nr_out)
{
	size_t total = 0, n = 0;
	const char **keys;

	for (size_t c = 0; c < nr_cols; c++)
		total += cols[c].m->nr_rows;
	keys = calloc(total ? total : 1, sizeof(*keys));
	if (!keys)
		return -ENOMEM;
	for (size_t c = 0; c < nr_cols; c++)
		for (size_t i = 0; i < cols[c].m->nr_rows; i++)
			keys[n++] = cols[c].m->rows[i].key;
	qsort(keys, n, sizeof(*keys), str_ptr_cmp);
	*nr_out = 0;
	for (size_t i = 0; i < n; i++)
		if (!*nr_out || strcmp(keys[*nr_out - 1], keys[i]))
			keys[(*nr_out)++] = keys[i];
	*out = keys;
	return 0;
}

/* Does @m have any key of @key's monitor (LKP's monitored_by_b?)? */
static bool has_monitor(const struct matrix *m, const char *key)
{
	const char *dot = strchr(key, '.');
	char prefix[256];

	if (!dot || (size_t)(dot - key) + 2 > sizeof(prefix))
		return false;
	memcpy(prefix, key, dot - key + 1);
	prefix[dot - key + 1] = 0;
	return matrix_has_prefix(m, prefix);
}

/* Values of a column for a row: the matrix's, or LKP's fillers when the set lacks the key. */
static const double *cell_values(const struct compare_cell *cell, const double *zeros)
{
	return cell->row ? cell->row->v : zeros;
}

static void fill_cells(struct compare_row *row, const struct compare_col *cols, size_t nr_cols,
		       const double *zeros)
{
	const struct compare_col *base = &cols[0];

	for (size_t c = 0; c < nr_cols; c++) {
		struct compare_cell *cell = &row->cells[c];
		const double *v;

		cell->row = matrix_find(cols[c].m, row->key);
		v = cell_values(cell, zeros);
		cell->mean = stats_mean(v, cols[c].m->nr_runs);
		cell->stddev = stats_pstddev(v, cols[c].m->nr_runs);
		cell->rel_stddev = cell->mean != 0 ? 100 * cell->stddev / cell->mean : cell->stddev;
		cell->p = NAN;
		cell->q = NAN;
		cell->drift = cell->row ? compare_drift(cell->row->v, cols[c].m->nr_runs) : 0;
	}
	for (size_t c = 1; c < nr_cols; c++) {
		struct compare_cell *cell = &row->cells[c];
		double b = row->cells[0].mean, t, df;

		if (row->absolute)
			cell->change = cell->mean - b;
		else	/* LKP replaces a zero base by 1e-100: "+6e+100%" */
			cell->change = 100 * (cell->mean - b) / (b == 0 ? 1e-100 : b);
		stats_welch(cell_values(&row->cells[0], zeros), base->m->nr_runs,
			    cell_values(cell, zeros), cols[c].m->nr_runs, &t, &df, &cell->p);
	}
}

static struct lkp_side side_of(const struct compare_cell *cell, const struct matrix *m,
			       const char *key)
{
	const struct matrix_row *r = cell->row;

	return (struct lkp_side){ r ? r->v : NULL, r ? r->present : NULL, m->nr_runs, r != NULL,
				  has_monitor(m, key) };
}

static bool row_listed(const struct compare_row *row, const struct compare_col *cols,
		       size_t nr_cols, const struct compare_opts *o)
{
	struct lkp_side base, new;

	for (size_t c = 1; c < nr_cols; c++) {
		const struct compare_cell *b = &row->cells[0], *n = &row->cells[c];

		base = side_of(b, cols[0].m, row->key);
		new = side_of(n, cols[c].m, row->key);
		if (lkp_stat_changed(row->key, &base, &new, &o->select))
			return true;
	}
	return false;
}

static size_t first_component_len(const char *key)
{
	const char *dot = strchr(key, '.');

	return dot ? (size_t)(dot - key) : strlen(key);
}

static int sort_item_cmp(const void *a, const void *b)
{
	const struct sort_item *x = a, *y = b;
	size_t n = x->sort_key_len < y->sort_key_len ? x->sort_key_len : y->sort_key_len;
	int r;

	if (x->row->listed != y->row->listed)
		return x->row->listed ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	r = memcmp(x->row->key, y->row->key, n);
	if (r)
		return r;
	if (x->sort_key_len != y->sort_key_len)
		return x->sort_key_len < y->sort_key_len ? -1 : 1;
	for (size_t c = 1; c < x->nr_cols; c++) {
		double p = x->row->cells[c].change, q = y->row->cells[c].change;

		if (p != q)
			return p < q ? -1 : 1;
	}
	return strcmp(x->row->key, y->row->key);
}

/* Sort key length: the whole key, or "perf-profile.<kind>" for perf-profile rows. */
static size_t sort_key_len(const char *key)
{
	const char *dot;

	if (strncmp(key, "perf-profile.", 13))
		return strlen(key);
	dot = strchr(key + 13, '.');
	return dot ? (size_t)(dot - key) : strlen(key);
}

static int sort_rows(struct compare_result *r, const struct compare_opts *o)
{
	struct sort_item *items = calloc(r->nr_rows ? r->nr_rows : 1, sizeof(*items));
	struct compare_row *sorted = calloc(r->nr_rows ? r->nr_rows : 1, sizeof(*sorted));

	if (!items || !sorted) {
		free(items);
		free(sorted);
		return -ENOMEM;
	}
	/* Rows are still sorted by key here, so each first component is one contiguous run. */
	for (size_t i = 0, end; i < r->nr_rows; i = end) {
		const char *key = r->rows[i].key;
		size_t len = first_component_len(key), listed = 0;

		for (end = i; end < r->nr_rows && first_component_len(r->rows[end].key) == len &&
		     !strncmp(r->rows[end].key, key, len); end++)
			listed += r->rows[end].listed;
		for (size_t j = i; j < end; j++)
			items[j] = (struct sort_item){ &r->rows[j],
				lkp_is_test(key, &o->select) ? 0 : listed,
				sort_key_len(r->rows[j].key),
				r->nr_cols };
	}
	qsort(items, r->nr_rows, sizeof(*items), sort_item_cmp);
	for (size_t i = 0; i < r->nr_rows; i++)
		sorted[i] = *items[i].row;
	free(r->rows);
	free(items);
	r->rows = sorted;
	return 0;
}

/* Every (row, NEW column) p-value is one test: q-values over all of them, not only the listed. */
static int adjust_fdr(struct compare_result *r, const struct compare_opts *o)
{
	size_t n = r->nr_rows * (r->nr_cols - 1), k = 0;
	double *p = calloc(n ? n : 1, sizeof(*p)), *q = calloc(n ? n : 1, sizeof(*q));
	int ret = -ENOMEM;

	if (!p || !q)
		goto out;
	for (size_t i = 0; i < r->nr_rows; i++)
		for (size_t c = 1; c < r->nr_cols; c++)
			p[k++] = r->rows[i].cells[c].p;
	ret = stats_bh_adjust(p, n, q);
	if (ret)
		goto out;
	k = 0;
	for (size_t i = 0; i < r->nr_rows; i++) {
		for (size_t c = 1; c < r->nr_cols; c++, k++) {
			r->rows[i].cells[c].q = q[k];
			r->nr_tested += !isnan(p[k]);
			r->nr_significant += !isnan(q[k]) && q[k] < o->alpha;
		}
	}
out:
	free(p);
	free(q);
	return ret;
}

int compare_build(const struct compare_col *cols, size_t nr_cols, const struct compare_opts *o,
		  struct compare_result *r)
{
	const char **keys = NULL;
	size_t nr_keys = 0, max_runs = 0;
	double *zeros = NULL;
	int ret;

	memset(r, 0, sizeof(*r));
	if (nr_cols < 1)
		return -EINVAL;
	r->cols = cols;
	r->nr_cols = nr_cols;
	ret = union_keys(cols, nr_cols, &keys, &nr_keys);
	if (ret)
		return ret;
	for (size_t c = 0; c < nr_cols; c++)
		if (cols[c].m->nr_runs > max_runs)
			max_runs = cols[c].m->nr_runs;
	ret = -ENOMEM;
	zeros = calloc(max_runs ? max_runs : 1, sizeof(*zeros));
	r->rows = calloc(nr_keys ? nr_keys : 1, sizeof(*r->rows));
	if (!zeros || !r->rows)
		goto out;
	for (size_t i = 0; i < nr_keys; i++) {
		struct compare_row *row = &r->rows[i];

		row->key = keys[i];
		row->absolute = lkp_is_absolute_change(keys[i]);
		row->cells = calloc(nr_cols, sizeof(*row->cells));
		if (!row->cells)
			goto out;
		r->nr_rows++;
		fill_cells(row, cols, nr_cols, zeros);
		row->lkp_listed = row_listed(row, cols, nr_cols, o);
		row->main = o->main_metric && !strcmp(row->key, o->main_metric);
		row->listed = row->lkp_listed || row->main || o->all;
		r->nr_listed += row->listed;
	}
	ret = adjust_fdr(r, o);
	if (!ret)
		ret = sort_rows(r, o);
	for (size_t i = 0; !ret && i < r->nr_rows; i++)
		if (r->rows[i].main)
			r->main = &r->rows[i];
out:
	free(keys);
	free(zeros);
	if (ret)
		compare_result_release(r);
	return ret;
}

void compare_result_release(struct compare_result *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nr_rows; i++)
		free(r->rows[i].cells);
	free(r->rows);
	memset(r, 0, sizeof(*r));
}
