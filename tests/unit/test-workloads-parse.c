// SPDX-License-Identifier: GPL-2.0
/*
 * LKP's vm-scalability and aim9 parsers over log text, the k=v parameters, path_params and
 * the GNU-time keys. Expected values are computed by hand from LKP's formulas
 * (../shared/spec/lkp-metrics.md §4.1-4.3).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "tests/tap.h"
#include "workloads/workloads.h"

static double get(const struct kv_list *m, const char *key)
{
	const double *v = kv_list_get(m, key);

	return v ? *v : NAN;
}

static void parse(const char *text, struct kv_list *m)
{
	kv_list_release(m);
	ok(!vmscal_parse(text, strlen(text), m), "vmscal_parse ok");
}

static void test_single_iteration(void)
{
	struct kv_list m = { 0 };

	/* one ./case marker: stddev% is n times the relative stddev of the workers (sic) */
	parse("2024-06-20 10:10:10  ./case-anon-w-seq\n"
	      "2024-06-20 10:10:10  ./usemem --runtime 300 -n 2 100\n"
	      "603979776 bytes / 4375777 usecs = 134792 KB/s\n"
	      "51685 usecs to free memory\n"
	      "603979776 bytes / 4175777 usecs = 141248 KB/s\n"
	      "61685 usecs to free memory\n", &m);
	is_double(get(&m, "throughput"), 276040, 0, "throughput = sum of the workers' KB/s");
	is_double(get(&m, "median"), 141248, 0, "median = upper median");
	/* sigma = 3228, mean = 138020, n = 2: 100 * 3228 * 2 / 138020 = 4.67758 (%g) */
	is_double(get(&m, "stddev%"), 4.67758, 0, "single-iteration stddev%% as LKP prints it");
	ok(isnan(get(&m, "median_stddev%")) || get(&m, "median_stddev%") == 0,
	   "median_stddev%% is 0 with one iteration");
	is_double(get(&m, "free_time"), 0.056685, 1e-12, "free_time = mean of the free lines");
	is_double(get(&m, "workload"), 2 * 603979776.0 / 1024, 0, "workload = bytes / 1024");
	kv_list_release(&m);
}

static void test_iterations(void)
{
	struct kv_list m = { 0 };

	parse("./case-anon-w-rand-mt\n"
	      "100 bytes / 1 usecs = 10 KB/s\n"
	      "100 bytes / 1 usecs = 30 KB/s\n"
	      "100 bytes / 1 usecs = 20 KB/s\n"
	      "./case-anon-w-rand-mt\n"
	      "..200 bytes / 1 usecs = 40 KB/s\n"
	      "200 bytes / 1 usecs = 50 KB/s\n", &m);
	/* iteration sums 60 and 90; medians sorted[3/2] = 20, sorted[2/2] = 50 */
	is_double(get(&m, "throughput"), 75, 0, "throughput = mean of the iteration sums");
	is_double(get(&m, "median"), 35, 0, "median = mean of the upper medians");
	is_double(get(&m, "stddev%"), 20, 0, "stddev%% over iterations (population)");
	/* sigma(20, 50) = 15, mean 35: 42.8571 */
	is_double(get(&m, "median_stddev%"), 42.8571, 0, "median_stddev%% (%%g)");
	is_double(get(&m, "workload"), 700.0 / 1024, 0.005, "workload over all iterations");
	ok(isnan(get(&m, "free_time")), "no free_time without free lines");
	kv_list_release(&m);
}

static void test_truncate_lines(void)
{
	struct kv_list m = { 0 };

	parse("./case-truncate-seq\n"
	      "1073741824 bytes faulted in 12.5-10.5 seconds\n"
	      "1073741824 bytes truncated in 20.25-20.0 seconds\n", &m);
	is_double(get(&m, "throughput"), 4194304, 0, "truncated: (bytes >> 10) / seconds");
	is_double(get(&m, "throughput_fault"), 524288, 0, "faulted: the _fault series");
	is_double(get(&m, "workload"), 1048576, 0, "faulted bytes are not in workload");
	is_double(get(&m, "stddev%"), 0, 0, "one worker: stddev 0");
	kv_list_release(&m);
}

static void test_no_values(void)
{
	struct kv_list m = { 0 };

	parse("./case-anon-w-seq\nusemem: mmap failed: Cannot allocate memory\n", &m);
	is_int(m.nr, 0, "a log without result lines gives no metrics (never a zero)");
	kv_list_release(&m);
}

