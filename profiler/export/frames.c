// SPDX-License-Identifier: GPL-2.0
/*
 * frames.c - what every export format names the same way: an event's unit and a frame's
 * display name (the folded output's rules, so every view of one profile agrees).
 */
#include <stdio.h>
#include <string.h>

#include "profiler/export/export.h"

const char *export_event_unit(const char *event)
{
	static const char *const clocks[] = { "cpu-clock", "task-clock" };
	size_t n = strcspn(event, ":/");	/* "cpu-clock:u", "cpu/cpu-clock/" */

	if (!strncmp(event, "cpu/", 4)) {	/* the PMU form: the name is the next part */
		event += 4;
		n = strcspn(event, "/,:");
	}
	for (size_t i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++)
		if (n == strlen(clocks[i]) && !strncmp(event, clocks[i], n))
			return "nanoseconds";
	return "count";
}

const char *export_frame_name(const struct cg_frame *f, char *buf, size_t len)
{
	const char *base;

	if (f->sym)
		return f->sym;
	if (!strcmp(f->dso, "[unknown]")) {
		snprintf(buf, len, "[unknown]");
		return buf;
	}
	base = strrchr(f->dso, '/');
	base = base ? base + 1 : f->dso;
	/* as folded output: "[libc.so.6]", "[[kernel.kallsyms]]" */
	snprintf(buf, len, "[%s]", base);
	return buf;
}
