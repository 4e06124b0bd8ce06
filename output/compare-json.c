// SPDX-License-Identifier: GPL-2.0
/*
 * compare-json.c - `kprof compare --json`: the comparison, machine-readable. Layout (one object):
 *
 *   {"test": "welch-two-sided", "fdr": "benjamini-hochberg", "alpha": 0.05,
 *    "tested": N, "significant": K, "main_metric": key or null,
 *    "lkp_selection": [keys LKP lists, in table order],
 *    "columns": [{"label": ..., "path": ..., "runs": N, "sources": [...]}, ...],
 *    "rows": [{"key": ..., "absolute_change": bool, "listed": bool, "lkp_listed": bool,
 *              "main_metric": bool,
 *              "cells": [{"mean", "stddev", "rel_stddev", "values": [...],
 *                         "present": [...], "drift", "change", "p", "q"}, ...]}]}
 *
 * Rows are every key of every set: the listed ones first in table order, then the others.
 * "listed" is what the table shows (LKP's selection, -a, and the main metric), "lkp_listed"
 * LKP's selection alone (also with -a). The base cell has no "change", "p" and "q"; a stddev of a single run
 * and a p-value that cannot be computed are null. "drift" is +1/-1 when the values rise/fall
 * strictly run by run (5 runs or more), else 0.
 */
#include <errno.h>
#include <math.h>

#include "output/output.h"

static void write_key(FILE *fp, const char *key)
{
	json_write_string(fp, key);
	fputs(": ", fp);
}

static void write_cell(FILE *fp, const struct compare_cell *cell, size_t nr_runs, bool base)
{
	fputs("{", fp);
	write_key(fp, "mean");
	json_write_number(fp, cell->mean);
	fputs(", ", fp);
	write_key(fp, "stddev");
	json_write_number(fp, cell->stddev < 0 ? NAN : cell->stddev);
	fputs(", ", fp);
	write_key(fp, "rel_stddev");
	json_write_number(fp, cell->stddev < 0 ? NAN : cell->rel_stddev);
	fputs(", ", fp);
	write_key(fp, "values");
	fputs("[", fp);
	for (size_t k = 0; k < nr_runs; k++) {
		if (k)
			fputs(", ", fp);
		json_write_number(fp, cell->row ? cell->row->v[k] : 0);
	}
	fputs("], ", fp);
	write_key(fp, "present");
	fputs("[", fp);
	for (size_t k = 0; k < nr_runs; k++)
		fprintf(fp, "%s%s", k ? ", " : "",
			cell->row && cell->row->present[k] ? "true" : "false");
	fprintf(fp, "], \"drift\": %d", cell->drift);
	if (!base) {
		fputs(", ", fp);
		write_key(fp, "change");
		json_write_number(fp, cell->change);
		fputs(", ", fp);
		write_key(fp, "p");
		json_write_number(fp, cell->p);
		fputs(", ", fp);
		write_key(fp, "q");
		json_write_number(fp, cell->q);
	}
	fputs("}", fp);
}

static void write_columns(FILE *fp, const struct compare_result *r)
{
	fputs("  \"columns\": [", fp);
	for (size_t c = 0; c < r->nr_cols; c++) {
		const struct matrix *m = r->cols[c].m;

		fputs(c ? ",\n    {" : "\n    {", fp);
		write_key(fp, "label");
		json_write_string(fp, r->cols[c].label);
		fputs(", ", fp);
		write_key(fp, "path");
		json_write_string(fp, r->cols[c].path ? r->cols[c].path : "");
		fprintf(fp, ", \"runs\": %zu, \"sources\": [", m->nr_runs);
		for (size_t k = 0; k < m->nr_runs; k++) {
			if (k)
				fputs(", ", fp);
			json_write_string(fp, m->sources && m->sources[k] ? m->sources[k] : "");
		}
		fputs("]}", fp);
	}
	fputs("\n  ],\n", fp);
}

int compare_write_json(FILE *fp, const struct compare_result *r, const struct compare_opts *o)
{
	size_t n = 0;

	fputs("{\n  \"test\": \"welch-two-sided\",\n  \"fdr\": \"benjamini-hochberg\",\n"
	      "  \"alpha\": ", fp);
	json_write_number(fp, o->alpha);
	fprintf(fp, ",\n  \"tested\": %zu,\n  \"significant\": %zu,\n  \"main_metric\": ",
		r->nr_tested, r->nr_significant);
	if (r->main)
		json_write_string(fp, r->main->key);
	else
		fputs("null", fp);
	fputs(",\n  \"lkp_selection\": [", fp);
	for (size_t i = 0; i < r->nr_rows; i++) {
		if (!r->rows[i].lkp_listed)
			continue;
		fputs(n++ ? ",\n    " : "\n    ", fp);
		json_write_string(fp, r->rows[i].key);
	}
	fputs(n ? "\n  ],\n" : "],\n", fp);
	write_columns(fp, r);
	fputs("  \"rows\": [", fp);
	for (size_t i = 0; i < r->nr_rows; i++) {
		const struct compare_row *row = &r->rows[i];

		fputs(i ? ",\n    {" : "\n    {", fp);
		write_key(fp, "key");
		json_write_string(fp, row->key);
		fprintf(fp, ", \"absolute_change\": %s, \"listed\": %s, \"lkp_listed\": %s, "
			"\"main_metric\": %s, \"cells\": [", row->absolute ? "true" : "false",
			row->listed ? "true" : "false", row->lkp_listed ? "true" : "false",
			row->main ? "true" : "false");
		for (size_t c = 0; c < r->nr_cols; c++) {
			if (c)
				fputs(", ", fp);
			write_cell(fp, &row->cells[c], r->cols[c].m->nr_runs, c == 0);
		}
		fputs("]}", fp);
	}
	fputs("\n  ]\n}\n", fp);
	return ferror(fp) ? -EIO : 0;
}
