// SPDX-License-Identifier: GPL-2.0
/*
 * usemem.c - a native re-implementation of vm-scalability's usemem, the engine behind every
 * anon-* case: the same mappings, the same 8-byte access loop through the out-of-line
 * do_rw_once()/do_access() (their names are what profiles show), the same start barrier,
 * runtime check every 64Ki accesses, byte accounting (an allocation credit of size/8) and
 * output lines. See ../shared/spec/workloads.md §2.
 *
 * Differences from upstream, on purpose: a worker that cannot map its memory makes the whole
 * run fail (upstream exits 0 without a KB/s line); hugetlb regions are unmapped with their
 * length rounded up to the huge page size, so munmap really frees them (upstream's unaligned
 * munmap fails with EINVAL); a seed parameter makes random cases reproducible.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "workloads/wl-int.h"

/* upstream's PFN_OF: 4 KiB pages, whatever the machine's */
#define PFN_OF(addr)	((addr) >> 12)

#ifndef MAP_HUGE_2MB
#define MAP_HUGE_2MB	(21 << 26)
#endif

/* State of one usemem invocation, shared (by fork or by threads) with every worker. */
struct usemem {
	const struct usemem_opts *o;
	FILE		*log;
	uint64_t	start_us;	/* taken before prealloc and fork, as upstream */
	unsigned long	*prealloc;	/* --prealloc region, or NULL */
	uint64_t	done_bytes;	/* prealloc credit: bytes / 8 */
	int		fd;		/* /dev/zero, unless anonymous */
	int		ready[2];	/* workers write one byte each when ready */
	int		wake[2];	/* the parent writes one byte: everybody go */
	unsigned int	worker_base;	/* index of this process's first worker (seeds) */
	/*
	 * Upstream's globals `step` and `opt_delay`, which do_rw_once reads on every access (the
	 * calls in the loop make the compiler load them again): that is part of what one access
	 * costs upstream, so they are read from here, not hoisted into constants.
	 */
	unsigned long	step;		/* bytes, at least sizeof(long) */
	unsigned long	delay_ns;
};

/*
 * One access. Out of line on purpose: each 8-byte access is a call, as in upstream usemem.
 * This file is built without frame pointers, as LKP's usemem is (Makefile): a frame on every
 * 8-byte access costs 10-25% of the throughput, and LKP's profiles show the same short chains
 * (do_rw_once and do_access as roots). `kprof run --call-graph dwarf` shows the whole stacks.
 */
__attribute__((noipa, used)) unsigned long do_access(unsigned long *p, unsigned long idx,
						     int read)
{
	volatile unsigned long *vp = p;

	if (read)
		return vp[idx];
	vp[idx] = idx;
	return 0;
}

static bool runtime_exceeded(const struct usemem *um)
{
	return (int64_t)(wl_now_us() / 1000000) - (int64_t)(um->start_us / 1000000) >
	       (int64_t)um->o->runtime;
}

/* Set by do_rw_once when a repeat pass finds a word it did not write ("Data wrong"). */
static __thread bool data_wrong;

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * -e: keep accessing the word that reached a new page until @ns have passed (upstream's
 * delay(), the name its profiles show). Upstream compares only the tv_nsec fields of
 * CLOCK_REALTIME, so a delay of a second or more never ends there and a step of the clock
 * shortens one; this measures the whole monotonic interval (the parser refuses >= 1 s).
 */
__attribute__((noipa, used)) static void delay(unsigned long ns, unsigned long *p,
					       unsigned long idx, int read)
{
	const uint64_t start = mono_ns();

	do
		do_access(p, idx, read);
	while (mono_ns() - start < ns);
}

/*
 * One pass over @bytes at @p: every step/8-th word, sequentially or at as many random indices.
 * Returns the bytes credited: 8 per access, whatever the step (upstream's accounting).
 */
__attribute__((noipa, used)) unsigned long do_rw_once(const struct usemem *um, unsigned long *p,
						      unsigned long bytes,
						      struct drand48_data *rand_data, int read,
						      unsigned int *rep, unsigned int reps)
{
	const bool random = um->o->flags & WL_UM_RANDOM;
	unsigned long m = bytes / sizeof(*p);
	unsigned long rw = 0, i, idx, addr, prev_addr = 0;
	long rnd;

	for (i = 0; i < m; i += um->step / sizeof(*p)) {
		if (random) {
			lrand48_r(rand_data, &rnd);
			idx = (unsigned long)((double)(m - 1) * (double)rnd / (RAND_MAX + 1.0));
		} else {
			idx = i;
		}
		if (*rep > 0 && !read && !random && p[idx] != idx) {
			data_wrong = true;
			break;
		}
		do_access(p, idx, read);
		rw += sizeof(*p);
		/*
		 * The address only here: computed for every access it stays in %rbp, and perf's
		 * frame-pointer walk (no frame pointers here) reads the buffer as callers.
		 */
		if (um->delay_ns) {
			addr = (unsigned long)(p + idx);
			if (PFN_OF(addr) != PFN_OF(prev_addr)) {
				delay(um->delay_ns, p, idx, read);
				prev_addr = addr;
			}
		}
		if (!(i & 0xffff) && runtime_exceeded(um)) {
			*rep = reps;
			break;
		}
	}
	return rw;
}

