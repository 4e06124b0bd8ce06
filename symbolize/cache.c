// SPDX-License-Identifier: GPL-2.0
/*
 * cache.c - results by (object, address): a profile repeats the same few thousand addresses
 * hundreds of thousands of times, so after the first lookup an address costs one hash probe.
 *
 * Compact: a slot is 32 bytes -- its key, its offset into its symbol, and a pointer to the
 * answer (symbol, module, identity, status), which is interned and so shared by every address
 * of a symbol. A system-wide profile of many short processes fills ~250K slots: at 56 bytes a
 * slot the table and its doublings faulted in ~30 MB, now ~17 MB.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "symbolize/symbolize-int.h"

#define RES_CHUNK	1024

struct cache_res_chunk {
	struct cache_res_chunk	*next;
	size_t			nr;
	struct cache_res	v[RES_CHUNK];
};

static size_t hash_key(const void *obj, uint64_t addr)
{
	uint64_t h = addr ^ ((uint64_t)(uintptr_t)obj * 0x9e3779b97f4a7c15ULL);

	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	return (size_t)h;
}

static size_t hash_res(const struct cache_res *r)
{
	return hash_key(r->sym, (uint64_t)(uintptr_t)r->dso ^ r->sym_id * 31 ^ (uint64_t)r->rc);
}

static size_t hash_res_elem(const void *elem)
{
	return hash_res(elem);
}

static bool res_match(const void *elem, const void *key)
{
	const struct cache_res *h = elem, *want = key;

	return h->sym == want->sym && h->dso == want->dso && h->sym_id == want->sym_id &&
	       h->rc == want->rc;
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

/* The one interned copy of answer @want; NULL on ENOMEM. */
static struct cache_res *res_intern(struct sym_cache *c, const struct cache_res *want)
{
	struct cache_res_chunk *ch = c->chunks;
	struct cache_res *r;
	size_t i;

	if (ptr_table_reserve(&c->res, hash_res_elem))
		return NULL;
	i = ptr_table_slot(&c->res, hash_res(want), res_match, want);
	if (c->res.slots[i])
		return c->res.slots[i];
	if (!ch || ch->nr == RES_CHUNK) {
		ch = malloc(sizeof(*ch));
		if (!ch)
			return NULL;
		ch->next = c->chunks;
		ch->nr = 0;
		c->chunks = ch;
	}
	r = &ch->v[ch->nr++];
	*r = *want;
	c->res.slots[i] = r;
	c->res.nr++;
	return r;
}

const struct cache_slot *cache_find(const struct sym_cache *c, const void *obj, uint64_t addr)
{
	if (!c->slots)
		return NULL;
	for (size_t i = hash_key(obj, addr) & c->mask; c->slots[i].obj; i = (i + 1) & c->mask)
		if (c->slots[i].obj == obj && c->slots[i].addr == addr)
			return &c->slots[i];
	return NULL;
}

const struct cache_slot *cache_add(struct sym_cache *c, const void *obj, uint64_t addr,
				   const struct cache_entry *e)
{
	struct cache_res want = { .sym = e->sym, .dso = e->dso, .sym_id = e->sym_id, .rc = e->rc };
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
	c->slots[i] = (struct cache_slot){ .obj = obj, .addr = addr, .res = res,
					   .sym_off = e->sym_off };
	c->nr++;
	return &c->slots[i];
}

void cache_release(struct sym_cache *c)
{
	while (c->chunks) {
		struct cache_res_chunk *next = c->chunks->next;

		free(c->chunks);
		c->chunks = next;
	}
	free(c->slots);
	ptr_table_release(&c->res);
	memset(c, 0, sizeof(*c));
}
