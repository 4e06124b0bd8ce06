// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-report-args.c - perf report's list options for `kprof report`, with perf's spellings:
 * --sort comm,pid,dso,sym (symbol also), comma lists for --comm, --dso and --pid.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "profiler/cli/cmd-report-int.h"

int report_parse_sort(const char *s, enum table_sort_key keys[4], size_t *nr)
{
	static const struct { const char *name; enum table_sort_key k; } names[] = {
		{ "comm", TABLE_SORT_COMM }, { "pid", TABLE_SORT_PID }, { "dso", TABLE_SORT_DSO },
		{ "sym", TABLE_SORT_SYM }, { "symbol", TABLE_SORT_SYM },
	};
	const char *p = s;

	*nr = 0;
	while (*p) {
		size_t len = strcspn(p, ","), i;

		for (i = 0; i < sizeof(names) / sizeof(*names); i++)
			if (strlen(names[i].name) == len && !strncmp(p, names[i].name, len))
				break;
		if (i == sizeof(names) / sizeof(*names) || *nr == 4)
			return -EINVAL;
		for (size_t j = 0; j < *nr; j++)
			if (keys[j] == names[i].k)
				return -EINVAL;
		keys[(*nr)++] = names[i].k;
		p += len;
		if (*p == ',' && *++p == '\0')
			return -EINVAL;
	}
	return *nr ? 0 : -EINVAL;
}

int report_parse_list(const char *s, char **copy, const char **items, size_t *nr, size_t max)
{
	char *save = NULL, *tok, *c = strdup(s);

	if (!c)
		return -ENOMEM;
	free(*copy);	/* a repeated option replaces the list */
	*copy = c;
	*nr = 0;
	for (tok = strtok_r(c, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (*nr == max)
			return -EINVAL;
		items[(*nr)++] = tok;
	}
	return *nr ? 0 : -EINVAL;
}

int report_parse_pids(const char *s, int *pids, size_t *nr, size_t max)
{
	const char *p = s;

	*nr = 0;
	while (*p) {
		char *end;
		long v = strtol(p, &end, 10);

		if (end == p || v < 0 || v > 0x7fffffff || (*end && *end != ',') || *nr == max)
			return -EINVAL;
		pids[(*nr)++] = (int)v;
		p = *end ? end + 1 : end;
		if (end[0] == ',' && !end[1])
			return -EINVAL;
	}
	return *nr ? 0 : -EINVAL;
}

int report_parse_callchain(const char *s, enum table_callchain *order, double *min)
{
	size_t len = strcspn(s, ",");
	char *end;

	if (len == 6 && !strncmp(s, "caller", 6))
		*order = TABLE_CHAIN_CALLER;
	else if (len == 6 && !strncmp(s, "callee", 6))
		*order = TABLE_CHAIN_CALLEE;
	else
		return -EINVAL;
	*min = 0;
	if (!s[len])
		return 0;
	*min = strtod(s + len + 1, &end);
	return end == s + len + 1 || *end || !(*min >= 0 && *min <= 100) ? -EINVAL : 0;
}
