// SPDX-License-Identifier: GPL-2.0
/*
 * LKP perf-profile keys: one test per rule of perf report + LKP's parser (docs/formats.md).
 * Totals are chosen so that percentages are easy to read: 10000 samples of period 1 give
 * 0.01 % per sample.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "tests/tap.h"
#include "output/output-int.h"
#include "tests/unit/cg-helpers.h"

static const struct lkp_profile_opts lkp_opts = {
	.event = "cycles:pp", .calltrace_min = 0.5, .print_min = 0.05,
};

/* Keys of @cg with LKP's options; the list must be released by the caller. */
static struct kv_list keys_of(const struct callgraph *cg)
{
	struct kv_list l = { 0 };
	int err = lkp_profile_keys(cg, &lkp_opts, &l);

	if (err)
		diag("lkp_profile_keys: %d", err);
	return l;
}

#define P "perf-profile."
#define CT P "calltrace.cycles-pp."

static void test_fixture2_worked_example(void)
{
	struct callgraph *cg = callgraph_new();
	struct kv_list l;

	cg_test_add(cg, "pipe", "__wake_up_common_lock@[kernel.kallsyms];pipe_write;__vfs_write;"
		    "vfs_write;ksys_write;do_syscall_64;entry_SYSCALL_64_after_hwframe",
		    3526, 3526);
	cg_test_add(cg, "pipe", "__wake_up_common_lock@[kernel.kallsyms];pipe_write;__vfs_write;"
		    "vfs_write;ksys_write;do_syscall_64;entry_SYSCALL_64_after_hwframe;"
		    "__GI___libc_write", 1068, 1068);
	cg_test_add(cg, "idle", "intel_idle;cpuidle_enter", 5406, 5406);
	l = keys_of(cg);
	is_double(kv_test_get(&l, CT "__wake_up_common_lock.pipe_write.__vfs_write.vfs_write."
			      "ksys_write"), 45.94, 1e-9, "fixture 2: 35.26 + 10.68 = 45.94");
	is_double(kv_test_get(&l, CT "pipe_write.__vfs_write.vfs_write.ksys_write.do_syscall_64"),
		  45.94, 1e-9, "the caller's own chains also sum");
	is_double(kv_test_get(&l, CT "__GI___libc_write"), 10.68, 1e-9,
		  "a one-frame chain gives a one-frame key");
	is_double(kv_test_get(&l, P "children.cycles-pp.__wake_up_common_lock"), 45.94, 1e-9,
		  "children");
	is_double(kv_test_get(&l, P "self.cycles-pp.__wake_up_common_lock"), 45.94, 1e-9, "self");
	is_double(kv_test_get(&l, P "self.cycles-pp.intel_idle"), 54.06, 1e-9,
		  "idle is an ordinary symbol");
	ok(isnan(kv_test_get(&l, P "self.cycles-pp.pipe_write")), "self 0.00 is not printed");
	is_double(kv_test_get(&l, P "children.cycles-pp.pipe_write"), 45.94, 1e-9,
		  "a caller has children only");
	kv_list_release(&l);
	callgraph_free(cg);
}

static void test_recursion(void)
{
	struct callgraph *cg = callgraph_new();
	struct kv_list l;

	cg_test_add(cg, "a", "rec;rec;rec;top;main", 100, 1);
	l = keys_of(cg);
	is_double(kv_test_get(&l, P "children.cycles-pp.rec"), 100, 1e-9,
		  "recursion: children counted once per sample");
	is_double(kv_test_get(&l, P "self.cycles-pp.rec"), 100, 1e-9, "recursion: self");
	is_double(kv_test_get(&l, CT "rec.rec.rec.top.main"), 100, 1e-9,
		  "recursion: the chain from the leaf-most occurrence keeps the recursive frames");
	ok(isnan(kv_test_get(&l, CT "rec.rec.top.main")),
	   "recursion: no chain from a later occurrence");
	is_double(kv_test_get(&l, CT "top.main"), 100, 1e-9, "recursion: the callers' chains");
	kv_list_release(&l);
	callgraph_free(cg);
}

