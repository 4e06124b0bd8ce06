// SPDX-License-Identifier: GPL-2.0
/*
 * The workload programs' command lines: usemem's (formatted by the runner, parsed back by the
 * usemem program), the controller's argv for vm-scalability / singleuser, the lkp_compat and
 * fs parameters, the MemAvailable sizing of anon-r-seq, and LKP's brk_test shrink; usemem's
 * -j stride and -e per-page delay as upstream's loop does them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/tap.h"
#include "workloads/wl-int.h"

/* Run @w in this process; its log as a string (tmpfile: log lines are write()s to its fd). */
static char *run_text(const struct workload *w, const struct wl_params *p, int *ret)
{
	char err[256] = "", *text;
	FILE *log = tmpfile();
	long n;

	*ret = workload_run(w, p, NULL, log, err, sizeof(err));
	if (*ret)
		diag("%s: %s", workload_name(w), err);
	n = ftell(log);
	rewind(log);
	text = calloc(1, (size_t)(n > 0 ? n : 0) + 1);
	if (text && fread(text, 1, (size_t)(n > 0 ? n : 0), log) != (size_t)n)
		text[0] = '\0';
	fclose(log);
	return text;
}

static int split(char *line, char **argv, int max)
{
	int n = 0;

	argv[n++] = "usemem";
	for (char *save = NULL, *t = strtok_r(line, " ", &save); t && n < max - 1;
	     t = strtok_r(NULL, " ", &save))
		argv[n++] = t;
	argv[n] = NULL;
	return n;
}

static void test_usemem_args(void)
{
	struct usemem_opts o = {
		.bytes = 134217728, .nr_thread = 4, .runtime = 300,
		.flags = WL_UM_THREADS | WL_UM_PREALLOC | WL_UM_PREFAULT | WL_UM_RANDOM,
		.seed_set = true, .seed = 42, .thp = WL_THP_NEVER,
	}, back;
	char line[512], err[256] = "", *argv[32];
	int argc;

	ok(!usemem_format_args(&o, line, sizeof(line)), "format");
	is_str(line, "--runtime 300 -t 4 --prealloc --prefault --random --random-seed 42 "
	       "--thp never 134217728", "the case script's usemem line (+ kprof's options)");
	argc = split(line, argv, 32);
	ok(!usemem_parse_args(argc, argv, &back, err, sizeof(err)), "parse it back: %s", err);
	ok(back.bytes == o.bytes && back.nr_thread == 4 && back.nr_task == 0 &&
	   back.runtime == 300 && back.seed_set && back.seed == 42 && back.thp == WL_THP_NEVER &&
	   (back.flags & ~WL_UM_THREADS) == (o.flags & ~WL_UM_THREADS), "round trip");

	o = (struct usemem_opts){ .bytes = 4096, .nr_task = 2, .runtime = 5,
				  .flags = WL_UM_HUGETLB | WL_UM_READONLY };
	ok(!usemem_format_args(&o, line, sizeof(line)), "format hugetlb");
	is_str(line, "--runtime 5 -n 2 --readonly -O -U 4096", "-O -U as setup_hugetlb's cases");
	argc = split(line, argv, 32);
	ok(!usemem_parse_args(argc, argv, &back, err, sizeof(err)) &&
	   back.flags == o.flags && back.nr_task == 2, "hugetlb round trip");

	strcpy(line, "-O 4096");
	argc = split(line, argv, 32);
	ok(usemem_parse_args(argc, argv, &back, err, sizeof(err)) < 0 && strstr(err, "-U"),
	   "-O without -U is refused: %s", err);
	strcpy(line, "-n 2 --bogus 4096");
	argc = split(line, argv, 32);
	ok(usemem_parse_args(argc, argv, &back, err, sizeof(err)) < 0 && strstr(err, "bogus"),
	   "unknown option named: %s", err);
	strcpy(line, "-n 2 12k");
	argc = split(line, argv, 32);
	ok(usemem_parse_args(argc, argv, &back, err, sizeof(err)) < 0, "size in bytes only");
	strcpy(line, "-n 0 4096");
	argc = split(line, argv, 32);
	ok(usemem_parse_args(argc, argv, &back, err, sizeof(err)) < 0, "-n 0 refused");
}

