// SPDX-License-Identifier: GPL-2.0
/*
 * run-sched.c - LKP's perf-sched monitor for `kprof run`: what `perf sched record -g` records
 * (every CPU, period 1, call chains), over the measured phase, into perf-sched.data in the run
 * directory; then the perf-sched.* keys of `perf sched timehist` + LKP's parse
 * (profile/sched-*.c, docs/sched.md).
 *
 * Of perf sched record's events only those timehist uses are recorded: sched_switch,
 * sched_waking (sched_wakeup on kernels without it) and sched_wakeup_new. LKP records a 5-s
 * window starting at a quarter of the runtime; kprof's runs are seconds long, so the whole
 * measured phase (docs/run.md). Failing to start is not fatal: one line, no keys.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profiler/lib/lib.h"
#include "profiler/profile/profile.h"
#include "profiler/record/record.h"
#include "profiler/run/run.h"

#define SCHED_MMAP_PAGES	1024	/* perf sched record's -m 1024: few lost events */

struct run_sched {
	struct record_session	*rec;
	char			*path;
};

void run_sched_free(struct run_sched *rs)
{
	if (!rs)
		return;
	record_session_abort(rs->rec);
	free(rs->path);
	free(rs);
}

int run_sched_start(struct run_sched **out, const char *dir)
{
	const char *events[3] = { "sched:sched_switch", "sched:sched_waking",
				  "sched:sched_wakeup_new" };
	struct record_opts o = {
		.system_wide = true,
		.events = events,
		.nr_events = 3,
		.period = 1,
		.callgraph = true,
		.mmap_pages = SCHED_MMAP_PAGES,
	};
	struct run_sched *rs = calloc(1, sizeof(*rs));
	char err[512] = "";
	int ret;

	*out = NULL;
	if (!rs || asprintf(&rs->path, "%s/perf-sched.data", dir) < 0) {
		free(rs);
		pr_warn("perf-sched monitor: out of memory: no perf-sched keys");
		return -ENOMEM;
	}
	o.output = rs->path;
	/* kernels before 4.3 have no sched_waking: timehist then uses sched_wakeup */
	if (record_check_events(&events[1], 1, err, sizeof(err)) == -EINVAL)
		events[1] = "sched:sched_wakeup";
	err[0] = '\0';
	ret = record_check_events(events, 3, err, sizeof(err));
	if (!ret)
		ret = record_session_start(&o, &rs->rec, err, sizeof(err));
	if (ret) {
		pr_warn("perf-sched monitor: %s: no perf-sched keys (kprof run --no-sched turns it "
			"off)", err[0] ? err : strerror(-ret));
		run_sched_free(rs);
		return ret;
	}
	*out = rs;
	return 0;
}

int run_sched_stop(struct run_sched *rs, struct kv_list *out)
{
	struct sched_stats st;
	struct record_stats rst = { 0 };
	char err[512] = "", *ksyms = NULL;
	int ret;

	if (!rs)
		return 0;
	ret = record_session_stop(rs->rec, &rst);
	rs->rec = NULL;
	free(rst.event_used);
	if (ret) {
		pr_warn("perf-sched monitor: %s: %s: no perf-sched keys", rs->path, strerror(-ret));
		run_sched_free(rs);
		return 0;
	}
	ret = sched_lkp_file(rs->path, NULL, "perf-sched.", out, &st, err, sizeof(err));
	if (ret == -ENOMEM) {
		run_sched_free(rs);
		return ret;
	}
	if (ret)
		pr_warn("perf-sched monitor: %s: %s: no perf-sched keys", rs->path,
			err[0] ? err : strerror(-ret));
	else if (st.lost)
		pr_warn("perf-sched monitor: %s: %llu LOST records: the keys miss those events, "
			"as perf's would", rs->path, (unsigned long long)st.lost);
	/* the keys are made; the run's perf.data.kallsyms names the kernel if it is read again */
	if (asprintf(&ksyms, "%s.kallsyms", rs->path) >= 0) {
		unlink(ksyms);
		free(ksyms);
	}
	run_sched_free(rs);
	return 0;
}
