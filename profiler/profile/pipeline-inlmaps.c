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
 * one map object. Such a function is what perf's children.* may show larger, by at most the
 * period of those samples (once per such inlined name in a sample): an entry of an inlined
 * symbol gathers each sample once (hist.c's he_cache) and, once turned, no more inlined
 * frames (they no longer compare equal to it). Its file's entries are no longer in one order
 * in perf's tree (output/hist-perf-tree.c), so its file is named too.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "profiler/profile/pipeline-int.h"

/* A run of alike samples in inl_maps.runs: [samples, period, nr, key...]. */
#define RUN_HEAD	3

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

int inl_maps_sample(struct inl_maps *t, uint64_t samples, uint64_t period)
{
	uint64_t *last = t->nr_runs ? t->runs + t->last_run : NULL;
	size_t words = RUN_HEAD + t->nr_cur;

	if (!t->nr_cur)
		return 0;
	/* a sample's keys are most often the previous sample's: one run for both */
	if (last && last[2] == t->nr_cur && !memcmp(last + RUN_HEAD, t->cur, t->nr_cur * 8)) {
		last[0] += samples;
		last[1] += period;
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
	t->runs[t->nr_runs + 1] = period;
	t->runs[t->nr_runs + 2] = t->nr_cur;
	memcpy(t->runs + t->nr_runs + RUN_HEAD, t->cur, t->nr_cur * 8);
	t->nr_runs += words;
	t->nr_cur = 0;
	return 0;
}

/* The index of @name in @v (appended when new), or -ENOMEM. */
static long name_index(const char ***v, size_t *nr, const char *name)
{
	const char **n;

	for (size_t i = 0; i < *nr; i++)
		if ((*v)[i] == name)
			return (long)i;
	n = realloc(*v, (*nr + 1) * sizeof(**v));
	if (!n)
		return -ENOMEM;
	*v = n;
	(*v)[*nr] = name;
	return (long)(*nr)++;
}

/* @v's strings joined by spaces, malloc'd (NULL when ENOMEM). */
static char *join(const char *const *v, size_t nr, bool basename_only)
{
	size_t len = 1, at = 0;
	char *s;

	for (size_t i = 0; i < nr; i++) {
		const char *n = basename_only && strrchr(v[i], '/') ? strrchr(v[i], '/') + 1 : v[i];

		len += strlen(n) + 1;
	}
	s = malloc(len);
	if (!s)
		return NULL;
	s[0] = '\0';
	for (size_t i = 0; i < nr; i++) {
		const char *n = basename_only && strrchr(v[i], '/') ? strrchr(v[i], '/') + 1 : v[i];
		size_t k = strlen(n);

		if (i)
			s[at++] = ' ';
		memcpy(s + at, n, k + 1);
		at += k;
	}
	return s;
}

int inl_maps_result(const struct inl_maps *t, struct inl_maps_said *r)
{
	const char **funcs = NULL, **files = NULL;
	size_t nr_funcs = 0, nr_files = 0;
	int err = 0;

	memset(r, 0, sizeof(*r));
	for (size_t i = 0; i < t->nr_runs; i += RUN_HEAD + t->runs[i + 2])
		for (size_t j = 0; j < t->runs[i + 2]; j++)
			if (t->keys[t->runs[i + RUN_HEAD + j]].multi) {
				r->samples += t->runs[i];
				break;
			}
	if (!r->samples)
		return 0;
	/* the functions and their files, each once (names are the session's pooled strings) */
	for (size_t i = 0; i < t->nr && !err; i++) {
		long f;

		if (!t->keys[i].multi)
			continue;
		f = name_index(&funcs, &nr_funcs, t->keys[i].base);
		if (f < 0 || name_index(&files, &nr_files, t->keys[i].dso) < 0)
			err = -ENOMEM;
	}
	if (!err && !(r->excess = calloc(nr_funcs + 1, sizeof(*r->excess))))
		err = -ENOMEM;
	/* each turned inlined name can carry the period of every sample that has it */
	for (size_t i = 0; i < t->nr_runs && !err; i += RUN_HEAD + t->runs[i + 2])
		for (size_t j = 0; j < t->runs[i + 2]; j++) {
			const struct inl_key *k = &t->keys[t->runs[i + RUN_HEAD + j]];

			if (k->multi)
				r->excess[name_index(&funcs, &nr_funcs, k->base)] += t->runs[i + 1];
		}
	if (!err) {
		r->funcs = join(funcs, nr_funcs, false);
		r->files = join(files, nr_files, true);
		if (!r->funcs || !r->files)
			err = -ENOMEM;
	}
	r->nr_funcs = nr_funcs;
	free(funcs);
	free(files);
	if (err)
		inl_maps_said_release(r);
	return err;
}

void inl_maps_said_release(struct inl_maps_said *r)
{
	free(r->funcs);
	free(r->files);
	free(r->excess);
	memset(r, 0, sizeof(*r));
}

void inl_maps_release(struct inl_maps *t)
{
	free(t->keys);
	free(t->index);
	free(t->runs);
	free(t->cur);
	memset(t, 0, sizeof(*t));
}