static void test_two_callers(void)
{
	struct callgraph *cg = callgraph_new();
	struct kv_list l;

	cg_test_add(cg, "a", "leaf;a;main", 60, 1);
	cg_test_add(cg, "a", "leaf;b;main", 40, 1);
	cg_test_add(cg, "a", "leaf;a", 0, 0);	/* weightless: must not print */
	l = keys_of(cg);
	is_double(kv_test_get(&l, CT "leaf.a.main"), 60, 1e-9, "two callers: first path");
	is_double(kv_test_get(&l, CT "leaf.b.main"), 40, 1e-9, "two callers: second path");
	ok(isnan(kv_test_get(&l, CT "leaf.a")), "a chain without hits is not printed");
	is_double(kv_test_get(&l, P "children.cycles-pp.main"), 100, 1e-9, "common root");
	is_double(kv_test_get(&l, CT "main"), 100, 1e-9, "the root's chain is itself");
	kv_list_release(&l);
	callgraph_free(cg);
}

static void test_chain_threshold(void)
{
	struct callgraph *cg = callgraph_new();
	struct kv_list l;
	char stack[256];
	int i;

	/* 100 chains of 0.4 % each share their first five frames: 40 % that perf never prints. */
	for (i = 0; i < 100; i++) {
		snprintf(stack, sizeof(stack), "x;c1;c2;c3;c4;caller%d", i);
		cg_test_add(cg, "a", stack, 40, 40);
	}
	cg_test_add(cg, "a", "y;d1;d2;d3;d4;at_threshold", 50, 50);	/* exactly 0.5 % */
	cg_test_add(cg, "a", "big", 5950, 5950);
	l = keys_of(cg);
	ok(isnan(kv_test_get(&l, CT "x.c1.c2.c3.c4")),
	   "chains below 0.5 %% are missing though their 5-frame sum is 40 %%");
	is_double(kv_test_get(&l, P "children.cycles-pp.x"), 40, 1e-9,
		  "the entry itself is still there");
	is_double(kv_test_get(&l, CT "y.d1.d2.d3.d4"), 0.5, 1e-9,
		  "a chain at exactly 0.5 %% is printed (hits >= min)");
	kv_list_release(&l);
	callgraph_free(cg);
}

static void test_chain_threshold_truncates(void)
{
	struct callgraph *cg = callgraph_new();
	struct kv_list l;

	/* total 1999: perf's u64 min hits = (u64)(1999 * 0.005) = 9, so 9 hits (0.45 %) print. */
	cg_test_add(cg, "a", "small;main", 9, 9);
	cg_test_add(cg, "a", "tiny;main", 8, 8);
	cg_test_add(cg, "a", "big", 1982, 1982);
	l = keys_of(cg);
	is_double(kv_test_get(&l, CT "small.main"), 0.45, 1e-9,
		  "min hits are truncated to an integer as perf does");
	ok(isnan(kv_test_get(&l, CT "tiny.main")), "8 hits stay below");
	kv_list_release(&l);
	callgraph_free(cg);
}

static void test_suffix_stripping(void)
{
	struct callgraph *cg = callgraph_new();
	struct kv_list l;

	cg_test_add(cg, "a", "foo.isra.0;main", 30, 1);
	cg_test_add(cg, "a", "foo.constprop.12;main", 20, 1);
	cg_test_add(cg, "a", "bar.part.1.isra.2;main", 10, 1);
	cg_test_add(cg, "a", "baz.cold;main", 10, 1);
	cg_test_add(cg, "a", "qux.isra;main", 10, 1);
	cg_test_add(cg, "a", "other", 20, 1);
	l = keys_of(cg);
	is_double(kv_test_get(&l, P "self.cycles-pp.foo"), 50, 1e-9, "suffixes stripped, merged");
	is_double(kv_test_get(&l, P "children.cycles-pp.foo"), 50, 1e-9, "children merged too");
	is_double(kv_test_get(&l, CT "foo.main"), 50, 1e-9, "calltrace frames stripped, merged");
	is_double(kv_test_get(&l, P "self.cycles-pp.bar"), 10, 1e-9, "every suffix removed");
	is_double(kv_test_get(&l, P "self.cycles-pp.baz.cold"), 10, 1e-9, ".cold is kept");
	is_double(kv_test_get(&l, P "self.cycles-pp.qux.isra"), 10, 1e-9,
		  "a suffix without digits is kept");
	ok(isnan(kv_test_get(&l, P "self.cycles-pp.foo.isra.0")), "the raw name is gone");
	kv_list_release(&l);
	callgraph_free(cg);
}

