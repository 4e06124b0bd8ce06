// SPDX-License-Identifier: GPL-2.0
/*
 * cache.c - results by (object, address): a profile repeats the same few thousand addresses
 * hundreds of thousands of times, so after the first lookup an address costs one hash probe.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "symbolize/symbolize-int.h"

static size_t hash_key(const void *obj, uint64_t addr)
{
	uint64_t h = addr ^ ((uint64_t)(uintptr_t)obj * 0x9e3779b97f4a7c15ULL);

	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	return (size_t)h;
}

static int cache_grow(struct sym_cache *c)
{
	size_t size = c->slots ? (c->mask + 1) * 2 : 4096;
	struct cache_entry *slots = zalloc_table(size, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; c->slots && i <= c->mask; i++) {
		struct cache_entry *e = &c->slots[i];
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

struct cache_entry *cache_get(struct sym_cache *c, const void *obj, uint64_t addr, bool *fresh)
{
	size_t i;

	/*
	 * Up to 3/4 full: a system-wide profile has ~100K distinct addresses, and at 1/2 the table
	 * (56 bytes a slot) would be twice the memory to fault in for little shorter probes.
	 */
	if ((c->nr + 1) * 4 > (c->slots ? c->mask + 1 : 0) * 3 && cache_grow(c)) {
		errno = ENOMEM;
		return NULL;
	}
	for (i = hash_key(obj, addr) & c->mask; c->slots[i].obj; i = (i + 1) & c->mask) {
		if (c->slots[i].obj == obj && c->slots[i].addr == addr) {
			*fresh = false;
			return &c->slots[i];
		}
	}
	c->slots[i].obj = obj;
	c->slots[i].addr = addr;
	c->nr++;
	*fresh = true;
	return &c->slots[i];
}

void cache_release(struct sym_cache *c)
{
	free(c->slots);
	memset(c, 0, sizeof(*c));
}
