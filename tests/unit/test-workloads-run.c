// SPDX-License-Identifier: GPL-2.0
/*
 * Every usemem case that needs no root, and every aim9 test, run at tiny sizes through the
 * public API: the log has usemem's lines, one per worker and iteration, with the byte
 * accounting of upstream usemem (size/8 credit + 8 bytes per access), and the parsed
 * metrics agree with the lines (workload KB = sum of the workers' bytes / 1024).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/tap.h"
#include "workloads/workloads.h"

struct expect {
	const char	*name;
	int		divisor;	/* per-worker size = U / divisor (0: U itself) */
	bool		prealloc;
};

static char *run_to_text(const struct workload *w, const struct wl_params *p, size_t *len,
			 int *ret)
{
	char err[256] = "";
	FILE *log = tmpfile();
	char *text;
	long n;

	*ret = workload_run(w, p, NULL, log, err, sizeof(err));
	if (*ret)
		diag("%s: %s", workload_name(w), err);
	fflush(log);
	n = ftell(log);
	rewind(log);
	text = calloc(1, (size_t)n + 1);
	*len = fread(text, 1, (size_t)n, log);
	fclose(log);
	return text;
}

static void check_usemem_case(const struct expect *e)
{
	const struct workload *w = workload_find(e->name);
	const long nr = 2, iterations = 2;
	const unsigned long long unit = 4ULL << 20;
	struct wl_params p;
	struct kv_list m = { 0 };
	char err[256], *line, *save = NULL;
	unsigned long long b, bytes, expect_bytes, sum = 0;
	long kbs_lines = 0, free_lines = 0, markers = 0;
	size_t len;
	int ret;

	wl_params_init(&p);
	wl_params_set(&p, "nr_task=2", err, sizeof(err));
	wl_params_set(&p, "unit_size=4M", err, sizeof(err));
	wl_params_set(&p, "runtime=60", err, sizeof(err));
	wl_params_set(&p, "size=8M", err, sizeof(err));	/* two iterations */
	ok(w && !workload_resolve(w, &p, err, sizeof(err)), "%s: resolve", e->name);
	if (!w)
		return;
	char *text = run_to_text(w, &p, &len, &ret);

	is_int(ret, 0, "%s: runs", e->name);
	b = e->divisor ? unit / (unsigned long long)e->divisor : unit;
	expect_bytes = b / 8 + 8 * (b / 8);
	ok(!workload_parse_log(w, text, len, &m), "%s: parse", e->name);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (strstr(line, "./case-"))
			markers++;
		if (strstr(line, " bytes / ") && sscanf(line, "%llu", &bytes) == 1) {
			kbs_lines++;
			sum += bytes;
			if (bytes != expect_bytes)
				diag("%s: %llu bytes, want %llu", e->name, bytes, expect_bytes);
		}
		if (strstr(line, "usecs to free memory"))
			free_lines++;
	}
	is_int(markers, iterations, "%s: one ./case- marker per iteration", e->name);
	is_int(kbs_lines, nr * iterations, "%s: one KB/s line per worker and iteration", e->name);
	is_u64(sum, expect_bytes * nr * iterations, "%s: each worker reports size/8 + 8 * accesses",
	       e->name);
	is_int(free_lines, e->prealloc ? 0 : nr * iterations, "%s: free lines iff own mapping",
	       e->name);
	{
		const double *wl = kv_list_get(&m, "vm-scalability.workload");
		const double *tp = kv_list_get(&m, "vm-scalability.throughput");

		ok(wl && fabs(*wl - (double)sum / 1024) < 0.005,
		   "%s: workload KB = sum of the per-worker bytes / 1024", e->name);
		ok(tp && *tp > 0, "%s: throughput present", e->name);
	}
	kv_list_release(&m);
	free(text);
}

static void check_aim9(const char *name, long factor)
{
	const struct workload *w = workload_find(name);
	struct wl_params p;
	struct kv_list m = { 0 };
	char err[256], test[32];
	double elapsed, rate, ops;
	long count;
	size_t len;
	int ret, no;

	wl_params_init(&p);
	wl_params_set(&p, "testtime=1", err, sizeof(err));
	/* LKP's 4 GiB brk steps do not fit valgrind (test-workloads-exec.c runs them) */
	if (!strcmp(name, "brk_test") || !strcmp(name, "page_test"))
		wl_params_set(&p, "lkp_compat=0", err, sizeof(err));
	ok(w && !workload_resolve(w, &p, err, sizeof(err)), "%s: resolve", name);
	if (!w)
		return;
	char *text = run_to_text(w, &p, &len, &ret);

	is_int(ret, 0, "%s: runs", name);
	ok(sscanf(text, "%d %31s %lf %ld %lf %lf", &no, test, &elapsed, &count, &rate, &ops) == 6,
	   "%s: a singleuser row", name);
	is_str(test, name, "%s: test name in column 2", name);
	ok(count > 0 && fabs(ops - rate * (double)factor) < 0.01 * ops + 0.01,
	   "%s: ops/sec = loops/sec x %ld", name, factor);
	ok(fabs(rate - (double)count / elapsed) < 0.01 * rate + 1e-5,
	   "%s: loops/sec = count / elapsed", name);
	ok(!workload_parse_log(w, text, len, &m), "%s: parse", name);
	snprintf(test, sizeof(test), "aim9.%s.ops_per_sec", name);
	ok(kv_list_get(&m, test) && fabs(*kv_list_get(&m, test) - ops) < 0.006,
	   "%s: %s is the printed ops/sec", name, test);
	kv_list_release(&m);
	free(text);
}

int main(void)
{
	static const struct expect cases[] = {
		{ "anon-w-seq", 2, false },	{ "anon-w-seq-mt", 2, false },
		{ "anon-w-rand", 2, false },	{ "anon-w-rand-mt", 2, false },
		{ "anon-r-seq", 2, false },	{ "anon-r-seq-mt", 2, false },
		{ "anon-cow-seq", 3, true },	{ "anon-cow-rand", 3, true },
		{ "anon-wx-seq-mt", 0, true },	{ "anon-wx-rand-mt", 2, true },
		{ "anon-cow-seq-mt", 0, true },	{ "anon-cow-rand-mt", 0, true },
		{ "anon-r-rand", 2, false },	{ "anon-r-rand-mt", 2, false },
		{ "anon-rx-seq-mt", 0, true },	{ "anon-rx-rand-mt", 2, true },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		check_usemem_case(&cases[i]);
	check_aim9("brk_test", 17000);
	check_aim9("page_test", 1700);
	check_aim9("fork_test", 100);
	check_aim9("exec_test", 5);
	return done_testing();
}
