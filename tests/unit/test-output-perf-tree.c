// SPDX-License-Identifier: GPL-2.0
/*
 * Where perf report 6.1's trees may split or merge what kprof counts once
 * (output/hist-perf-tree.c): a module whose functions and inlined frames are not in one order
 * under perf's comparator (inlined ones by name, functions by address), and inlined names that
 * are also functions' names.
 */
#include <stdlib.h>
#include <string.h>

#include "output/output.h"
#include "tests/tap.h"

#define LIBC	"/usr/lib/x86_64-linux-gnu/libc.so.6"
#define INL	CG_FRAME_INLINED

static const struct cg_task task = { .comm = "app", .pid = 1, .tid = 1 };

/* One sample of frames @f (leaf first). */
static void add(struct callgraph *cg, const struct cg_frame *f, size_t nr)
{
	ok(!callgraph_add(cg, &task, f, nr, 1000, 1), "a sample of %zu frames added", nr);
}

static bool has(const char *const *v, size_t nr, const char *s)
{
	for (size_t i = 0; i < nr; i++)
		if (!strcmp(v[i], s))
			return true;
	return false;
}

static void test_one_order(void)
{
	struct callgraph *cg = callgraph_new();
	struct perf_tree_risks r = { 0 };
	/* by address a_fn < m_fn < z_fn, by name too; "n_inl" falls between m_fn and z_fn */
	struct cg_frame f[] = {
		{ .sym = "n_inl (inlined)", .dso = LIBC, .sym_start = 0x3000, .flags = INL },
		{ .sym = "z_fn", .dso = LIBC, .sym_start = 0x3000 },
		{ .sym = "m_fn", .dso = LIBC, .sym_start = 0x2000 },
		{ .sym = "a_fn", .dso = LIBC, .sym_start = 0x1000 },
		{ .sym = "main", .dso = "/bin/app", .sym_start = 0x500 },
	};

	add(cg, f, 5);
	ok(!perf_tree_risks(cg, false, &r), "risks of one order");
	is_int(r.nr_files, 0, "names and addresses agree: no file named");
	is_int(r.nr_names, 0, "no inlined name is a function's");
	is_int(r.total, 1000, "perf's total");
	perf_tree_risks_release(&r);

	/* a function named before n_inl but lying above z_fn: no longer one order */
	struct cg_frame g[] = {
		{ .sym = "b_fn", .dso = LIBC, .sym_start = 0x9000 },
		{ .sym = "main", .dso = "/bin/app", .sym_start = 0x500 },
	};
	add(cg, g, 2);
	ok(!perf_tree_risks(cg, false, &r), "risks of two orders");
	is_int(r.nr_files, 1, "one file named");
	ok(r.nr_files == 1 && !strcmp(r.files[0], "libc.so.6"), "... by perf's short name");
	perf_tree_risks_release(&r);
	callgraph_free(cg);
}

static void test_other_module_and_kernel(void)
{
	struct callgraph *cg = callgraph_new();
	struct perf_tree_risks r = { 0 };
	/* the same names in two files: each file is ordered on its own (short names first) */
	struct cg_frame f[] = {
		{ .sym = "n_inl (inlined)", .dso = LIBC, .sym_start = 0x3000, .flags = INL },
		{ .sym = "z_fn", .dso = LIBC, .sym_start = 0x3000 },
		{ .sym = "b_fn", .dso = "/bin/app", .sym_start = 0x9000 },
		{ .sym = "y_fn", .dso = "/bin/app", .sym_start = 0x100 },
		{ .sym = "zz_k", .dso = "[kernel.kallsyms]", .sym_start = 0x10, .flags = CG_FRAME_KERNEL },
		{ .sym = "aa_k", .dso = "[kernel.kallsyms]", .sym_start = 0x20, .flags = CG_FRAME_KERNEL },
	};

	add(cg, f, 6);
	ok(!perf_tree_risks(cg, false, &r) && !r.nr_files,
	   "functions out of name order in a file without inlined frames: nothing");
	perf_tree_risks_release(&r);
	callgraph_free(cg);
}

static void test_merged_names(void)
{
	struct callgraph *cg = callgraph_new();
	struct perf_tree_risks r = { 0 };
	/* __brk inlined into __sbrk, and __brk called on its own elsewhere */
	struct cg_frame f[] = {
		{ .sym = "__brk (inlined)", .dso = LIBC, .sym_start = 0x200, .flags = INL },
		{ .sym = "__sbrk", .dso = LIBC, .sym_start = 0x200 },
		{ .sym = "main", .dso = "/bin/app", .sym_start = 0x500 },
	};
	struct cg_frame g[] = {
		{ .sym = "__brk", .dso = LIBC, .sym_start = 0x100 },
		{ .sym = "main", .dso = "/bin/app", .sym_start = 0x500 },
	};

	add(cg, f, 3);
	ok(!perf_tree_risks(cg, false, &r) && !r.nr_names, "an inlined name alone: nothing");
	perf_tree_risks_release(&r);
	add(cg, g, 2);
	ok(!perf_tree_risks(cg, false, &r), "risks");
	is_int(r.nr_names, 1, "an inlined name that is a function's too");
	ok(has(r.names, r.nr_names, "__brk (inlined)"), "... named as the frame");
	is_int(r.nr_files, 0, "one order still (__brk before __sbrk both ways)");
	perf_tree_risks_release(&r);
	callgraph_free(cg);
}

static void test_dropped_samples(void)
{
	struct callgraph *cg = callgraph_new();
	struct perf_tree_risks r = { 0 };
	/* -U: a sample whose own ip is unresolved is not in perf's tree at all */
	struct cg_frame f[] = {
		{ .sym = NULL, .dso = LIBC },
		{ .sym = "__brk (inlined)", .dso = LIBC, .sym_start = 0x200, .flags = INL },
		{ .sym = "__brk", .dso = LIBC, .sym_start = 0x100 },
	};

	add(cg, f, 3);
	ok(!perf_tree_risks(cg, false, &r) && !r.nr_names && !r.nr_files && !r.total,
	   "a dropped sample's frames: nothing");
	perf_tree_risks_release(&r);
	callgraph_free(cg);
}

int main(void)
{
	test_one_order();
	test_other_module_and_kernel();
	test_merged_names();
	test_dropped_samples();
	return done_testing();
}
