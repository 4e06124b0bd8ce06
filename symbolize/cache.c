// SPDX-License-Identifier: GPL-2.0
/*
 * cache.c - results by (object, address): a profile repeats the same few thousand addresses
 * hundreds of thousands of times, so after the first lookup an address costs one hash probe.
 *
 * Compact: a slot is 16 bytes -- its key (address, 32-bit object id) and the 32-bit index of its
 * answer (symbol, module, identity, status, and the symbol's start in the key's space), which
 * is interned and so shared by every address of a symbol; an address's offset into its symbol
 * is its key minus that start. A make -B profile fills ~100K slots: at 56 bytes a slot the
 * table and its doublings faulted in ~30 MB, at 32 bytes ~6 MB at its peak, now half that, and
 * a probe reads one cache line where it read two.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "symbolize/symbolize-int.h"

#define RES_CHUNK	1024

struct cache_res_chunk {
	struct cache_res	v[RES_CHUNK];
};

static size_t hash_key(uint64_t obj, uint64_t addr)
{
	uint64_t h = addr ^ (obj * 0x9e3779b97f4a7c15ULL);

	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	return (size_t)h;
}

static size_t hash_res(const struct cache_res *r)
{
	return hash_key((uint64_t)(uintptr_t)r->sym, (uint64_t)(uintptr_t)r->dso ^
			r->sym_id * 31 ^ r->key_start * 17 ^ (uint64_t)r->rc);
}

static size_t hash_res_elem(const void *elem)
{
	return hash_res(elem);
}

static bool res_match(const void *elem, const void *key)
{
	const struct cache_res *h = elem, *want = key;

	return h->sym == want->sym && h->dso == want->dso && h->sym_id == want->sym_id &&
	       h->key_start == want->key_start && h->rc == want->rc;
}

static struct cache_res *res_at(const struct sym_cache *c, uint32_t i)
{
	return &c->chunks[i / RES_CHUNK]->v[i % RES_CHUNK];
}

static int slots_grow(struct sym_cache *c)
{
	size_t size = c->slots ? (c->mask + 1) * 2 : 4096;
	struct cache_slot *slots = zalloc_table(size, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; c->slots && i <= c->mask; i++) {
		struct cache_slot *e = &c->slots[i];
		size_t j = hash_key(e->obj, e->addr) & (size - 1);

		if (!e->obj)
			continue;
		while (slots[j].obj)
			j = (j + 1) & (size - 1);
		slots[j] = *e;
	}
	free(c->slots);
	c->slots = slots;
	c->mask = size - 1;
	return 0;
}

/* The one interned copy of answer @want; NULL on ENOMEM (or past 2^32 answers). */
static struct cache_res *res_intern(struct sym_cache *c, const struct cache_res *want)
{
	struct cache_res *r;
	size_t i;

	if (ptr_table_reserve(&c->res, hash_res_elem))
		return NULL;
	i = ptr_table_slot(&c->res, hash_res(want), res_match, want);
	if (c->res.slots[i])
		return c->res.slots[i];
	if (c->nr_res == UINT32_MAX)
		return NULL;
	if (c->nr_res % RES_CHUNK == 0) {
		size_t chunk = c->nr_res / RES_CHUNK;

		if (chunk == c->alloc_chunks) {
			size_t alloc = c->alloc_chunks ? c->alloc_chunks * 2 : 16;
			struct cache_res_chunk **v = realloc(c->chunks, alloc * sizeof(*v));

			if (!v)
				return NULL;
			c->chunks = v;
			c->alloc_chunks = alloc;
		}
		c->chunks[chunk] = malloc(sizeof(*c->chunks[chunk]));
		if (!c->chunks[chunk])
			return NULL;
	}
	r = res_at(c, (uint32_t)c->nr_res);
	*r = *want;
	r->index = (uint32_t)c->nr_res++;
	c->res.slots[i] = r;
	c->res.nr++;
	return r;
}

struct cache_res *cache_find(const struct sym_cache *c, uint32_t obj, uint64_t addr,
			     uint64_t *sym_off)
{
	if (!c->slots)
		return NULL;
	for (size_t i = hash_key(obj, addr) & c->mask; c->slots[i].obj; i = (i + 1) & c->mask) {
		if (c->slots[i].obj == obj && c->slots[i].addr == addr) {
			struct cache_res *r = res_at(c, c->slots[i].res);

			*sym_off = r->sym ? addr - r->key_start : 0;
			return r;
		}
	}
	return NULL;
}

struct cache_res *cache_add(struct sym_cache *c, uint32_t obj, uint64_t addr,
			    const struct cache_entry *e, uint64_t *sym_off)
{
	struct cache_res want = {
		.sym = e->sym, .dso = e->dso, .sym_id = e->sym_id, .rc = e->rc,
		.key_start = e->sym ? addr - e->sym_off : 0,
	};
	struct cache_res *res;
	size_t i;

	/*
	 * Up to 3/4 full: a system-wide profile has ~100K distinct addresses, and at 1/2 the table
	 * would be twice the memory to fault in for little shorter probes.
	 */
	if ((c->nr + 1) * 4 > (c->slots ? c->mask + 1 : 0) * 3 && slots_grow(c))
		return NULL;
	res = res_intern(c, &want);
	if (!res)
		return NULL;
	for (i = hash_key(obj, addr) & c->mask; c->slots[i].obj; i = (i + 1) & c->mask)
		;
	c->slots[i] = (struct cache_slot){ .addr = addr, .obj = obj, .res = res->index };
	c->nr++;
	*sym_off = e->sym ? e->sym_off : 0;
	return res;
}

void cache_release(struct sym_cache *c)
{
	for (size_t i = 0; i < (c->nr_res + RES_CHUNK - 1) / RES_CHUNK; i++)
		free(c->chunks[i]);
	free(c->chunks);
	free(c->slots);
	ptr_table_release(&c->res);
	memset(c, 0, sizeof(*c));
}
