// SPDX-License-Identifier: GPL-2.0
/*
 * LKP's sched_debug and latency_stats reductions over texts in the kernel's formats
 * (kernel/sched/debug.c, kernel/latencytop.c); expected values computed by hand.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "profiler/run/run-int.h"
#include "tests/tap.h"

static double get(const struct kv_list *m, const char *key)
{
	const double *v = kv_list_get(m, key);

	return v ? *v : NAN;
}

static const char sched_debug[] =
	"Sched Debug Version: v0.11, 6.18.0 #1\n"
	"ktime                                   : 1234.5\n"
	"sysctl_sched\n"
	"  .sysctl_sched_base_slice                 : 3.000000\n"
	"\n"
	"cpu#0, 2400.000 MHz\n"
	"  .nr_running                    : 1\n"
	"  .nr_switches                   : 100\n"
	"  .curr->pid                     : 42\n"
	"\n"
	"cfs_rq[0]:/autogroup-7\n"
	"  .load                          : 999999\n"
	"\n"
	"cfs_rq[0]:/\n"
	"  .load                          : 1024\n"
	"  .util_avg                      : 10\n"
	"\n"
	"rt_rq[0]:\n"
	"  .rt_nr_running                 : 0\n"
	"\n"
	"runnable tasks:\n"
	" S            task   PID         tree-key  switches  prio     wait-time\n"
	"-------------------------------------------------------------------------\n"
	" S        systemd     1      1.000000      1234   120         0.000000\n"
	"\n"
	"cpu#1, 2400.000 MHz\n"
	"  .nr_running                    : 3\n"
	"  .nr_switches                   : 300\n"
	"  .curr->pid                     : 0\n"
	"\n"
	"cfs_rq[1]:/\n"
	"  .load                          : 3072\n"
	"  .util_avg                      : 30\n"
	"\n"
	"rt_rq[1]:\n"
	"  .rt_nr_running                 : 2\n";

static void test_sched_debug(void)
{
	struct kv_list m = { 0 };

	ok(!sched_debug_parse(sched_debug, &m), "parse");
	is_double(get(&m, "sched_debug.cpu.nr_running.avg"), 2, 1e-12, "cpu: avg over CPUs");
	is_double(get(&m, "sched_debug.cpu.nr_running.max"), 3, 0, "max");
	is_double(get(&m, "sched_debug.cpu.nr_running.min"), 1, 0, "min");
	is_double(get(&m, "sched_debug.cpu.nr_running.stddev"), 1, 1e-12,
		  "population stddev (1 and 3: 1)");
	is_double(get(&m, "sched_debug.cpu.curr->pid.max"), 42, 0, "field names keep ->");
	is_double(get(&m, "sched_debug.cfs_rq:/.load.avg"), 2048, 1e-9,
		  "cfs_rq[N]:/ is cfs_rq:/, the autogroup is skipped");
	is_double(get(&m, "sched_debug.cfs_rq:/.load.stddev"), 1024, 1e-9, "cfs_rq stddev");
	is_double(get(&m, "sched_debug.rt_rq:.rt_nr_running.avg"), 1, 1e-12, "rt_rq:");
	ok(isnan(get(&m, "sched_debug.sysctl_sched.sysctl_sched_base_slice.avg")) &&
	   !kv_list_get(&m, "sched_debug.cpu.S.avg"), "no keys outside the sections");
	is_int((long)m.nr, 6 * 4, "6 fields x {max,min,avg,stddev}");
	kv_list_release(&m);
	ok(!sched_debug_parse("", &m) && m.nr == 0, "empty text: no keys");
}

static void test_latency_stats(void)
{
	struct kv_list m = { 0 };
	static const char text[] =
		"Latency Top version : v0.1\n"
		"10 1000 300 futex_wait_queue_me futex_wait do_futex SyS_futex "
		"entry_SYSCALL_64_fastpath\n"
		"5 4000 2000 futex_wait_queue_me futex_wait do_futex SyS_futex "
		"entry_SYSCALL_64_fastpath extra_frame\n"
		"0 0 0 never_hit\n"
		"2 50 30 pipe_read vfs_read\n";
	const char *chain = "futex_wait_queue_me.futex_wait.do_futex.SyS_futex."
			    "entry_SYSCALL_64_fastpath";
	char key[256];

	ok(!latency_stats_parse(text, &m), "parse");
	snprintf(key, sizeof(key), "latency_stats.sum.%s", chain);
	is_double(get(&m, key), 5000, 0, "back traces sharing the first 5 frames are summed");
	snprintf(key, sizeof(key), "latency_stats.hits.%s", chain);
	is_double(get(&m, key), 15, 0, "hits summed");
	snprintf(key, sizeof(key), "latency_stats.max.%s", chain);
	is_double(get(&m, key), 2000, 0, "max of the maxima");
	snprintf(key, sizeof(key), "latency_stats.avg.%s", chain);
	is_double(get(&m, key), 5000.0 / 15, 1e-9, "avg = sum / hits");
	is_double(get(&m, "latency_stats.avg.pipe_read.vfs_read"), 25, 1e-12, "short chains");
	ok(!kv_list_get(&m, "latency_stats.hits.never_hit"), "no key without hits");
	kv_list_release(&m);
}

int main(void)
{
	test_sched_debug();
	test_latency_stats();
	return done_testing();
}