static void test_same_name_entries(void)
{
	struct callgraph *cg = callgraph_new();
	struct kv_list l;

	cg_test_add(cg, "a", "dup@liba.so;main", 30, 1);
	cg_test_add(cg, "a", "dup@libb.so;main", 20, 1);
	/* Two static functions of one name in one module: two entries for perf. */
	cg_test_add(cg, "a", "cmp#0x1000@[kernel.kallsyms];cmp#0x2000@[kernel.kallsyms]", 25, 1);
	cg_test_add(cg, "a", "cmp#0x2000@[kernel.kallsyms]", 25, 1);
	l = keys_of(cg);
	is_double(kv_test_get(&l, P "self.cycles-pp.dup"), 50, 1e-9,
		  "entries of different modules are summed by name");
	is_double(kv_test_get(&l, CT "dup.main"), 50, 1e-9, "and so are their chains");
	is_double(kv_test_get(&l, P "children.cycles-pp.cmp"), 75, 1e-9,
		  "same name, different start: separate entries, children summed (25 + 50)");
	is_double(kv_test_get(&l, CT "cmp.cmp"), 25, 1e-9,
		  "a chain through two same-named symbols is not recursion");
	kv_list_release(&l);
	callgraph_free(cg);
}

static void test_unresolved(void)
{
	struct callgraph *cg = callgraph_new();
	struct kv_list l;

	cg_test_add(cg, "a", "?+0x10;main", 500, 5);		/* unresolved leaf: dropped */
	cg_test_add(cg, "a", "?@libx.so;main", 500, 5);
	cg_test_add(cg, "a", "leaf;?+0x20;main", 300, 3);	/* unresolved inside: skipped */
	cg_test_add(cg, "a", "leaf;?+0x30;main", 200, 2);
	cg_test_add(cg, "a", "other;main", 500, 5);
	l = keys_of(cg);
	is_double(kv_test_get(&l, P "self.cycles-pp.leaf"), 50, 1e-9,
		  "percentages are over resolved samples only");
	is_double(kv_test_get(&l, CT "leaf.main"), 50, 1e-9,
		  "the chain closes up around unresolved frames (and merges)");
	is_double(kv_test_get(&l, P "children.cycles-pp.main"), 100, 1e-9,
		  "dropped samples do not count for the callers either");
	kv_list_release(&l);
	callgraph_free(cg);
}

static void test_rounding_before_sum(void)
{
	struct callgraph *cg = callgraph_new();
	struct kv_list l;

	/* 1 of 600 = 0.1667 % prints 0.17; two such entries give 0.34, not round(0.3333) = 0.33 */
	cg_test_add(cg, "a", "r@liba.so", 1, 1);
	cg_test_add(cg, "a", "r@libb.so", 1, 1);
	cg_test_add(cg, "a", "rest", 598, 598);
	l = keys_of(cg);
	is_double(kv_test_get(&l, P "self.cycles-pp.r"), 0.34, 1e-9,
		  "each printed value is rounded before LKP sums");
	kv_list_release(&l);
	callgraph_free(cg);
}

static void test_print_threshold(void)
{
	struct callgraph *cg = callgraph_new();
	struct kv_list l;

	cg_test_add(cg, "a", "at", 50, 1);		/* 0.050 % */
	cg_test_add(cg, "a", "rounds_up", 49, 1);	/* 0.049 % prints as 0.05 */
	cg_test_add(cg, "a", "below", 44, 1);		/* 0.044 % prints as 0.04 */
	cg_test_add(cg, "a", "two@liba.so", 20, 1);	/* 0.02 + 0.03 = 0.05 */
	cg_test_add(cg, "a", "two@libb.so", 30, 1);
	cg_test_add(cg, "a", "rest", 100000 - 193, 1);
	l = keys_of(cg);
	is_double(kv_test_get(&l, P "self.cycles-pp.at"), 0.05, 1e-9, "0.05 is printed");
	is_double(kv_test_get(&l, P "self.cycles-pp.rounds_up"), 0.05, 1e-9,
		  "the rounded value is compared");
	ok(isnan(kv_test_get(&l, P "self.cycles-pp.below")), "0.04 is not printed");
	is_double(kv_test_get(&l, P "self.cycles-pp.two"), 0.05, 1e-9,
		  "a sum reaching 0.05 exactly is printed");
	kv_list_release(&l);
	callgraph_free(cg);
}

