// SPDX-License-Identifier: GPL-2.0
/*
 * metrics.c - the <test>.time.* keys LKP derives from GNU time's report (programs/time/parse),
 * computed here from a wait4() rusage.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "workloads/wl-int.h"

static double tv_sec(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

/* GNU time prints seconds with two decimals; LKP reads back what was printed. */
static double centi(double s)
{
	return floor(s * 100.0) / 100.0;
}

int wl_time_metrics(const char *prefix, const struct rusage *ru, double elapsed_s,
		    int wait_status, struct kv_list *m)
{
	const double user = centi(tv_sec(&ru->ru_utime)), sys = centi(tv_sec(&ru->ru_stime));
	const double elapsed = centi(elapsed_s);
	const struct { const char *key; double v; } keys[] = {
		{ "user_time", user },
		{ "system_time", sys },
		/* GNU time: integer percent of (user + system) over the wall-clock time */
		{ "percent_of_cpu_this_job_got",
		  elapsed > 0 ? floor((user + sys) * 100.0 / elapsed) : 0 },
		{ "elapsed_time", elapsed },
		{ "elapsed_time.max", elapsed },	/* etc/add-max-latency */
		{ "average_shared_text_size", (double)ru->ru_ixrss },
		{ "average_unshared_data_size", (double)ru->ru_idrss },
		{ "average_stack_size", (double)ru->ru_isrss },
		{ "average_total_size", (double)(ru->ru_ixrss + ru->ru_idrss + ru->ru_isrss) },
		{ "maximum_resident_set_size", (double)ru->ru_maxrss },
		{ "average_resident_set_size", 0 },
		{ "major_page_faults", (double)ru->ru_majflt },
		{ "minor_page_faults", (double)ru->ru_minflt },
		{ "voluntary_context_switches", (double)ru->ru_nvcsw },
		{ "involuntary_context_switches", (double)ru->ru_nivcsw },
		{ "swaps", (double)ru->ru_nswap },
		{ "file_system_inputs", (double)ru->ru_inblock },
		{ "file_system_outputs", (double)ru->ru_oublock },
		{ "socket_messages_sent", (double)ru->ru_msgsnd },
		{ "socket_messages_received", (double)ru->ru_msgrcv },
		{ "signals_delivered", (double)ru->ru_nsignals },
		{ "page_size", (double)sysconf(_SC_PAGESIZE) },
		{ "exit_status", WIFEXITED(wait_status) ? WEXITSTATUS(wait_status)
							: 128 + WTERMSIG(wait_status) },
	};
	char key[256];
	int ret = 0;

	for (size_t i = 0; !ret && i < sizeof(keys) / sizeof(keys[0]); i++) {
		snprintf(key, sizeof(key), "%s.time.%s", prefix, keys[i].key);
		ret = kv_list_set(m, key, keys[i].v);
	}
	return ret;
}
