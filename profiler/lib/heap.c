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
 *
 * And a thread faults the heap's huge pages in a few MiB ahead of its top. A huge page first
 * touched is 2 MiB for the kernel to clear, and on a virtual machine whose host took that
 * memory back (free page reporting) ~2-4 ms of host faults. The first touch is nearly always
 * malloc() itself, writing the header of what is left of the top chunk, so the toucher holds
 * the one arena's lock all that time and every other thread that allocates waits for it
 * (`perf record -e sched:sched_switch`: the kallsyms thread waited ~24 ms for the lock in one
 * run of `kprof report` on a make -B recording, while the thread that names kernel frames
 * waited for it). Faulted in ahead, by a thread that takes no lock, the pages are there when
 * malloc() reaches them. It goes no further than PREFAULT_AHEAD past the top, so a small
 * profile faults in at most that much more than it uses.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <malloc.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "profiler/lib/lib.h"

#define HUGE_PAGE	(2UL << 20)
/*
 * How far past the top the prefaulting thread goes: more than the usual single allocation
 * (the 512 KiB batches, tables doubled to a few MiB), little enough to waste at the end.
 */
#define PREFAULT_AHEAD	(6UL << 20)
/* Its naps while the top stands still: short while the heap grows, longer once it stops. */
#define PREFAULT_NAP_MIN_NS	500000L
#define PREFAULT_NAP_MAX_NS	50000000L

/* The advised range, from the 2 MiB boundary the heap starts on. */
static uintptr_t prefault_from, prefault_to;

/* The start of the top chunk: the end of the heap less the top's size (mallinfo2's keepcost). */
static uintptr_t heap_top(void)
{
	struct mallinfo2 mi = mallinfo2();
	uintptr_t end = (uintptr_t)sbrk(0);

	return end == (uintptr_t)-1 || mi.keepcost > end ? 0 : end - mi.keepcost;
}

/*
 * Fault in the huge page at @page by writing it, the way malloc's own first write would: a page
 * fault takes only the heap mapping's lock (per-VMA locks, Linux 6.4), where
 * MADV_POPULATE_WRITE holds the whole address space's mmap_lock while the kernel clears the
 * page, and every mmap(), mprotect() and munmap() of the other threads waits for it: a thread's
 * stack, libelf mapping an ELF file (measured: mmap + mprotect + munmap waited 24-36 ms while
 * another thread populated 96 MiB, 8 us while it wrote them). The write adds 0 atomically: the
 * word may be one malloc has just handed out and another thread is writing, and an atomic
 * read-modify-write cannot lose that write (a plain load and store could).
 */
static void touch_huge_page(uintptr_t page)
{
	__atomic_fetch_add((long *)(page + HUGE_PAGE / 2), 0, __ATOMIC_RELAXED);
}

static void *prefault_heap(void *arg)
{
	uintptr_t done = prefault_from;
	long nap = PREFAULT_NAP_MIN_NS;

	(void)arg;
	thread_name("kprof-heap");
	while (done < prefault_to) {
		uintptr_t want = heap_top() + PREFAULT_AHEAD;
		struct timespec ts;

		if (want > prefault_to)
			want = prefault_to;
		if (done + HUGE_PAGE <= want) {
			touch_huge_page(done);
			done += HUGE_PAGE;
			nap = PREFAULT_NAP_MIN_NS;
			continue;
		}
		ts = (struct timespec){ .tv_nsec = nap };
		nanosleep(&ts, NULL);
		if (nap < PREFAULT_NAP_MAX_NS)
			nap *= 2;
	}
	return NULL;
}

/*
 * Whether advised memory faults in huge pages: THP "always" or "madvise". Otherwise (or without
 * THP) a write faults in one 4 KiB page of each 2 MiB, and the thread would only cost a CPU.
 */