static void test_text_and_order(void)
{
	struct callgraph *cg = callgraph_new();
	struct capture c;
	struct kv_list l;
	char *text;
	size_t i;
	bool sorted = true;

	cg_test_add(cg, "a", "b;main", 2, 1);
	cg_test_add(cg, "a", "a;main", 1, 1);
	l = keys_of(cg);
	for (i = 1; i < l.nr; i++)
		sorted &= strcmp(l.items[i - 1].key, l.items[i].key) < 0;
	ok(sorted && l.nr == 8, "keys appended sorted bytewise (%zu)", l.nr);
	kv_list_write_text(capture_open(&c), &l);
	text = capture_close(&c);
	is_str(text,
	       "perf-profile.calltrace.cycles-pp.a.main: 33.33\n"
	       "perf-profile.calltrace.cycles-pp.b.main: 66.67\n"
	       "perf-profile.calltrace.cycles-pp.main: 100.00\n"
	       "perf-profile.children.cycles-pp.a: 33.33\n"
	       "perf-profile.children.cycles-pp.b: 66.67\n"
	       "perf-profile.children.cycles-pp.main: 100.00\n"
	       "perf-profile.self.cycles-pp.a: 33.33\n"
	       "perf-profile.self.cycles-pp.b: 66.67\n", "2-decimal text, self 0.00 not printed");
	free(text);
	kv_list_release(&l);
	callgraph_free(cg);
}

static void test_whitespace_and_names(void)
{
	struct callgraph *cg = callgraph_new();
	struct lkp_profile_opts o = lkp_opts;
	struct kv_list l = { 0 };

	cg_test_add(cg, "a", "operator new(unsigned long);main", 50, 1);
	cg_test_add(cg, "a", "leaf;operator delete(void*);main", 50, 1);
	o.event = "'cpu:clock'";
	is_int(lkp_profile_keys(cg, &o, &l), 0, "ok");
	ok(isnan(kv_test_get(&l, P "children.cpu-clock.operator")),
	   "a symbol with whitespace is ignored");
	is_double(kv_test_get(&l, P "self.cpu-clock.leaf"), 50, 1e-9,
		  "event: ':' -> '-', quotes removed");
	ok(isnan(kv_test_get(&l, "perf-profile.calltrace.cpu-clock.leaf.operator")),
	   "a chain through a whitespace symbol is lost whole");
	is_double(kv_test_get(&l, "perf-profile.calltrace.cpu-clock.main"), 100, 1e-9,
		  "chains above it are kept");
	kv_list_release(&l);
	callgraph_free(cg);
}

static void test_weights_and_events(void)
{
	struct callgraph *a = callgraph_new(), *b = callgraph_new();
	const struct callgraph *both[2] = { a, b };
	struct lkp_profile_opts o = lkp_opts;
	struct kv_list l = { 0 };

	cg_test_add(a, "t", "x", 900, 1);
	cg_test_add(a, "t", "y", 100, 3);
	cg_test_add(b, "t", "x", 10, 1);
	o.weight_samples = true;
	lkp_profile_keys(a, &o, &l);
	is_double(kv_test_get(&l, P "self.cycles-pp.y"), 75, 1e-9, "weighted by sample count");
	kv_list_release(&l);
	o.weight_samples = false;
	is_int(lkp_profile_keys_multi(both, 2, &o, &l), 0, "multi");
	is_double(kv_test_get(&l, P "self.cycles-pp.x"), 190, 1e-9,
		  "several events are filed under the first name and summed, as LKP does");
	kv_list_release(&l);
	o.event = NULL;
	is_int(lkp_profile_keys(a, &o, &l), -EINVAL, "no event name: -EINVAL");
	callgraph_free(a);
	callgraph_free(b);
}

static void test_empty(void)
{
	struct callgraph *cg = callgraph_new();
	struct kv_list l = { 0 };

	is_int(lkp_profile_keys(cg, &lkp_opts, &l), 0, "empty graph");
	is_int(l.nr, 0, "no keys");
	cg_test_add(cg, "a", "?", 10, 1);
	is_int(lkp_profile_keys(cg, &lkp_opts, &l), 0, "only unresolved samples");
	is_int(l.nr, 0, "no keys, no division by zero");
	kv_list_release(&l);
	callgraph_free(cg);
}

/* printf's "%.2f" of part * 100.0 / total as hundredths, the reference. */
static uint64_t hundredths_by_printf(uint64_t part, uint64_t total)
{
	char buf[64];
	uint64_t v = 0;

	snprintf(buf, sizeof(buf), "%.2f", part * 100.0 / total);
	for (const char *p = buf; *p; p++)
		if (*p >= '0' && *p <= '9')
			v = v * 10 + (uint64_t)(*p - '0');
	return v;
}

/*
 * percent_hundredths() rounds in integers as printf does: exact ties (1/8 of a total of 800:
 * 0.125 % -> 0.12, 3/8 -> 0.38), values just either side of them, and random pairs.
 */
