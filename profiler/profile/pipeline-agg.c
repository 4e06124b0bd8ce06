// SPDX-License-Identifier: GPL-2.0
/*
 * pipeline-agg.c - identical raw samples summed before symbolization (see pipeline-int.h).
 *
 * Entries sit in a dense array, found through an open-addressing index keyed by a hash of the
 * whole sample key, and chained per pid and per tid so that the samples of one task can be
 * flushed without looking at the others. A flushed entry stays as a tombstone (its index slot
 * keeps probe chains intact) until the next full flush empties everything.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "profiler/perfdata/perfdata.h"
#include "profiler/profile/pipeline-int.h"

/*
 * A full flush empties the table when it reaches this size, tombstones included. Larger sizes
 * only keep more tombstones between full flushes (the live entries of a busy system are far
 * fewer): on the bench file 2^16 entries sum as many samples as 2^18 did, in 25 MB less memory.
 * At 2^13 the index (128 KiB) and the entries (576 KiB) fit in a 1 MiB L2 cache, and the index
 * probe, a cache miss for nearly every sample at 2^15, mostly hits: on the make -B recording,
 * where 60% of the samples are stacks seen once, the table sends 5% more stacks on (310K instead
 * of 295K of 487K samples) and `report` took 0.233 -> 0.215 s, 4 MB less peak RSS (memory first
 * touched costs ~1.5 ms per MB on a virtual machine, docs/report.md); 2^12 sends 10% more for
 * no less memory.
 */
#define AGG_MAX_ENTRIES	(1u << 13)
#define AGG_MAX_WORDS	(1u << 21)	/* 16 MiB of chains */
#define NO_TASK		INT32_MIN

static uint64_t mix(uint64_t h, uint64_t w)
{
	h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
	return h ^ (h >> 29);
}

static uint64_t key_hash(const struct agg_key *k)
{
	uint64_t h = mix(0x243f6a8885a308d3ULL, (uint64_t)k->event << 32 | k->misc);

	h = mix(h, (uint64_t)(uint32_t)k->pid << 32 | (uint32_t)k->tid);
	h = mix(h, k->ip);
	for (uint32_t i = 0; i < k->nr; i++) {
		uint64_t w;

		memcpy(&w, (const char *)k->chain + i * 8, 8);
		h = mix(h, w);
	}
	return h;
}

static bool same(const struct agg_table *t, const struct agg_entry *e, const struct agg_key *k)
{
	return e->event == k->event && e->pid == k->pid && e->tid == k->tid &&
	       e->misc == k->misc && e->ip == k->ip && e->nr == k->nr &&
	       /* without PERF_SAMPLE_CALLCHAIN the chain is NULL: memcmp must not see it */
	       (!k->nr || !memcmp(t->words + e->at, k->chain, (size_t)k->nr * 8));
}

/* ---- per-task heads ---------------------------------------------------------------------- */

static size_t head_find(const struct agg_heads *h, int32_t key)
{
	size_t i = ((uint32_t)key * 2654435761u) & (h->alloc - 1);

	while (h->keys[i] != NO_TASK && h->keys[i] != key)
		i = (i + 1) & (h->alloc - 1);
	return i;
}

static int heads_grow(struct agg_heads *h)
{
	struct agg_heads n = { .alloc = h->alloc ? h->alloc * 2 : 256, .nr = h->nr };

	n.keys = malloc(n.alloc * sizeof(*n.keys));
	n.heads = zalloc_table(n.alloc, sizeof(*n.heads));
	if (!n.keys || !n.heads) {
		free(n.keys);
		free(n.heads);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n.alloc; i++)
		n.keys[i] = NO_TASK;
	for (size_t i = 0; i < h->alloc; i++) {
		size_t j;

		if (h->keys[i] == NO_TASK)
			continue;
		j = head_find(&n, h->keys[i]);
		n.keys[j] = h->keys[i];
		n.heads[j] = h->heads[i];
	}
	free(h->keys);
	free(h->heads);
	*h = n;
	return 0;
}

/* The head of @key's list, created empty when missing; NULL on ENOMEM. */
static uint32_t *head_of(struct agg_heads *h, int32_t key)
{
	size_t i;

	if ((h->nr + 1) * 2 > h->alloc && heads_grow(h))
		return NULL;
	i = head_find(h, key);
	if (h->keys[i] == NO_TASK) {
		h->keys[i] = key;
		h->heads[i] = 0;
		h->nr++;
	}
	return &h->heads[i];
}

static void heads_clear(struct agg_heads *h)
{
	for (size_t i = 0; i < h->alloc; i++)
		h->keys[i] = NO_TASK;
	h->nr = 0;
}

/* ---- the index ---------------------------------------------------------------------------- */

/*
 * An index slot holds the entry number + 1 and, in its upper half, the upper half of the entry's
 * hash: a probe passes over other keys (and the tombstones of flushed tasks, which pile up
 * between full flushes) without reading their entries, each a likely cache miss.
 */
static uint64_t index_slot(uint64_t hash, size_t entry)
{
	return (hash & ~0xffffffffULL) | (uint64_t)(entry + 1);
}

static bool index_tag_matches(uint64_t slot, uint64_t hash)
{
	return (slot ^ hash) >> 32 == 0;
}

static size_t index_entry(uint64_t slot)
{
	return (size_t)(uint32_t)slot - 1;
}

