// SPDX-License-Identifier: GPL-2.0
/*
 * event.c - symbolic event names and modifiers (see event-int.h for the grammar).
 * Tracepoints are handed to tracepoint.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profiler/record/event-int.h"

struct named_event {
	const char	*name;		/* canonical: what perf and LKP call it */
	const char	*alias;		/* or NULL */
	uint32_t	type;
	uint64_t	config;
};

#define HW_CACHE(c, op, res) \
	((c) | (PERF_COUNT_HW_CACHE_OP_##op << 8) | (PERF_COUNT_HW_CACHE_RESULT_##res << 16))

static const struct named_event named_events[] = {
	{ "cpu-clock", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "task-clock", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "page-faults", "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "minor-faults", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "major-faults", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "context-switches", "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "cycles", "cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "branch-instructions", "branches", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "dTLB-loads", NULL, PERF_TYPE_HW_CACHE,
	  HW_CACHE(PERF_COUNT_HW_CACHE_DTLB, READ, ACCESS) },
	{ "dTLB-load-misses", NULL, PERF_TYPE_HW_CACHE,
	  HW_CACHE(PERF_COUNT_HW_CACHE_DTLB, READ, MISS) },
	{ "dTLB-stores", NULL, PERF_TYPE_HW_CACHE,
	  HW_CACHE(PERF_COUNT_HW_CACHE_DTLB, WRITE, ACCESS) },
	{ "dTLB-store-misses", NULL, PERF_TYPE_HW_CACHE,
	  HW_CACHE(PERF_COUNT_HW_CACHE_DTLB, WRITE, MISS) },
	{ "iTLB-loads", NULL, PERF_TYPE_HW_CACHE,
	  HW_CACHE(PERF_COUNT_HW_CACHE_ITLB, READ, ACCESS) },
	{ "iTLB-load-misses", NULL, PERF_TYPE_HW_CACHE,
	  HW_CACHE(PERF_COUNT_HW_CACHE_ITLB, READ, MISS) },
	{ "node-loads", NULL, PERF_TYPE_HW_CACHE,
	  HW_CACHE(PERF_COUNT_HW_CACHE_NODE, READ, ACCESS) },
	{ "node-load-misses", NULL, PERF_TYPE_HW_CACHE,
	  HW_CACHE(PERF_COUNT_HW_CACHE_NODE, READ, MISS) },
	{ "node-stores", NULL, PERF_TYPE_HW_CACHE,
	  HW_CACHE(PERF_COUNT_HW_CACHE_NODE, WRITE, ACCESS) },
	{ "node-store-misses", NULL, PERF_TYPE_HW_CACHE,
	  HW_CACHE(PERF_COUNT_HW_CACHE_NODE, WRITE, MISS) },
};

int event_list_push(struct event_list *l, const struct event_spec *e)
{
	struct event_spec *v = realloc(l->v, (l->nr + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	l->v = v;
	l->v[l->nr++] = *e;
	return 0;
}

static bool name_is(const char *name, const char *ev, size_t len)
{
	return name && strlen(name) == len && !strncmp(name, ev, len);
}

/* The symbolic event named by the first @len bytes of @ev, or NULL. */
static const struct named_event *find_named(const char *ev, size_t len)
{
	for (size_t i = 0; i < sizeof(named_events) / sizeof(named_events[0]); i++)
		if (name_is(named_events[i].name, ev, len) ||
		    name_is(named_events[i].alias, ev, len))
			return &named_events[i];
	return NULL;
}

/* Apply "u", "k", "p", "pp", "uk"... to @attr; -EINVAL on anything else. */
static int apply_modifiers(const char *mod, struct perf_event_attr *attr)
{
	bool u = false, k = false;
	int p = 0;

	for (; *mod; mod++) {
		if (*mod == 'u')
			u = true;
		else if (*mod == 'k')
			k = true;
		else if (*mod == 'p' && p < 3)
			p++;
		else
			return -EINVAL;
	}
	if (u && !k)
		attr->exclude_kernel = attr->exclude_hv = 1;
	if (k && !u)
		attr->exclude_user = attr->exclude_hv = 1;
	attr->precise_ip = p;
	return 0;
}

static int parse_named(const char *ev, struct event_list *l, char *err, size_t errlen)
{
	const char *colon = strchr(ev, ':');
	size_t len = colon ? (size_t)(colon - ev) : strlen(ev);
	struct event_spec e = { 0 };
	const struct named_event *n = find_named(ev, len);
	int ret;

	if (!n) {
		snprintf(err, errlen, "unknown event '%s' (see docs/record.md for the list)", ev);
		return -EINVAL;
	}
	e.attr.size = sizeof(e.attr);
	e.attr.type = n->type;
	e.attr.config = n->config;
	if (colon && apply_modifiers(colon + 1, &e.attr)) {
		snprintf(err, errlen, "event '%s': bad modifier ':%s' (u, k, p, pp, ppp)", ev,
			 colon + 1);
		return -EINVAL;
	}
	if (asprintf(&e.name, "%s%s", n->name, colon ? colon : "") < 0)
		return -ENOMEM;
	ret = event_list_push(l, &e);
	if (ret)
		free(e.name);
	return ret;
}

/* A tracepoint looks like "sys:name" where "sys" is not a symbolic event name. */
static bool looks_like_tracepoint(const char *ev)
{
	const char *colon = strchr(ev, ':');

	return colon && colon != ev && colon[1] && !find_named(ev, colon - ev);
}

static int parse_one(const char *ev, struct event_list *l, char *err, size_t errlen)
{
	if (looks_like_tracepoint(ev)) {
		char *sys = strdup(ev);
		int ret;

		if (!sys)
			return -ENOMEM;
		*strchr(sys, ':') = '\0';
		ret = tracepoint_parse(sys, sys + strlen(sys) + 1, l, err, errlen);
		free(sys);
		return ret;
	}
	return parse_named(ev, l, err, errlen);
}

int event_parse(const char *spec, struct event_list *l, char *err, size_t errlen)
{
	char *copy = strdup(spec), *save = NULL;
	int ret = 0;

	if (!copy)
		return -ENOMEM;
	if (!*copy) {
		snprintf(err, errlen, "empty event name");
		ret = -EINVAL;
	}
	for (char *tok = strtok_r(copy, ",", &save); tok && !ret; tok = strtok_r(NULL, ",", &save))
		ret = parse_one(tok, l, err, errlen);
	free(copy);
	return ret;
}

void event_list_release(struct event_list *l)
{
	for (size_t i = 0; i < l->nr; i++) {
		free(l->v[i].name);
		free(l->v[i].tp_system);
		free(l->v[i].tp_event);
	}
	free(l->v);
	l->v = NULL;
	l->nr = 0;
}

bool event_is_cycles(const struct event_spec *e)
{
	return e->attr.type == PERF_TYPE_HARDWARE && e->attr.config == PERF_COUNT_HW_CPU_CYCLES;
}

int event_fallback(struct event_spec *e)
{
	char *name;

	if (!event_is_cycles(e))
		return -ENOENT;
	if (e->attr.precise_ip) {
		char *p = strrchr(e->name, 'p');

		/* "cycles:pp" -> "cycles:p"; "cycles:p" -> "cycles"; "cycles:up" -> "cycles:u" */
		e->attr.precise_ip--;
		memmove(p, p + 1, strlen(p));
		if (p[-1] == ':' && !*p)
			p[-1] = '\0';
		return 0;
	}
	/* Like perf's evsel__fallback: a CPU without a PMU still has the hrtimer clock. */
	if (asprintf(&name, "cpu-clock%s", strchr(e->name, ':') ? strchr(e->name, ':') : "") < 0)
		return -ENOMEM;
	free(e->name);
	e->name = name;
	e->attr.type = PERF_TYPE_SOFTWARE;
	e->attr.config = PERF_COUNT_SW_CPU_CLOCK;
	return 0;
}
