// SPDX-License-Identifier: GPL-2.0
/*
 * unwind-perf.c: where perf 6.1's libunwind finds a frame's CFI and what its fallback does
 * when it does not -- the placement of .eh_frame_hdr at the file's lowest map (maps left from
 * before an exec included), the %rbp 0 end, the frame-pointer heuristic, perf's reads (the
 * last word of the stack copy is "outside" it; a map without a file reads as 0; nothing
 * mapped fails), and the view's fork copy; which of perf's map objects holds an address;
 * libunwind's cache of the frames whose CFI it found (128 ips, round robin, flushed at an exec).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "symbolize/symbolize-int.h"
#include "tests/tap.h"

static const char LIBC[] = "/usr/lib/x86_64-linux-gnu/libc.so.6";
static const char STACK[] = "[stack]";

#define BIAS		0x7f0000000000ULL	/* where the file is loaded */
#define HDR		0x1a1b2cULL		/* its .eh_frame_hdr address */
#define SP		0x7ffd00001000ULL	/* the stack copy */

static uint64_t fde_lo = 0x26000, fde_hi = 0x17c000;	/* file addresses with an FDE */

static bool fde_at(void *arg, uint64_t vaddr)
{
	(void)arg;
	return vaddr >= fde_lo && vaddr < fde_hi;
}

static void add(struct sym_proc *view, uint64_t start, uint64_t len, uint64_t pgoff,
		const char *dso)
{
	struct sym_map m = { .start = start, .end = start + len, .pgoff = pgoff, .dso = dso };

	proc_map_insert(view, &m);
}

/* libc as ld.so maps it: the whole file read-only, then its segments over that. */
static void map_libc(struct sym_proc *view, uint64_t base)
{
	add(view, base, 0x1e2000, 0, LIBC);
	add(view, base + 0x26000, 0x156000, 0x26000, LIBC);
	add(view, base + 0x17c000, 0x66000, 0x17c000, LIBC);
}

static struct perf_frame frame(struct sym_proc *proc, const unsigned char *stack, uint64_t rbp)
{
	return (struct perf_frame){
		.proc = proc, .dso = LIBC, .pc = BIAS + 0x891f3, .bias = BIAS, .first_load = 0,
		.has_hdr = true, .hdr_vaddr = HDR, .fde_at = fde_at, .rbp_known = true,
		.rbp = rbp, .sp = SP + 0x100, .stack_sp = SP, .stack = stack, .stack_len = 0x2000,
	};
}

static void test_placement(void)
{
	struct sym_proc p = { .pid = 1 }, view = { .pid = 1 };
	unsigned char stack[0x2000] = { 0 };
	struct perf_frame f;
	uint64_t guess = 0;

	p.perf = &view;
	f = frame(&p, stack, 0);
	is_int(perf_step(&f, &guess), PERF_STEP_CFI, "no map given: libdwfl's step stands");
	map_libc(&view, BIAS);
	add(&view, SP - 0x20000, 0x21000 + 0x20000, 0, STACK);
	f = frame(&p, stack, 0);
	is_int(perf_step(&f, &guess), PERF_STEP_CFI, "libc where it is loaded: CFI found");
	f.has_hdr = false;
	is_int(perf_step(&f, &guess), PERF_STEP_END, "no .eh_frame_hdr: perf's lookup fails");
	f = frame(&p, stack, 0);
	f.pc = BIAS + 0x10;
	is_int(perf_step(&f, &guess), PERF_STEP_END, "no FDE for the pc, rbp 0: chain ends");

	/* a map of the same file left from before an exec, lower: the table is read there */
	map_libc(&view, 0x10000000);
	f = frame(&p, stack, 0);
	is_int(perf_step(&f, &guess), PERF_STEP_END, "misplaced, rbp 0 (clone3's): ends");
	f = frame(&p, stack, SP + 0x8000);
	is_int(perf_step(&f, &guess), PERF_STEP_END, "rbp more than 0x4000 above sp: ends");
	f = frame(&p, stack, SP);
	is_int(perf_step(&f, &guess), PERF_STEP_END, "rbp below sp: ends");

	/* rbp a frame pointer: its [rbp + 8] is a guessed caller */
	memcpy(stack + 0x208, &(uint64_t){ 0x55550000100aULL }, 8);
	f = frame(&p, stack, SP + 0x200);
	guess = 0;
	is_int(perf_step(&f, &guess), PERF_STEP_GUESS_END, "guess in no file: one frame, end");
	is_int(guess, 0x555500001009ULL, "the guessed caller, less one");
	memcpy(stack + 0x208, &(uint64_t){ BIAS + 0x30001 }, 8);
	is_int(perf_step(&f, &guess), PERF_STEP_GUESS, "guess in libc: perf goes on");
	is_int(guess, BIAS + 0x30000, "that caller");

	/* the pc minus the wrong base falls in the file's FDEs: another function's CFI */
	fde_lo = 0;
	is_int(perf_step(&f, &guess), PERF_STEP_GUESS, "wrong FDE used: not restated");
	fde_lo = 0x26000;
	free(view.maps);
}

