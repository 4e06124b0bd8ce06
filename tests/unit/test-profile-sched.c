// SPDX-License-Identifier: GPL-2.0
/*
 * LKP's perf-sched parse rules (sched-lkp.c) on hand-made timehist lines: which lines count,
 * the five-piece key, Ruby's rounding and number printing, the totals and the rule that drops
 * a small chain's wait_and_delay keys. (The whole path against perf and LKP is t3009.)
 */
#include <stdio.h>
#include <string.h>

#include "profiler/profile/profile.h"
#include "profiler/profile/sched-int.h"
#include "tests/tap.h"

static const double *get(const struct kv_list *l, const char *key)
{
	return kv_list_get(l, key);
}

static void add(struct sched_lkp *k, const char *task, const char *wait, const char *delay,
		const char *chain)
{
	char line[512];

	snprintf(line, sizeof(line), "   100.000001 [0001]  %-30s %10s %10s      0.010    %s",
		 task, wait, delay, chain);
	sched_lkp_add_line(k, line);
}

static void test_round(void)
{
	is_double(sched_ruby_round3(0.0015), 0.002, 0, "0.0015.round(3) is 0.002");
	is_double(sched_ruby_round3(1.0005), 1.001, 0, "1.0005.round(3) is 1.001 (Ruby's fix-up)");
	is_double(sched_ruby_round3(0.1234), 0.123, 0, "0.1234.round(3)");
	is_double(sched_ruby_round3(0.0), 0.0, 0, "0.0");
	is_double(sched_ruby_round3(1e-6), 0.0, 0, "too small: 0.0");
}

static void test_format(void)
{
	static const struct { double v; const char *want; } cases[] = {
		{ 0.1, "0.1" }, { 2.0, "2.0" }, { 0.0, "0.0" }, { 123.456, "123.456" },
		{ 0.005, "0.005" }, { 1e-5, "1.0e-05" }, { 1e16, "1.0e+16" }, { 1500.0, "1500.0" },
		{ 0.0001, "0.0001" },
	};
	char buf[64];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		sched_lkp_format("wait_time.max.ms.x", cases[i].v, buf, sizeof(buf));
		is_str(buf, cases[i].want, "Float#to_s of %g", cases[i].v);
	}
	sched_lkp_format("perf-sched.wait_and_delay.count.a.b", 42, buf, sizeof(buf));
	is_str(buf, "42", "counts are integers");
	sched_lkp_format("perf-sched.total_wait_and_delay.count.ms", 7, buf, sizeof(buf));
	is_str(buf, "7", "the total count too");
}

static void test_keys(void)
{
	struct sched_lkp *k = sched_lkp_new();
	struct kv_list l = { 0 };
	const double *v;

	/* 400 waits of 1 ms in a deep chain: the key is its first five pieces */
	for (int i = 0; i < 400; i++)
		add(k, "a[10]", "1.000", "0.002", "pipe_read <- vfs_read <- ksys_read <- "
		    "do_syscall_64 <- entry_SYSCALL_64_after_hwframe <- [unknown]");
	/* one short wait in a chain with a dotted symbol: cut after five pieces */
	add(k, "b[11]", "0.000", "0.001", "schedule_hrtimeout_range_clock <- "
	    "poll_schedule_timeout.constprop.0 <- do_sys_poll <- __x64_sys_poll");
	/* not counted: no " <- " (one frame, or idle) */
	add(k, "c[12]", "9.000", "9.000", "worker_thread");
	add(k, "<idle>", "9.000", "9.000", "");
	is_int(sched_lkp_keys(k, "perf-sched.", &l), 0, "keys");
	v = get(&l, "perf-sched.total_wait_and_delay.count.ms");
	ok(v && *v == 401, "401 lines counted (one-frame and idle lines are not)");
	v = get(&l, "perf-sched.wait_time.avg.ms.pipe_read.vfs_read.ksys_read.do_syscall_64."
		"entry_SYSCALL_64_after_hwframe");
	ok(v && *v == 1.0, "wait_time.avg of the five-frame key");
	v = get(&l, "perf-sched.wait_and_delay.max.ms.pipe_read.vfs_read.ksys_read."
		"do_syscall_64.entry_SYSCALL_64_after_hwframe");
	ok(v && *v == 1.002, "wait_and_delay = wait + delay");
	ok(get(&l, "perf-sched.sch_delay.max.ms.schedule_hrtimeout_range_clock."
	       "poll_schedule_timeout.constprop.0.do_sys_poll") != NULL,
	   "a dotted symbol counts as several pieces, as in LKP");
	ok(!get(&l, "perf-sched.wait_and_delay.count.schedule_hrtimeout_range_clock."
		"poll_schedule_timeout.constprop.0.do_sys_poll"),
	   "below average and < 0.5%% of the lines: no wait_and_delay keys");
	ok(get(&l, "perf-sched.wait_time.max.ms.schedule_hrtimeout_range_clock."
	       "poll_schedule_timeout.constprop.0.do_sys_poll") != NULL,
	   "but its wait_time keys stay");
	v = get(&l, "perf-sched.total_sch_delay.average.ms");
	ok(v && *v == 0.002, "total_sch_delay.average (401 delays, rounded)");
	ok(!get(&l, "perf-sched.wait_time.max.ms.worker_thread"), "no key for a one-frame chain");
	is_int(l.nr, 7 + 7 + 4, "7 total keys, 7 for the big chain, 4 for the small one");
	kv_list_release(&l);
	sched_lkp_free(k);

	k = sched_lkp_new();
	is_int(sched_lkp_keys(k, "", &l), 0, "no lines: no error");
	is_int(l.nr, 0, "and no keys");
	sched_lkp_free(k);
	sched_lkp_free(NULL);
}

int main(void)
{
	test_round();
	test_format();
	test_keys();
	return done_testing();
}
