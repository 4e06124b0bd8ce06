// SPDX-License-Identifier: GPL-2.0
/*
 * event-list.c - what `-e` accepts on this machine, for `kprof list` and for the usage error a
 * bad `-e` gets: the named events (each tried once with perf_event_open, user space only, on
 * this process, so "not supported here" is known before a recording fails) and every tracepoint
 * under tracefs.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "profiler/record/event-int.h"
#include "profiler/record/record.h"

static const char *kind_of(uint32_t type)
{
	switch (type) {
	case PERF_TYPE_SOFTWARE:
		return "software";
	case PERF_TYPE_HARDWARE:
		return "hardware";
	case PERF_TYPE_HW_CACHE:
		return "hw-cache";
	default:
		return "tracepoint";
	}
}

/* Can this process count @a on itself? EACCES/EPERM say nothing about support: true. */
static bool supported(const struct perf_event_attr *in)
{
	struct perf_event_attr a = *in;
	int fd;

	a.size = sizeof(a);
	a.disabled = 1;
	a.exclude_kernel = a.exclude_hv = 1;
	fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
	if (fd >= 0) {
		close(fd);
		return true;
	}
	return errno == EACCES || errno == EPERM;
}

static int push(struct record_known_event **v, size_t *nr, const char *name, const char *kind,
		bool ok)
{
	struct record_known_event *n = realloc(*v, (*nr + 1) * sizeof(**v));

	if (!n)
		return -ENOMEM;
	*v = n;
	n[*nr] = (struct record_known_event){ strdup(name), kind, ok };
	if (!n[*nr].name)
		return -ENOMEM;
	(*nr)++;
	return 0;
}

int record_known_events(const char *glob, struct record_known_event **out, size_t *nr,
			char *err, size_t errlen)
{
	struct event_list tps = { 0 };
	const char *name;
	struct perf_event_attr attr;
	int ret = 0;

	*out = NULL;
	*nr = 0;
	for (size_t i = 0; !ret && (name = event_named_at(i, &attr)); i++)
		if (!glob || !fnmatch(glob, name, 0))
			ret = push(out, nr, name, kind_of(attr.type), supported(&attr));
	/* tracepoints: "sys:name" globs, or every one (a glob without ':' matches the name) */
	if (!ret) {
		const char *colon = glob ? strchr(glob, ':') : NULL;
		char sys[256] = "*";

		if (colon)
			snprintf(sys, sizeof(sys), "%.*s", (int)(colon - glob), glob);
		ret = tracepoint_parse(sys, colon ? colon + 1 : "*", &tps, err, errlen);
		if (ret == -EINVAL) {
			ret = 0;	/* no tracepoint matches: the named events may */
			err[0] = 0;
		}
		for (size_t i = 0; !ret && i < tps.nr; i++)
			if (!glob || colon || !fnmatch(glob, tps.v[i].tp_event, 0))
				ret = push(out, nr, tps.v[i].name, "tracepoint", true);
	}
	event_list_release(&tps);
	if (ret && ret != -ENOMEM && !*nr)
		return ret;	/* tracefs unreadable and nothing else: say why */
	if (ret && ret != -ENOMEM)
		return 0;	/* the named events, and in @err why there are no tracepoints */
	if (ret == -ENOMEM) {
		record_known_events_free(*out, *nr);
		*out = NULL;
		*nr = 0;
		return ret;
	}
	return 0;
}

void record_known_events_free(struct record_known_event *v, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		free(v[i].name);
	free(v);
}

int record_check_events(const char *const *events, size_t nr, char *err, size_t errlen)
{
	int ret = 0;

	for (size_t i = 0; i < nr && !ret; i++) {
		struct event_list l = { 0 };

		ret = event_parse(events[i], &l, err, errlen);
		event_list_release(&l);
	}
	return ret;
}
