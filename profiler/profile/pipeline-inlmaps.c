// SPDX-License-Identifier: GPL-2.0
/*
 * pipeline-inlmaps.c - inlined frames whose Children perf report 6.1 may give to their function.
 *
 * perf shows a DWARF-unwound address as its inlined functions (machine.c append_inlines); each
 * one not named as the address's symbol is a made-up symbol: the inlined name, the function's
 * range, `inlined` set. perf report --children gives it a hist entry of its own
 * ("NAME (inlined)", a line LKP's parser skips). Its rb-tree comparator (sort.c _sort__sym_cmp)
 * finds such an entry by name and overlapping range. When the frame finding it comes through
 * another of perf's map objects than the entry's -- another process, or the file mapped again
 * after an exec -- hists__findnew_entry (hist.c) "updates" the entry for the new map: it looks
 * its symbol up again at the symbol's start, which gives the function itself. From then on the
 * entry, with every period it already holds, is one of the function's -- a second entry of
 * the same name, which LKP adds to the first: children.FUNCTION grows by samples already
 * counted -- and, since the comparator orders inlined symbols by name and others by address,
 * which later samples find which entry depends on the tree's shape and insertion history.
 * kprof does not replay that tree; it counts Children once per sample, as perf does for
 * everything else, and says how many samples and functions are concerned: the samples with an
 * inlined frame of a function whose inlined frames of that name perf reaches through more than
 * one map object. Such a function is what perf's children.* may show larger.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "profiler/profile/pipeline-int.h"

static uint64_t key_hash(uint32_t event, const char *dso, const char *name, uint64_t sym_id)
{
	uint64_t h = sym_id * 0x9e3779b97f4a7c15ULL;

	h ^= (uint64_t)(uintptr_t)dso * 0xff51afd7ed558ccdULL;
	h ^= (uint64_t)(uintptr_t)name * 0xc4ceb9fe1a85ec53ULL;
	h ^= event;
	return h ^ (h >> 29);
}

static int index_grow(struct inl_maps *t)
{
	size_t alloc = t->index_alloc ? t->index_alloc * 2 : 64;
	uint32_t *index = calloc(alloc, sizeof(*index));

	if (!index)
		return -ENOMEM;
	for (size_t i = 0; i < t->nr; i++) {
		const struct inl_key *k = &t->keys[i];
		size_t j = key_hash(k->event, k->dso, k->name, k->sym_id) & (alloc - 1);

		while (index[j])
			j = (j + 1) & (alloc - 1);
		index[j] = (uint32_t)i + 1;
	}
	free(t->index);
	t->index = index;
	t->index_alloc = alloc;
	return 0;
}

/* The key's index, added when new (with @m as the map it was first reached through). */
static long key_find(struct inl_maps *t, uint32_t event, const char *dso, const char *name,
		     uint64_t sym_id, const char *base, const struct sym_perf_map *m)
{
	size_t j;

	if ((t->nr + 1) * 2 > t->index_alloc && index_grow(t))
		return -ENOMEM;
	j = key_hash(event, dso, name, sym_id) & (t->index_alloc - 1);
	for (; t->index[j]; j = (j + 1) & (t->index_alloc - 1)) {
		struct inl_key *k = &t->keys[t->index[j] - 1];

		if (k->event == event && k->dso == dso && k->name == name && k->sym_id == sym_id)
			return (long)(t->index[j] - 1);
	}
	if (t->nr == t->alloc) {
		size_t alloc = t->alloc ? t->alloc * 2 : 32;
		struct inl_key *keys = realloc(t->keys, alloc * sizeof(*keys));

		if (!keys)
			return -ENOMEM;
		t->keys = keys;
		t->alloc = alloc;
	}
	t->keys[t->nr] = (struct inl_key){
		.event = event, .dso = dso, .name = name, .base = base, .sym_id = sym_id, .map = *m,
	};
	t->index[j] = (uint32_t)t->nr + 1;
	return (long)t->nr++;
}

