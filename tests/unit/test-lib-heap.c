// SPDX-License-Identifier: GPL-2.0
/*
 * lib/heap.c: after heap_on_huge_pages() a big block comes from the brk heap (not a mapping of
 * its own), lies in memory advised MADV_HUGEPAGE ("hg" in smaps), and is kept when freed.
 * A thread faults the heap in a few MiB ahead of malloc's top, and no further. Every 2 MiB of
 * the advised heap faults in as one huge page: none was touched before it was advised.
 * Under valgrind or ASan malloc is not glibc's heap: nothing is advised, and that is said.
 */
#include <dirent.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "profiler/lib/lib.h"

#include "tests/tap.h"

#define RESERVE	(64UL << 20)
#define BLOCK	(8UL << 20)
#define HUGE	(2UL << 20)
#define BIG	(24UL << 20)

/* the VmFlags of the mapping holding @addr contain @flag */
static bool vma_has_flag(uintptr_t addr, const char *flag)
{
	FILE *fp = fopen("/proc/self/smaps", "re");
	char line[1024];
	bool inside = false, found = false;

	if (!fp)
		return false;
	while (!found && fgets(line, sizeof(line), fp)) {
		uintptr_t lo, hi;

		if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR " ", &lo, &hi) == 2 && strchr(line, ' ') &&
		    line[strspn(line, "0123456789abcdef")] == '-')
			inside = lo <= addr && addr < hi;
		else if (inside && !strncmp(line, "VmFlags:", 8))
			found = strstr(line, flag) != NULL;
	}
	fclose(fp);
	return found;
}

/* Wait up to ~2 s for a page of the 2 MiB from @addr's page to be resident; whether one was. */
static bool resident_soon(const char *addr)
{
	void *page = (void *)((uintptr_t)addr & ~(uintptr_t)4095);
	struct timespec ts = { .tv_nsec = 10000000 };
	unsigned char v[HUGE / 4096];

	for (int i = 0; i < 200; i++) {
		if (!mincore(page, HUGE, v) && memchr(v, 1, sizeof(v)))
			return true;
		nanosleep(&ts, NULL);
	}
	return false;
}

static bool resident_now(const char *addr)
{
	unsigned char v = 0;

	return !mincore((void *)((uintptr_t)addr & ~(uintptr_t)4095), 4096, &v) && (v & 1);
}

/* Transparent huge pages for advised memory, without which no thread faults the heap in ahead */
static bool huge_pages_on(void)
{
	FILE *fp = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "re");
	char line[128] = "";
	bool on;

	if (!fp)
		return false;
	on = fgets(line, sizeof(line), fp) && (strstr(line, "[always]") || strstr(line, "[madvise]"));
	fclose(fp);
	return on;
}

/* The name of the thread @tid of this process, or "" */
static void thread_comm(pid_t tid, char *buf, size_t size)
{
	char path[64];
	FILE *fp;

	snprintf(path, sizeof(path), "/proc/self/task/%d/comm", (int)tid);
	buf[0] = '\0';
	fp = fopen(path, "re");
	if (fp && fgets(buf, (int)size, fp))
		buf[strcspn(buf, "\n")] = '\0';
	if (fp)
		fclose(fp);
}

/* Whether a thread of this process other than the caller is named @name */
static bool has_thread_named(const char *name)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	bool found = false;
	char comm[32];

	while (d && !found && (e = readdir(d))) {
		if (e->d_name[0] == '.' || atoi(e->d_name) == getpid())
			continue;
		thread_comm(atoi(e->d_name), comm, sizeof(comm));
		found = !strcmp(comm, name);
	}
	if (d)
		closedir(d);
	return found;
}

/* The same within 2 s: a new thread names itself when it first runs (late on a busy machine). */
static bool has_thread_named_soon(const char *name)
{
	struct timespec ts = { .tv_nsec = 10000000 };

	for (int i = 0; i < 200; i++) {
		if (has_thread_named(name))
			return true;
		nanosleep(&ts, NULL);
	}
	return false;
}

/* /proc/vmstat's count of huge page faults that fell back to small pages (no huge page free) */
static long thp_fallbacks(void)
{
	FILE *fp = fopen("/proc/vmstat", "re");
	char line[128];
	long n = -1;

	while (fp && fgets(line, sizeof(line), fp))
		if (sscanf(line, "thp_fault_fallback %ld", &n) == 1)
			break;
	if (fp)
		fclose(fp);
	return n;
}

static long minor_faults(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_minflt;
}

int main(void)
{
	long advised = heap_on_huge_pages(RESERVE), faults;
	char *p, *q, *end;

	plan(10);
	if (advised == 0) {
		skip(10, "malloc is not glibc's brk heap here (valgrind or ASan)");
		return done_testing();
	}
	ok(advised >= (long)(RESERVE - HUGE), "%ld bytes advised: the %lu reserved, less a head",
	   advised, RESERVE);
	p = malloc(BLOCK);
	end = sbrk(0);
	ok(p && end - advised <= p && p + BLOCK <= end,
	   "an 8 MiB block comes from the advised heap, not an mmap of its own");
	ok(p && (uintptr_t)(end - advised) % HUGE == 0 &&
	   ((uintptr_t)p & ~(uintptr_t)(HUGE - 1)) >= (uintptr_t)(end - advised),
	   "the advised heap starts on a 2 MiB boundary, and the block's first 2 MiB page is in it");
	ok(vma_has_flag((uintptr_t)p, " hg"), "its memory is advised MADV_HUGEPAGE");
	faults = minor_faults();
	memset(p, 1, BLOCK);
	/* read back, or the compiler drops the memset of a block that is freed unread */
	diag("8 MiB written in %ld page faults (2,048 in 4 KiB pages), last byte %d",
	     minor_faults() - faults, ((volatile char *)p)[BLOCK - 1]);
	free(p);
	q = malloc(BLOCK);
	ok(q == p, "freed, it is kept and handed out again");
	ok(sbrk(0) == end, "the heap did not grow for it");
	/*
	 * q is the top's first block: the 2 MiB page after it is faulted in ahead of any use, the
	 * page 24 MiB past the top is not (the thread stays within a few MiB of it).
	 */
	if (!huge_pages_on()) {
		skip(4, "transparent huge pages are off here: nothing is faulted in ahead");
	} else {
		ok(has_thread_named_soon("kprof-heap"), "the thread that faults the heap in is kprof-heap");
		ok(resident_soon(q + BLOCK + HUGE), "the heap past its top is faulted in ahead of use");
		ok(!resident_now(q + BLOCK + (24UL << 20)), "but not far past it");
	}
	free(q);
	/*
	 * A 24 MiB block from the top: at least 16 MiB of it are new. A 4 KiB page
	 * written anywhere in the heap's advised range before the advice (malloc's header of the
	 * top, when the setup's first block ended there) makes its 2 MiB fault in 512 times.
	 */
	if (huge_pages_on()) {
		long fallbacks = thp_fallbacks();

		q = malloc(BIG);
		faults = minor_faults();
		if (q)
			memset(q, 2, BIG);
		faults = minor_faults() - faults;
		if (fallbacks < 0 || thp_fallbacks() != fallbacks)
			skip(1, "the kernel had no huge page free for some fault (thp_fault_fallback)");
		else
			ok(q && end - advised <= q && faults < 64,
			   "24 MiB more of the heap written in %ld page faults: huge pages only", faults);
		diag("last byte %d", q ? ((volatile char *)q)[BIG - 1] : -1);
		free(q);
	}
	return done_testing();
}