/* -j and -e: upstream's units (memparse sizes, time_parse u/m), formatted back in bytes / ns */
static void test_usemem_step_delay_args(void)
{
	static const struct {
		const char	*line;
		uint64_t	step, delay_ns;
	} good[] = {
		{ "-j 4k -e 10u 4096", 4096, 10000 },
		{ "--step 2M --delay 3m 4096", 2 << 20, 3000000 },
		{ "-j 1t -e 999999999 4096", 1ull << 40, 999999999 },
		{ "-j 24 4096", 24, 0 },
	};
	static const char *const bad[] = {
		"-e 1000000000 4096",	/* upstream's loop would never end */
		"-e 1000m 4096", "-e 5s 4096", "-e 10uu 4096", "-j 2t 4096", "-j 3x 4096",
		"-j -8 4096", "-j 99999999999999999999k 4096",
	};
	struct usemem_opts o, back;
	char line[256], err[256], *argv[32];
	int argc, ret;

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		strcpy(line, good[i].line);
		argc = split(line, argv, 32);
		err[0] = '\0';
		ret = usemem_parse_args(argc, argv, &o, err, sizeof(err));
		ok(!ret && o.step == good[i].step && o.delay_ns == good[i].delay_ns,
		   "'%s': step %llu, delay %llu ns %s", good[i].line, (unsigned long long)o.step,
		   (unsigned long long)o.delay_ns, err);
		o.nr_task = 1;
		ok(!usemem_format_args(&o, line, sizeof(line)), "format it");
		argc = split(line, argv, 32);
		ok(!usemem_parse_args(argc, argv, &back, err, sizeof(err)) &&
		   back.step == o.step && back.delay_ns == o.delay_ns, "round trip");
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		strcpy(line, bad[i]);
		argc = split(line, argv, 32);
		err[0] = '\0';
		ok(usemem_parse_args(argc, argv, &o, err, sizeof(err)) == -EINVAL &&
		   (strstr(err, "--step") || strstr(err, "--delay")), "'%s' refused: %s", bad[i],
		   err);
	}
}

/* One usemem run in this process; its "N bytes / N usecs" line. */
static bool usemem_line(const struct usemem_opts *o, unsigned long long *bytes,
			unsigned long long *usecs)
{
	char err[256] = "", buf[512] = "";
	FILE *log = tmpfile();
	bool got = false;
	int ret;

	if (!log)
		return false;
	ret = usemem_run(o, log, err, sizeof(err));
	rewind(log);
	while (!ret && fgets(buf, sizeof(buf), log)) {
		unsigned long long b, u;

		if (sscanf(buf, "%llu bytes / %llu usecs", &b, &u) == 2) {
			*bytes = b;
			*usecs = u;
			got = true;
		}
	}
	fclose(log);
	if (ret)
		diag("usemem: %s", err);
	return got;
}

/*
 * The accounting shows how many words the loop touched: size/8 credit + 8 per access. With
 * -j 4096 one word per page, sequentially or at as many random indices; -j below 8 is 8, as
 * upstream's `if (step < sizeof(long))`; -e spends at least its delay on every new page.
 */
