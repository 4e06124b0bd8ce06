// SPDX-License-Identifier: GPL-2.0
/*
 * LKP's number formats for the comparison table, one check per branch of
 * Compare.show_perf_change. Expected strings are the ones LKP's Ruby prints (the example rows
 * quoted in the spec and the report e-mails), written out by hand.
 */
#include <string.h>

#include "output/output.h"
#include "tests/tap.h"

static const char *mean(double v)
{
	static char buf[64];

	lkp_fmt_mean(buf, sizeof(buf), v);
	return buf;
}

static const char *sd(double m, double s)
{
	static char buf[64];

	lkp_fmt_stddev(buf, sizeof(buf), m, s);
	return buf;
}

static const char *chg(double c, bool abs)
{
	static char buf[64];

	lkp_fmt_change(buf, sizeof(buf), c, abs);
	return buf;
}

/*
 * Ruby's format() as printed by Ruby 3.1 itself (ruby -e 'format("%.2f", 208.745)' and so on,
 * run once by hand; Ruby is not needed to run this test): ties that C rounds the other way,
 * trailing zeros Ruby keeps in %g, and plain cases.
 */
static const struct {
	double		v;
	char		conv;
	int		prec;
	const char	*ruby;
} ruby_cases[] = {
	{ 208.745, 'f', 2, "208.74" },		/* C: 208.75 */
	{ 676.255, 'f', 2, "676.26" },		/* C: 676.25 */
	{ 552.845, 'f', 2, "552.84" },		/* C: 552.85 */
	{ 1.45, 'f', 1, "1.4" },		/* C: 1.5 */
	{ -0.04, 'f', 1, "-0.0" },
	{ 0.125, 'f', 2, "0.12" },
	{ 22574958856163.215, 'f', 2, "22574958856163.21" },	/* too long for the fast path */
	{ 0.006, 'f', 2, "0.01" },
	{ 0.005, 'f', 2, "0.01" },
	{ 1050.0, 'g', 2, "1.0e+03" },		/* C: 1e+03 */
	{ 1.05, 'g', 2, "1.0" },		/* C: 1.1 */
	{ 0.105, 'g', 2, "0.1" },
	{ 1950.0, 'g', 2, "2e+03" },
	{ 100050000.0, 'g', 4, "1.000e+08" },	/* C: 1e+08 */
	{ 999950000.0, 'g', 4, "1e+09" },
	{ 100040000.0, 'g', 4, "1e+08" },
	{ 6.0e+100, 'g', 2, "6e+100" },
	{ 103400000.0, 'g', 4, "1.034e+08" },
	{ 1322908.3133, 'f', 2, "1322908.31" },
};

static void test_ruby_format(void)
{
	char buf[64];

	for (size_t i = 0; i < sizeof(ruby_cases) / sizeof(*ruby_cases); i++) {
		ruby_format_double(buf, sizeof(buf), ruby_cases[i].v, ruby_cases[i].conv,
				   ruby_cases[i].prec, 0, false);
		is_str(buf, ruby_cases[i].ruby, "Ruby's %%.%d%c of %.17g", ruby_cases[i].prec,
		       ruby_cases[i].conv, ruby_cases[i].v);
	}
	ruby_format_double(buf, sizeof(buf), 208.745, 'f', 2, 10, false);
	is_str(buf, "    208.74", "width pads on the left");
	ruby_format_double(buf, sizeof(buf), 5, 'f', 1, 10, true);
	is_str(buf, "      +5.0", "'+' flag");
	is_str(mean(208.745), "    208.74", "a mean on a tie prints as LKP's Ruby prints it");
}

int main(void)
{
	test_ruby_format();
	/* mean: |m| < 1000 -> %10.2f */
	is_str(mean(0.08), "      0.08", "small mean: %%10.2f");
	is_str(mean(598.97), "    598.97", "598.97: %%10.2f");
	is_str(mean(999.996), "   1000.00", "just below 1000 rounds up but keeps %%10.2f");
	is_str(mean(-0.004), "     -0.00", "tiny negative mean prints -0.00 as Ruby does");
	/* 1000 <= |m| <= 1e8 -> truncated %10d */
	is_str(mean(1322908.31), "   1322908", "1322908.31 truncates (report 004)");
	is_str(mean(1256536.69), "   1256536", "1256536.69 truncates, does not round");
	is_str(mean(1000), "      1000", "1000 is %%10d");
	is_str(mean(-1234.9), "     -1234", "negative truncates toward zero");
	is_str(mean(99382138.4), "  99382138", "99382138 (report 000)");
	is_str(mean(100000000), " 100000000", "exactly 1e8 is still %%10d");
	/* |m| > 1e8 -> %10.4g */
	is_str(mean(103400000), " 1.034e+08", "1.034e+08 (report 000)");
	is_str(mean(5.812e13), " 5.812e+13", "5.812e+13");
	is_str(mean(-2.5e9), "  -2.5e+09", "negative large: %%10.4g");

	/* stddev: " ±%3d%%" when 100*sd/mean > 2, truncated; else blank */
	is_str(sd(0.08, 0.0024), " \xc2\xb1  3%", "3%% shows as ±  3%%");
	is_str(sd(100, 2.9), " \xc2\xb1  2%", "2.9%% truncates to ±  2%%");
	is_str(sd(100, 2.0), "      ", "exactly 2%% is blank");
	is_str(sd(1322908.31, 19447), "      ", "1.47%% is blank (report 004)");
	is_str(sd(100, 85), " \xc2\xb1 85%", "85%%");
	is_str(sd(100, 245), " \xc2\xb1" "245%", "three digits");
	is_str(sd(100, -1), "      ", "one run (stddev -1) is blank");
	is_str(sd(-100, 50), "      ", "negative mean is blank");
	is_str(sd(-10, -1), " \xc2\xb1 10%", "LKP quirk: one run (-1) of a negative mean shows");
	is_str(sd(0, 5), " \xc2\xb1  5%", "mean 0: the absolute stddev is compared");

	/* change: relative "%+10.1f%% ", absolute "%+10.1f  " */
	is_str(chg(-5.017, false), "      -5.0% ", "relative -5.0%%");
	is_str(chg(8.7, false), "      +8.7% ", "relative +8.7%%");
	is_str(chg(0, false), "      +0.0% ", "no change is +0.0%%");
	is_str(chg(-0.04, true), "      -0.0  ", "small negative absolute change prints -0.0");
	is_str(chg(-0.04, false), "      -0.0% ", "small negative relative change prints -0.0%%");
	is_str(chg(1.48, true), "      +1.5  ", "absolute change has no %% and two spaces");
	is_str(chg(-40.26, true), "     -40.3  ", "perf-profile vanishing row");
	is_str(chg(99999.9, false), "  +99999.9% ", "below 100000: one decimal");
	is_str(chg(100000, false), "    +1e+05% ", "100000 and above: %%.2g");
	is_str(chg(6e100, false), "   +6e+100% ", "base 0 (1e-100): +6e+100%% (spec row)");
	is_str(chg(-250000, true), "  -2.5e+05  ", "absolute .2g");
	is_int(strlen(chg(-5.0, false)), 12, "change field is 12 wide");
	return done_testing();
}
