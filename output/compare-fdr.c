// SPDX-License-Identifier: GPL-2.0
/*
 * compare-fdr.c - what keeps `compare --stats` from crying wolf: Benjamini-Hochberg control of
 * the false discovery rate over every tested row (a comparison tests hundreds of keys, and at
 * p < 0.05 one in twenty of the unchanged ones looks "significant"), the drift check on a set's
 * per-run values, and the rounding of per-run values for --raw.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/output.h"

struct ranked {
	double	p;
	size_t	idx;
};

static int ranked_cmp(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->p != y->p)
		return x->p < y->p ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

int stats_bh_adjust(const double *p, size_t n, double *q)
{
	struct ranked *r = calloc(n ? n : 1, sizeof(*r));
	size_t m = 0;
	double min = 1;

	if (!r)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		q[i] = NAN;
		if (!isnan(p[i]))
			r[m++] = (struct ranked){ p[i], i };
	}
	qsort(r, m, sizeof(*r), ranked_cmp);
	/* step-up: from the largest p down, the running minimum of p * m / rank */
	for (size_t k = m; k-- > 0; ) {
		double v = r[k].p * (double)m / (double)(k + 1);

		if (v < min)
			min = v;
		q[r[k].idx] = min;
	}
	free(r);
	return 0;
}

int compare_drift(const double *v, size_t n)
{
	bool up = true, down = true;

	if (n < 5)
		return 0;	/* 4 runs are monotone one time in twelve by chance alone */
	for (size_t i = 1; i < n; i++) {
		up &= v[i] > v[i - 1];
		down &= v[i] < v[i - 1];
	}
	return up ? 1 : down ? -1 : 0;
}

void compare_fmt_raw(char *buf, size_t len, double v)
{
	int digits, decimals;
	char *dot, *end;

	if (!isfinite(v) || v == 0) {
		snprintf(buf, len, "%g", v);
		return;
	}
	digits = (int)floor(log10(fabs(v))) + 1;	/* digits before the point */
	decimals = 5 - digits;
	if (decimals < 0)
		decimals = 0;
	if (decimals > 8)
		decimals = 8;
	snprintf(buf, len, "%.*f", decimals, v);
	dot = strchr(buf, '.');
	if (!dot)
		return;
	for (end = buf + strlen(buf); end > dot + 1 && end[-1] == '0'; )
		*--end = 0;
	if (end == dot + 1)
		*dot = 0;
	if (!strcmp(buf, "-0"))
		snprintf(buf, len, "0");
}