static bool want_madv_hugepage(enum wl_thp thp)
{
	char buf[128] = "";
	FILE *fp;

	if (thp == WL_THP_MADVISE)
		return true;
	if (thp != WL_THP_ALWAYS)
		return false;
	fp = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "re");
	if (fp) {
		if (!fgets(buf, sizeof(buf), fp))
			buf[0] = '\0';
		fclose(fp);
	}
	return strstr(buf, "[madvise]") != NULL;
}

static uint64_t map_length(const struct usemem *um, uint64_t bytes)
{
	if (um->o->flags & WL_UM_HUGETLB)
		return (bytes + WL_HPAGE_SIZE - 1) & ~(WL_HPAGE_SIZE - 1);
	return bytes;
}

/* usemem's allocate(): MAP_PRIVATE of /dev/zero, or anonymous (hugetlb). NULL with errno. */
static unsigned long *allocate(const struct usemem *um, uint64_t bytes)
{
	const unsigned int f = um->o->flags;
	int prot = (f & WL_UM_READONLY) ? PROT_READ : PROT_READ | PROT_WRITE;
	int flags = MAP_PRIVATE;
	void *p;

	if (f & WL_UM_PREFAULT)
		flags |= MAP_POPULATE;
	if (f & WL_UM_HUGETLB)
		flags |= MAP_ANONYMOUS | MAP_HUGETLB | MAP_HUGE_2MB;
	p = mmap(NULL, bytes, prot, flags, (f & WL_UM_HUGETLB) ? -1 : um->fd, 0);
	if (p == MAP_FAILED)
		return NULL;
	if (!(f & WL_UM_HUGETLB) && um->o->thp != WL_THP_SYSTEM) {
		if (want_madv_hugepage(um->o->thp))
			madvise(p, bytes, MADV_HUGEPAGE);
		else if (um->o->thp == WL_THP_NEVER)
			madvise(p, bytes, MADV_NOHUGEPAGE);
	}
	return p;
}

/* Start barrier: say we are ready, then wait for the parent's single byte. */
static void ready(const struct usemem *um)
{
	struct pollfd pfd = { .fd = um->wake[0], .events = POLLIN };
	char c = 0;

	if (write(um->ready[1], &c, 1) != 1)
		return;
	while (poll(&pfd, 1, -1) < 0 && errno == EINTR)
		;
}

/* One worker (process or thread): map, access, report, unmap. 0 / -errno. */
/* Out of line: the frame LKP's profiles show under usemem (start_thread or do_task). */
__attribute__((noipa)) static int do_units(struct usemem *um, unsigned int worker)
{
	const struct usemem_opts *o = um->o;
	const unsigned int reps = o->repeat ? o->repeat : 1;
	struct drand48_data rand_data;
	unsigned long *p;
	uint64_t unit_bytes, usecs, t0;
	unsigned int rep;
	long seed;

	if (o->flags & WL_UM_RANDOM) {
		seed = o->seed_set ? (long)(o->seed + worker)
				   : (long)(time(NULL) ^ (long)syscall(SYS_gettid));
		srand48_r(seed, &rand_data);
	}
	ready(um);

	unit_bytes = um->done_bytes;
	if (um->prealloc) {
		p = um->prealloc;
	} else {
		p = allocate(um, o->bytes);
		if (!p) {
			int e = errno;

			wl_log_line(um->log, "usemem: mmap failed: %s", strerror(e));
			return -e;
		}
		unit_bytes += o->bytes / 8;
	}
	for (rep = 0; rep < reps; rep++) {
		unit_bytes += do_rw_once(um, p, o->bytes, &rand_data, !!(o->flags & WL_UM_READONLY),
					 &rep, reps);
		if (data_wrong) {
			wl_log_line(um->log, "Data wrong at pass %u", rep);
			return -EIO;
		}
	}

	usecs = wl_now_us() - um->start_us;
	if (!usecs)
		usecs = 1;
	wl_log_line(um->log, "%llu bytes / %llu usecs = %llu KB/s",
		    (unsigned long long)unit_bytes, (unsigned long long)usecs,
		    (unsigned long long)(((unit_bytes * 1000000) >> 10) / usecs));

	if (!um->prealloc) {
		t0 = wl_now_us();
		munmap(p, map_length(um, o->bytes));
		wl_log_line(um->log, "%llu usecs to free memory",
			    (unsigned long long)(wl_now_us() - t0));
	}
	return 0;
}

struct thread_arg {
	struct usemem	*um;
	unsigned int	worker;
	int		ret;
};

static void *thread_main(void *arg)
{
	struct thread_arg *ta = arg;

	ta->ret = do_units(ta->um, ta->worker);
	return NULL;
}

