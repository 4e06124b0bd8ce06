// SPDX-License-Identifier: GPL-2.0
/*
 * lib/heap.c: after heap_on_huge_pages() a big block comes from the brk heap (not a mapping of
 * its own), lies in memory advised MADV_HUGEPAGE ("hg" in smaps), and is kept when freed.
 * A thread faults the heap in a few MiB ahead of malloc's top, and no further.
 * Under valgrind or ASan malloc is not glibc's heap: nothing is advised, and that is said.
 */
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

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE	23	/* Linux 5.14, as in lib/heap.c */
#endif
#include "tests/tap.h"

#define RESERVE	(64UL << 20)
#define BLOCK	(8UL << 20)
#define HUGE	(2UL << 20)

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

/* Wait up to ~2 s for @addr's page to be resident; whether it was. */
static bool resident_soon(const char *addr)
{
	uintptr_t page = (uintptr_t)addr & ~(uintptr_t)4095;
	struct timespec ts = { .tv_nsec = 10000000 };
	unsigned char v = 0;

	for (int i = 0; i < 200; i++) {
		if (!mincore((void *)page, 4096, &v) && (v & 1))
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

/* MADV_POPULATE_WRITE (Linux 5.14), which the prefaulting thread uses */
static bool can_populate(void)
{
	void *m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	bool yes = m != MAP_FAILED && !madvise(m, 4096, MADV_POPULATE_WRITE);

	if (m != MAP_FAILED)
		munmap(m, 4096);
	return yes;
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

	plan(8);
	if (advised == 0) {
		skip(8, "malloc is not glibc's brk heap here (valgrind or ASan)");
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
	if (!can_populate()) {
		skip(2, "no MADV_POPULATE_WRITE in this kernel: nothing is faulted in ahead");
	} else {
		ok(resident_soon(q + BLOCK + HUGE), "the heap past its top is faulted in ahead of use");
		ok(!resident_now(q + BLOCK + (24UL << 20)), "but not far past it");
	}
	free(q);
	return done_testing();
}
