// SPDX-License-Identifier: GPL-2.0
/*
 * compare-rubyfmt.c - "%f" and "%g" exactly as Ruby's format() prints them, because LKP's table
 * is printed by Ruby and Ruby does not round like C.
 *
 * Ruby formats floats with its own copy of David Gay's dtoa (util.c), modes 3 (%f) and 2 (%g),
 * which first tries a fast floating-point digit generation. When the remainder is within its
 * error bound of one half, Ruby's copy rounds half to even on the digits it has (and remembers
 * "half"), where C rounds the exact binary value: Ruby prints format("%.2f", 208.745) as
 * "208.74" and C as "208.75" (the double is 208.745000000000004547...). After such a tie that
 * rounds down, the digits keep their trailing zeros, so format("%.2g", 1050.0) is "1.0e+03".
 * The floating-point path below is a transcription of that algorithm; the exact fallback uses
 * glibc's exact decimal expansion of the double instead of dtoa's big integers.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/output.h"

#define QUICK_MAX	14	/* dtoa's Quick_max: at most this many digits the fast way */
#define INT_MAX_K	14	/* dtoa's Int_max */
#define EXACT_DIGITS	400	/* enough for the exact expansion of any double >= 1e-300 */

static const double tens[] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
	1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};
static const double bigtens[] = { 1e16, 1e32, 1e64, 1e128, 1e256 };

struct digits {
	char	d[EXACT_DIGITS + 8];
	int	n;		/* digits in d */
	int	k;		/* decimal exponent of the first digit (decpt - 1) */
};

/* dtoa's estimate of floor(log10(v)) and whether it still needs checking. */
static int estimate_k(double v, bool *k_check)
{
	int e, k;
	double m = frexp(v, &e) * 2, ds;	/* v = m * 2^(e - 1), m in [1, 2) */

	ds = (m - 1.5) * 0.289529654602168 + 0.1760912590558 + (e - 1) * 0.301029995663981;
	k = (int)ds;
	if (ds < 0. && ds != k)
		k--;
	*k_check = true;
	if (k >= 0 && k <= 22) {
		if (v < tens[k])
			k--;
		*k_check = false;
	}
	return k;
}

static void bump_up(struct digits *r)
{
	int i = r->n;

	while (i > 0 && r->d[i - 1] == '9')
		i--;
	if (i == 0) {		/* 999 -> 1, one decade up */
		r->d[0] = '1';
		r->n = 1;
		r->k++;
		return;
	}
	r->d[i - 1]++;
	r->n = i;
}

static void strip_zeros(struct digits *r)
{
	while (r->n > 1 && r->d[r->n - 1] == '0')
		r->n--;
}

/* The fast path; 1 when it decided, 0 to fall back (with *half set as dtoa sets it). */
static int quick(double v, int mode, int ndigits, struct digits *r, bool *half)
{
	bool k_check;
	int k = estimate_k(v, &k_check), ilim, ilim1, ieps = 2, i = 0, j;
	double d = v, ds, eps;

	if (mode == 2)
		ilim = ilim1 = ndigits;
	else
		ilim = ndigits + k + 1, ilim1 = ilim - 1;
	if (ilim < 0 || ilim > QUICK_MAX)
		return 0;
	if (k > 0) {
		ds = tens[k & 0xf];
		j = k >> 4;
		if (j & 0x10) {
			j &= 0x10 - 1;
			d /= bigtens[4];
			ieps++;
		}
		for (; j; j >>= 1, i++)
			if (j & 1) {
				ieps++;
				ds *= bigtens[i];
			}
		d /= ds;
	} else if (k < 0) {
		d *= tens[-k & 0xf];
		for (j = -k >> 4; j; j >>= 1, i++)
			if (j & 1) {
				ieps++;
				d *= bigtens[i];
			}
	}
	if (k_check && d < 1. && ilim > 0) {
		if (ilim1 <= 0)
			return 0;
		ilim = ilim1;
		k--;
		d *= 10.;
		ieps++;
	}
	eps = ldexp(ieps * d + 7., -52);	/* word0(eps) -= (P-1)*Exp_msk1 */
	r->n = 0;
	r->k = k;
	if (ilim == 0) {
		d -= 5.;
		if (d > eps) {
			r->d[r->n++] = '1';	/* one_digit */
			r->k++;
			return 1;
		}
		if (d < -eps) {
			r->k = -1 - ndigits;	/* no_digits */
			return 1;
		}
		return 0;
	}
	eps *= tens[ilim - 1];
	for (i = 1;; i++, d *= 10.) {
		long l = (long)d;

		if (!(d -= l))
			ilim = i;
		r->d[r->n++] = '0' + l;
		if (i == ilim) {
			if (d > 0.5 + eps) {
				bump_up(r);
				return 1;
			}
			if (d < 0.5 - eps) {
				strip_zeros(r);
				return 1;
			}
			*half = true;	/* Ruby: round half to even here */
			if ((r->d[r->n - 1] - '0') & 1) {
				bump_up(r);
				return 1;
			}
			return 0;
		}
	}
}

/* dtoa's path for integers below 1e15: floating-point, exact. */
static void integer_path(double v, int mode, int ndigits, struct digits *r)
{
	bool k_check;
	int k = estimate_k(v, &k_check), ilim = mode == 2 ? ndigits : ndigits + k + 1;
	double d = v, ds = tens[k];

	r->n = 0;
	r->k = k;
	for (int i = 1;; i++, d *= 10.) {
		long l = (long)(d / ds);

		d -= l * ds;
		r->d[r->n++] = '0' + l;
		if (!d)
			break;
		if (i == ilim) {
			d += d;
			if (d > ds || (d == ds && (l & 1)))
				bump_up(r);
			break;
		}
	}
}

