// SPDX-License-Identifier: GPL-2.0
/*
 * Statistics behind `kprof compare`: LKP's mean and population stddev, the regularized
 * incomplete beta function, Student's t CDF and Welch's t-test.
 *
 * Reference values are computed independently of the code under test:
 *  - I_0.5(2, 3) = 11/16 exactly (the binomial sum: P(Bin(4, 0.5) >= 2) = 11/16);
 *  - Student t table (any statistics textbook): t = 2.228 with 10 df is the two-sided 5% point,
 *    t = 1.812 with 10 df the one-sided 5% point; t = 12.706 with 1 df is the two-sided 5% point
 *    (and for 1 df the CDF is the Cauchy one: 1/2 + atan(t)/pi, checked exactly);
 *  - the aim9 p-value: python3 (no scipy), Welch's t and Welch-Satterthwaite df from the raw
 *    values, then p = 2 * integral from |t| to infinity of the Student t density, by Simpson's
 *    rule with 200000 intervals after substituting x = |t| + u / (1 - u):
 *      t = 5.506046242412355, df = 9.982445343185713, p = 0.00026120974182137303.
 *    A different method (quadrature of the density) than the code (continued fraction of the
 *    incomplete beta function), so agreement to 1e-9 checks both.
 */
#include <errno.h>
#include <math.h>

#include "output/output.h"
#include "tests/tap.h"

static const double aim9_base[] = { 1351624.95, 1316322.79, 1330363.33, 1289563.33, 1314100.0,
				    1335475.48 };
static const double aim9_new[] = { 1268030.0, 1277110.76, 1226452.45, 1275850.0, 1249628.35,
				   1242148.6 };

int main(void)
{
	double t, df, p;

	is_double(stats_mean(aim9_base, 6), 1322908.313333333, 1e-6, "aim9 base mean");
	is_double(stats_mean(aim9_new, 6), 1256536.693333333, 1e-6, "aim9 new mean");
	/* population sigma: 1.47% and 1.48% of the means per the spec */
	is_double(100 * stats_pstddev(aim9_base, 6) / stats_mean(aim9_base, 6), 1.47, 0.005,
		  "aim9 base %%stddev 1.47 (population)");
	is_double(100 * stats_pstddev(aim9_new, 6) / stats_mean(aim9_new, 6), 1.48, 0.005,
		  "aim9 new %%stddev 1.48 (population)");
	is_double(stats_pstddev((const double[]){ 2, 4, 4, 4, 5, 5, 7, 9 }, 8), 2, 1e-12,
		  "textbook population sigma = 2");
	is_double(stats_pstddev((const double[]){ 5 }, 1), -1, 0, "one run: -1 as LKP");

	is_double(stats_incbeta(0.5, 2, 3), 11.0 / 16, 1e-13, "I_0.5(2,3) = 11/16");
	is_double(stats_incbeta(0.3, 1, 1), 0.3, 1e-13, "I_x(1,1) = x");
	is_double(stats_incbeta(0.9, 5, 0.5) + stats_incbeta(0.1, 0.5, 5), 1, 1e-12,
		  "symmetry I_x(a,b) = 1 - I_1-x(b,a)");
	ok(isnan(stats_incbeta(1.5, 1, 1)), "x outside [0,1] is NAN");

	is_double(stats_student_t_cdf(2.228, 10), 0.975, 1e-4, "t table: 2.228, 10 df -> 0.975");
	is_double(stats_student_t_cdf(1.812, 10), 0.95, 1e-4, "t table: 1.812, 10 df -> 0.95");
	is_double(stats_student_t_cdf(12.706, 1), 0.975, 1e-5, "t table: 12.706, 1 df -> 0.975");
	is_double(stats_student_t_cdf(3, 1), 0.5 + atan(3) / M_PI, 1e-12, "1 df is Cauchy");
	is_double(stats_student_t_cdf(-1.812, 10), 0.05, 1e-4, "lower tail");
	is_double(stats_student_t_cdf(0, 7), 0.5, 1e-15, "t = 0 -> 0.5");

	is_int(stats_welch(aim9_base, 6, aim9_new, 6, &t, &df, &p), 0, "welch on aim9");
	is_double(t, 5.506046242412355, 1e-9, "aim9 Welch t");
	is_double(df, 9.982445343185713, 1e-9, "aim9 Welch-Satterthwaite df");
	is_double(p, 0.00026120974182137303, 1e-9, "aim9 p-value matches python quadrature");

	is_int(stats_welch(aim9_base, 1, aim9_new, 6, &t, &df, &p), -EDOM, "one run: no test");
	ok(isnan(p), "... p is NAN");
	stats_welch((const double[]){ 3, 3, 3 }, 3, (const double[]){ 3, 3, 3 }, 3, &t, &df, &p);
	is_double(p, 1, 0, "identical constants: p = 1");
	stats_welch((const double[]){ 3, 3, 3 }, 3, (const double[]){ 4, 4, 4 }, 3, &t, &df, &p);
	is_double(p, 0, 0, "different constants: p = 0");
	/* overlapping samples: a large p */
	stats_welch((const double[]){ 1, 2, 3, 4 }, 4, (const double[]){ 1.5, 2.5, 3.5, 2 }, 4, &t,
		    &df, &p);
	ok(p > 0.5, "overlapping samples: p = %g > 0.5", p);
	return done_testing();
}
