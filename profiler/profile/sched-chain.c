// SPDX-License-Identifier: GPL-2.0
/*
 * sched-chain.c - the call chain `perf sched timehist` prints after a sched_switch line.
 *
 * perf 6.1 (builtin-sched.c save_task_callchain, timehist_print_sample): the sample's chain is
 * resolved in the process's main thread with max_stack + 2 entries (max_stack is 5), counting
 * addresses only, not the PERF_CONTEXT_* markers (machine.c thread__resolve_callchain_sample);
 * the symbols schedule, __schedule and preempt_schedule are marked ignored and skipped when
 * printing (EVSEL__PRINT_SKIP_IGNORED), and the rest are printed as "sym <- sym <- ...", an
 * address without a symbol as "[unknown]". So the printed chain starts at the function that
 * called into the scheduler and has at most seven frames (usually five or six).
 */
#include <linux/perf_event.h>
#include <stdbool.h>
#include <string.h>

#include "profiler/perfdata/perfdata.h"
#include "profiler/profile/sched-int.h"

static bool ignored(const char *sym)
{
	return sym && (!strcmp(sym, "schedule") || !strcmp(sym, "__schedule") ||
		       !strcmp(sym, "preempt_schedule"));
}

static void append(char *buf, size_t len, size_t *at, const char *s)
{
	size_t n = strlen(s);

	if (*at + 1 >= len)
		return;
	if (n > len - 1 - *at)
		n = len - 1 - *at;
	memcpy(buf + *at, s, n);
	*at += n;
	buf[*at] = '\0';
}

size_t sched_chain_format(struct sym_session *sym, pid_t pid, const void *words, uint64_t nr,
			  unsigned int max_entries, char *buf, size_t len)
{
	/* perf starts in user mode (cpumode PERF_RECORD_MISC_USER) until a marker says otherwise */
	enum { USER, KERNEL, HV } mode = USER;
	unsigned int entries = 0;
	size_t at = 0, printed = 0;

	if (len)
		buf[0] = '\0';
	for (uint64_t i = 0; i < nr && entries < max_entries; i++) {
		uint64_t ip = pd_u64_at(words, i);
		struct sym_result r;

		if (ip >= PERF_CONTEXT_MAX) {
			if (ip == PERF_CONTEXT_KERNEL)
				mode = KERNEL;
			else if (ip == PERF_CONTEXT_USER)
				mode = USER;
			else if (ip == PERF_CONTEXT_HV)
				mode = HV;
			else
				goto corrupt;	/* perf discards the whole chain */
			continue;
		}
		entries++;
		if (mode == HV || sym_session_resolve(sym, pid, ip, mode == KERNEL, &r) < 0)
			r.sym = NULL;	/* perf has no hypervisor maps */
		if (ignored(r.sym))
			continue;
		if (printed++)
			append(buf, len, &at, " <- ");
		append(buf, len, &at, r.sym ? r.sym : "[unknown]");
	}
	return printed;
corrupt:
	if (len)
		buf[0] = '\0';
	return 0;
}
