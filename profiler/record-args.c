// SPDX-License-Identifier: GPL-2.0
/* record-args.c - command-line values shared by `kprof record` and `kprof stat`. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "profiler/record-local.h"

int record_parse_pids(const char *arg, pid_t **pids, size_t *nr)
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

int record_add_event(const char *arg, const char ***events, size_t *nr)
{
	const char **n = realloc(*events, (*nr + 1) * sizeof(**events));

	if (!n)
		return -ENOMEM;
	*events = n;
	n[(*nr)++] = arg;
	return 0;
}