static void test_aim9(void)
{
	static const char text[] =
		"     1 tcp_test           300.00      58982  196.60667        17694.60 "
		"TCP/IP Messages/second\n"
		"Test Elapsed Iteration\n"
		"     2 brk_test       Skipping to next test.\n";
	struct kv_list m = { 0 };

	ok(!aim9_parse(text, sizeof(text) - 1, &m), "aim9_parse ok");
	is_double(get(&m, "tcp_test.ops_per_sec"), 17694.60, 1e-9,
		  "field 6 of the row (LKP fixture)");
	is_double(get(&m, "brk_test.skip"), 1, 0, "a Skipping row gives <test>.skip");
	is_int(m.nr, 2, "nothing else");
	kv_list_release(&m);
}

static void test_params(void)
{
	const struct workload *w = workload_find("anon-w-seq-mt");
	struct wl_params p;
	char err[256], buf[256];

	wl_params_init(&p);
	ok(w != NULL, "anon-w-seq-mt is registered");
	ok(!wl_params_set(&p, "size=8T", err, sizeof(err)) && p.size == 8ULL << 40,
	   "size=8T is 8 << 40 (lib/unit.rb)");
	ok(!wl_params_set(&p, "unit_size=1.5G", err, sizeof(err)) && p.unit_size == 3ULL << 29,
	   "fractions with suffixes");
	ok(!wl_params_set(&p, "runtime=300s", err, sizeof(err)) && p.runtime == 300,
	   "runtime takes an s suffix");
	ok(!wl_params_set(&p, "nr_task=4", err, sizeof(err)) && p.nr_task == 4, "nr_task");
	ok(wl_params_set(&p, "bogus=1", err, sizeof(err)) < 0 && strstr(err, "bogus"),
	   "unknown key is an error naming it");
	ok(wl_params_set(&p, "size=12Q", err, sizeof(err)) < 0, "bad suffix is an error");
	ok(wl_params_set(&p, "nr_task", err, sizeof(err)) < 0, "a key without value is an error");
	ok(wl_params_set(&p, "thp=sometimes", err, sizeof(err)) < 0, "bad thp value");
	ok(!wl_params_set(&p, "thp=always", err, sizeof(err)), "thp=always");
	ok(!workload_resolve(w, &p, err, sizeof(err)), "resolve");
	ok(!workload_path_params(w, &p, buf, sizeof(buf)), "path_params");
	is_str(buf, "4-300s-8T-always-1536M", "values sorted by parameter name, joined by '-'");

	wl_params_init(&p);
	ok(!workload_resolve(workload_find("brk_test"), &p, err, sizeof(err)) && p.runtime == 5,
	   "aim9 default testtime");
	ok(!wl_params_set(&p, "nr_task=2", err, sizeof(err)) &&
	   workload_resolve(workload_find("brk_test"), &p, err, sizeof(err)) < 0,
	   "aim9 refuses nr_task");
}

static void test_time_keys(void)
{
	struct rusage ru = { .ru_utime = { 1, 250000 }, .ru_stime = { 0, 759999 },
			     .ru_minflt = 1234, .ru_maxrss = 5678 };
	struct kv_list m = { 0 };

	ok(!wl_time_metrics("vm-scalability", &ru, 4.019, 0, &m), "wl_time_metrics");
	is_double(get(&m, "vm-scalability.time.user_time"), 1.25, 1e-9, "user_time");
	is_double(get(&m, "vm-scalability.time.system_time"), 0.75, 1e-9,
		  "system_time with GNU time's two decimals");
	is_double(get(&m, "vm-scalability.time.elapsed_time"), 4.01, 1e-9, "elapsed_time");
	is_double(get(&m, "vm-scalability.time.percent_of_cpu_this_job_got"), 49, 0,
		  "percent = (user + sys) / elapsed, integer");
	is_double(get(&m, "vm-scalability.time.minor_page_faults"), 1234, 0, "minor faults");
	is_double(get(&m, "vm-scalability.time.maximum_resident_set_size"), 5678, 0, "max RSS");
	is_double(get(&m, "vm-scalability.time.exit_status"), 0, 0, "exit status");
	kv_list_release(&m);
}

int main(void)
{
	test_single_iteration();
	test_iterations();
	test_truncate_lines();
	test_no_values();
	test_aim9();
	test_params();
	test_time_keys();
	return done_testing();
}