static void test_unmapped_table(void)
{
	struct sym_proc p = { .pid = 1 }, view = { .pid = 1 };
	unsigned char stack[0x2000] = { 0 };
	struct perf_frame f;
	uint64_t guess;

	/* only libc's executable map recorded (no data maps): the lowest map is at +0x26000 */
	p.perf = &view;
	add(&view, BIAS + 0x26000, 0x156000, 0x26000, LIBC);
	memcpy(stack + 0x208, &(uint64_t){ BIAS + 0x30001 }, 8);
	f = frame(&p, stack, SP + 0x200);
	is_int(perf_step(&f, &guess), PERF_STEP_END,
	       "no read-only map: the table is read where nothing is mapped, no fallback");
	/* something else mapped there: read as garbage, not restated */
	add(&view, BIAS + 0x26000 + HDR, 0x1000, 0, STACK);
	is_int(perf_step(&f, &guess), PERF_STEP_GUESS, "garbage table: not restated");
	free(view.maps);
}

static void test_reads(void)
{
	struct sym_proc p = { .pid = 1 }, view = { .pid = 1 };
	unsigned char stack[0x2000];
	struct perf_frame f;
	uint64_t v;

	p.perf = &view;
	memset(stack, 0x11, sizeof(stack));
	f = frame(&p, stack, 0);
	ok(perf_read_word(&f, SP, &v) && v == 0x1111111111111111ULL, "a word of the copy");
	ok(!perf_read_word(&f, SP + 0x2000 - 8, &v), "its last word is outside it, unmapped");
	add(&view, SP, 0x3000, 0, STACK);
	ok(perf_read_word(&f, SP + 0x2000 - 8, &v) && v == 0,
	   "outside the copy in a map without a file: 0, no error");
	ok(!perf_read_word(&f, ~0ULL - 3, &v), "an address that wraps: an error");
	free(view.maps);
}

static void test_fork_copy(void)
{
	struct sym_proc parent = { .pid = 1 }, child = { .pid = 2 };

	parent.perf = calloc(1, sizeof(*parent.perf));
	if (!parent.perf)
		return;
	map_libc(parent.perf, BIAS);
	is_int(proc_copy_maps(&child, &parent), 0, "fork copy");
	ok(child.perf && child.perf->nr == parent.perf->nr, "the child has the parent's view");
	perf_view_free(parent.perf);
	parent.perf = NULL;
	proc_copy_maps(&child, &parent);
	ok(child.perf && child.perf->nr == 0, "a parent without a view empties the child's");
	perf_view_free(child.perf);
	free(child.maps);
	free(parent.maps);
}

/*
 * perf's map objects: one per MMAP (the same file mapped again at the same place after an
 * exec is another), a forked process's copies are others, threads share their process's.
 */
static void test_map_objects(void)
{
	struct sym_opts o = { .no_kernel = true };
	struct sym_session *s = sym_session_new(&o);
	struct sym_perf_map a, b, c, d;

	if (!s) {
		ok(0, "session");
		return;
	}
	ok(!sym_session_perf_map(s, 10, BIAS, &a), "no map given: none");
	is_int(sym_session_add_perf_map(s, 10, BIAS, 0x1000, 0, LIBC), 0, "a map given");
	ok(sym_session_perf_map(s, 10, BIAS + 0x10, &a) &&
	   sym_session_perf_map(s, 10, BIAS + 0x20, &b) && a.view == b.view && a.serial == b.serial,
	   "two addresses of one map: one object");
	ok(!sym_session_perf_map(s, 10, BIAS + 0x1000, &b), "past its end: none");
	is_int(sym_session_fork(s, 10, 11), 0, "fork");
	ok(sym_session_perf_map(s, 11, BIAS + 0x10, &c) && c.view != a.view,
	   "the child's copy is another object");
	is_int(sym_session_add_perf_map(s, 10, BIAS, 0x1000, 0, LIBC), 0, "mapped again (exec)");
	ok(sym_session_perf_map(s, 10, BIAS + 0x10, &b) && b.view == a.view && b.serial != a.serial,
	   "the same range mapped again: another object");
	is_int(sym_session_add_perf_map(s, 11, BIAS + 0x4000, 0x1000, 0, LIBC), 0,
	       "the child maps more");
	ok(sym_session_perf_map(s, 11, BIAS + 0x4010, &d) && d.view == c.view &&
	   d.serial != c.serial, "... another object than its copied one");
	sym_session_free(s);
}

