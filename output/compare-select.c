// SPDX-License-Identifier: GPL-2.0
/*
 * compare-select.c - which rows LKP's comparison lists: lib/stats.rb's StatCompare#process for
 * regular (performance) stats, with the tables it reads from etc/ built in.
 *
 * Order of the checks, as in StatCompare#process:
 *  1. neither side has >= 3 runs: skipped;
 *  2. the base must have the key (perf-profile: any perf-profile key in the base will do);
 *  3. summaries: sorted, margins cut (min(n >> 5, 3); 1 when the base has <= 3 runs), upper median;
 *  4. perf-profile threshold test when the threshold's class (Integer 5, or the Float of -p)
 *     matches the class of the new median element (a filler is LKP's Integer 0, a measured
 *     value a Float), else the separation test;
 *  5. ratio > 1.01 and (ratio > 1.05 or a perf metric) and a reasonable change, except for
 *     perf-profile keys.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/output.h"

#define MAX_RATIO	5

/*
 * LKP's performance tests (LKP::Programs.all_tests_set, the programs/ that are tests, not
 * monitors): their own metrics need only a 1% change and sort first. kprof's result sets add
 * their workload family from meta.json (struct lkp_select_opts.tests).
 */
static const char *const lkp_tests[] = {
	"aim7", "aim9", "apachebench", "autonuma-benchmark", "blogbench", "bonnie", "dbench",
	"ebizzy", "fileio", "filebench", "fio-basic", "fsmark", "fxmark", "hackbench", "iozone",
	"iperf", "kbuild", "lmbench3", "netperf", "nepim", "openssl-speed", "pbzip2",
	"perf-bench-futex", "perf-bench-mem", "perf-bench-numa-mem", "perf-bench-sched-messaging",
	"perf-bench-sched-pipe", "perf-bench-syscall", "pft", "phoronix-test-suite", "pigz",
	"pmbench", "postmark", "pts", "qperf", "reaim", "redis", "schbench", "sockperf", "stream",
	"stress-ng", "swapin", "sysbench-cpu", "sysbench-memory", "sysbench-mutex",
	"sysbench-threads", "tbench", "thrulay", "tlbflush", "unixbench", "vm-scalability",
	"will-it-scale", "ycsb",
};

/* etc/perf-metrics-prefixes (lkp-tests): 1% suffices for these. */
static const char *const perf_metric_prefixes[] = {
	"boot-meminfo.DirectMap1G", "boot-meminfo.DirectMap2M", "boot-meminfo.DirectMap4k",
	"boot-meminfo.KernelStack", "boot-meminfo.MemFree", "boot-meminfo.MemTotal",
	"boot-meminfo.PageTables", "boot-meminfo.Slab", "boot-meminfo.VmallocUsed",
	"boot-memory.bootmem", "boot-memory.code", "boot-memory.init", "boot-slabinfo.",
	"boot-time.", "energy.", "interrupts.CAL:Function_call_interrupts", "iostat.",
	"perf-c2c.HITM.total", "perf-profile.children.cycles-pp.native_queued_spin_lock_slowpath",
	"perf-stat.", "pmeter.", "proc-vmstat.", "turbostat.%Busy", "turbostat.Bzy_MHz",
	"turbostat.C1%", "turbostat.C1E%", "turbostat.CorWatt", "turbostat.Pk%pc10",
	"turbostat.Pkg%pc2", "turbostat.Pkg%pc3", "turbostat.Pkg%pc6", "turbostat.Pkg%pc7",
	"turbostat.Pkg%pc8", "turbostat.Pkg%pc9", "turbostat.PkgTmp", "turbostat.PkgWatt",
	"turbostat.POLL%", "turbostat.RAMWatt", "turbostat.SYS%LPI", "vmstat.cpu.", "vmstat.io.",
	"vmstat.swap.", "vmstat.system.",
};

/*
 * etc/perf-metrics-threshold.yaml entries quoted by the spec (the file itself was not available
 * to us): the first whose ^pattern$ matches decides. Here as prefix, suffix (".*" before it) and
 * an optional trailing ".*"; the regexes' "." before "time" is any character, which for real keys
 * is the '.' written here.
 */
static const struct {
	const char	*prefix, *suffix;	/* key = <prefix> anything <suffix>, or exact */
	bool		wild;
	bool		trailing;	/* ".*" after the suffix: it may occur anywhere */
	double		v;
	bool		is_int;
} thresholds[] = {
	{ "", ".time.system_time", true, false, 10, true },
	{ "", ".time.user_time", true, false, 10, true },
	{ "", ".time.minor_page_faults", true, false, 1000, true },
	{ "", ".time.voluntary_context_switches", true, false, 1000, true },
	{ "", ".time.elapsed_time", true, true, 10, true },
	{ "perf-profile.", "", true, false, 1, true },
	{ "vmstat.system.cs", "", false, false, 100, true },
	{ "vmstat.cpu.sy", "", false, false, 50, true },
};

static bool starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/* Does the first dotted component of @key equal @name? */
static bool component_is(const char *key, const char *name)
{
	size_t n = strlen(name);

	return !strncmp(key, name, n) && (key[n] == '.' || !key[n]);
}

bool lkp_is_test(const char *key, const struct lkp_select_opts *o)
{
	for (size_t i = 0; i < sizeof(lkp_tests) / sizeof(*lkp_tests); i++)
		if (component_is(key, lkp_tests[i]))
			return true;
	for (size_t i = 0; o && i < o->nr_tests; i++)
		if (component_is(key, o->tests[i]))
			return true;
	return false;
}