/* The exact path, from glibc's exact expansion; rounding as Ruby's dtoa with @half. */
static void exact_path(double v, int mode, int ndigits, bool half, struct digits *r)
{
	char buf[EXACT_DIGITS + 16], *e;
	int x, ilim, cmp_half = 0;
	char all[EXACT_DIGITS + 2];
	int nall = 0;

	snprintf(buf, sizeof(buf), "%.*e", EXACT_DIGITS, v);
	e = strchr(buf, 'e');
	x = atoi(e + 1);
	for (char *p = buf; p < e; p++)
		if (*p >= '0' && *p <= '9')
			all[nall++] = *p;
	all[nall] = 0;
	ilim = mode == 2 ? ndigits : ndigits + x + 1;
	r->n = 0;
	r->k = x;
	if (ilim <= 0) {
		/* mode 3 only: no digit, or a lone 1 when v > 5 * 10^x at the rounding position */
		bool above = ilim == 0 && (all[0] > '5' || (all[0] == '5' &&
				strspn(all + 1, "0") < (size_t)(nall - 1)));

		if (above) {
			r->d[r->n++] = '1';
			r->k = x + 1;
		} else {
			r->k = -1 - ndigits;
		}
		return;
	}
	if (ilim > nall)
		ilim = nall;
	memcpy(r->d, all, ilim);
	r->n = ilim;
	if (strspn(all + ilim, "0") == (size_t)(nall - ilim)) {
		strip_zeros(r);	/* the expansion ended: dtoa stops at the last digit */
		return;
	}
	if (all[ilim] > '5')
		cmp_half = 1;
	else if (all[ilim] < '5')
		cmp_half = -1;
	else
		cmp_half = strspn(all + ilim + 1, "0") == (size_t)(nall - ilim - 1) ? 0 : 1;
	if (cmp_half > 0 || (cmp_half == 0 && ((r->d[r->n - 1] - '0') & 1))) {
		int i = r->n;

		while (i > 0 && r->d[i - 1] == '9')
			i--;
		if (i == 0) {
			r->d[0] = '1';
			r->n = 1;
			r->k++;
			return;
		}
		if (!half || ((r->d[i - 1] - '0') & 1))
			r->d[i - 1]++;
		r->n = i;
	} else {
		strip_zeros(r);
	}
}

/* Ruby's dtoa(v, mode, ndigits) for v >= 0. */
static void ruby_dtoa(double v, int mode, int ndigits, struct digits *r)
{
	bool half = false;

	if (v == 0) {
		r->n = 1;
		r->d[0] = '0';
		r->k = 0;
		return;
	}
	if (mode == 2 && ndigits <= 0)
		ndigits = 1;
	if (quick(v, mode, ndigits, r, &half))
		return;
	if (v == floor(v) && v < 1e15) {
		bool k_check;
		int k = estimate_k(v, &k_check);

		if (k <= INT_MAX_K) {
			integer_path(v, mode, ndigits, r);
			return;
		}
	}
	exact_path(v, mode, ndigits, half, r);
}

/* Fixed notation of @r with @prec decimals (BSD vfprintf's %f layout). */
static void put_fixed(char *out, size_t len, const struct digits *r, int prec)
{
	int decpt = r->k + 1, o = 0;

	if (r->n == 0)
		decpt = -prec;
	if (decpt <= 0) {
		o += snprintf(out + o, len - o, "0");
	} else {
		for (int i = 0; i < decpt && o + 1 < (int)len; i++)
			out[o++] = i < r->n ? r->d[i] : '0';
		out[o] = 0;
	}
	if (prec > 0 && o + 1 < (int)len) {
		out[o++] = '.';
		for (int i = 0; i < prec && o + 1 < (int)len; i++) {
			int pos = decpt + i;	/* digit index of this decimal */

			out[o++] = pos >= 0 && pos < r->n ? r->d[pos] : '0';
		}
		out[o] = 0;
	}
}

int ruby_format_double(char *buf, size_t len, double v, char conv, int prec, int width,
		       bool plus)
{
	char body[EXACT_DIGITS + 64], num[EXACT_DIGITS + 80];
	struct digits r;
	bool neg = signbit(v);
	double a = fabs(v);

	if (!isfinite(v))
		return snprintf(buf, len, "%*s", width, isnan(v) ? "NaN" : neg ? "-Inf" : "Inf");
	if (conv == 'f') {
		ruby_dtoa(a, 3, prec, &r);
		put_fixed(body, sizeof(body), &r, prec);
	} else {
		int expt;

		if (prec == 0)
			prec = 1;
		ruby_dtoa(a, 2, prec, &r);
		expt = r.k + 1;
		if (expt > -4 && expt <= prec) {
			int p = r.n - expt;

			put_fixed(body, sizeof(body), &r, p < 0 ? 0 : p);
		} else {
			int o = 0;

			body[o++] = r.d[0];
			if (r.n > 1) {
				body[o++] = '.';
				memcpy(body + o, r.d + 1, r.n - 1);
				o += r.n - 1;
			}
			snprintf(body + o, sizeof(body) - o, "e%c%02d", expt - 1 < 0 ? '-' : '+',
				 abs(expt - 1));
		}
	}
	snprintf(num, sizeof(num), "%s%s", neg ? "-" : plus ? "+" : "", body);
	return snprintf(buf, len, "%*s", width, num);
}
