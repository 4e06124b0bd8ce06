// SPDX-License-Identifier: GPL-2.0
/*
 * compare-format.c - LKP's number formats for the comparison table (Compare.show_perf_change):
 * a 10-wide mean, a 6-wide "± NN%" stddev and a 12-wide change, byte for byte as Ruby's
 * format() prints them (Ruby's %d of a Float truncates toward zero; %+10.1f may give -0.0; its
 * %f and %g round some ties differently from C: ruby_format_double()).
 */
#include <math.h>
#include <stdio.h>

#include "output/output.h"

void lkp_fmt_mean(char *buf, size_t len, double mean)
{
	if (fabs(mean) < 1000)
		ruby_format_double(buf, len, mean, 'f', 2, 10, false);
	else if (fabs(mean) > 100000000)
		ruby_format_double(buf, len, mean, 'g', 4, 10, false);
	else
		snprintf(buf, len, "%10lld", (long long)mean);	/* truncates, as Ruby's %d */
}

void lkp_fmt_stddev(char *buf, size_t len, double mean, double stddev)
{
	double rel = mean != 0 ? 100 * stddev / mean : stddev;

	/*
	 * Blank within 2%, for a negative mean, and for one run (stddev -1) -- unless the mean is
	 * negative too: LKP divides the -1 by the mean as well, and so do we.
	 */
	if (rel > 2)
		snprintf(buf, len, " \xc2\xb1%3lld%%", (long long)fmin(rel, 1e18));
	else
		snprintf(buf, len, "      ");
}

void lkp_fmt_change(char *buf, size_t len, double change, bool absolute)
{
	char num[64];

	if (fabs(change) < 100000)
		ruby_format_double(num, sizeof(num), change, 'f', 1, 10, true);
	else
		ruby_format_double(num, sizeof(num), change, 'g', 2, 10, true);
	snprintf(buf, len, "%s%s", num, absolute ? "  " : "% ");
}
