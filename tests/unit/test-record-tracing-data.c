// SPDX-License-Identifier: GPL-2.0
/*
 * synth_tracing_data(): perf's TRACING_DATA payload carries every format whole, and a format
 * that cannot be read fails the payload instead of leaving an empty (or cut) format in it.
 */
#include <stdlib.h>
#include <string.h>

#include "profiler/lib/lib.h"
#include "profiler/record/event-int.h"
#include "profiler/record/record.h"
#include "tests/tap.h"

int main(void)
{
	char *sys[] = { "sched" }, *ev[] = { "sched_switch" }, *bad[] = { "no_such_event_kprof" };
	char *path, *hp, *fmt;
	size_t len = 0, hp_len, fmt_len;
	void *out = NULL;

	if (!tracefs_dir())
		skip_all("no tracefs here (needs root to mount it)");
	is_int(synth_tracing_data(sys, ev, 1, &out, &len), 0, "sched:sched_switch");
	fmt = tracepoint_format("sched", "sched_switch", &fmt_len);
	ok(fmt && out && memmem(out, len, fmt, fmt_len), "its whole format is in the payload");
	free(fmt);
	if (asprintf(&path, "%s/events/header_page", tracefs_dir()) < 0)
		return 1;
	ok(!read_whole_file(path, 0, &hp, &hp_len) && memmem(out, len, hp, hp_len),
	   "header_page whole");
	free(hp);
	free(path);
	free(out);
	out = NULL;
	ok(synth_tracing_data(sys, bad, 1, &out, &len) < 0 && !out,
	   "an event whose format cannot be read fails the payload");
	return done_testing();
}