/* The cache alone: membership, the round robin, chains of one hash, the flush. */
static void test_cache_slots(void)
{
	struct perf_rs_cache *c;
	bool all = true;

	if (perf_rs_cache_new(&c)) {
		ok(0, "cache");
		return;
	}
	ok(!perf_rs_cached(c, 0x1000), "empty");
	perf_rs_enter(c, 0x1000);
	ok(perf_rs_cached(c, 0x1000), "entered");
	/* 127 more: all there, the first one too */
	for (uint64_t ip = 1; ip < PERF_RS_SLOTS; ip++)
		perf_rs_enter(c, 0x2000 + ip * 0x40);
	for (uint64_t ip = 1; ip < PERF_RS_SLOTS; ip++)
		all = all && perf_rs_cached(c, 0x2000 + ip * 0x40);
	ok(all && perf_rs_cached(c, 0x1000), "128 ips held");
	perf_rs_enter(c, 0x9000);
	ok(!perf_rs_cached(c, 0x1000) && perf_rs_cached(c, 0x9000) &&
	   perf_rs_cached(c, 0x2040), "the 129th pushes the first out, round robin");
	/* a hit does not move an ip: the next one entered pushes out the second entered */
	ok(perf_rs_cached(c, 0x2040), "a hit");
	perf_rs_enter(c, 0xa000);
	ok(!perf_rs_cached(c, 0x2040) && perf_rs_cached(c, 0x2080), "... and it goes next anyway");
	perf_rs_flush(c);
	ok(!perf_rs_cached(c, 0x9000) && !perf_rs_cached(c, 0x2080), "flushed: none");
	/* every slot refilled and pushed out again: each hash chain stays whole */
	for (uint64_t ip = 1; ip <= 3 * PERF_RS_SLOTS; ip++)
		perf_rs_enter(c, ip << 12);
	all = true;
	for (uint64_t ip = 1; ip <= 3 * PERF_RS_SLOTS; ip++)
		all = all && perf_rs_cached(c, ip << 12) == (ip > 2 * PERF_RS_SLOTS);
	ok(all, "after three rounds: the last 128 and only those");
	ok(!perf_rs_cached(NULL, 0x1000) && !perf_rs_cached(c, 0), "NULL cache, ip 0: never");
	perf_rs_enter(NULL, 0x1000);
	perf_rs_flush(NULL);
	free(c);
}

/*
 * perf's libunwind keeps a frame's CFI once found: a lower map of the file given since (a map
 * left before an exec) does not change how that ip unwinds, only ips not seen yet; an exec
 * flushes the cache; a forked process starts with its own, empty one.
 */
static void test_cache_steps(void)
{
	struct sym_opts o = { .no_kernel = true };
	struct sym_session *s = sym_session_new(&o);
	unsigned char stack[0x2000] = { 0 };
	struct sym_proc *p;
	struct perf_frame f;
	uint64_t guess;

	if (!s) {
		ok(0, "session");
		return;
	}
	sym_session_add_perf_map(s, 20, BIAS, 0x1e2000, 0, LIBC);
	sym_session_add_perf_map(s, 20, BIAS + 0x26000, 0x156000, 0x26000, LIBC);
	p = procs_find(session_procs(s), 20);
	if (!p || !p->perf || !p->perf->rs) {
		ok(0, "a view with its cache");
		sym_session_free(s);
		return;
	}
	f = frame(p, stack, 0);
	f.dso = p->perf->maps[0].dso;	/* interned by the session */
	f.ip = f.pc + 1;
	is_int(perf_step(&f, &guess), PERF_STEP_CFI, "libc where it is loaded: CFI found");
	ok(perf_rs_cached(p->perf->rs, f.pc + 1), "... its ip (the return address) cached");
	ok(!perf_rs_cached(p->perf->rs, f.pc), "... not the pc looked up");
	sym_session_add_perf_map(s, 20, 0x10000000, 0x1e2000, 0, LIBC);
	is_int(perf_step(&f, &guess), PERF_STEP_CFI, "libc mapped low since: CFI from the cache");
	f.ip += 0x10;
	f.pc += 0x10;
	is_int(perf_step(&f, &guess), PERF_STEP_END, "another ip of it: looked up, not found");
	ok(!perf_rs_cached(p->perf->rs, f.ip), "... and not cached");

	is_int(sym_session_fork(s, 20, 21), 0, "fork");
	f.proc = procs_find(session_procs(s), 21);
	f.ip -= 0x10;
	f.pc -= 0x10;
	ok(f.proc && f.proc->perf && f.proc->perf->rs && f.proc->perf->rs != p->perf->rs,
	   "the child has a cache of its own");
	if (f.proc) {
		is_int(perf_step(&f, &guess), PERF_STEP_END, "... empty: the child looks it up");
		perf_rs_enter(f.proc->perf->rs, f.ip);
		is_int(sym_session_fork(s, 20, 21), 0, "a fork to the same pid (used again)");
		ok(!perf_rs_cached(f.proc->perf->rs, f.ip), "... a new process: its cache empty");
	}
	f.proc = p;
	is_int(sym_session_perf_exec(s, 20), 0, "exec");
	is_int(perf_step(&f, &guess), PERF_STEP_END, "flushed at the exec: looked up, misplaced");
	is_int(sym_session_perf_exec(s, 99), 0, "an exec of a process without maps: nothing");
	is_int(sym_session_perf_exec(s, -1), -EINVAL, "pid -1: -EINVAL");
	sym_session_free(s);
}

int main(void)
{
	test_map_objects();
	test_placement();
	test_unmapped_table();
	test_reads();
	test_fork_copy();
	test_cache_slots();
	test_cache_steps();
	return done_testing();
}
