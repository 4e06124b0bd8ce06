// SPDX-License-Identifier: GPL-2.0
/*
 * thread.c - names for kprof's threads, and a thread started on another CPU (see lib.h).
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/prctl.h>

#include "profiler/lib/lib.h"

void thread_name(const char *name)
{
	/* the kernel keeps 15 bytes and the NUL; a name refused is only a name */
	if (name)
		(void)prctl(PR_SET_NAME, (unsigned long)name, 0UL, 0UL, 0UL);
}

struct elsewhere {
	void		*(*fn)(void *arg);
	void		*arg;
	cpu_set_t	allowed;	/* the creator's CPUs, given back once started */
	bool		restore;
};

/* The CPUs a thread of thread_create_elsewhere() was started on, for thread_started_on(). */
static __thread cpu_set_t started_on;
static __thread bool started_elsewhere;

static void *start_elsewhere(void *p)
{
	struct elsewhere e = *(struct elsewhere *)p;

	free(p);
	started_elsewhere = !sched_getaffinity(0, sizeof(started_on), &started_on);
	if (e.restore)
		(void)sched_setaffinity(0, sizeof(e.allowed), &e.allowed);
	return e.fn(e.arg);
}

bool thread_started_on(cpu_set_t *cpus)
{
	if (started_elsewhere)
		*cpus = started_on;
	return started_elsewhere;
}

int thread_create_elsewhere(pthread_t *t, void *(*fn)(void *arg), void *arg)
{
	struct elsewhere *e = malloc(sizeof(*e));
	int cpu = sched_getcpu(), ret;
	pthread_attr_t attr;
	cpu_set_t others;
	bool attr_ok;

	if (!e)
		return -ENOMEM;
	*e = (struct elsewhere){ .fn = fn, .arg = arg };
	attr_ok = !pthread_attr_init(&attr);
	/* more CPUs than a cpu_set_t holds (EINVAL), or no CPU but this one: where it falls */
	if (attr_ok && cpu >= 0 && cpu < CPU_SETSIZE &&
	    !sched_getaffinity(0, sizeof(e->allowed), &e->allowed)) {
		others = e->allowed;
		CPU_CLR(cpu, &others);
		e->restore = CPU_COUNT(&others) > 0 &&
			     !pthread_attr_setaffinity_np(&attr, sizeof(others), &others);
	}
	ret = pthread_create(t, attr_ok ? &attr : NULL, start_elsewhere, e);
	if (attr_ok)
		pthread_attr_destroy(&attr);
	/* the CPUs refused (a cpuset that changed meanwhile): a thread anywhere will do */
	if (ret == EINVAL && e->restore) {
		e->restore = false;
		ret = pthread_create(t, NULL, start_elsewhere, e);
	}
	if (ret) {
		free(e);
		return -ret;
	}
	return 0;
}