/* Double the index (linear probing, at most half full) and put every entry back. */
static int index_grow(struct agg_table *t)
{
	size_t n = t->alloc ? t->alloc * 2 : 1024;
	uint64_t *ix = zalloc_table(n, sizeof(*ix));

	if (!ix)
		return -ENOMEM;
	for (size_t i = 0; i < t->nr; i++) {
		size_t j;

		for (j = t->entries[i].hash & (n - 1); ix[j]; j = (j + 1) & (n - 1))
			;
		ix[j] = index_slot(t->entries[i].hash, i);
	}
	free(t->index);
	t->index = ix;
	t->alloc = n;
	return 0;
}

/* ---- the table --------------------------------------------------------------------------- */

static int new_entry(struct agg_table *t, const struct agg_key *k, uint64_t hash,
		     uint64_t period, size_t slot)
{
	uint32_t *pid_head = head_of(&t->by_pid, k->pid), *tid_head;
	struct agg_entry *e;
	uint64_t *words;

	tid_head = head_of(&t->by_tid, k->tid);
	/* grown only when full: the calls cost as much as the rest of a new entry */
	e = t->entries;
	if (!e || t->nr + 1 > t->entries_alloc) {
		e = grow_array(t->entries, &t->entries_alloc, t->nr + 1, sizeof(*e));
		if (e)
			t->entries = e;
	}
	words = t->words;
	if (!words || t->nr_words + k->nr > t->words_alloc) {
		words = grow_array(t->words, &t->words_alloc, t->nr_words + k->nr, sizeof(*words));
		if (words)
			t->words = words;
	}
	if (!pid_head || !tid_head || !e || !words)
		return -ENOMEM;
	if (k->nr)
		memcpy(t->words + t->nr_words, k->chain, (size_t)k->nr * 8);
	t->entries[t->nr] = (struct agg_entry){
		.hash = hash, .ip = k->ip, .period = period, .samples = 1, .at = t->nr_words,
		.nr = k->nr, .event = k->event, .pid = k->pid, .tid = k->tid, .misc = k->misc,
		.next_pid = *pid_head, .next_tid = *tid_head,
	};
	t->nr_words += k->nr;
	t->index[slot] = index_slot(hash, t->nr++);
	*pid_head = *tid_head = (uint32_t)t->nr;
	return 0;
}

int agg_add(struct agg_table *t, const struct agg_key *k, uint64_t period)
{
	uint64_t h = key_hash(k);
	size_t i;

	if ((t->nr + 1) * 2 > t->alloc && index_grow(t))
		return -ENOMEM;
	for (i = h & (t->alloc - 1); t->index[i]; i = (i + 1) & (t->alloc - 1)) {
		struct agg_entry *e;

		if (!index_tag_matches(t->index[i], h))
			continue;
		e = &t->entries[index_entry(t->index[i])];
		if (!e->dead && e->hash == h && same(t, e, k)) {
			e->period += period;
			e->samples++;
			return 0;
		}
	}
	return new_entry(t, k, h, period, i);
}

bool agg_full(const struct agg_table *t)
{
	return t->nr >= AGG_MAX_ENTRIES || t->nr_words >= AGG_MAX_WORDS;
}

int agg_flush(struct agg_table *t, agg_fn fn, void *arg)
{
	int ret = 0;

	for (size_t i = 0; i < t->nr; i++)
		if (!ret && !t->entries[i].dead)
			ret = fn(&t->entries[i], t->words + t->entries[i].at, arg);
	if (t->alloc)
		memset(t->index, 0, t->alloc * sizeof(*t->index));
	if (t->by_pid.alloc)
		heads_clear(&t->by_pid);
	if (t->by_tid.alloc)
		heads_clear(&t->by_tid);
	t->nr = 0;
	t->nr_words = 0;
	return ret;
}

/* Flush the live entries of one list; @by_pid chooses which links to follow. */
static int flush_list(struct agg_table *t, struct agg_heads *h, int32_t key, bool by_pid,
		      agg_fn fn, void *arg)
{
	size_t slot;
	uint32_t at;
	int ret = 0;

	if (!h->alloc)
		return 0;
	slot = head_find(h, key);
	if (h->keys[slot] == NO_TASK)
		return 0;
	for (at = h->heads[slot]; at; ) {
		struct agg_entry *e = &t->entries[at - 1];

		if (!e->dead) {
			if (!ret)
				ret = fn(e, t->words + e->at, arg);
			e->dead = true;
		}
		at = by_pid ? e->next_pid : e->next_tid;
	}
	h->heads[slot] = 0;
	return ret;
}

int agg_flush_task(struct agg_table *t, int32_t pid, int32_t tid, agg_fn fn, void *arg)
{
	int ret = 0;

	if (pid >= 0)
		ret = flush_list(t, &t->by_pid, pid, true, fn, arg);
	if (tid >= 0 && !ret)
		ret = flush_list(t, &t->by_tid, tid, false, fn, arg);
	return ret;
}

void agg_release(struct agg_table *t)
{
	free(t->index);
	free(t->entries);
	free(t->words);
	free(t->by_pid.keys);
	free(t->by_pid.heads);
	free(t->by_tid.keys);
	free(t->by_tid.heads);
	memset(t, 0, sizeof(*t));
}
