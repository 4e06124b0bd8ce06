// SPDX-License-Identifier: GPL-2.0
/*
 * compare --stats must not cry wolf: Benjamini-Hochberg q-values against values worked by hand,
 * the A/A comparison (two sets drawn from the same distributions, several seeds of synthetic
 * result sets shaped like kprof's: a workload metric, monitors, perf-profile shares that are
 * sometimes missing) where no row may be significant after FDR control although some rows are
 * below 0.05 before it, and a real 5% change that is still found among hundreds of rows. Also
 * the drift check, the --raw rounding and the main metric that is always listed.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/output.h"
#include "tests/tap.h"

#define NR_KEYS		300
#define NR_SEEDS	8

/* xorshift64*: the same numbers on every machine, unlike rand(). */
static uint64_t rng_state;

static double uniform(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (double)((rng_state * 2685821657736338717ULL) >> 11) / 9007199254740992.0;
}

static double normal(void)
{
	double u = uniform(), v = uniform();

	return sqrt(-2 * log(u > 0 ? u : 1e-300)) * cos(2 * M_PI * v);
}

static int row_cmp(const void *a, const void *b)
{
	return strcmp(((const struct matrix_row *)a)->key, ((const struct matrix_row *)b)->key);
}

/*
 * Key k: a mean and a relative noise of its own; perf-profile shares below 1% are missing from
 * a run with some probability (as a symbol that was not sampled). @shift scales key 0, the
 * workload's main metric.
 */
static void synth_set(struct matrix *m, size_t runs, double shift)
{
	memset(m, 0, sizeof(*m));
	m->nr_runs = runs;
	m->sources = calloc(runs, sizeof(*m->sources));
	m->rows = calloc(NR_KEYS, sizeof(*m->rows));
	for (size_t k = 0; k < NR_KEYS; k++) {
		struct matrix_row *r = &m->rows[m->nr_rows++];
		uint64_t saved = rng_state;
		double mean, noise;
		bool share = k >= 100;

		/* the key's shape does not depend on the set: the same seed for both */
		rng_state = 0x9e3779b97f4a7c15ULL * (k + 1);
		mean = share ? 0.05 + 20 * pow(uniform(), 3) : 1000 * (1 + 100 * uniform());
		noise = share ? 0.05 + 0.3 * uniform() : 0.002 + 0.05 * uniform();
		rng_state = saved;
		if (k == 0)
			asprintf(&r->key, "vm-scalability.throughput");
		else if (share)
			asprintf(&r->key, "perf-profile.children.cpu-clock.f%03zu", k);
		else
			asprintf(&r->key, "proc-vmstat.k%03zu", k);
		r->v = calloc(runs, sizeof(*r->v));
		r->present = calloc(runs, sizeof(*r->present));
		for (size_t i = 0; i < runs; i++) {
			double v = mean * (1 + noise * normal()) * (k == 0 ? shift : 1);

			if (share && mean < 1 && uniform() < 0.3)
				continue;	/* not sampled in this run: LKP's filler 0 */
			r->v[i] = v > 0 ? v : 0;
			r->present[i] = true;
		}
	}
	qsort(m->rows, m->nr_rows, sizeof(*m->rows), row_cmp);
}

static void compare(size_t runs, double shift, uint64_t seed, struct compare_result *r,
		    struct matrix m[2], struct compare_col cols[2], size_t *raw_hits)
{
	struct compare_opts o = { .select = { .pp_threshold = 5 }, .alpha = 0.05, .stats = true,
				  .main_metric = "vm-scalability.throughput" };

	rng_state = seed * 0x2545f4914f6cdd1dULL + 1;
	synth_set(&m[0], runs, 1);
	synth_set(&m[1], runs, shift);
	cols[0] = (struct compare_col){ &m[0], "A", NULL };
	cols[1] = (struct compare_col){ &m[1], "A'", NULL };
	compare_build(cols, 2, &o, r);
	*raw_hits = 0;
	for (size_t i = 0; i < r->nr_rows; i++)
		*raw_hits += r->rows[i].cells[1].p < 0.05;
}

static void test_aa(void)
{
	size_t total_raw = 0, total_sig = 0, tested_min = SIZE_MAX;

	for (uint64_t seed = 1; seed <= NR_SEEDS; seed++) {
		for (size_t runs = 3; runs <= 6; runs += 3) {
			struct matrix m[2];
			struct compare_col cols[2];
			struct compare_result r;
			size_t raw;

			compare(runs, 1, seed, &r, m, cols, &raw);
			is_int(r.nr_significant, 0, "A/A seed %llu, %zu runs: no row significant "
			       "after FDR (%zu rows below p 0.05 before it)",
			       (unsigned long long)seed, runs, raw);
			total_raw += raw;
			total_sig += r.nr_significant;
			if (r.nr_tested < tested_min)
				tested_min = r.nr_tested;
			compare_result_release(&r);
			matrix_release(&m[0]);
			matrix_release(&m[1]);
		}
	}
	ok(total_raw > NR_SEEDS, "without the correction, %zu rows would look significant",
	   total_raw);
	ok(tested_min >= NR_KEYS - 10, "every row with a p-value is tested (at least %zu)",
	   tested_min);
	is_int(total_sig, 0, "A/A over %d seeds: nothing significant", NR_SEEDS);
}

