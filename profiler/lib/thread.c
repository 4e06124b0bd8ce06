// SPDX-License-Identifier: GPL-2.0
/*
 * thread.c - names for kprof's threads (see lib.h).
 */
#include <sys/prctl.h>

#include "profiler/lib/lib.h"

void thread_name(const char *name)
{
	/* the kernel keeps 15 bytes and the NUL; a name refused is only a name */
	if (name)
		(void)prctl(PR_SET_NAME, (unsigned long)name, 0UL, 0UL, 0UL);
}
