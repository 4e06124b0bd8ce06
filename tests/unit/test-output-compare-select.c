// SPDX-License-Identifier: GPL-2.0
/*
 * LKP's row selection (lib/stats.rb StatCompare#process), one check per rule, each with a case
 * that is listed and one that is not. The perf-profile cases are the ones the spec confirmed by
 * running lib/stats.rb: base 3% -> new missing is NOT listed, base 6% -> listed, a newly
 * appearing 3% IS listed.
 */
#include <math.h>
#include <string.h>

#include "output/output.h"
#include "tests/tap.h"

#define N(...)	((const double[]){ __VA_ARGS__ })
#define NR(a)	(sizeof(a) / sizeof(double))

static const bool all_present[64] = {
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1,
};
static const bool none_present[64];
static const struct lkp_select_opts lkp_default = { .pp_threshold = 5 };

static struct lkp_side side(const double *v, size_t n)
{
	return (struct lkp_side){ v, all_present, n, true, true };
}

/* A set that lacks the key: n runs of LKP's Integer 0 fillers. */
static struct lkp_side absent(size_t n, bool has_monitor)
{
	return (struct lkp_side){ NULL, NULL, n, false, has_monitor };
}

static bool changed(const char *key, struct lkp_side base, struct lkp_side new)
{
	return lkp_stat_changed(key, &base, &new, &lkp_default);
}

static void test_aim9(void)
{
	const double *base = N(1351624.95, 1316322.79, 1330363.33, 1289563.33, 1314100.0,
			       1335475.48);
	const double *new = N(1268030.0, 1277110.76, 1226452.45, 1275850.0, 1249628.35,
			      1242148.6);

	ok(changed("aim9.brk_test.ops_per_sec", side(base, 6), side(new, 6)),
	   "report 004: aim9.brk_test.ops_per_sec is listed");
	/* A new run above the base minimum keeps the sides apart (medians still separate)... */
	ok(changed("aim9.brk_test.ops_per_sec", side(base, 6),
		   side(N(1268030.0, 1277110.76, 1226452.45, 1295850.0, 1249628.35, 1242148.6), 6)),
	   "one new run above the base minimum: still listed");
	/* ...one above the base median does not: the separation test fails. */
	ok(!changed("aim9.brk_test.ops_per_sec", side(base, 6),
		    side(N(1268030.0, 1277110.76, 1226452.45, 1335850.0, 1249628.35, 1242148.6),
			 6)),
	   "one new run above the base median (1330363): NOT listed");
}

static void test_runs_and_base(void)
{
	const double *a = N(10, 10.1, 10.2), *b = N(20, 20.1, 20.2);

	ok(changed("aim9.x", side(a, 3), side(b, 3)), "3 runs each, separated: listed");
	ok(!changed("aim9.x", side(a, 2), side(b, 2)), "2 runs each: never listed");
	ok(changed("aim9.x", side(a, 3), side(b, 2)), "3 runs on one side suffice");
	ok(!changed("aim9.x", absent(3, true), side(b, 3)),
	   "a key the base lacks is not listed (newly added monitor)");
	ok(changed("aim9.x", side(b, 3), absent(3, true)),
	   "a key the new set lacks is compared as zeros and listed");
}

static void test_perf_profile(void)
{
	const double *three = N(3, 3.1, 2.9), *six = N(6, 6.1, 5.9), *low = N(0.5, 0.5, 0.5);
	const double *higher = N(0.6, 0.6, 0.6);
	struct lkp_select_opts p1 = { .pp_threshold = 1, .pp_threshold_float = true };
	struct lkp_side b, n;

	ok(!changed("perf-profile.self.cycles-pp.f", side(three, 3), absent(3, true)),
	   "perf-profile: base 3%%, gone in new: NOT listed (Integer 5 threshold)");
	ok(changed("perf-profile.self.cycles-pp.f", side(six, 3), absent(3, true)),
	   "perf-profile: base 6%%, gone in new: listed");
	ok(changed("perf-profile.self.cycles-pp.f", absent(3, true), side(three, 3)),
	   "perf-profile: newly appearing 3%% is listed (base has perf-profile keys)");
	ok(!changed("perf-profile.self.cycles-pp.f", absent(3, false), side(three, 3)),
	   "perf-profile: not listed when the base has no perf-profile key at all");
	ok(changed("lock_stat.x.contentions", absent(3, true), side(N(2e4, 2e4, 2e4), 3)),
	   "lock_stat: the same exception as perf-profile (monitored_by_b?)");
	ok(!changed("aim9.newkey", absent(3, true), side(N(9, 9, 9), 3)),
	   "... but not for other monitors");
	/* New median element is a filler (missing in 2 of 3 runs) -> threshold test. */
	n = (struct lkp_side){ N(0, 0, 3), (const bool[]){ 0, 0, 1 }, 3, true, true };
	ok(!changed("perf-profile.self.cycles-pp.f", side(three, 3), n),
	   "perf-profile: missing in most new runs, base 3%%: not listed");
	/* Present in new (a Float median) -> separation test with the default threshold. */
	ok(changed("perf-profile.self.cycles-pp.f", side(low, 3), side(higher, 3)),
	   "perf-profile: 0.5 -> 0.6 separated: listed (no small-change filter)");
	/* -p 1 (a Float): applies to present medians; both below 1 -> not listed. */
	b = side(low, 3);
	n = side(higher, 3);
	ok(!lkp_stat_changed("perf-profile.self.cycles-pp.f", &b, &n, &p1),
	   "-p 1.0: 0.5 -> 0.6 is below the Float threshold: not listed");
	n = side(N(1.5, 1.5, 1.5), 3);
	ok(lkp_stat_changed("perf-profile.self.cycles-pp.f", &b, &n, &p1),
	   "-p 1.0: 0.5 -> 1.5 is above it: listed");
	/* -p with a filler median falls back to the separation test: 3 -> missing is listed. */
	n = absent(3, true);
	b = side(three, 3);
	ok(lkp_stat_changed("perf-profile.self.cycles-pp.f", &b, &n, &p1),
	   "-p 1.0: a vanished 3%% symbol goes through the separation test: listed");
}