static void test_real_change(void)
{
	for (uint64_t seed = 1; seed <= 3; seed++) {
		struct matrix m[2];
		struct compare_col cols[2];
		struct compare_result r;
		size_t raw;

		compare(6, 0.9, seed, &r, m, cols, &raw);
		ok(r.main && r.main->cells[1].q < 0.05 && r.main->listed,
		   "seed %llu: a 10%% drop of the main metric is significant among %zu tests",
		   (unsigned long long)seed, r.nr_tested);
		compare_result_release(&r);
		matrix_release(&m[0]);
		matrix_release(&m[1]);
	}
}

static void test_bh(void)
{
	const double p[] = { 0.001, 0.008, 0.039, 0.041, 0.042, 0.06, 0.074, 0.205, 0.212, 0.216 };
	const double want[] = { 0.01, 0.04, 0.084, 0.084, 0.084, 0.1, 0.074 / 7 * 10, 0.216,
				0.216, 0.216 };
	double q[10], p2[4] = { 0.5, NAN, 0.01, 0.9 }, q2[4];

	is_int(stats_bh_adjust(p, 10, q), 0, "BH adjusts");
	for (int i = 0; i < 10; i++)
		is_double(q[i], want[i], 1e-12, "BH q[%d] = min over larger p of p m / rank", i);
	stats_bh_adjust(p2, 4, q2);
	ok(isnan(q2[1]) && fabs(q2[2] - 0.03) < 1e-12 && fabs(q2[0] - 0.75) < 1e-12 &&
	   fabs(q2[3] - 0.9) < 1e-12, "NaN is not a test: m = 3");
	is_int(stats_bh_adjust(NULL, 0, NULL), 0, "no tests");
}

static void test_drift_and_raw(void)
{
	char buf[64];

	is_int(compare_drift((const double[]){ 1, 2, 3, 4, 5 }, 5), 1, "rising");
	is_int(compare_drift((const double[]){ 4, 3, 2, 1, 0.5 }, 5), -1, "falling");
	is_int(compare_drift((const double[]){ 1, 2, 3, 4 }, 4), 0, "4 runs: no verdict");
	is_int(compare_drift((const double[]){ 1, 2, 2, 4, 5 }, 5), 0, "a tie is no trend");
	is_int(compare_drift((const double[]){ 1, 3, 2, 4, 5 }, 5), 0, "up and down");
	compare_fmt_raw(buf, sizeof(buf), 1351624.95);
	is_str(buf, "1351625", "large values: integers");
	compare_fmt_raw(buf, sizeof(buf), 7.641234567);
	is_str(buf, "7.6412", "5 significant digits");
	compare_fmt_raw(buf, sizeof(buf), 0.98);
	is_str(buf, "0.98", "no trailing zeros");
	compare_fmt_raw(buf, sizeof(buf), 12.0);
	is_str(buf, "12", "no trailing point");
	compare_fmt_raw(buf, sizeof(buf), -0.0000001);
	is_str(buf, "-0.0000001", "small values keep their digits");
	compare_fmt_raw(buf, sizeof(buf), -1e-9);
	is_str(buf, "0", "no -0");
	compare_fmt_raw(buf, sizeof(buf), 0);
	is_str(buf, "0", "zero");
}

/* The main metric is listed with a note even when LKP's rules would hide it. */
static void test_main_metric(void)
{
	struct matrix m[2];
	struct compare_col cols[2];
	struct compare_result r;
	struct compare_opts o = { .select = { .pp_threshold = 5 }, .alpha = 0.05,
				  .main_metric = "vm-scalability.throughput" };
	char *buf = NULL;
	size_t len = 0, raw;
	FILE *fp;

	compare(2, 1, 42, &r, m, cols, &raw);	/* 2 runs: LKP lists nothing */
	compare_result_release(&r);
	compare_build(cols, 2, &o, &r);
	ok(r.main && r.main->listed && !r.main->lkp_listed, "main metric listed, not by LKP");
	fp = open_memstream(&buf, &len);
	compare_write_table(fp, &r, &o);
	fclose(fp);
	ok(strstr(buf, "# vm-scalability.throughput: the workload's main metric, shown although "
		  "LKP's selection would not list it") != NULL, "the table says so");
	free(buf);
	buf = NULL;
	fp = open_memstream(&buf, &len);
	compare_write_json(fp, &r, &o);
	fclose(fp);
	ok(strstr(buf, "\"main_metric\": \"vm-scalability.throughput\"") &&
	   strstr(buf, "\"lkp_selection\": [") && strstr(buf, "\"lkp_listed\": false") &&
	   strstr(buf, "proc-vmstat.k099") && strstr(buf, "cpu-clock.f299"), "JSON: the selection, and every row");
	free(buf);
	compare_result_release(&r);
	matrix_release(&m[0]);
	matrix_release(&m[1]);
}

int main(void)
{
	test_bh();
	test_drift_and_raw();
	test_aa();
	test_real_change();
	test_main_metric();
	return done_testing();
}
