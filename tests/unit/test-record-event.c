// SPDX-License-Identifier: GPL-2.0
/* The -e grammar (profiler/record/event.c): names, aliases, modifiers, lists, the cycles fallback. */
#include <string.h>

#include "profiler/record/event-int.h"
#include "tests/tap.h"

static void one(const char *spec, const char *name, unsigned int type, unsigned long long config)
{
	struct event_list l = { 0 };
	char err[256] = "";

	is_int(event_parse(spec, &l, err, sizeof(err)), 0, "'%s' parses", spec);
	if (l.nr == 1) {
		is_str(l.v[0].name, name, "'%s' is named %s", spec, name);
		is_int(l.v[0].attr.type, type, "'%s' type", spec);
		is_u64(l.v[0].attr.config, config, "'%s' config", spec);
	} else {
		ok(0, "'%s' gives one event (%zu)", spec, l.nr);
	}
	event_list_release(&l);
}

static void bad(const char *spec, const char *why)
{
	struct event_list l = { 0 };
	char err[256] = "";

	ok(event_parse(spec, &l, err, sizeof(err)) < 0, "'%s' is rejected", spec);
	ok(strstr(err, why) != NULL, "'%s': message mentions '%s' (%s)", spec, why, err);
	event_list_release(&l);
}

int main(void)
{
	struct event_list l = { 0 };
	char err[256] = "";

	one("cpu-clock", "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK);
	one("cs", "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES);
	one("faults", "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	one("cpu-cycles", "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	one("branches", "branch-instructions", PERF_TYPE_HARDWARE,
	    PERF_COUNT_HW_BRANCH_INSTRUCTIONS);
	one("dTLB-load-misses", "dTLB-load-misses", PERF_TYPE_HW_CACHE,
	    PERF_COUNT_HW_CACHE_DTLB | (PERF_COUNT_HW_CACHE_OP_READ << 8) |
	    (PERF_COUNT_HW_CACHE_RESULT_MISS << 16));

	is_int(event_parse("cycles:ppu", &l, err, sizeof(err)), 0, "cycles:ppu parses");
	is_int(l.v[0].attr.precise_ip, 2, "pp: precise_ip 2");
	ok(l.v[0].attr.exclude_kernel && !l.v[0].attr.exclude_user, "u: user only");
	is_str(l.v[0].name, "cycles:ppu", "the name keeps the modifiers");
	/* perf's fallback: :pp -> :p -> plain -> cpu-clock, keeping :u */
	is_int(event_fallback(&l.v[0]), 0, "fallback 1");
	is_str(l.v[0].name, "cycles:pu", "-> cycles:pu");
	is_int(event_fallback(&l.v[0]), 0, "fallback 2");
	is_str(l.v[0].name, "cycles:u", "-> cycles:u");
	is_int(event_fallback(&l.v[0]), 0, "fallback 3");
	is_str(l.v[0].name, "cpu-clock:u", "-> cpu-clock:u");
	is_int(l.v[0].attr.type, PERF_TYPE_SOFTWARE, "cpu-clock is software");
	ok(l.v[0].attr.exclude_kernel, "still user only");
	ok(event_fallback(&l.v[0]) < 0, "nothing after cpu-clock");
	event_list_release(&l);

	is_int(event_parse("cycles:pp", &l, err, sizeof(err)), 0, "cycles:pp");
	event_fallback(&l.v[0]);
	is_str(l.v[0].name, "cycles:p", "cycles:pp -> cycles:p");
	event_fallback(&l.v[0]);
	is_str(l.v[0].name, "cycles", "cycles:p -> cycles");
	event_list_release(&l);

	is_int(event_parse("page-faults,cs:k", &l, err, sizeof(err)), 0, "a comma list");
	is_int(l.nr, 2, "two events");
	ok(l.nr == 2 && l.v[1].attr.exclude_user, "cs:k is kernel only");
	ok(l.nr == 2 && !event_is_cycles(&l.v[0]), "page-faults is not cycles");
	event_list_release(&l);

	bad("no-such-event", "unknown event");
	bad("cpu-clock:x", "bad modifier");
	bad("cycles:pppp", "bad modifier");
	bad("", "empty");
	return done_testing();
}