static bool huge_pages_on(void)
{
	char buf[128] = "";
	int fd = open("/sys/kernel/mm/transparent_hugepage/enabled", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	return strstr(buf, "[always]") || strstr(buf, "[madvise]");
}

/* Start the prefaulting thread over [@from, @to); without it the heap faults in as it is used. */
static void start_prefault(uintptr_t from, uintptr_t to)
{
	pthread_attr_t attr;
	pthread_t t;

	if (!huge_pages_on())
		return;

	prefault_from = from;
	prefault_to = to & ~(uintptr_t)(HUGE_PAGE - 1);
	if (pthread_attr_init(&attr))
		return;
	/* it needs no more than a page of stack: not 8 MiB of address space */
	(void)pthread_attr_setstacksize(&attr, 64 << 10);
	(void)pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	(void)pthread_create(&t, &attr, prefault_heap, NULL);
	pthread_attr_destroy(&attr);
}

/* the filler, kept for the process's life (and reachable, for leak checkers) */
static void *filler;

/*
 * Grow the heap (by M_TOP_PAD) with one block that ends just below a 2 MiB boundary, and keep
 * that block (the filler: never written past its header, so never resident). Where a block ends,
 * malloc writes the header of the top that is left after it, and that write faults in a 4 KiB
 * page wherever it lands: past the boundary, it would put a small page into a 2 MiB range
 * before that range is advised, and the range could then never fault in a huge page -- the heap
 * would fault its 2 MiB in one 4 KiB page at a time as it grew through it (~510 faults, seen
 * on most runs of `kprof report` on a make -B recording when a 16 MiB probe left its top's
 * header 16 MiB into the heap: ~7 ms of CPU at the ~15 us a fault costs on a PVM guest). Ending below the boundary, the
 * header lands in the heap's head, whose first pages are small anyway.
 *
 * glibc's chunk header is two words before the pointer it hands out, and a request of n bytes
 * is a chunk of n + one word rounded up to 16: so a request of (boundary - top - 40) makes a
 * chunk that ends 32 bytes below the boundary. It is larger than the top (the boundary is past
 * the top's end), so malloc grows the heap, by the request plus M_TOP_PAD. The start of the
 * advised heap (the boundary), or 0 when the block is not where glibc's brk heap would put it
 * (ASan's or valgrind's malloc, a refused brk).
 */
static uintptr_t grow_to_boundary(void)
{
	uintptr_t end = (uintptr_t)sbrk(0), top = heap_top(), boundary;

	if (end == (uintptr_t)-1 || !top)
		return 0;
	boundary = (end + 64 + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
	filler = malloc(boundary - top - 5 * sizeof(size_t));
	if ((uintptr_t)filler != top + 2 * sizeof(size_t) || (uintptr_t)sbrk(0) <= boundary) {
		free(filler);
		filler = NULL;
		return 0;
	}
	return boundary;
}

/* a block malloc must really make: the compiler may drop a malloc() whose block goes nowhere */
static void *volatile first_block;

long heap_on_huge_pages(size_t reserve)
{
	uintptr_t lo, hi;

	if (reserve > INT_MAX)
		reserve = INT_MAX;
	/*
	 * malloc makes its heap (and its thread cache, the heap's first block) at its first call:
	 * before M_TOP_PAD, so that this first growth is the usual ~132 KiB, and before the top is
	 * measured.
	 */
	first_block = malloc(1);
	free(first_block);
	/* each one is worth having alone: a refused option leaves that one as it was */
	mallopt(M_ARENA_MAX, 1);
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TRIM_THRESHOLD, INT_MAX);
	mallopt(M_TOP_PAD, (int)reserve);
	lo = grow_to_boundary();
	/* not glibc's brk heap: nothing to advise */
	if (!lo)
		return 0;
	hi = (uintptr_t)sbrk(0);
	if (madvise((void *)lo, hi - lo, MADV_HUGEPAGE))
		return -errno;
	start_prefault(lo, hi);
	return (long)(hi - lo);
}
