/* SPDX-License-Identifier: GPL-2.0 */
/*
 * self-maps.h - for the symbolize unit tests: this process's /proc/self/maps given to a
 * sym_session as the mappings of @pid (anonymous ones as "//anon"); *stack_addr is set to an
 * address inside [stack]. Returns the number of mappings added, or -1.
 */
#ifndef KPROF_TESTS_SELF_MAPS_H
#define KPROF_TESTS_SELF_MAPS_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#include "symbolize/symbolize.h"

static inline int add_self_maps(struct sym_session *s, pid_t pid, uint64_t *stack_addr)
{
	char line[4096], path[4096];
	FILE *fp = fopen("/proc/self/maps", "re");
	int n = 0;

	if (!fp)
		return -1;
	while (fgets(line, sizeof(line), fp)) {
		uint64_t start, end, pgoff;
		int off = 0;

		path[0] = '\0';
		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %*s %" SCNx64 " %*s %*s %n", &start, &end,
			   &pgoff, &off) != 3)
			continue;
		snprintf(path, sizeof(path), "%s", line + off);
		path[strcspn(path, "\n")] = '\0';
		if (!path[0])
			snprintf(path, sizeof(path), "//anon");
		if (!strcmp(path, "[stack]"))
			*stack_addr = start + (end - start) / 2;
		if (sym_session_add_map(s, pid, start, end - start, pgoff, path) == 0)
			n++;
	}
	fclose(fp);
	return n;
}

#endif