int inl_maps_frame(struct inl_maps *t, uint32_t event, const char *dso, const char *name,
		   uint64_t sym_id, const char *base, const struct sym_perf_map *m)
{
	long i = key_find(t, event, dso, name, sym_id, base, m);
	struct inl_key *k;

	if (i < 0)
		return (int)i;
	k = &t->keys[i];
	if (k->map.view != m->view || k->map.serial != m->serial)
		k->multi = true;
	for (size_t j = 0; j < t->nr_cur; j++)
		if (t->cur[j] == (uint64_t)i)
			return 0;
	if (t->nr_cur == t->cur_alloc) {
		size_t alloc = t->cur_alloc ? t->cur_alloc * 2 : 16;
		uint64_t *cur = realloc(t->cur, alloc * sizeof(*cur));

		if (!cur)
			return -ENOMEM;
		t->cur = cur;
		t->cur_alloc = alloc;
	}
	t->cur[t->nr_cur++] = (uint64_t)i;
	return 0;
}

int inl_maps_sample(struct inl_maps *t, uint64_t samples)
{
	uint64_t *last = t->nr_runs ? t->runs + t->last_run : NULL;
	size_t words = 2 + t->nr_cur;

	if (!t->nr_cur)
		return 0;
	/* a sample's keys are most often the previous sample's: one run for both */
	if (last && last[1] == t->nr_cur && !memcmp(last + 2, t->cur, t->nr_cur * 8)) {
		last[0] += samples;
		t->nr_cur = 0;
		return 0;
	}
	if (t->nr_runs + words > t->runs_alloc) {
		size_t alloc = t->runs_alloc ? t->runs_alloc * 2 : 256;
		uint64_t *runs;

		while (alloc < t->nr_runs + words)
			alloc *= 2;
		runs = realloc(t->runs, alloc * sizeof(*runs));
		if (!runs)
			return -ENOMEM;
		t->runs = runs;
		t->runs_alloc = alloc;
	}
	t->last_run = t->nr_runs;
	t->runs[t->nr_runs] = samples;
	t->runs[t->nr_runs + 1] = t->nr_cur;
	memcpy(t->runs + t->nr_runs + 2, t->cur, t->nr_cur * 8);
	t->nr_runs += words;
	t->nr_cur = 0;
	return 0;
}

int inl_maps_result(const struct inl_maps *t, uint64_t *samples, uint64_t *nr_funcs,
		    char **funcs)
{
	size_t len = 0, at = 0;
	const char **seen = NULL;
	size_t nr_seen = 0;

	*samples = 0;
	*nr_funcs = 0;
	*funcs = NULL;
	for (size_t i = 0; i < t->nr_runs; i += 2 + t->runs[i + 1])
		for (size_t j = 0; j < t->runs[i + 1]; j++)
			if (t->keys[t->runs[i + 2 + j]].multi) {
				*samples += t->runs[i];
				break;
			}
	if (!*samples)
		return 0;
	/* the functions, each once (names are the session's pooled strings) */
	seen = malloc(t->nr * sizeof(*seen));
	if (!seen)
		return -ENOMEM;
	for (size_t i = 0; i < t->nr; i++) {
		size_t j;

		if (!t->keys[i].multi)
			continue;
		for (j = 0; j < nr_seen && seen[j] != t->keys[i].base; j++)
			;
		if (j == nr_seen) {
			seen[nr_seen++] = t->keys[i].base;
			len += strlen(t->keys[i].base) + 1;
		}
	}
	*funcs = malloc(len);
	if (!*funcs) {
		free(seen);
		return -ENOMEM;
	}
	for (size_t j = 0; j < nr_seen; j++) {
		size_t n = strlen(seen[j]);

		memcpy(*funcs + at, seen[j], n);
		at += n;
		(*funcs)[at++] = j + 1 < nr_seen ? ' ' : '\0';
	}
	*nr_funcs = nr_seen;
	free(seen);
	return 0;
}

void inl_maps_release(struct inl_maps *t)
{
	free(t->keys);
	free(t->index);
	free(t->runs);
	free(t->cur);
	memset(t, 0, sizeof(*t));
}