static void test_ratio_thresholds(void)
{
	const double *base = N(100, 100, 100, 100), *up3 = N(103, 103, 103, 103);
	const double *up6 = N(106, 106, 106, 106), *up05 = N(100.5, 100.5, 100.5, 100.5);

	ok(changed("aim9.brk_test.ops_per_sec", side(base, 4), side(up3, 4)),
	   "the test's own metric: 3%% is enough (1%% threshold)");
	ok(!changed("aim9.brk_test.ops_per_sec", side(base, 4), side(up05, 4)),
	   "the test's own metric: 0.5%% is not (ratio must exceed 1.01)");
	ok(changed("perf-stat.i.ipc", side(base, 4), side(up3, 4)), "perf-stat.: 1%% threshold");
	ok(changed("vmstat.cpu.us", side(base, 4), side(up3, 4)), "vmstat.cpu.: 1%% threshold");
	ok(changed("turbostat.%Busy", side(base, 4), side(up3, 4)), "turbostat.%%Busy: 1%%");
	ok(!changed("mpstat.cpu.all.usr%", side(base, 4), side(up3, 4)),
	   "mpstat: 3%% is not enough (5%% threshold)");
	ok(changed("mpstat.cpu.all.usr%", side(base, 4), side(up6, 4)), "mpstat: 6%% is");
	ok(!changed("sched_debug.cpu.nr_running.avg", side(base, 4), side(up3, 4)),
	   "sched_debug: 5%% threshold");
	ok(!changed("turbostat.IPC", side(base, 4), side(up3, 4)),
	   "turbostat.IPC is not a perf-metric prefix: 5%%");
	ok(changed("mymonitor.time.x", side(base, 4), side(up3, 4)),
	   "*.time.* keys of any prefix are perf metrics (pattern)");
	/* spec/unit/lib/stats_spec.rb (lkp-tests), #skip_small_change? at ratio 1.04 */
	ok(!changed("unknown.stat", side(base, 4), side(N(104, 104, 104, 104), 4)),
	   "unknown.stat +4%%: not a perf metric, not listed");
	ok(changed("vmstat.cpu.us", side(base, 4), side(N(104, 104, 104, 104), 4)),
	   "vmstat.cpu.us +4%%: a perf metric, listed");
	ok(!changed("iostat.test", side(N(0.5, 0.5, 0.5), 3), side(N(1, 1, 1), 3)),
	   "iostat with max 1: unreasonable");
	ok(!changed("cpu.usage", side(N(10, 10, 10), 3), side(N(10, 10, 10), 3)),
	   "identical stats are not listed");
	ok(changed("perf-sched.wait_time.avg.ms.x", side(base, 4), side(up6, 4)),
	   "perf-sched: 6%% (wait_time is not .time.)");
	ok(!changed("perf-sched.wait_time.avg.ms.x", side(base, 4), side(up3, 4)),
	   "perf-sched: 3%% is not listed");
}