static void test_percent_rounding(void)
{
	static const uint64_t cases[][2] = {
		{ 1, 800 }, { 3, 800 }, { 5, 800 }, { 1, 8 }, { 1, 3 }, { 2, 3 }, { 0, 7 },
		{ 7, 7 }, { 1, 1000000007 }, { 499999, 1000000000 }, { 1, 80000 }, { 3, 80000 },
		{ 12345, 12345 }, { 1, 1ULL << 62 }, { (1ULL << 62) - 1, 1ULL << 62 },
	};
	size_t bad = 0;

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++)
		is_int((int)percent_hundredths(cases[i][0], cases[i][1]),
		       (int)hundredths_by_printf(cases[i][0], cases[i][1]),
		       "%llu/%llu rounds as printf", (unsigned long long)cases[i][0],
		       (unsigned long long)cases[i][1]);
	srand(16);
	for (int i = 0; i < 200000; i++) {
		uint64_t total = (uint64_t)rand() % (i < 100000 ? 100000 : 1000000000) + 1;
		uint64_t part = (uint64_t)rand() % (total + 1);

		bad += percent_hundredths(part, total) != hundredths_by_printf(part, total);
	}
	is_int((int)bad, 0, "200,000 random parts round as printf");
	is_int((int)percent_hundredths(5, 0), 0, "a zero total gives 0");
}

/*
 * A sample whose ip is not its chain's first entry (callgraph_add_ids_ip()): perf gives Self to
 * the ip's symbol, Children once to it and to each chain entry, and prints under the ip's entry
 * the whole chain, a line of its own; folded stacks are the chain as recorded.
 */
static void test_detached_ip(void)
{
	struct callgraph *cg = callgraph_new();
	struct cg_frame f[3] = {
		{ .sym = "callee", .dso = "app" }, { .sym = "caller", .dso = "app" },
		{ .sym = "main", .dso = "app" },
	};
	struct cg_task task = { .comm = "app", .pid = -1, .tid = -1 };
	uint32_t id[3];
	struct kv_list l;
	char *text = NULL;
	size_t len = 0;
	FILE *fp;

	for (int i = 0; i < 3; i++)
		callgraph_frame_id(cg, &f[i], &id[i]);
	is_int(callgraph_add_ids_ip(cg, &task, id[0], id + 1, 2, 3000, 3000), 0,
	       "a detached ip is added");
	callgraph_add_ids_ip(cg, &task, id[1], id + 1, 2, 500, 500);	/* ip in the chain's leaf */
	cg_test_add(cg, "app", "caller;main", 500, 500);
	cg_test_add(cg, "app", "spin;main", 6000, 6000);
	is_int(callgraph_add_ids_ip(cg, &task, 99, id, 1, 1, 1), -EINVAL, "a bad ip id");
	l = keys_of(cg);
	is_double(kv_test_get(&l, P "self.cycles-pp.callee"), 30.00, 1e-9, "Self goes to the ip");
	is_double(kv_test_get(&l, P "children.cycles-pp.callee"), 30.00, 1e-9, "and Children");
	is_double(kv_test_get(&l, P "self.cycles-pp.caller"), 10.00, 1e-9,
		  "not to the chain's first entry");
	is_double(kv_test_get(&l, P "children.cycles-pp.caller"), 40.00, 1e-9,
		  "which has Children, once per sample");
	is_double(kv_test_get(&l, CT "caller.main"), 70.00, 1e-9,
		  "the chain is printed under the ip's entry and under its own");
	ok(isnan(kv_test_get(&l, CT "callee.caller.main")), "the ip is not a frame of the chain");
	is_double(kv_test_get(&l, CT "main"), 100.00, 1e-9, "callers' chains as usual");
	kv_list_release(&l);
	fp = open_memstream(&text, &len);
	folded_write(fp, cg, 0);
	fclose(fp);
	is_str(text, "app;main;caller 4000\napp;main;spin 6000\n", "folded: the chain as recorded");
	free(text);
	callgraph_free(cg);
}

int main(void)
{
	test_percent_rounding();
	test_fixture2_worked_example();
	test_detached_ip();
	test_recursion();
	test_two_callers();
	test_chain_threshold();
	test_chain_threshold_truncates();
	test_suffix_stripping();
	test_same_name_entries();
	test_unresolved();
	test_rounding_before_sum();
	test_print_threshold();
	test_text_and_order();
	test_whitespace_and_names();
	test_weights_and_events();
	test_empty();
	return done_testing();
}
