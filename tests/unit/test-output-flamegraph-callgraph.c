// SPDX-License-Identifier: GPL-2.0
/*
 * The bridges between the call graph and flame graphs: folded text into a call graph (and back
 * out through folded_write() unchanged), and a call graph into a frame tree named the way
 * folded_write() names frames.
 */
#include <stdlib.h>
#include <string.h>

#include "output/flamegraph-int.h"
#include "tests/tap.h"

/* folded_write() output of @cg in @buf (small graphs only). */
static const char *folded_of(const struct callgraph *cg, unsigned int flags, char *buf, size_t len)
{
	FILE *fp = fmemopen(buf, len, "w");

	memset(buf, 0, len);
	folded_write(fp, cg, flags);
	fclose(fp);
	return buf;
}

static const struct flame_node *child(const struct flame_tree *t, uint32_t parent,
				      const char *name)
{
	const struct flame_node *n = t->nodes;

	for (uint32_t c = n[parent].first_child; c != FLAME_NONE; c = n[c].next_sibling)
		if (!strcmp(t->nodes[c].name, name))
			return &t->nodes[c];
	return NULL;
}

static void test_folded_into_callgraph(void)
{
	const char *text = "cc1;main;parse_k_[k] 7\ncc1;main;[unknown] 2\nld;main 3\nld;x 0.4\n"
			   "ld;main 1.6\n";
	const char *want = "cc1;main;[unknown] 2\ncc1;main;parse_k_[k] 7\nld;main 5\n";
	struct callgraph *cg = callgraph_new();
	struct folded_read_stats st;
	char out[256];

	is_int(folded_read_buf(text, strlen(text), callgraph_add_folded, cg, &st), 0,
	       "folded text into a call graph");
	is_u64(callgraph_total_period(cg), 14, "counts rounded: 7 + 2 + 3 + 0 + 2");
	is_str(folded_of(cg, FOLDED_KERNEL, out, sizeof(out)), want,
	       "folded_write prints it back (kernel suffix, unknown frames, merged)");
	callgraph_free(cg);
}

static void test_callgraph_into_tree(void)
{
	struct callgraph *cg = callgraph_new();
	struct flame_tree *t = flame_tree_new(false);
	struct cg_task task = { .comm = "kworker/0:1 x", .pid = 1, .tid = 1 };
	struct cg_frame frames[] = {	/* leaf first */
		{ .sym = "do_idle", .dso = "[kernel.kallsyms]", .flags = CG_FRAME_KERNEL },
		{ .sym = NULL, .dso = "/usr/lib/libc.so.6" },
		{ .sym = NULL, .dso = "[unknown]" },
		{ .sym = "a;b", .dso = "/bin/x" },
		{ .sym = "entry_[k]", .dso = "" },
	};
	const struct flame_node *comm, *entry, *ab, *unk, *libc, *idle;

	callgraph_add(cg, &task, frames, 5, 1000, 2);
	callgraph_add(cg, &task, frames + 1, 4, 500, 1);
	is_int(flame_tree_add_callgraph(t, FLAME_AFTER, cg, false), 0, "call graph into a tree");
	is_double(flame_tree_total(t, FLAME_AFTER), 1500, 0, "weighted by period");
	comm = child(t, 0, "kworker/0:1_x");
	ok(comm, "root frame: the comm, spaces as '_'");
	entry = comm ? child(t, comm - t->nodes, "entry") : NULL;
	ok(entry && entry->flags == FLAME_FRAME_KERNEL, "a _[k] suffix marks a kernel frame");
	ab = entry ? child(t, entry - t->nodes, "a:b") : NULL;
	ok(ab, "';' in a name becomes ':' as in folded output");
	unk = ab ? child(t, ab - t->nodes, "[unknown]") : NULL;
	libc = unk ? child(t, unk - t->nodes, "[libc.so.6]") : NULL;
	ok(unk && libc, "unresolved frames: [unknown] and [<module basename>]");
	idle = libc ? child(t, libc - t->nodes, "do_idle") : NULL;
	ok(idle && (idle->flags & FLAME_FRAME_KERNEL), "kernel frames keep their flag");
	ok(libc && libc->total[0] == 1500 && libc->self[0] == 500, "inclusive and self counts");
	flame_tree_free(t);

	t = flame_tree_new(false);
	flame_tree_add_callgraph(t, FLAME_BEFORE, cg, true);
	is_double(flame_tree_total(t, FLAME_BEFORE), 3, 0, "weighted by samples, on a side");
	flame_tree_free(t);
	callgraph_free(cg);
}

int main(void)
{
	test_folded_into_callgraph();
	test_callgraph_into_tree();
	return done_testing();
}
