// SPDX-License-Identifier: GPL-2.0
/*
 * flamegraph-tree.c - merge stacks into the frame tree a flame graph is drawn from.
 *
 * Memory grows with the number of distinct frames in context, not with the number of stacks:
 * names are interned once, and a child is found by hashing (parent, name).
 *
 * A frame is its name in its context; flags do not split it: a kernel frame named in one input
 * (perf.data, "_[k]" in folded text) and unannotated in another (plain folded text) is the same
 * frame, so differential graphs of mixed inputs line up. The flags of a node are the union.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/flamegraph-int.h"

struct flame_str {
	uint64_t	hash;
	char		*s;		/* NULL: empty slot */
};

static uint64_t hash_str(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;	/* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

static uint64_t hash_child(uint32_t parent, const char *name)
{
	uint64_t h = (uint64_t)(uintptr_t)name * 0x9e3779b97f4a7c15ull;

	h ^= (uint64_t)parent * 0xc2b2ae3d27d4eb4full;
	return h ^ (h >> 29);
}

static int str_grow(struct flame_tree *t)
{
	size_t n = t->nr_str_slots ? t->nr_str_slots * 2 : 1024;
	struct flame_str *slots = calloc(n, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < t->nr_str_slots; i++) {
		struct flame_str *o = &t->strs[i];
		size_t j;

		if (!o->s)
			continue;
		for (j = o->hash & (n - 1); slots[j].s; j = (j + 1) & (n - 1))
			;
		slots[j] = *o;
	}
	free(t->strs);
	t->strs = slots;
	t->nr_str_slots = n;
	return 0;
}

static const char *intern(struct flame_tree *t, const char *s)
{
	uint64_t h = hash_str(s);
	size_t j;

	if ((t->nr_strs + 1) * 2 > t->nr_str_slots && str_grow(t))
		return NULL;
	for (j = h & (t->nr_str_slots - 1); t->strs[j].s; j = (j + 1) & (t->nr_str_slots - 1))
		if (t->strs[j].hash == h && !strcmp(t->strs[j].s, s))
			return t->strs[j].s;
	t->strs[j].s = strdup(s);
	if (!t->strs[j].s)
		return NULL;
	t->strs[j].hash = h;
	t->nr_strs++;
	return t->strs[j].s;
}

static int child_grow(struct flame_tree *t)
{
	size_t n = t->nr_child_slots ? t->nr_child_slots * 2 : 1024;
	uint32_t *slots = calloc(n, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < t->nr_child_slots; i++) {
		const struct flame_node *c;
		size_t j;

		if (t->child_slots[i] == FLAME_NONE)
			continue;
		c = &t->nodes[t->child_slots[i]];
		j = hash_child(c->parent, c->name) & (n - 1);
		for (; slots[j] != FLAME_NONE; j = (j + 1) & (n - 1))
			;
		slots[j] = t->child_slots[i];
	}
	free(t->child_slots);
	t->child_slots = slots;
	t->nr_child_slots = n;
	return 0;
}

static int64_t new_node(struct flame_tree *t, uint32_t parent, const char *name,
			unsigned int flags)
{
	struct flame_node *n;

	if (t->nr == UINT32_MAX)
		return -E2BIG;
	if (t->nr == t->alloc) {
		size_t a = t->alloc ? t->alloc * 2 : 1024;

		n = realloc(t->nodes, a * sizeof(*n));
		if (!n)
			return -ENOMEM;
		t->nodes = n;
		t->alloc = a;
	}
	n = &t->nodes[t->nr];
	memset(n, 0, sizeof(*n));
	n->name = name;
	n->parent = parent;
	n->flags = flags;
	if (t->nr) {
		n->next_sibling = t->nodes[parent].first_child;
		t->nodes[parent].first_child = t->nr;
	}
	return t->nr++;
}

/* The child @name of @parent, created when missing; negative errno on failure. */
static int64_t child_of(struct flame_tree *t, uint32_t parent, const char *raw, unsigned int flags)
{
	const char *name = intern(t, raw);
	int64_t idx;
	size_t j;

	if (!name)
		return -ENOMEM;
	if ((t->nr + 1) * 2 > t->nr_child_slots && child_grow(t))
		return -ENOMEM;
	j = hash_child(parent, name) & (t->nr_child_slots - 1);
	for (; t->child_slots[j] != FLAME_NONE; j = (j + 1) & (t->nr_child_slots - 1)) {
		const struct flame_node *c = &t->nodes[t->child_slots[j]];

		if (c->parent == parent && c->name == name) {
			t->nodes[t->child_slots[j]].flags |= flags;
			return t->child_slots[j];
		}
	}
	idx = new_node(t, parent, name, flags);
	if (idx >= 0)
		t->child_slots[j] = idx;
	return idx;
}

struct flame_tree *flame_tree_new(bool reverse)
{
	struct flame_tree *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->reverse = reverse;
	if (new_node(t, 0, NULL, 0) < 0 || !(t->nodes[0].name = intern(t, "all"))) {
		flame_tree_free(t);
		errno = ENOMEM;
		return NULL;
	}
	return t;
}

void flame_tree_free(struct flame_tree *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nr_str_slots; i++)
		free(t->strs[i].s);
	free(t->strs);
	free(t->child_slots);
	free(t->nodes);
	free(t->scratch);
	free(t->scratch_flags);
	free(t->path);
	free(t);
}

