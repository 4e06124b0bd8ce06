/* SPDX-License-Identifier: GPL-2.0 */
/*
 * event-int.h - the `-e` grammar of kprof record/stat, perf's names and meanings:
 *
 *   software:   cpu-clock task-clock page-faults|faults minor-faults major-faults
 *               context-switches|cs cpu-migrations|migrations
 *   hardware:   cycles|cpu-cycles instructions cache-references cache-misses
 *               branch-instructions|branches branch-misses
 *   hw cache:   dTLB-loads dTLB-load-misses dTLB-stores dTLB-store-misses iTLB-loads
 *               iTLB-load-misses node-loads node-load-misses node-stores node-store-misses
 *   tracepoint: SUBSYS:NAME, with shell globs in either part (sched:*, syscalls:sys_enter_*)
 *   modifiers:  :u (user only) :k (kernel only) :p :pp :ppp (precise_ip 1..3), combinable
 *
 * Parsing fills only the identity of an event (type, config, exclude_*, precise_ip); sampling
 * and read formats are the caller's. Libperf-free (only <linux/perf_event.h>).
 */
#ifndef KPROF_EVENT_INT_H
#define KPROF_EVENT_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/perf_event.h>

struct event_spec {
	char			*name;		/* perf's: "cycles:pp" (owned) */
	struct perf_event_attr	attr;		/* type, config, exclude_*, precise_ip */
	bool			tracepoint;
	char			*tp_system;	/* tracepoints only; owned */
	char			*tp_event;
};

struct event_list {
	struct event_spec	*v;		/* owned, nr entries */
	size_t			nr;
};

/*
 * Parse one -e argument (a comma-separated list is accepted too) and append its events to
 * @l; tracepoint globs expand to every matching tracepoint. 0, or -errno with a one-line
 * reason in @err (unknown event, bad modifier, no tracefs, glob matching nothing).
 */
int event_parse(const char *spec, struct event_list *l, char *err, size_t errlen);
/* Append a copy of *@e (its strings change owner); 0 / -ENOMEM. */
int event_list_push(struct event_list *l, const struct event_spec *e);
void event_list_release(struct event_list *l);	/* frees entries; the list is reusable */

/* True for PERF_TYPE_HARDWARE cycles (any modifiers): the events that may fall back. */
bool event_is_cycles(const struct event_spec *e);
/*
 * The next event to try when @e cannot be opened, perf's evsel__fallback order:
 * cycles:ppp -> cycles:pp -> cycles:p -> cycles -> cpu-clock (same :u/:k). 0 and @e changed
 * in place, or -ENOENT when there is nothing left to try.
 */
int event_fallback(struct event_spec *e);

/* Append every tracepoint matching the two globs (tracepoint.c); 0 / -errno with @err. */
int tracepoint_parse(const char *sys_glob, const char *name_glob, struct event_list *l,
		     char *err, size_t errlen);

/* The tracefs mount (/sys/kernel/tracing, or debugfs' tracing), mounting it when root. */
const char *tracefs_dir(void);
/* Read events/<sys>/<name>/format into a malloc'd NUL-terminated buffer; NULL + errno. */
char *tracepoint_format(const char *sys, const char *name, size_t *len);

#endif
