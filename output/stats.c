// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - the numbers behind the comparison table: LKP's mean and population stddev, LKP's
 * StatSummary (sorted, margins cut, upper median), and Welch's t-test for `compare --stats`.
 *
 * Student's t CDF is computed from the regularized incomplete beta function with the continued
 * fraction of Numerical Recipes (modified Lentz), which converges quickly for x < (a+1)/(a+b+2);
 * the symmetry I_x(a,b) = 1 - I_{1-x}(b,a) covers the other side. libm's lgamma() gives the
 * prefactor. No external statistics library.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/output.h"

/*
 * Ruby's Array#sum of Floats, which LKP's Enumerable#average uses: Kahan-Babuska (Neumaier)
 * compensated summation. Plain summation differs in the last bits, enough to turn a printed
 * 208.745 into 208.75 instead of 208.74.
 */
static double ruby_sum(const double *v, size_t n)
{
	double f = 0, c = 0;

	for (size_t i = 0; i < n; i++) {
		double x = v[i], t = f + x;

		if (fabs(f) >= fabs(x))
			c += (f - t) + x;
		else
			c += (x - t) + f;
		f = t;
	}
	return f + c;
}

double stats_mean(const double *v, size_t n)
{
	if (!n)
		return 0;
	return ruby_sum(v, n) / n;
}

double stats_pstddev(const double *v, size_t n)
{
	double mean = stats_mean(v, n), sum = 0;

	if (n < 2)
		return -1;	/* LKP: a single run has no stddev (-1, printed blank) */
	/* lib/statistics.rb: inject(0) { acc + (i - avg)**2 }, then 1 / length.to_f * sum */
	for (size_t i = 0; i < n; i++)
		sum += (v[i] - mean) * (v[i] - mean);
	return sqrt(1.0 / n * sum);
}

/* Sample variance (n - 1), for the t-test. */
static double sample_var(const double *v, size_t n)
{
	double mean = stats_mean(v, n), sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += (v[i] - mean) * (v[i] - mean);
	return sum / (n - 1);
}

struct tagged {
	double	v;
	bool	present;
	size_t	idx;
};

/* Ties keep their run order, so the result does not depend on qsort's whims. */
static int tagged_cmp(const void *a, const void *b)
{
	const struct tagged *x = a, *y = b;

	if (x->v != y->v)
		return x->v < y->v ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

void lkp_summarize(const double *v, const bool *present, size_t n, size_t max_margin,
		   struct lkp_summary *s)
{
	struct tagged *t = calloc(n ? n : 1, sizeof(*t));
	size_t first = 0, margin, nr;

	memset(s, 0, sizeof(*s));
	if (!t || !n) {
		free(t);
		return;
	}
	for (size_t i = 0; i < n; i++)
		t[i] = (struct tagged){ v[i], present ? present[i] : true, i };
	qsort(t, n, sizeof(*t), tagged_cmp);
	while (first < n && t[first].v == -1)	/* LKP drops -1 ("no value") samples */
		first++;
	nr = n - first;
	margin = nr >> 5;	/* MARGIN_SHIFT */
	if (margin > max_margin)
		margin = max_margin;
	if (nr <= 2 * margin) {
		free(t);
		return;
	}
	first += margin;
	nr -= 2 * margin;
	s->n = nr;
	s->min = t[first].v;
	s->median = t[first + nr / 2].v;
	s->median_missing = !t[first + nr / 2].present;
	s->max = t[first + nr - 1].v;
	free(t);
}

/* The continued fraction of I_x(a, b), valid (fast) for x < (a + 1) / (a + b + 2). */
static double incbeta_cf(double x, double a, double b)
{
	const double tiny = 1e-300, eps = 1e-15;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (int m = 1; m <= 10000; m++) {
		double num, delta;

		num = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
		d = 1 + num * d;
		d = fabs(d) < tiny ? 1 / tiny : 1 / d;
		c = 1 + num / c;
		if (fabs(c) < tiny)
			c = tiny;
		h *= d * c;
		num = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
		d = 1 + num * d;
		d = fabs(d) < tiny ? 1 / tiny : 1 / d;
		c = 1 + num / c;
		if (fabs(c) < tiny)
			c = tiny;
		delta = d * c;
		h *= delta;
		if (fabs(delta - 1) < eps)
			break;
	}
	return h;
}

double stats_incbeta(double x, double a, double b)
{
	double front;

	if (!(a > 0) || !(b > 0) || !(x >= 0) || !(x <= 1))
		return NAN;
	if (x == 0 || x == 1)
		return x;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * incbeta_cf(x, a, b) / a;
	return 1 - front * incbeta_cf(1 - x, b, a) / b;
}

double stats_student_t_cdf(double t, double df)
{
	double tail;

	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return t > 0 ? 1 : 0;
	/* P(|T| > |t|) = I_{df / (df + t^2)}(df / 2, 1 / 2) */
	tail = stats_incbeta(df / (df + t * t), df / 2, 0.5);
	return t > 0 ? 1 - tail / 2 : tail / 2;
}

int stats_welch(const double *a, size_t na, const double *b, size_t nb, double *t, double *df,
		double *p)
{
	double ma, mb, va, vb, se2;

	*t = *df = *p = NAN;
	if (na < 2 || nb < 2)
		return -EDOM;
	ma = stats_mean(a, na);
	mb = stats_mean(b, nb);
	va = sample_var(a, na) / na;
	vb = sample_var(b, nb) / nb;
	/* Spread below rounding noise of the means (e.g. 31.46 three times) is no spread. */
	if (sqrt(va) <= 1e-12 * fabs(ma))
		va = 0;
	if (sqrt(vb) <= 1e-12 * fabs(mb))
		vb = 0;
	se2 = va + vb;
	if (se2 == 0) {
		/* No spread at all: either the same constant or certainly different. */
		*p = ma == mb ? 1 : 0;
		*t = ma == mb ? 0 : copysign(INFINITY, ma - mb);
		*df = na + nb - 2;
		return 0;
	}
	*t = (ma - mb) / sqrt(se2);
	/* Welch-Satterthwaite */
	*df = se2 * se2 / (va * va / (na - 1) + vb * vb / (nb - 1));
	*p = stats_incbeta(*df / (*df + *t * *t), *df / 2, 0.5);
	return 0;
}
