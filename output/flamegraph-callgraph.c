// SPDX-License-Identifier: GPL-2.0
/*
 * flamegraph-callgraph.c - the bridges between the call graph and flame graphs: a call graph's
 * stacks into a frame tree, named exactly as folded_write() names them (so that perf.data and
 * its collapsed text draw, and diff, alike), and folded text into a call graph.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/flamegraph-int.h"
#include "output/output-int.h"

struct cg_to_tree {
	struct flame_tree	*tree;
	enum flame_side		side;
	bool			samples;
	char			*buf;		/* the stack's names, NUL separated */
	size_t			len, cap;
	size_t			*offs;		/* where each name starts in buf */
	const char		**names;
	unsigned int		*flags;
	size_t			alloc;		/* of offs, names and flags */
};

static int put_bytes(struct cg_to_tree *c, const char *s, size_t n)
{
	if (c->len + n + 1 > c->cap) {
		size_t cap = c->cap ? c->cap : 256;
		char *b;

		while (cap < c->len + n + 1)
			cap *= 2;
		b = realloc(c->buf, cap);
		if (!b)
			return -ENOMEM;
		c->buf = b;
		c->cap = cap;
	}
	memcpy(c->buf + c->len, s, n);
	c->len += n;
	return 0;
}

/* Append one name: @prefix @s @suffix, @from characters turned into @to, then a NUL. */
static int put_name(struct cg_to_tree *c, const char *prefix, const char *s, const char *suffix,
		    char from, char to)
{
	size_t start = c->len;
	int err;

	err = put_bytes(c, prefix, strlen(prefix)) ?: put_bytes(c, s, strlen(s)) ?:
	      put_bytes(c, suffix, strlen(suffix) + 1);
	for (size_t i = start; !err && i < c->len; i++) {
		if (c->buf[i] == from)
			c->buf[i] = to;
	}
	return err;
}

static bool has_kernel_suffix(const char *s)
{
	size_t n = strlen(s);

	return n >= 4 && !strcmp(s + n - 4, "_[k]");
}

static int grow_stack(struct cg_to_tree *c, size_t nr)
{
	size_t *o;
	const char **n;
	unsigned int *f;

	if (nr <= c->alloc)
		return 0;
	o = realloc(c->offs, nr * sizeof(*o));
	if (o)
		c->offs = o;
	n = realloc(c->names, nr * sizeof(*n));
	if (n)
		c->names = n;
	f = realloc(c->flags, nr * sizeof(*f));
	if (f)
		c->flags = f;
	if (!o || !n || !f)
		return -ENOMEM;
	c->alloc = nr;
	return 0;
}

static int add_stack(const struct cg_stack *st, void *arg)
{
	struct cg_to_tree *c = arg;
	size_t nr = 0, i;
	int err;

	err = grow_stack(c, st->nr + 1);
	c->len = 0;
	/* the root is the comm with spaces as '_', like stackcollapse-perf.pl */
	if (!err && st->task && st->task->comm) {
		c->offs[nr] = c->len;
		c->flags[nr++] = 0;
		err = put_name(c, "", st->task->comm, "", ' ', '_');
	}
	for (i = st->nr; i-- > 0 && !err;) {	/* leaf first in the graph, root first here */
		const struct cg_frame *f = &st->frames[i];

		c->offs[nr] = c->len;
		c->flags[nr++] = f->flags & CG_FRAME_KERNEL ? FLAME_FRAME_KERNEL : 0;
		if (f->sym && has_kernel_suffix(f->sym)) {
			/* `perf script` text gives names already annotated (--kernel) */
			err = put_bytes(c, f->sym, strlen(f->sym) - 4) ?: put_bytes(c, "", 1);
			c->flags[nr - 1] = FLAME_FRAME_KERNEL;
		} else if (f->sym && (f->flags & CG_FRAME_INLINED) && strstr(f->sym, " (inlined)")) {
			/* as the folded text of perf script shows it: NAME */
			err = put_bytes(c, f->sym, (size_t)(strstr(f->sym, " (inlined)") - f->sym)) ?:
			      put_bytes(c, "", 1);
		} else if (f->sym) {
			err = put_name(c, "", f->sym, "", ';', ':');
		} else if (strcmp(f->dso, "[unknown]")) {
			err = put_name(c, "[", dso_basename(f->dso), "]", ';', ':');
		} else {
			err = put_name(c, "", "[unknown]", "", 0, 0);
		}
	}
	if (err)
		return err;
	for (i = 0; i < nr; i++)
		c->names[i] = c->buf + c->offs[i];
	return flame_tree_add(c->tree, c->side, c->names, c->flags, nr,
			      c->samples ? (double)st->samples : (double)st->period);
}

int flame_tree_add_callgraph(struct flame_tree *t, enum flame_side side,
			     const struct callgraph *cg, bool samples)
{
	struct cg_to_tree c = { .tree = t, .side = side, .samples = samples };
	int err = callgraph_for_each(cg, add_stack, &c);

	free(c.buf);
	free(c.offs);
	free(c.names);
	free(c.flags);
	return err;
}

int callgraph_add_folded(const struct folded_frame *frames, size_t nr, double count,
			 double before, void *arg)
{
	(void)before;	/* a differential "before" count has no place in one call graph */
	struct cg_frame small[64] = { { 0 } }, *f = small;
	struct cg_task task = { .comm = NULL, .pid = -1, .tid = -1 };
	uint64_t n = (uint64_t)llround(count);
	size_t nr_frames;
	int err;

	if (!nr || !n)
		return 0;	/* nothing folded_write() could print back */
	task.comm = frames[0].name;
	nr_frames = nr - 1;
	if (nr_frames > sizeof(small) / sizeof(small[0])) {
		f = malloc(nr_frames * sizeof(*f));
		if (!f)
			return -ENOMEM;
	}
	for (size_t i = 0; i < nr_frames; i++) {
		const struct folded_frame *in = &frames[nr - 1 - i];	/* leaf first */
		bool kernel = in->flags & FOLDED_FRAME_KERNEL;
		bool unknown = !strcmp(in->name, "[unknown]");

		f[i] = (struct cg_frame){
			.sym = unknown ? NULL : in->name,
			.dso = kernel ? "[kernel.kallsyms]" : "[unknown]",
			.flags = kernel ? CG_FRAME_KERNEL : 0,
		};
	}
	err = callgraph_add(arg, &task, f, nr_frames, n, n);
	if (f != small)
		free(f);
	return err;
}
