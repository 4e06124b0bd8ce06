// SPDX-License-Identifier: GPL-2.0
/*
 * heap.c - the malloc heap of a command that reads a whole profile, on transparent huge pages
 * (see lib.h).
 *
 * Reading a system-wide recording fills ~70 MB of tables, batches and symbol tables, nearly all
 * of it written once; every 4 KiB page is a page fault at its first touch, and a fault costs
 * 5-10 us on a virtual machine (a PVM guest: ~21,000 faults were a third of `kprof report`'s
 * CPU time on a make -B recording). Memory advised MADV_HUGEPAGE faults in 2 MiB at a time
 * wherever THP is "always" or "madvise" (the default of most distributions). glibc advises its
 * own heap only when told so by the glibc.malloc.hugetlb tunable, which is read from the
 * environment at startup; so the heap is set up here, with mallopt() and one madvise():
 *
 * - one arena (M_ARENA_MAX 1): the other threads' arenas would be heaps of their own, mmapped
 *   as they come, that no one advises; the threads' malloc calls are few and measured no slower;
 * - M_MMAP_THRESHOLD at glibc's maximum (32 MiB): a big table comes from the heap, not from a
 *   mapping of its own that free() unmaps and the next table faults in again;
 * - M_TRIM_THRESHOLD at its maximum: freed memory stays for the next allocation;
 * - M_TOP_PAD @reserve: the heap's first growth takes @reserve bytes of address space more than
 *   asked (no memory until touched), and that whole range is advised at once. A later growth
 *   (a heap beyond @reserve) is not advised: it faults in small pages, as before.
 */
#include <errno.h>
#include <limits.h>
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "profiler/lib/lib.h"

/* larger than any free top of the heap at startup, below the mmap threshold */
#define HEAP_PROBE	(16UL << 20)

long heap_on_huge_pages(size_t reserve)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), lo, hi;
	char *probe, *end;
	long ret;

	if (reserve > INT_MAX)
		reserve = INT_MAX;
	/* each one is worth having alone: a refused option leaves that one as it was */
	mallopt(M_ARENA_MAX, 1);
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TRIM_THRESHOLD, INT_MAX);
	mallopt(M_TOP_PAD, (int)reserve);
	probe = malloc(HEAP_PROBE);
	if (!probe)
		return -ENOMEM;
	end = sbrk(0);
	lo = (uintptr_t)probe & ~(page - 1);
	hi = (uintptr_t)end;
	/* not glibc's brk heap (ASan's or valgrind's malloc, or brk refused): nothing to advise */
	if (end == (char *)-1 || lo >= hi || (uintptr_t)probe + HEAP_PROBE > hi) {
		free(probe);
		return 0;
	}
	ret = madvise((void *)lo, hi - lo, MADV_HUGEPAGE) ? -errno : (long)(hi - lo);
	free(probe);
	return ret;
}