static void test_reasonable(void)
{
	const double *b = N(5, 5, 5, 5), *n = N(8, 8, 8, 8);
	const double *b2 = N(100, 100, 100, 100), *n2 = N(104, 104, 104, 104);

	ok(!changed("aim9.time.system_time", side(b, 4), side(n, 4)),
	   "time.system_time: max 8 < 10 is unreasonable");
	ok(!changed("aim9.time.system_time", side(b2, 4), side(n2, 4)),
	   "time.system_time: delta 4 < 10/2 is unreasonable");
	ok(changed("aim9.time.system_time", side(b2, 4), side(N(110, 110, 110, 110), 4)),
	   "time.system_time: delta 10, max 110 is reasonable");
	ok(!changed("proc-vmstat.pgfault", side(N(500, 500, 500), 3), side(N(900, 900, 900), 3)),
	   "proc-vmstat: max <= 1000 is not listed");
	ok(changed("proc-vmstat.pgfault", side(N(5000, 5000, 5000), 3),
		   side(N(9000, 9000, 9000), 3)), "proc-vmstat: max > 1000 is listed");
	ok(!changed("meminfo.Active", side(N(500, 500, 500), 3), side(N(900, 900, 900), 3)),
	   "meminfo: max <= 1000 is not listed");
	ok(!changed("interrupts.CPU0.LOC", side(N(5000, 5000, 5000), 3),
		    side(N(9000, 9000, 9000), 3)), "interrupts: max <= 10000 is not listed");
	ok(changed("interrupts.CPU0.LOC", side(N(50000, 50000, 50000), 3),
		   side(N(90000, 90000, 90000), 3)), "interrupts: max > 10000 is listed");
	ok(!lkp_reasonable_change("aim9.time.elapsed_time", 0.06, 1.1),
	   ".*.time.elapsed_time.*: 10 -- max 1.1 is unreasonable");
	ok(!lkp_reasonable_change("aim9.time.elapsed_time.max", 4, 30),
	   "... also with a suffix: delta 4 < 5");
	ok(lkp_reasonable_change("aim9.time.elapsed_time.max", 6, 30), "... delta 6, max 30 ok");
	ok(lkp_reasonable_change("vmstat.system.cs", 60, 200), "vmstat.system.cs 60/200 ok");
	ok(!lkp_reasonable_change("vmstat.system.cs", 40, 200), "vmstat.system.cs delta 40 < 50");
}

static void test_margins(void)
{
	double v[40];
	bool p[40];
	struct lkp_summary s;

	for (int i = 0; i < 40; i++) {
		v[i] = 10 + (i % 5);
		p[i] = true;
	}
	v[7] = 1000;		/* one outlier */
	lkp_summarize(v, p, 40, 3, &s);
	is_int(s.n, 38, "40 values: margin 40 >> 5 = 1 cut from each end");
	ok(s.max < 1000, "the outlier is cut");
	lkp_summarize(v, p, 31, 3, &s);
	is_int(s.n, 31, "31 values: no margin");
	is_double(s.max, 1000, 0, "the outlier stays");
	lkp_summarize(N(4, 1, 3, 2), all_present, 4, 3, &s);
	is_double(s.median, 3, 0, "upper median of 1 2 3 4 is 3");
	lkp_summarize(N(0, 0.0, 7), (const bool[]){ 0, 1, 1 }, 3, 3, &s);
	ok(!s.median_missing, "equal values keep run order: median is the measured 0.0");
	lkp_summarize(N(0.0, 0, 7), (const bool[]){ 1, 0, 1 }, 3, 3, &s);
	ok(s.median_missing, "... and the filler when it came second");
	lkp_summarize(N(-1, -1, 5, 6, 7), all_present, 5, 3, &s);
	is_int(s.n, 3, "-1 samples are dropped");
	lkp_summarize(N(1, 2), none_present, 0, 3, &s);
	is_int(s.n, 0, "no values: empty summary");
}

static void test_key_classes(void)
{
	ok(lkp_is_absolute_change("perf-profile.self.cycles-pp.f"), "perf-profile: absolute");
	ok(lkp_is_absolute_change("mpstat.cpu.all.usr%"), "key ending in %%: absolute");
	ok(lkp_is_absolute_change("perf-stat.i.cache-miss-rate%"), "miss-rate%%: absolute");
	ok(!lkp_is_absolute_change("aim9.brk_test.ops_per_sec"), "aim9: relative");
	const char *const fam[] = { "my-bench" };
	struct lkp_select_opts o = { .tests = fam, .nr_tests = 1 };

	ok(!lkp_is_test("proc-vmstat.pgfault", NULL) && !lkp_is_test("perf-profile.x", NULL),
	   "monitors are not tests");
	ok(lkp_is_test("vm-scalability.throughput", NULL), "vm-scalability is a test");
	ok(!lkp_is_test("my-bench.ops", NULL) && lkp_is_test("my-bench.ops", &o),
	   "a family from meta.json is a test");
	/* spec/unit/lib/perf_metrics_spec.rb (lkp-tests) */
	ok(lkp_is_perf_metric("boot-meminfo.DirectMap1G", NULL), "listed prefix");
	ok(lkp_is_perf_metric("boot-meminfo.DirectMap1GExtra", NULL), "starts with a prefix");
	ok(!lkp_is_perf_metric("boot-meminfoXDirectMap1G", NULL), "'.' is not a wildcard");
	ok(lkp_is_perf_metric("hackbench.something", NULL), "test-name prefix");
	ok(!lkp_is_perf_metric("boot.something", NULL), "a functional test is not");
	ok(lkp_is_perf_metric("time.foo", NULL), "perf-metrics-patterns: time.foo");
	ok(!lkp_is_perf_metric("unrelated.stat", NULL), "an unrelated name is not");
	ok(lkp_is_perf_metric("lock_stat.x.y.contentions", NULL), "lock_stat contentions pattern");
	ok(!lkp_is_perf_metric("lock_stat.contentions", NULL), "... needs something in between");
}

int main(void)
{
	test_aim9();
	test_runs_and_base();
	test_perf_profile();
	test_ratio_thresholds();
	test_reasonable();
	test_margins();
	test_key_classes();
	return done_testing();
}
