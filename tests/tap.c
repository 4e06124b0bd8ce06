// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/tap.h"

static int tap_planned = -1;
static int tap_run;
static int tap_failed;

void plan(int n)
{
	tap_planned = n;
	printf("1..%d\n", n);
	fflush(stdout);
}

void skip_all(const char *fmt, ...)
{
	va_list ap;

	printf("1..0 # SKIP ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	exit(0);
}

void skip(int n, const char *fmt, ...)
{
	va_list ap;

	while (n-- > 0) {
		printf("ok %d # skip ", ++tap_run);
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
		printf("\n");
	}
	fflush(stdout);
}

void diag(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "# ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
}

static bool report(bool cond, const char *file, int line, const char *fmt, va_list ap)
{
	printf("%sok %d - ", cond ? "" : "not ", ++tap_run);
	vprintf(fmt, ap);
	printf("\n");
	fflush(stdout);
	if (!cond) {
		tap_failed++;
		fprintf(stderr, "#   failed at %s:%d\n", file, line);
	}
	return cond;
}

bool ok_at(bool cond, const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	bool r;

	va_start(ap, fmt);
	r = report(cond, file, line, fmt, ap);
	va_end(ap);
	return r;
}

bool is_int_at(long long got, long long want, const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	bool r;

	va_start(ap, fmt);
	r = report(got == want, file, line, fmt, ap);
	va_end(ap);
	if (!r)
		fprintf(stderr, "#          got: %lld\n#     expected: %lld\n", got, want);
	return r;
}

bool is_u64_at(uint64_t got, uint64_t want, const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	bool r;

	va_start(ap, fmt);
	r = report(got == want, file, line, fmt, ap);
	va_end(ap);
	if (!r)
		fprintf(stderr, "#          got: %" PRIu64 "\n#     expected: %" PRIu64 "\n",
			got, want);
	return r;
}

bool is_str_at(const char *got, const char *want, const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	bool same = (!got && !want) || (got && want && !strcmp(got, want));
	bool r;

	va_start(ap, fmt);
	r = report(same, file, line, fmt, ap);
	va_end(ap);
	if (!r)
		fprintf(stderr, "#          got: '%s'\n#     expected: '%s'\n",
			got ? got : "(null)", want ? want : "(null)");
	return r;
}

bool is_double_at(double got, double want, double eps, const char *file, int line,
		  const char *fmt, ...)
{
	va_list ap;
	bool r;

	va_start(ap, fmt);
	r = report(fabs(got - want) <= eps, file, line, fmt, ap);
	va_end(ap);
	if (!r)
		fprintf(stderr, "#          got: %.17g\n#     expected: %.17g (+- %g)\n",
			got, want, eps);
	return r;
}

int done_testing(void)
{
	if (tap_planned < 0)
		printf("1..%d\n", tap_run);
	else if (tap_planned != tap_run)
		fprintf(stderr, "# planned %d tests but ran %d\n", tap_planned, tap_run);
	fflush(stdout);
	return tap_failed || (tap_planned >= 0 && tap_planned != tap_run) ? 1 : 0;
}