/* One task process: the worker itself, or -t threads. Exit status 0 / 1. */
static int do_task(struct usemem *um)
{
	const unsigned int n = um->o->nr_thread;
	struct thread_arg *ta;
	pthread_t *tid;
	unsigned int i, started = 0;
	int ret = 0;

	if (!n)
		return do_units(um, um->worker_base) ? 1 : 0;
	ta = calloc(n, sizeof(*ta));
	tid = calloc(n, sizeof(*tid));
	if (!ta || !tid) {
		free(ta);
		free(tid);
		return 1;
	}
	for (i = 0; i < n; i++) {
		ta[i] = (struct thread_arg){ .um = um, .worker = um->worker_base + i };
		if (pthread_create(&tid[i], NULL, thread_main, &ta[i])) {
			wl_log_line(um->log, "usemem: pthread_create failed");
			ret = 1;
			break;
		}
		started++;
	}
	/* stand in at the barrier for the threads that never started */
	for (i = started; i < n; i++)
		if (write(um->ready[1], "", 1) != 1)
			break;
	for (i = 0; i < started; i++) {
		pthread_join(tid[i], NULL);
		if (ta[i].ret)
			ret = 1;
	}
	free(ta);
	free(tid);
	return ret;
}

static void close_pair(int p[2])
{
	if (p[0] >= 0)
		close(p[0]);
	if (p[1] >= 0)
		close(p[1]);
	p[0] = p[1] = -1;
}

/* Wait until all @nr workers said ready (or none is left to say it), then wake everybody. */
static int barrier(struct usemem *um, unsigned long nr)
{
	char buf[256];

	close(um->ready[1]);
	um->ready[1] = -1;
	while (nr) {
		ssize_t n = read(um->ready[0], buf, nr < sizeof(buf) ? nr : sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;	/* a task died before it got ready: its status tells */
		nr -= (unsigned long)n;
	}
	return write(um->wake[1], "", 1) == 1 ? 0 : -errno;
}

static int do_tasks(struct usemem *um, char *err, size_t errlen)
{
	const unsigned int nr_task = um->o->nr_task ? um->o->nr_task : 1;
	const unsigned int per_task = um->o->nr_thread ? um->o->nr_thread : 1;
	unsigned int i, failed = 0, started = 0;
	int status, ret = 0;
	pid_t pid;

	fflush(um->log);
	for (i = 0; i < nr_task; i++) {
		pid = fork();
		if (pid < 0) {
			ret = err_set(err, errlen, -errno, "usemem: fork: %s", strerror(errno));
			break;
		}
		if (pid == 0) {
			wl_die_with_parent();
			close(um->ready[0]);
			um->worker_base = i * per_task;
			_exit(do_task(um));
		}
		started++;
	}
	barrier(um, ret ? 0 : (unsigned long)nr_task * per_task);
	while (started) {
		pid = wait(&status);
		if (pid < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		started--;
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			failed++;
	}
	if (!ret && failed)
		ret = err_set(err, errlen, -EIO, "usemem: %u of %u tasks failed", failed, nr_task);
	return ret;
}

int usemem_run(const struct usemem_opts *o, FILE *log, char *err, size_t errlen)
{
	struct usemem um = {
		.o = o, .log = log, .fd = -1,
		.ready = { -1, -1 }, .wake = { -1, -1 },
		.step = o->step < sizeof(long) ? sizeof(long) : o->step, .delay_ns = o->delay_ns,
	};
	int ret;

	if (!o->bytes)
		return err_set(err, errlen, -EINVAL, "usemem: size is 0");
	um.start_us = wl_now_us();
	if (!(o->flags & WL_UM_HUGETLB)) {
		um.fd = open("/dev/zero", ((o->flags & WL_UM_READONLY) ? O_RDONLY : O_RDWR) |
				 O_CLOEXEC);
		if (um.fd < 0)
			return err_set(err, errlen, -errno, "/dev/zero: %s", strerror(errno));
	}
	if (pipe2(um.ready, O_CLOEXEC) || pipe2(um.wake, O_CLOEXEC)) {
		ret = err_set(err, errlen, -errno, "usemem: pipe: %s", strerror(errno));
		goto out;
	}
	if (o->flags & WL_UM_PREALLOC) {
		um.prealloc = allocate(&um, o->bytes);
		if (!um.prealloc) {
			ret = err_set(err, errlen, -errno, "usemem: mmap failed: %s",
				      strerror(errno));
			wl_log_line(log, "usemem: mmap failed: %s", strerror(-ret));
			goto out;
		}
		um.done_bytes = o->bytes / 8;
	}
	ret = do_tasks(&um, err, errlen);
	if (um.prealloc)
		munmap(um.prealloc, map_length(&um, o->bytes));
out:
	close_pair(um.ready);
	close_pair(um.wake);
	if (um.fd >= 0)
		close(um.fd);
	return ret;
}
