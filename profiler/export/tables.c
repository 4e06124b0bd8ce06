// SPDX-License-Identifier: GPL-2.0
/*
 * tables.c - the key map and string table of the export writers (export-int.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "profiler/export/export-int.h"

static uint64_t mix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	return h;
}

static uint64_t wkey_hash(const struct wkey *k)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL;

	for (int i = 0; i < 4; i++)
		h = mix(h ^ k->w[i]) + (uint64_t)i;
	return h;
}

static uint64_t text_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;	/* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return mix(h);
}

/* Double a slot array (kept at most half full) and re-place every index by @hash_of. */
static int rehash(uint32_t **slots, size_t *nr_slots, size_t nr,
		  uint64_t (*hash_of)(const void *ctx, uint32_t i), const void *ctx)
{
	size_t n = *nr_slots ? *nr_slots * 2 : 64;
	uint32_t *s = calloc(n, sizeof(*s));

	if (!s)
		return -ENOMEM;
	for (uint32_t i = 0; i < nr; i++) {
		size_t j = hash_of(ctx, i) & (n - 1);

		while (s[j])
			j = (j + 1) & (n - 1);
		s[j] = i + 1;
	}
	free(*slots);
	*slots = s;
	*nr_slots = n;
	return 0;
}

static uint64_t wmap_hash_of(const void *ctx, uint32_t i)
{
	return wkey_hash(&((const struct wmap *)ctx)->keys[i]);
}

int wmap_get(struct wmap *m, const struct wkey *k, uint32_t *idx, bool *added)
{
	uint64_t h = wkey_hash(k);
	size_t j;

	if ((m->nr + 1) * 2 > m->nr_slots &&
	    rehash(&m->slots, &m->nr_slots, m->nr, wmap_hash_of, m))
		return -ENOMEM;
	for (j = h & (m->nr_slots - 1); m->slots[j]; j = (j + 1) & (m->nr_slots - 1)) {
		if (!memcmp(&m->keys[m->slots[j] - 1], k, sizeof(*k))) {
			*idx = m->slots[j] - 1;
			if (added)
				*added = false;
			return 0;
		}
	}
	if (m->nr == m->alloc_keys) {
		size_t n = m->alloc_keys ? m->alloc_keys * 2 : 64;
		struct wkey *keys = realloc(m->keys, n * sizeof(*keys));

		if (!keys)
			return -ENOMEM;
		m->keys = keys;
		m->alloc_keys = n;
	}
	m->keys[m->nr] = *k;
	m->slots[j] = (uint32_t)++m->nr;
	*idx = (uint32_t)(m->nr - 1);
	if (added)
		*added = true;
	return 0;
}

void wmap_release(struct wmap *m)
{
	free(m->keys);
	free(m->slots);
	*m = (struct wmap){ 0 };
}

static uint64_t stab_hash_of(const void *ctx, uint32_t i)
{
	return text_hash(((const struct stab *)ctx)->texts[i]);
}

int stab_init(struct stab *t)
{
	int64_t idx;

	*t = (struct stab){ 0 };
	return stab_index(t, "", &idx);
}

int stab_index(struct stab *t, const char *s, int64_t *idx)
{
	uint64_t h = text_hash(s);
	size_t j;

	if ((t->nr + 1) * 2 > t->nr_slots &&
	    rehash(&t->slots, &t->nr_slots, t->nr, stab_hash_of, t))
		return -ENOMEM;
	for (j = h & (t->nr_slots - 1); t->slots[j]; j = (j + 1) & (t->nr_slots - 1)) {
		if (!strcmp(t->texts[t->slots[j] - 1], s)) {
			*idx = t->slots[j] - 1;
			return 0;
		}
	}
	if (t->nr == t->alloc) {
		size_t n = t->alloc ? t->alloc * 2 : 64;
		char **texts = realloc(t->texts, n * sizeof(*texts));

		if (!texts)
			return -ENOMEM;
		t->texts = texts;
		t->alloc = n;
	}
	if (!(t->texts[t->nr] = strdup(s)))
		return -ENOMEM;
	t->slots[j] = (uint32_t)++t->nr;
	*idx = (int64_t)t->nr - 1;
	return 0;
}

void stab_release(struct stab *t)
{
	for (size_t i = 0; i < t->nr; i++)
		free(t->texts[i]);
	free(t->texts);
	free(t->slots);
	*t = (struct stab){ 0 };
}
