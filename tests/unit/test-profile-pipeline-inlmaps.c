// SPDX-License-Identifier: GPL-2.0
/*
 * Inlined frames by perf map object (pipeline-inlmaps.c): a sample counts when one of its
 * inlined frames is of a (event, module, function, name) that perf reaches through two map
 * objects -- whenever in the recording the second one comes --, once however many such frames
 * it has; the functions are named once each.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profiler/profile/pipeline-int.h"
#include "tests/tap.h"

static const char dso[] = "/usr/lib/ld-linux-x86-64.so.2", other_dso[] = "/usr/lib/libc.so.6";
static const char in_a[] = "dl_platform_init (inlined)", in_b[] = "_dl_start_final (inlined)";
static const char base_a[] = "_dl_sysdep_start", base_b[] = "_dl_start";
static int view1, view2;

static int frame(struct inl_maps *t, uint32_t ev, const char *d, const char *name, uint64_t id,
		 const char *base, const void *view, uint32_t serial)
{
	struct sym_perf_map m = { .view = view, .serial = serial };

	return inl_maps_frame(t, ev, d, name, id, base, &m);
}

static void test_one_map(void)
{
	struct inl_maps t = { 0 };
	struct inl_maps_said r = { .samples = 9, .nr_funcs = 9 };
	int bad = 0;

	/* one process: both frames of every sample through the same map object */
	for (int i = 0; i < 50; i++) {
		bad |= frame(&t, 0, dso, in_a, 0x1a2d0, base_a, &view1, 3);
		bad |= frame(&t, 0, dso, in_b, 0x1b770, base_b, &view1, 3);
		bad |= inl_maps_sample(&t, 1, 1000);
	}
	ok(!bad, "frames and samples added");
	ok(!inl_maps_result(&t, &r) && !r.samples && !r.nr_funcs && !r.funcs && !r.excess &&
	   !r.files, "one map object: nothing to say");
	is_int(t.nr_runs, 3 + 2, "50 alike samples: one run");
	inl_maps_release(&t);
}

static void test_two_maps(void)
{
	struct inl_maps t = { 0 };
	struct inl_maps_said r;
	int bad = 0;

	/* before the exec: 3 samples; a sample without inlined frames adds nothing */
	for (int i = 0; i < 3; i++) {
		bad |= frame(&t, 0, dso, in_a, 0x1a2d0, base_a, &view1, 3);
		bad |= frame(&t, 0, dso, in_b, 0x1b770, base_b, &view1, 3);
		bad |= inl_maps_sample(&t, 1, 1000);
	}
	bad |= inl_maps_sample(&t, 5, 5000);
	/* a same-named inlined frame of another function, module or event stays apart */
	bad |= frame(&t, 0, dso, in_a, 0x99000, "elsewhere", &view1, 3);
	bad |= inl_maps_sample(&t, 1, 1000);
	bad |= frame(&t, 0, other_dso, in_a, 0x1a2d0, "libc_fn", &view1, 4);
	bad |= inl_maps_sample(&t, 1, 1000);
	bad |= frame(&t, 1, dso, in_a, 0x1a2d0, base_a, &view2, 1);
	bad |= inl_maps_sample(&t, 1, 1000);
	/* after the exec: the same file, a new map object (same address with setarch -R) */
	bad |= frame(&t, 0, dso, in_b, 0x1b770, base_b, &view1, 7);
	bad |= inl_maps_sample(&t, 2, 2000);
	ok(!bad, "frames and samples added");
	ok(!inl_maps_result(&t, &r), "result");
	is_int(r.samples, 3 + 2, "the samples before the second map count too, each once");
	is_int(r.nr_funcs, 1, "one function");
	ok(r.funcs && !strcmp(r.funcs, base_b), "... named: %s", r.funcs ? r.funcs : "(null)");
	ok(r.excess && r.excess[0] == 5000, "... its Children can gain those samples' period");
	ok(r.files && !strcmp(r.files, "ld-linux-x86-64.so.2"), "... its file: %s",
	   r.files ? r.files : "(null)");
	inl_maps_said_release(&r);

	/* a forked process's copy (another view, same serial) is another object */
	bad |= frame(&t, 0, dso, in_a, 0x1a2d0, base_a, &view2, 3);
	bad |= frame(&t, 0, dso, in_b, 0x1b770, base_b, &view2, 7);
	bad |= inl_maps_sample(&t, 1, 1000);
	ok(!bad && !inl_maps_result(&t, &r), "a fork's sample added");
	is_int(r.samples, 3 + 2 + 1, "... counted once with both its frames");
	is_int(r.nr_funcs, 2, "two functions");
	ok(r.funcs && !strcmp(r.funcs, "_dl_sysdep_start _dl_start"), "... in first-seen order: %s",
	   r.funcs ? r.funcs : "(null)");
	ok(r.excess && r.excess[0] == 4000 && r.excess[1] == 6000,
	   "each can gain the period of every sample with its inlined frame, before or after");
	inl_maps_said_release(&r);
	inl_maps_release(&t);
	ok(!t.keys && !t.runs && !t.nr, "released is empty");
}

static void test_many(void)
{
	struct inl_maps t = { 0 };
	char (*names)[16] = calloc(3000, sizeof(*names));
	struct inl_maps_said r;
	int bad = 0;

	for (int i = 0; i < 3000; i++) {
		snprintf(names[i], sizeof(names[i]), "f%d", i);
		bad |= frame(&t, 0, dso, names[i], (uint64_t)i, names[i], &view1, 1);
		bad |= inl_maps_sample(&t, 1, 1000);
	}
	/* every third one again through another map, in another order */
	for (int i = 2999; i >= 0; i -= 3) {
		bad |= frame(&t, 0, dso, names[i], (uint64_t)i, names[i], &view1, 2);
		bad |= inl_maps_sample(&t, 1, 1000);
	}
	ok(!bad && !inl_maps_result(&t, &r), "3000 keys, past table growth");
	is_int(t.nr, 3000, "... each once");
	is_int(r.nr_funcs, 1000, "a third of them seen twice");
	is_int(r.samples, 2000, "... in 2000 samples");
	inl_maps_said_release(&r);
	free(names);
	inl_maps_release(&t);
}

int main(void)
{
	test_one_map();
	test_two_maps();
	test_many();
	return done_testing();
}
