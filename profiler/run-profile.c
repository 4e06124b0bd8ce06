// SPDX-License-Identifier: GPL-2.0
/*
 * run-profile.c - profiling for `kprof run`. The sampling engine (record_session_*, issue 3)
 * and the perf.data reader are other areas; until they are in this tree, profiling reports
 * itself unavailable and `kprof run` says so and runs with --no-profile.
 */
#include <errno.h>
#include <stdlib.h>

#include "profiler/run-profile-local.h"

bool run_profile_available(void)
{
	return false;
}

int run_profile_start(struct run_profile **out, const char *perf_data, const char *event)
{
	*out = NULL;
	return -EOPNOTSUPP;
}

int run_profile_stop(struct run_profile *rp, const char *dir)
{
	return 0;
}

int run_profile_metrics(struct run_profile *rp, struct wl_metrics *out)
{
	return 0;
}

const char *run_profile_event_used(void)
{
	return NULL;
}

void run_profile_summary(const char *base, FILE *fp)
{
}

void run_profile_free(struct run_profile *rp)
{
}
