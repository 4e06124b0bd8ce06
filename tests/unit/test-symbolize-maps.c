// SPDX-License-Identifier: GPL-2.0
/*
 * Process address spaces (maps.c): a new mapping trims, splits or replaces what it overlaps,
 * with the file offset of a right-hand remainder moved along; lookups and fork copies.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "symbolize/symbolize-int.h"
#include "tests/tap.h"

static struct sym_map map(uint64_t start, uint64_t end, uint64_t pgoff, const char *dso)
{
	return (struct sym_map){ .start = start, .end = end, .pgoff = pgoff, .dso = dso };
}

static bool has(const struct sym_proc *p, size_t i, uint64_t start, uint64_t end,
		uint64_t pgoff, const char *dso)
{
	return i < p->nr && p->maps[i].start == start && p->maps[i].end == end &&
	       p->maps[i].pgoff == pgoff && !strcmp(p->maps[i].dso, dso);
}

static void test_overlaps(void)
{
	struct sym_proc p = { .pid = 1 };
	struct sym_map m;

	m = map(0x1000, 0x5000, 0, "a");
	is_int(proc_map_insert(&p, &m), 0, "insert a");
	m = map(0x8000, 0x9000, 0, "c");
	proc_map_insert(&p, &m);
	m = map(0x2000, 0x3000, 0x100000, "b");
	proc_map_insert(&p, &m);
	is_int(p.nr, 4, "b splits a in two");
	ok(has(&p, 0, 0x1000, 0x2000, 0, "a"), "left part of a");
	ok(has(&p, 1, 0x2000, 0x3000, 0x100000, "b"), "b");
	ok(has(&p, 2, 0x3000, 0x5000, 0x2000, "a"), "right part of a, offset moved by 0x2000");
	ok(has(&p, 3, 0x8000, 0x9000, 0, "c"), "c untouched");

	m = map(0x1800, 0x8800, 0, "d");
	proc_map_insert(&p, &m);
	is_int(p.nr, 3, "d covers b and a's right part, trims a and c");
	ok(has(&p, 0, 0x1000, 0x1800, 0, "a"), "a trimmed");
	ok(has(&p, 1, 0x1800, 0x8800, 0, "d"), "d");
	ok(has(&p, 2, 0x8800, 0x9000, 0x800, "c"), "c trimmed at its start, offset moved");

	m = map(0x1800, 0x8800, 0, "e");
	proc_map_insert(&p, &m);
	ok(p.nr == 3 && has(&p, 1, 0x1800, 0x8800, 0, "e"), "an identical range replaces");

	m = map(0x5000, 0x5000, 0, "empty");
	is_int(proc_map_insert(&p, &m), -EINVAL, "an empty mapping is rejected");

	ok(proc_map_find(&p, 0x1000) == &p.maps[0], "find: first byte");
	ok(proc_map_find(&p, 0x17ff) == &p.maps[0], "find: last byte");
	ok(proc_map_find(&p, 0x1800) == &p.maps[1], "find: next mapping");
	ok(proc_map_find(&p, 0x1800) == &p.maps[1], "find: again (last-hit shortcut)");
	ok(!proc_map_find(&p, 0x9000), "find: past the end");
	ok(!proc_map_find(&p, 0xfff), "find: before the start");
	free(p.maps);
}

static void test_table_and_copy(void)
{
	struct proc_table t = { 0 };
	struct sym_proc *a, *b;
	struct sym_map m = map(0x1000, 0x2000, 0, "x");
	int found = 0;

	for (pid_t pid = 1; pid <= 1000; pid++)
		found += procs_get(&t, pid) != NULL;
	is_int(found, 1000, "1000 processes created (table grows)");
	a = procs_find(&t, 500);
	ok(a && a->pid == 500, "find by pid after growth");
	ok(procs_get(&t, 500) == a, "get returns the existing process");
	ok(!procs_find(&t, 1001), "unknown pid");
	proc_map_insert(a, &m);
	b = procs_get(&t, 2000);
	is_int(proc_copy_maps(b, a), 0, "copy maps");
	ok(b->nr == 1 && has(b, 0, 0x1000, 0x2000, 0, "x"), "the copy has the mapping");
	ok(b->maps != a->maps, "... in its own array");
	procs_release(&t);
}

/* procs_find remembers the last process found: a different pid must never get it. */
static void test_find_memo(void)
{
	struct proc_table t = { 0 };
	struct sym_proc *p[64];
	int right = 0;

	ok(!procs_find(&t, 7), "find in an empty table");
	for (pid_t pid = 0; pid < 64; pid++)
		p[pid] = procs_get(&t, pid * 3);
	for (int i = 0; i < 2000; i++) {
		pid_t pid = (pid_t)((i * 37) % 64);

		right += procs_find(&t, pid * 3) == p[pid];
		right += procs_find(&t, pid * 3) == p[pid];
		right += !procs_find(&t, pid * 3 + 1);
	}
	is_int(right, 6000, "alternating and repeated finds, and misses, after a hit");
	ok(procs_get(&t, 1000) && procs_find(&t, 1000) && procs_find(&t, 1000)->pid == 1000,
	   "a process created after the memo is found");
	ok(procs_find(&t, 0) == p[0], "... and the memo moves back");
	procs_release(&t);
	ok(!procs_find(&t, 0), "nothing after release");
}

int main(void)
{
	test_overlaps();
	test_table_and_copy();
	test_find_memo();
	return done_testing();
}
