// SPDX-License-Identifier: GPL-2.0
/*
 * compare-json.c - `kprof compare --json`: the comparison, machine-readable. Layout (one object):
 *
 *   {"test": "welch-two-sided", "alpha": 0.05,
 *    "columns": [{"label": ..., "path": ..., "runs": N, "sources": [...]}, ...],
 *    "rows": [{"key": ..., "absolute_change": bool, "listed": bool,
 *              "cells": [{"mean", "stddev", "rel_stddev", "values": [...],
 *                         "present": [...], "change", "p"}, ...]}]}
 *
 * Rows are the listed ones in table order (every row with -a). The base cell has no "change"
 * and "p"; a stddev of a single run and a p-value that cannot be computed are null.
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
	fputs("]", fp);
	if (!base) {
		fputs(", ", fp);
		write_key(fp, "change");
		json_write_number(fp, cell->change);
		fputs(", ", fp);
		write_key(fp, "p");
		json_write_number(fp, cell->p);
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
	fputs("{\n  \"test\": \"welch-two-sided\",\n  \"alpha\": ", fp);
	json_write_number(fp, o->alpha);
	fputs(",\n", fp);
	write_columns(fp, r);
	fputs("  \"rows\": [", fp);
	for (size_t i = 0; i < r->nr_rows && r->rows[i].listed; i++) {
		const struct compare_row *row = &r->rows[i];

		fputs(i ? ",\n    {" : "\n    {", fp);
		write_key(fp, "key");
		json_write_string(fp, row->key);
		fprintf(fp, ", \"absolute_change\": %s, \"listed\": true, \"cells\": [",
			row->absolute ? "true" : "false");
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
