// SPDX-License-Identifier: GPL-2.0
/*
 * maps.c - process address spaces: per pid a sorted array of non-overlapping mappings. A new
 * mapping replaces whatever it overlaps (the old ones are trimmed or split, as the kernel does
 * and as perf's maps__fixup_overlappings does); a fork copies the parent's array.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "symbolize/symbolize-int.h"

static size_t hash_pid(pid_t pid)
{
	return (size_t)((uint32_t)pid * 2654435761U);
}

static size_t hash_proc(const void *elem)
{
	return hash_pid(((const struct sym_proc *)elem)->pid);
}

static bool same_pid(const void *elem, const void *key)
{
	return ((const struct sym_proc *)elem)->pid == *(const pid_t *)key;
}

struct sym_proc *procs_find(struct proc_table *t, pid_t pid)
{
	struct sym_proc *p;

	/* the frames of a stack, and the stacks of a batch, mostly ask for the same process */
	if (t->last && t->last->pid == pid)
		return t->last;
	if (!t->index.slots)
		return NULL;
	p = t->index.slots[ptr_table_slot(&t->index, hash_pid(pid), same_pid, &pid)];
	if (p)
		t->last = p;
	return p;
}

struct sym_proc *procs_get(struct proc_table *t, pid_t pid)
{
	struct sym_proc *p;
	size_t i;

	if (ptr_table_reserve(&t->index, hash_proc)) {
		errno = ENOMEM;
		return NULL;
	}
	i = ptr_table_slot(&t->index, hash_pid(pid), same_pid, &pid);
	if (t->index.slots[i])
		return t->index.slots[i];
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->pid = pid;
	t->index.slots[i] = p;
	t->index.nr++;
	return p;
}

static int reserve(struct sym_proc *p, size_t more)
{
	size_t alloc = p->alloc ? p->alloc : 16;
	struct sym_map *v;

	if (p->nr + more <= p->alloc)
		return 0;
	while (alloc < p->nr + more)
		alloc *= 2;
	v = realloc(p->maps, alloc * sizeof(*v));
	if (!v)
		return -ENOMEM;
	p->maps = v;
	p->alloc = alloc;
	return 0;
}

/* Index of the first mapping ending after @addr. */
static size_t first_after(const struct sym_proc *p, uint64_t addr)
{
	size_t lo = 0, hi = p->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->maps[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int proc_map_insert(struct sym_proc *p, const struct sym_map *m)
{
	struct sym_map left = { 0 }, right = { 0 };
	bool has_left = false, has_right = false;
	size_t lo, hi, keep;

	if (m->end <= m->start)
		return -EINVAL;
	/* up to two pieces survive around the new mapping */
	if (reserve(p, 2))
		return -ENOMEM;
	lo = first_after(p, m->start);
	for (hi = lo; hi < p->nr && p->maps[hi].start < m->end; hi++)
		;
	if (lo < hi && p->maps[lo].start < m->start) {
		left = p->maps[lo];
		left.end = m->start;
		has_left = true;
	}
	if (lo < hi && p->maps[hi - 1].end > m->end) {
		right = p->maps[hi - 1];
		right.pgoff += m->end - right.start;
		right.start = m->end;
		has_right = true;
	}
	keep = (size_t)has_left + 1 + (size_t)has_right;
	memmove(&p->maps[lo + keep], &p->maps[hi], (p->nr - hi) * sizeof(*p->maps));
	p->nr = p->nr - (hi - lo) + keep;
	if (has_left)
		p->maps[lo++] = left;
	p->maps[lo++] = *m;
	if (has_right)
		p->maps[lo] = right;
	p->last = 0;
	p->gen++;
	return 0;
}

int proc_copy_maps(struct sym_proc *dst, const struct sym_proc *src)
{
	if (dst == src)
		return 0;
	dst->nr = 0;
	dst->gen++;
	if (reserve(dst, src->nr))
		return -ENOMEM;
	if (src->nr)
		memcpy(dst->maps, src->maps, src->nr * sizeof(*src->maps));
	dst->nr = src->nr;
	dst->last = 0;
	dst->gen++;
	return perf_view_copy(dst, src);
}

const struct sym_map *proc_map_find(struct sym_proc *p, uint64_t addr)
{
	size_t i;

	if (p->last < p->nr && addr >= p->maps[p->last].start && addr < p->maps[p->last].end)
		return &p->maps[p->last];
	i = first_after(p, addr);
	if (i == p->nr || addr < p->maps[i].start)
		return NULL;
	p->last = i;
	return &p->maps[i];
}

void procs_release(struct proc_table *t)
{
	for (size_t i = 0; t->index.slots && i <= t->index.mask; i++) {
		struct sym_proc *p = t->index.slots[i];

		if (p) {
			unwind_proc_free(p->unwind);
			perf_view_free(p->perf);
			free(p->maps);
			free(p);
		}
	}
	ptr_table_release(&t->index);
	t->last = NULL;
}
