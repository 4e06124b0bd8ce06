// SPDX-License-Identifier: GPL-2.0
/*
 * LKP perf-stat keys against the worked example of lkp-metrics.md §2.4 (fixture
 * spec/fixtures/stats/perf-stat/5: hybrid CPU, core + atom counts already added, three 1-s
 * blocks, the last one dropped), plus the derivation rules of §2.3.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/output.h"
#include "tests/tap.h"

struct got {
	char	keys[64][128];
	double	vals[64];
	int	nr;
};

static int collect(void *arg, const char *key, double v)
{
	struct got *g = arg;

	if (g->nr == 64)
		return -1;
	strcpy(g->keys[g->nr], key);
	g->vals[g->nr++] = v;
	return 0;
}

static bool find(const struct got *g, const char *key, double *v)
{
	for (int i = 0; i < g->nr; i++)
		if (!strcmp(g->keys[i], key)) {
			*v = g->vals[i];
			return true;
		}
	return false;
}

static void is_key(const struct got *g, const char *key, double want, double eps)
{
	double v = NAN;

	ok(find(g, key, &v), "%s present", key);
	is_double(v, want, eps, "%s = %.6f", key, want);
}

static void absent(const struct got *g, const char *key)
{
	double v;

	ok(!find(g, key, &v), "%s absent", key);
}

static void fixture5(void)
{
	static const char *const events[] = { "cpu-cycles", "instructions", "page-faults" };
	/* block ends; block 2's end follows from the spec's i.cpu-cycles for block 2 */
	static const double t[] = { 1.001092774, 2.0047500509973215, 3.011943315 };
	static const double counts[] = {
		340060066.0 + 13478657956.0, 244499732.0 + 21005840710.0, 100,
		12296615165.0, 37994435935.0 - 21250340442.0, 300,
		99999999999.0, 1, 5000,				/* dropped */
	};
	struct perf_stat_series s = {
		.events = events, .nr_events = 3, .nr_intervals = 3, .t_end = t,
		.counts = counts, .drop_last = true,
	};
	struct got g = { .nr = 0 };

	is_int(perf_stat_keys(&s, collect, &g), 0, "fixture 5: keys computed");
	is_key(&g, "perf-stat.i.cpu-cycles", (13803633769.9 + 12251806913.4) / 2, 0.1);
	is_key(&g, "perf-stat.ps.cpu-cycles", 8670592523.1, 0.1);
	is_key(&g, "perf-stat.total.instructions", 37994435935.0, 0.5);
	is_key(&g, "perf-stat.overall.ipc", 37994435935.0 / (13818718022.0 + 12296615165.0),
	       1e-9);
	is_key(&g, "perf-stat.i.ipc", (1.5377939117194905 + 16744095493.0 / 12296615165.0) / 2,
	       1e-9);
	is_key(&g, "perf-stat.overall.cpi", (13818718022.0 + 12296615165.0) / 37994435935.0, 1e-9);
	is_key(&g, "perf-stat.ps.page-faults", 400 / 3.011943315, 1e-9);
	absent(&g, "perf-stat.overall.MPKI");
	absent(&g, "perf-stat.overall.cache-miss-rate%");
}

static void derivations(void)
{
	static const char *const events[] = {
		"cpu-cycles", "instructions", "cache-references", "cache-misses",
		"branch-instructions", "branch-misses", "dTLB-loads", "dTLB-load-misses",
		"iTLB-loads", "iTLB-load-misses",
	};
	static const double vals[] = { 2000, 1000, 400, 100, 300, 30, 900, 100, 0, 50 };
	struct perf_stat_series s = { .events = events, .nr_events = 10 };
	struct got g = { .nr = 0 };

	is_int(perf_stat_derive(&s, vals, "overall.", collect, &g), 0, "derive: ok");
	is_key(&g, "perf-stat.overall.cache-miss-rate%", 25, 1e-12);
	is_key(&g, "perf-stat.overall.branch-miss-rate%", 10, 1e-12);
	is_key(&g, "perf-stat.overall.dTLB-load-miss-rate%", 10, 1e-12);
	/* iTLB-loads is 0: no usable denominator, so no rate (LKP skips it) */
	absent(&g, "perf-stat.overall.iTLB-load-miss-rate%");
	is_key(&g, "perf-stat.overall.instructions-per-iTLB-miss", 20, 1e-12);
	is_key(&g, "perf-stat.overall.cycles-between-cache-misses", 20, 1e-12);
	is_key(&g, "perf-stat.overall.MPKI", 100, 1e-12);
	is_key(&g, "perf-stat.overall.ipc", 0.5, 1e-12);
	is_key(&g, "perf-stat.overall.cpi", 2, 1e-12);
}

static void software_only(void)
{
	static const char *const events[] = { "task-clock", "page-faults", "context-switches" };
	static const double t[] = { 0.5 };
	static const double counts[] = { 5e8, 1000, 10 };
	struct perf_stat_series s = {
		.events = events, .nr_events = 3, .nr_intervals = 1, .t_end = t,
		.counts = counts, .drop_last = false,
	};
	struct got g = { .nr = 0 };

	is_int(perf_stat_keys(&s, collect, &g), 0, "one whole-run interval: ok");
	is_key(&g, "perf-stat.i.page-faults", 2000, 1e-9);
	is_key(&g, "perf-stat.ps.context-switches", 20, 1e-9);
	absent(&g, "perf-stat.overall.ipc");
	absent(&g, "perf-stat.total.instructions");
	is_int(g.nr, 6, "only the i. and ps. keys of the three events");
}

int main(void)
{
	fixture5();
	derivations();
	software_only();
	return done_testing();
}