static void test_usemem_step_delay_run(void)
{
	const uint64_t size = 1 << 20;
	struct usemem_opts o = { .bytes = size, .nr_task = 1, .runtime = 60 };
	unsigned long long bytes = 0, usecs = 0;
	bool got;

	got = usemem_line(&o, &bytes, &usecs);
	ok(got && bytes == size / 8 + size,
	   "no -j: every word (%llu bytes)", bytes);
	o.step = 4096;
	got = usemem_line(&o, &bytes, &usecs);
	ok(got && bytes == size / 8 + size / 4096 * 8,
	   "-j 4096: one word per page (%llu bytes)", bytes);
	o.flags = WL_UM_RANDOM;
	o.seed_set = true;
	got = usemem_line(&o, &bytes, &usecs);
	ok(got && bytes == size / 8 + size / 4096 * 8,
	   "-j 4096 --random: as many random words (%llu bytes)", bytes);
	o = (struct usemem_opts){ .bytes = size, .nr_task = 1, .runtime = 60, .step = 3 };
	got = usemem_line(&o, &bytes, &usecs);
	ok(got && bytes == size / 8 + size,
	   "-j 3 is -j 8 (%llu bytes)", bytes);
	o = (struct usemem_opts){ .bytes = 16 * 4096, .nr_task = 1, .runtime = 60, .step = 4096,
				  .delay_ns = 2000000 };
	got = usemem_line(&o, &bytes, &usecs);
	ok(got && bytes == 16 * 4096 / 8 + 16 * 8 &&
	   usecs >= 16 * 2000, "-e 2m on 16 pages: at least 32 ms (%llu usecs)", usecs);
}

static char *joined(char **argv)
{
	static char buf[2048];
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; argv && argv[i]; i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s", i ? " " : "", argv[i]);
	return buf;
}

static void test_argv(void)
{
	const struct workload *w = workload_find("anon-w-seq");
	struct wl_params p;
	char err[256], **argv = NULL;

	wl_params_init(&p);
	wl_params_set(&p, "nr_task=3", err, sizeof(err));
	wl_params_set(&p, "unit_size=96M", err, sizeof(err));
	wl_params_set(&p, "seed=7", err, sizeof(err));
	ok(!workload_resolve(w, &p, err, sizeof(err)), "resolve");
	ok(!workload_argv(w, &p, NULL, "/opt/k", 5, 6, 7, &argv), "argv");
	is_str(joined(argv), "/opt/k/vm-scalability --go 5 --ctl 6,7 anon-w-seq nr_task=3 "
	       "runtime=10 size=301989888 unit_size=100663296 seed=7",
	       "every parameter explicit: the program cannot pick another default");
	workload_argv_free(argv);

	w = workload_find("brk_test");
	wl_params_init(&p);
	ok(!workload_resolve(w, &p, err, sizeof(err)) &&
	   !workload_argv(w, &p, NULL, "/b", 3, -1, -1, &argv), "brk_test argv");
	is_str(joined(argv), "/b/singleuser --go 3 brk_test testtime=5 lkp_compat=1",
	       "singleuser, LKP's brk behaviour by default");
	workload_argv_free(argv);
	workload_argv_free(NULL);
}

static void test_params(void)
{
	const struct workload *brk = workload_find("brk_test"), *trunc = workload_find("truncate");
	struct wl_params p;
	char err[256], buf[256];

	wl_params_init(&p);
	ok(p.lkp_compat && p.fs == WL_FS_XFS, "defaults: lkp_compat=1, fs=xfs");
	ok(!wl_params_set(&p, "lkp_compat=0", err, sizeof(err)) && !p.lkp_compat, "lkp_compat=0");
	ok(!workload_resolve(brk, &p, err, sizeof(err)) &&
	   !workload_path_params(brk, &p, buf, sizeof(buf)), "brk_test lkp_compat=0");
	is_str(buf, "0-5s", "lkp_compat in path_params when given");
	ok(workload_resolve(workload_find("fork_test"), &p, err, sizeof(err)) < 0 &&
	   strstr(err, "only testtime"), "fork_test has no lkp_compat: %s", err);
	ok(wl_params_set(&p, "lkp_compat=2", err, sizeof(err)) < 0, "lkp_compat is 0 or 1");

	wl_params_init(&p);
	ok(wl_params_set(&p, "fs=btrfs", err, sizeof(err)) < 0, "fs: xfs or ext4");
	ok(!wl_params_set(&p, "fs=ext4", err, sizeof(err)) && p.fs == WL_FS_EXT4, "fs=ext4");
	ok(workload_resolve(workload_find("anon-w-seq"), &p, err, sizeof(err)) < 0,
	   "fs= only for truncate");
	ok(!workload_resolve(trunc, &p, err, sizeof(err)) &&
	   !workload_path_params(trunc, &p, buf, sizeof(buf)), "truncate fs=ext4");
	is_str(buf, "ext4-2-10s-6G-2G", "fs in path_params when given");

	wl_params_init(&p);
	wl_params_set(&p, "nr_task=2", err, sizeof(err));
	ok(!workload_resolve(workload_find("anon-r-seq"), &p, err, sizeof(err)) &&
	   !workload_path_params(workload_find("anon-r-seq"), &p, buf, sizeof(buf)),
	   "anon-r-seq");
	is_str(buf, "2-10s-once", "sized from MemAvailable: no unit_size in path_params");
}

