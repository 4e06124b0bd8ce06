// SPDX-License-Identifier: GPL-2.0
/*
 * Named frames (pipeline-names.c): a user frame is interned by what it names, so every process
 * and address resolving alike share one struct nframe and the call graph id kept in it; frames
 * come zeroed from chunks that never move, however many are made.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "profiler/profile/pipeline-int.h"
#include "tests/tap.h"

#define MANY	20000	/* past several chunks and table growths */

static const char *const syms[] = { "main", "memcpy", "parse" };
static const char *const dsos[] = { "/usr/bin/cc1", "/usr/lib/libc.so.6" };

static void test_identity(void)
{
	struct nframe_table t = { 0 };
	struct nframe *a = nframe_intern(&t, syms[0], dsos[0], 0x40, 0);
	struct nframe *b = nframe_intern(&t, syms[0], dsos[0], 0x40, 0);

	ok(a && a == b, "the same (symbol, module, id) is the same nframe");
	ok(a->sym == syms[0] && a->dso == dsos[0] && a->sym_id == 0x40 && !a->addr,
	   "... holding what it names");
	ok(!a->cg_event && !a->cg_id, "... with no call graph id yet");
	ok(nframe_intern(&t, syms[1], dsos[0], 0x40, 0) != a, "another symbol: another nframe");
	ok(nframe_intern(&t, syms[0], dsos[1], 0x40, 0) != a, "another module: another nframe");
	ok(nframe_intern(&t, syms[0], dsos[0], 0x80, 0) != a,
	   "another id (a same-named symbol elsewhere): another nframe");
	ok(nframe_intern(&t, NULL, dsos[0], 0, 0) != nframe_intern(&t, NULL, dsos[0], 0x99, 0x99),
	   "unresolved frames shown by address are apart");
	ok(nframe_intern(&t, NULL, dsos[0], 0, 0) == nframe_intern(&t, NULL, dsos[0], 0, 0),
	   "... and one per module when not");
	a->cg_event = 1;
	a->cg_id = 7;
	b = nframe_intern(&t, syms[0], dsos[0], 0x40, 0);
	ok(b->cg_event == 1 && b->cg_id == 7, "a call graph id set once is found again");
	nframe_table_release(&t);
	ok(!t.tab && !t.nr && !t.chunks, "released is empty");
}

static void test_many(void)
{
	struct nframe_table t = { 0 };
	struct nframe **got = calloc(MANY, sizeof(*got));
	size_t bad = 0, distinct = 0;

	for (size_t i = 0; i < MANY; i++) {
		got[i] = nframe_intern(&t, syms[i % 3], dsos[i % 2], i, 0);
		bad += !got[i] || got[i]->sym_id != i || got[i]->cg_id;
		if (got[i])
			got[i]->cg_id = (uint32_t)i + 1;
	}
	is_int(bad, 0, "%d distinct frames made, each holding its key", MANY);
	is_int(t.nr, MANY, "... counted once each");
	for (size_t i = 0; i < MANY; i++) {
		struct nframe *f = nframe_intern(&t, syms[i % 3], dsos[i % 2], i, 0);

		bad += f != got[i] || f->cg_id != i + 1;
		for (size_t j = 0; j < i && j < 3; j++)
			distinct += f == got[j];
	}
	is_int(bad, 0, "after the table grew, each is found at the same address, its id kept");
	is_int(distinct, 0, "... and none is another's");
	is_int(t.nr, MANY, "finding made none");
	nframe_table_release(&t);
	free(got);
}

static void test_chunks(void)
{
	struct nframe_chunk *chunks = NULL;
	struct nframe *first = nframe_new(&chunks), *f = first;
	size_t nonzero = 0;

	first->cg_id = 42;
	for (int i = 0; i < 10000 && f; i++) {
		f = nframe_new(&chunks);
		nonzero += f && (f->sym || f->dso || f->addr || f->sym_id || f->cg_event ||
				 f->cg_id);
	}
	ok(f != NULL, "10001 nframes from the chunks");
	is_int(nonzero, 0, "... each zeroed");
	ok(first->cg_id == 42, "the first did not move");
	nframe_chunks_free(&chunks);
	ok(!chunks, "freed");
}

int main(void)
{
	test_identity();
	test_many();
	test_chunks();
	return done_testing();
}
