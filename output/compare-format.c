// SPDX-License-Identifier: GPL-2.0
/*
 * compare-format.c - LKP's number formats for the comparison table (Compare.show_perf_change):
 * a 10-wide mean, a 6-wide "± NN%" stddev and a 12-wide change, byte for byte as Ruby's
 * format() prints them (Ruby's %d of a Float truncates toward zero; %+10.1f may give -0.0).
 */
#include <math.h>
#include <stdio.h>

#include "output/output.h"

void lkp_fmt_mean(char *buf, size_t len, double mean)
{
	if (fabs(mean) < 1000)
		snprintf(buf, len, "%10.2f", mean);
	else if (fabs(mean) > 100000000)
		snprintf(buf, len, "%10.4g", mean);
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
	const char *fmt;

	if (fabs(change) < 100000)
		fmt = absolute ? "%+10.1f  " : "%+10.1f%% ";
	else
		fmt = absolute ? "%+10.2g  " : "%+10.2g%% ";
	snprintf(buf, len, fmt, change);
}