/* The usemem line anon-r-seq's case script would run here: PTE_LIMIT / N, as hw_vars. */
static void test_pte_sizing(void)
{
	const struct workload *w = workload_find("anon-r-seq-mt");
	struct wl_params p;
	char err[256], *text, line[128];
	unsigned long long bytes = 0, want = 0;
	FILE *mi;
	int ret;

	wl_params_init(&p);
	wl_params_set(&p, "nr_task=2", err, sizeof(err));
	wl_params_set(&p, "runtime=1", err, sizeof(err));
	ok(!workload_resolve(w, &p, err, sizeof(err)), "resolve anon-r-seq-mt");
	text = run_text(w, &p, &ret);
	ok(!ret, "runs");
	mi = fopen("/proc/meminfo", "r");
	while (mi && fgets(line, sizeof(line), mi))
		if (sscanf(line, "MemAvailable: %llu", &want) == 1)
			break;
	if (mi)
		fclose(mi);
	want = (want << 18) / 2;	/* (kB << 10 << 8) / N */
	ok(text && strstr(text, "--readonly ") &&
	   sscanf(strstr(text, "--readonly ") + 11, "%llu", &bytes) == 1, "the usemem line");
	ok(bytes > want * 9 / 10 && bytes < want * 11 / 10,
	   "per-thread size %llu ~ 256 x MemAvailable / 2 = %llu", bytes, want);
	free(text);
}

/* brk_test's shrink as LKP's binary does it: the break only grows within a call. */
static void test_brk_compat(void)
{
	const struct workload *w = workload_find("brk_test");
	struct wl_params p;
	char err[256], *text;
	int ret;

	wl_params_init(&p);
	wl_params_set(&p, "testtime=1", err, sizeof(err));
	ok(!workload_resolve(w, &p, err, sizeof(err)), "resolve");
	text = run_text(w, &p, &ret);
	ok(!ret, "LKP brk_test runs");
	ok(text && strstr(text, "brk_test"), "its row");
	free(text);
	ok(aim9_brk_shrink(true) == 0xffff0000L, "LKP's shrink is +4 GiB - 64 KiB");
	ok(aim9_brk_shrink(false) == -65536, "lkp_compat=0: -64 KiB");
	/* one call by hand: the break after it is back where it was */
	{
		void *before = sbrk(0);

		ok(!aim9_brk_test(3), "aim9_brk_test(3)");
		ok(sbrk(0) == before, "brk(oldbrk) restores the break");
	}
}

/* Valgrind cannot give a client terabytes of address space (its own limit, not a bug here). */
static bool under_valgrind(void)
{
	const char *pre = getenv("LD_PRELOAD");

	return pre && strstr(pre, "vgpreload");
}

int main(void)
{
	test_usemem_args();
	test_usemem_step_delay_args();
	test_usemem_step_delay_run();
	test_argv();
	test_params();
	if (under_valgrind()) {
		skip(11, "valgrind: no room for terabyte mappings and 4 GiB brk steps");
		return done_testing();
	}
	test_pte_sizing();
	test_brk_compat();
	return done_testing();
}
