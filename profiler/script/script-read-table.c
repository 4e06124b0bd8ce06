// SPDX-License-Identifier: GPL-2.0
/*
 * script-read-table.c - the hash, buffers and tables behind the `perf script` parser.
 *
 * Open addressing with linear probing; a slot holds the upper 32 bits of the hash and the entry
 * index + 1, so most mismatches are rejected without touching the entry, and growing needs no
 * rehash of the keys.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "profiler/script/script-read-int.h"

/* ---- hashing: wyhash-style multiply-fold, 16 bytes per step ---------------------------------- */

#define K0 0xa0761d6478bd642full
#define K1 0xe7037ed1a0b428dbull
#define K2 0x8ebc6af09c88c6e3ull
#define K3 0x589965cc75374cc3ull

static inline uint64_t rd64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static inline uint64_t rd32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static inline uint64_t mum(uint64_t a, uint64_t b)
{
	__uint128_t r = (__uint128_t)a * b;

	return (uint64_t)r ^ (uint64_t)(r >> 64);
}

uint64_t script_hash(const void *data, size_t n, uint64_t seed)
{
	const unsigned char *p = data;
	uint64_t h = seed ^ mum(n ^ K0, K1), a, b;

	while (n > 16) {
		h = mum(rd64(p) ^ K1, rd64(p + 8) ^ h);
		p += 16;
		n -= 16;
	}
	/* The last 1..16 bytes, read as two possibly overlapping words. */
	if (n >= 8) {
		a = rd64(p);
		b = rd64(p + n - 8);
	} else if (n >= 4) {
		a = rd32(p);
		b = rd32(p + n - 4);
	} else if (n) {
		a = (uint64_t)p[0] << 16 | (uint64_t)p[n / 2] << 8 | p[n - 1];
		b = 0;
	} else {
		a = b = 0;
	}
	return mum(mum(a ^ K2, b ^ h ^ K3), h ^ K0);
}

/* ---- growable arrays ------------------------------------------------------------------------- */

/* Make room for @more elements of @size after @nr in *@v (capacity *@cap, doubling). */
static int grow(void **v, size_t *cap, size_t nr, size_t more, size_t size, size_t first)
{
	size_t ncap = *cap ? *cap : first;
	void *nv;

	if (*cap - nr >= more)
		return 0;
	while (ncap - nr < more) {
		if (ncap > SIZE_MAX / 2 / size)
			return -ENOMEM;
		ncap *= 2;
	}
	nv = realloc(*v, ncap * size);
	if (!nv)
		return -ENOMEM;
	*v = nv;
	*cap = ncap;
	return 0;
}

int sbuf_reserve(struct sbuf *b, size_t more)
{
	return grow((void **)&b->p, &b->cap, b->len, more, 1, 256);
}

int sbuf_add(struct sbuf *b, const void *p, size_t n)
{
	if (sbuf_reserve(b, n))
		return -ENOMEM;
	if (n)
		memcpy(b->p + b->len, p, n);
	b->len += n;
	return 0;
}

