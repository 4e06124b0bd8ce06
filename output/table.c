// SPDX-License-Identifier: GPL-2.0
/*
 * table.c - the Children/Self table of `perf report --children -g none --sort=dso,symbol`.
 */
#include <errno.h>
#include <stdio.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "output/output-int.h"

static const char *entry_name(const struct hist_entry *e)
{
	return e->sym ? e->sym : "[unknown]";
}

int hist_entry_cmp(const void *a, const void *b)
{
	const struct hist_entry *x = *(const struct hist_entry *const *)a;
	const struct hist_entry *y = *(const struct hist_entry *const *)b;
	char bx[DSO_SHORT_MAX], by[DSO_SHORT_MAX];
	int c;

	if (x->children != y->children)
		return x->children > y->children ? -1 : 1;
	if (x->self != y->self)
		return x->self > y->self ? -1 : 1;
	/* Ties as perf orders them: by its sort keys, the module's short name, then the name. */
	c = strcmp(dso_short_name(x->dso, bx), dso_short_name(y->dso, by));
	c = c ? c : strcmp(entry_name(x), entry_name(y));
	return c ? c : strcmp(x->dso, y->dso);
}

void table_write_counts(FILE *fp, const struct table_opts *o, uint64_t nr_samples,
			uint64_t total)
{
	if (o->event)
		fprintf(fp, "# Samples: %" PRIu64 " of event '%s'\n", nr_samples, o->event);
	else
		fprintf(fp, "# Samples: %" PRIu64 "\n", nr_samples);
	fprintf(fp, "# %s: %" PRIu64 "\n", o->weight_samples ? "Sample count" : "Event count",
		total);
}

static void write_header(FILE *fp, const struct hist *h, const struct table_opts *o,
			 int dso_width)
{
	table_write_counts(fp, o, h->nr_samples, h->total);
	fprintf(fp, "#\n# Children      Self  %-*s  Symbol\n", dso_width, "Shared Object");
	fprintf(fp, "# ........  ........  %.*s  ......\n#\n", dso_width,
		"................................................................................"
		"................................................................................");
}

int table_write(FILE *fp, const struct callgraph *cg, const struct table_opts *o)
{
	const struct hist_entry **rows = NULL;
	struct table_chains *tc = NULL;
	struct hist h = { 0 };
	size_t i, nr = 0;
	int dso_width = (int)strlen("Shared Object");
	int err;

	if (!fp || !cg || !o)
		return -EINVAL;
	if (o->callchain != TABLE_CHAIN_NONE && !(tc = table_chains_new(o->callchain)))
		return -ENOMEM;
	err = hist_build(&h, cg, o->weight_samples, o->show_unresolved,
			 tc ? table_chains_add : NULL, tc);
	if (!err && tc)
		err = table_chains_finish(tc, h.nr);
	if (err)
		goto out;
	rows = malloc((h.nr + 1) * sizeof(*rows));
	if (!rows) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < h.nr; i++) {
		const struct hist_entry *e = &h.entries[i];
		double children = h.total ? 100.0 * e->children / h.total : 0;
		double self = h.total ? 100.0 * e->self / h.total : 0;
		char buf[DSO_SHORT_MAX];
		int w = (int)strlen(dso_short_name(e->dso, buf));

		if (!e->children || (children < o->min_percent && self < o->min_percent))
			continue;
		rows[nr++] = e;
		if (w > dso_width && w <= 160)
			dso_width = w;
	}
	qsort(rows, nr, sizeof(*rows), hist_entry_cmp);

	write_header(fp, &h, o, dso_width);
	for (i = 0; i < nr; i++) {
		char buf[DSO_SHORT_MAX];

		fprintf(fp, "%9.2f%%  %7.2f%%  %-*s  [%c] %s\n",
			100.0 * rows[i]->children / h.total, 100.0 * rows[i]->self / h.total,
			dso_width, dso_short_name(rows[i]->dso, buf), rows[i]->kernel ? 'k' : '.',
			entry_name(rows[i]));
		if (tc)
			table_chains_write(fp, tc, &h, (size_t)(rows[i] - h.entries),
					   o->chain_min > 0 ? o->chain_min : 0.5);
	}
	if (ferror(fp))
		err = -EIO;
out:
	free(rows);
	table_chains_free(tc);
	hist_release(&h);
	return err;
}