bool lkp_is_absolute_change(const char *key)
{
	return starts_with(key, "perf-profile") || ends_with(key, "%");
}

/* etc/perf-metrics-patterns: ^(.*\.)?time..* and ^lock_stat..*..contentions (unanchored end). */
static bool matches_perf_patterns(const char *key)
{
	const char *s, *c;

	for (s = key; s; s = strchr(s, '.')) {
		if (*s == '.')
			s++;
		if (starts_with(s, "time") && strlen(s) >= 5)
			return true;
	}
	if (starts_with(key, "lock_stat") && strlen(key) > 11) {
		/* lock_stat + one char + anything + one char + "contentions" */
		for (c = strstr(key + 11, "contentions"); c; c = strstr(c + 1, "contentions"))
			if (c - key >= 11)
				return true;
	}
	return false;
}

bool lkp_is_perf_metric(const char *key, const struct lkp_select_opts *o)
{
	if (matches_perf_patterns(key))
		return true;
	for (size_t i = 0; i < sizeof(perf_metric_prefixes) / sizeof(*perf_metric_prefixes); i++)
		if (starts_with(key, perf_metric_prefixes[i]))
			return true;
	/* A performance test's own metrics (LKP::Programs.test_prefixes). */
	return lkp_is_test(key, o);
}

bool lkp_reasonable_change(const char *key, double delta, double max)
{
	for (size_t i = 0; i < sizeof(thresholds) / sizeof(*thresholds); i++) {
		const char *rest = key + strlen(thresholds[i].prefix);
		bool match;

		if (!thresholds[i].wild)
			match = !strcmp(key, thresholds[i].prefix);
		else if (!starts_with(key, thresholds[i].prefix))
			match = false;
		else if (thresholds[i].trailing)	/* "<prefix>.*<suffix>.*" */
			match = strstr(rest, thresholds[i].suffix);
		else
			match = ends_with(rest, thresholds[i].suffix);

		if (!match)
			continue;
		if (max < thresholds[i].v)
			return false;
		if (thresholds[i].is_int && delta < thresholds[i].v / 2)
			return false;
		return true;
	}
	if (starts_with(key, "iostat"))
		return max > 1;
	if (starts_with(key, "pagetypeinfo") || starts_with(key, "buddyinfo") ||
	    starts_with(key, "slabinfo"))
		return delta > 100;
	if (starts_with(key, "proc-vmstat") || strstr(key, "meminfo"))
		return max > 1000;
	if (starts_with(key, "lock_stat")) {
		if (strstr(key, "time"))
			return delta > 1000;
		return delta > 10000;
	}
	if (starts_with(key, "interrupts") || starts_with(key, "softirqs"))
		return max > 10000;
	return true;
}

/* A side's values, with LKP's fillers for a key the set lacks. */
static void summarize_side(const struct lkp_side *s, size_t max_margin, struct lkp_summary *out,
			   double *fill_v, bool *fill_p)
{
	const double *v = s->has_key ? s->v : fill_v;
	const bool *p = s->has_key ? s->present : fill_p;

	lkp_summarize(v, p, s->nr, max_margin, out);
}

static bool separated(const struct lkp_summary *a, const struct lkp_summary *b)
{
	return (b->min > a->median && b->median > a->max) ||
	       (a->min > b->median && a->median > b->max);
}

bool lkp_stat_changed(const char *key, const struct lkp_side *base, const struct lkp_side *new,
		      const struct lkp_select_opts *o)
{
	bool perf_profile = starts_with(key, "perf-profile.");
	struct lkp_summary a, b;
	double ratio, delta, max, *fill_v;
	const struct lkp_summary *high, *low;
	bool *fill_p;
	size_t n = base->nr > new->nr ? base->nr : new->nr;

	if (base->nr < 3 && new->nr < 3)
		return false;
	/* monitored_by_b?: a perf-profile or lock_stat key the base's monitor did not report */
	if (!base->has_key && !((perf_profile || starts_with(key, "lock_stat.")) &&
				base->has_monitor))
		return false;
	fill_v = calloc(n ? n : 1, sizeof(*fill_v));
	fill_p = calloc(n ? n : 1, sizeof(*fill_p));
	if (!fill_v || !fill_p) {
		free(fill_v);
		free(fill_p);
		return false;
	}
	summarize_side(base, 3, &b, fill_v, fill_p);
	summarize_side(new, base->nr <= 3 ? 1 : 3, &a, fill_v, fill_p);
	free(fill_v);
	free(fill_p);
	if (!b.n || !a.n)
		return false;

	/* options['perf-profile'].is_a?(a.mean.class): Integer 5 ~ filler, Float -p ~ a value */
	if (perf_profile && o->pp_threshold_float == !a.median_missing)
		return a.median > o->pp_threshold || b.median > o->pp_threshold;
	if (!separated(&a, &b))
		return false;
	if (perf_profile)
		return true;	/* skip_small_change? is bypassed for perf-profile */

	high = a.median > b.median ? &a : &b;
	low = high == &a ? &b : &a;
	ratio = low->median > 0 ? high->median / low->median : MAX_RATIO;
	if (ratio > MAX_RATIO)
		ratio = MAX_RATIO;
	delta = high->median - low->median;
	max = a.max > b.max ? a.max : b.max;
	if (!(ratio > 1.01))
		return false;
	if (!(ratio > 1.05 || lkp_is_perf_metric(key, o)))
		return false;
	return lkp_reasonable_change(key, delta, max);
}