static int reverse_stack(struct flame_tree *t, const char *const **names,
			 const unsigned int **flags, size_t nr)
{
	if (nr > t->scratch_alloc) {
		const char **n = realloc(t->scratch, nr * sizeof(*n));
		unsigned int *f;

		if (!n)
			return -ENOMEM;
		t->scratch = n;
		f = realloc(t->scratch_flags, nr * sizeof(*f));
		if (!f)
			return -ENOMEM;
		t->scratch_flags = f;
		t->scratch_alloc = nr;
	}
	for (size_t i = 0; i < nr; i++) {
		t->scratch[i] = (*names)[nr - 1 - i];
		t->scratch_flags[i] = *flags ? (*flags)[nr - 1 - i] : 0;
	}
	*names = t->scratch;
	*flags = t->scratch_flags;
	return 0;
}

/* Room for @nr nodes in the path of the last stack. */
static int grow_path(struct flame_tree *t, size_t nr)
{
	uint32_t *p;

	if (nr <= t->path_alloc)
		return 0;
	p = realloc(t->path, nr * sizeof(*p));
	if (!p)
		return -ENOMEM;
	t->path = p;
	t->path_alloc = nr;
	return 0;
}

int flame_tree_add(struct flame_tree *t, enum flame_side side, const char *const *names,
		   const unsigned int *flags, size_t nr, double count)
{
	bool same_prefix = true;
	uint32_t cur = 0;
	int err;

	if ((side != FLAME_AFTER && side != FLAME_BEFORE) || !(count >= 0) || isinf(count))
		return -EINVAL;
	if (t->reverse && nr > 1 && (err = reverse_stack(t, &names, &flags, nr)))
		return err;
	if ((err = grow_path(t, nr)))
		return err;
	t->nodes[0].total[side] += count;
	for (size_t i = 0; i < nr; i++) {
		const char *name = names[i] ? names[i] : "";
		unsigned int fl = flags ? flags[i] : 0;
		int64_t c;

		/*
		 * Folded input is sorted, so a stack mostly repeats the previous one's first
		 * frames: walk that path while it matches instead of hashing every frame.
		 */
		same_prefix = same_prefix && i < t->path_nr &&
			      !strcmp(t->nodes[t->path[i]].name, name);
		c = same_prefix ? t->path[i] : child_of(t, cur, name, fl);
		if (same_prefix)
			t->nodes[c].flags |= fl;
		if (c < 0) {
			t->path_nr = 0;
			return c;
		}
		cur = c;
		t->path[i] = cur;
		t->nodes[cur].total[side] += count;
	}
	t->path_nr = nr;
	t->nodes[cur].self[side] += count;
	return 0;
}

/* Up to this many frames on the stack, flame_tree_add_folded() needs no allocation. */
#define FOLDED_STACK_FRAMES 256

int flame_tree_add_folded(const struct folded_frame *frames, size_t nr, double count,
			  double before, void *arg)
{
	const char *small_names[FOLDED_STACK_FRAMES], **names = small_names;
	unsigned int small_flags[FOLDED_STACK_FRAMES], *flags = small_flags;
	const struct flame_folded_sink *sink = arg;
	int err;

	if (nr > FOLDED_STACK_FRAMES) {
		names = malloc(nr * sizeof(*names));
		flags = malloc(nr * sizeof(*flags));
		if (!names || !flags) {
			err = -ENOMEM;
			goto out;
		}
	}
	for (size_t i = 0; i < nr; i++) {
		names[i] = frames[i].name;
		flags[i] = frames[i].flags & FOLDED_FRAME_KERNEL ? FLAME_FRAME_KERNEL : 0;
	}
	err = flame_tree_add(sink->tree, sink->side, names, flags, nr, count);
	if (!err && before >= 0 && sink->side == FLAME_AFTER)
		err = flame_tree_add(sink->tree, FLAME_BEFORE, names, flags, nr, before);
out:
	if (names != small_names)
		free(names);
	if (flags != small_flags)
		free(flags);
	return err;
}

double flame_tree_total(const struct flame_tree *t, enum flame_side side)
{
	return t->nodes[0].total[side == FLAME_BEFORE];
}

size_t flame_tree_nr_nodes(const struct flame_tree *t)
{
	return t->nr;
}