void sbuf_release(struct sbuf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

int ids_reserve(struct ids *a, size_t more)
{
	return grow((void **)&a->v, &a->cap, a->nr, more, sizeof(*a->v), 64);
}

void ids_release(struct ids *a)
{
	free(a->v);
	memset(a, 0, sizeof(*a));
}

/* ---- slots ----------------------------------------------------------------------------------- */

static inline uint64_t slot_make(uint64_t hash, size_t idx)
{
	return (hash >> 32) << 32 | (uint64_t)(idx + 1);
}

static inline bool slot_tag_eq(uint64_t slot, uint64_t hash)
{
	return slot >> 32 == hash >> 32;
}

/*
 * Double the slot array when it would pass half full. Slots only keep the upper hash bits, so
 * the new position comes from @hash_of(idx), supplied by the table.
 */
static int slots_grow(uint64_t **slots, size_t *mask, size_t used,
		      uint64_t (*hash_of)(const void *t, size_t idx), const void *t)
{
	size_t nmask = *mask ? *mask * 2 + 1 : 1023, i;
	uint64_t *ns;

	if ((used + 1) * 2 <= *mask + 1)
		return 0;
	ns = calloc(nmask + 1, sizeof(*ns));
	if (!ns)
		return -ENOMEM;
	for (i = 0; *mask && i <= *mask; i++) {
		uint64_t s = (*slots)[i], h;
		size_t j;

		if (!s)
			continue;
		h = hash_of(t, (size_t)(uint32_t)s - 1);
		for (j = h & nmask; ns[j]; j = (j + 1) & nmask)
			;
		ns[j] = s;
	}
	free(*slots);
	*slots = ns;
	*mask = nmask;
	return 0;
}

/* ---- names ----------------------------------------------------------------------------------- */

#define NAME_SEED 0x6e616d6573ull

static uint64_t name_hash_of(const void *tp, size_t id)
{
	const struct name_table *t = tp;

	return script_hash(t->arena.p + t->off[id], t->len[id], NAME_SEED);
}

uint32_t name_intern(struct name_table *t, const char *s, size_t n)
{
	uint64_t h = script_hash(s, n, NAME_SEED);
	size_t i;

	if (t->slots) {
		for (i = h & t->mask; t->slots[i]; i = (i + 1) & t->mask) {
			uint64_t sl = t->slots[i];
			uint32_t id = (uint32_t)sl - 1;

			if (slot_tag_eq(sl, h) && t->len[id] == n &&
			    !memcmp(t->arena.p + t->off[id], s, n))
				return id;
		}
	}
	if (slots_grow(&t->slots, &t->mask, t->nr, name_hash_of, t))
		return SCRIPT_NO_ID;
	if (t->nr == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 1024;
		uint32_t *off = realloc(t->off, cap * sizeof(*off)), *len;

		if (!off)
			return SCRIPT_NO_ID;
		t->off = off;
		len = realloc(t->len, cap * sizeof(*len));
		if (!len)
			return SCRIPT_NO_ID;
		t->len = len;
		t->cap = cap;
	}
	if (t->nr >= SCRIPT_NO_ID - 1 || n >= UINT32_MAX ||
	    t->arena.len + n + 1 > UINT32_MAX || sbuf_reserve(&t->arena, n + 1))
		return SCRIPT_NO_ID;
	t->off[t->nr] = (uint32_t)t->arena.len;
	t->len[t->nr] = (uint32_t)n;
	sbuf_add(&t->arena, s, n);
	t->arena.p[t->arena.len++] = '\0';
	for (i = h & t->mask; t->slots[i]; i = (i + 1) & t->mask)
		;
	t->slots[i] = slot_make(h, t->nr);
	return (uint32_t)t->nr++;
}

void name_table_release(struct name_table *t)
{
	free(t->slots);
	free(t->off);
	free(t->len);
	sbuf_release(&t->arena);
	memset(t, 0, sizeof(*t));
}

/* ---- stacks ---------------------------------------------------------------------------------- */

#define STACK_SEED 0x737461636bull

static uint64_t stack_hash_of(const void *tp, size_t idx)
{
	const struct stack_table *t = tp;
	const struct stack_entry *e = &t->e[idx];

	return script_hash(t->pool.v + e->off, (e->nr + 1) * sizeof(uint32_t), STACK_SEED);
}

int stack_add(struct stack_table *t, const uint32_t *key, size_t nr, uint64_t period,
	      uint64_t samples)
{
	size_t bytes = (nr + 1) * sizeof(uint32_t), i;
	uint64_t h = script_hash(key, bytes, STACK_SEED);
	struct stack_entry *e;

	if (t->slots) {
		for (i = h & t->mask; t->slots[i]; i = (i + 1) & t->mask) {
			uint64_t sl = t->slots[i];

			e = &t->e[(uint32_t)sl - 1];
			if (slot_tag_eq(sl, h) && e->nr == nr &&
			    !memcmp(t->pool.v + e->off, key, bytes)) {
				e->period += period;
				e->samples += samples;
				return 0;
			}
		}
	}
	if (slots_grow(&t->slots, &t->mask, t->nr, stack_hash_of, t))
		return -ENOMEM;
	if (t->nr == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 1024;

		e = realloc(t->e, cap * sizeof(*e));
		if (!e)
			return -ENOMEM;
		t->e = e;
		t->cap = cap;
	}
	if (t->nr >= UINT32_MAX - 1 || t->pool.nr + nr + 1 > UINT32_MAX ||
	    ids_reserve(&t->pool, nr + 1))
		return -ENOMEM;
	e = &t->e[t->nr];
	e->off = (uint32_t)t->pool.nr;
	e->nr = (uint32_t)nr;
	e->period = period;
	e->samples = samples;
	memcpy(t->pool.v + t->pool.nr, key, bytes);
	t->pool.nr += nr + 1;
	for (i = h & t->mask; t->slots[i]; i = (i + 1) & t->mask)
		;
	t->slots[i] = slot_make(h, t->nr++);
	return 0;
}

void stack_table_release(struct stack_table *t)
{
	free(t->slots);
	free(t->e);
	ids_release(&t->pool);
	memset(t, 0, sizeof(*t));
}
