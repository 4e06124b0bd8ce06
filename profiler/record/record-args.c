// SPDX-License-Identifier: GPL-2.0
/* record-args.c - command-line values shared by `kprof record` and `kprof stat`. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "profiler/record/record.h"

/* "PID[,PID...]" appended to *@pids; -EINVAL on anything else. */
static int record_parse_pids(const char *arg, pid_t **pids, size_t *nr)
{
	char *copy = strdup(arg), *save = NULL;
	int ret = copy ? 0 : -ENOMEM;

	for (char *tok = copy ? strtok_r(copy, ",", &save) : NULL; tok && !ret;
	     tok = strtok_r(NULL, ",", &save)) {
		char *end;
		long v = strtol(tok, &end, 10);
		pid_t *n;

		if (*end || end == tok || v <= 0 || v > 0x3fffffff) {
			ret = -EINVAL;
			break;
		}
		n = realloc(*pids, (*nr + 1) * sizeof(**pids));
		if (!n) {
			ret = -ENOMEM;
			break;
		}
		*pids = n;
		(*pids)[(*nr)++] = (pid_t)v;
	}
	free(copy);
	return ret;
}

int record_parse_u64(const char *arg, uint64_t *v)
{
	char *end;
	unsigned long long x;

	errno = 0;
	x = strtoull(arg, &end, 10);
	if (errno || end == arg || *end || arg[0] == '-')
		return -EINVAL;
	*v = x;
	return 0;
}

/* Append @arg (borrowed) to a growing -e list. */
static int record_add_event(const char *arg, const char ***events, size_t *nr)
{
	const char **n = realloc(*events, (*nr + 1) * sizeof(**events));

	if (!n)
		return -ENOMEM;
	*events = n;
	n[(*nr)++] = arg;
	return 0;
}

int target_opt(int c, const char *arg, struct target_args *t, const char **what)
{
	char *end;

	switch (c) {
	case 'a':
		t->system_wide = true;
		return 1;
	case 'C':
		t->cpus = arg;
		return 1;
	case 'p':
		*what = "a comma-separated list of process ids";
		return record_parse_pids(arg, &t->pids, &t->nr_pids) ? -EINVAL : 1;
	case 't':
		*what = "bad thread id list";
		return record_parse_pids(arg, &t->tids, &t->nr_tids) ? -EINVAL : 1;
	case 'e':
		*what = "out of memory";
		return record_add_event(arg, &t->events, &t->nr_events) ? -ENOMEM : 1;
	case TARGET_OPT_DURATION:
		*what = "a number of seconds > 0";
		t->duration = strtod(arg, &end);
		return *end || end == arg || !(t->duration > 0) ? -EINVAL : 1;
	default:
		return 0;
	}
}

const char *target_check(const struct target_args *t, bool has_cmd)
{
	bool tasks = t->nr_pids || t->nr_tids;

	if ((t->system_wide || t->cpus) + tasks > 1)
		return "give one target: -a/-C (with or without a command), -p/-t (a command "
		       "then only times the recording), or a command";
	if (!t->system_wide && !t->cpus && !tasks && !has_cmd && !t->duration)
		return "nothing to do: give -a, -C, -p, -t or a command";
	return NULL;
}

int record_parse_callgraph(const char *arg, struct record_opts *o)
{
	uint64_t size = 8192;

	o->callgraph = o->callgraph_dwarf = o->callgraph_lbr = false;
	if (!strcmp(arg, "fp")) {
		o->callgraph = true;
		return 0;
	}
	if (!strcmp(arg, "lbr")) {
		o->callgraph_lbr = true;
		return 0;
	}
	if (strncmp(arg, "dwarf", 5) || (arg[5] && arg[5] != ','))
		return -EINVAL;
	/* perf: the dump size is rounded to u64 and at most 65528 (USHRT_MAX & ~7) */
	if (arg[5] == ',' && (record_parse_u64(arg + 6, &size) || size < 8 || size > 65528 ||
			      size % 8))
		return -EINVAL;
	o->callgraph_dwarf = true;
	o->stack_dump = (uint32_t)size;
	return 0;
}

void target_release(struct target_args *t)
{
	free(t->pids);
	free(t->tids);
	free(t->events);
}
