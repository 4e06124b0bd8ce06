// SPDX-License-Identifier: GPL-2.0
/*
 * intern.c - the small containers of output/: hashing, arena, id hash table, string table.
 * See output-int.h for the contracts.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/output-int.h"

uint64_t hash_bytes(const void *p, size_t len)
{
	const unsigned char *s = p;
	uint64_t h = 0x243f6a8885a308d3ULL ^ (len * 0x9e3779b97f4a7c15ULL);
	uint64_t v;

	for (; len >= 8; s += 8, len -= 8) {
		memcpy(&v, s, 8);
		h = (h ^ (v * 0x87c37b91114253d5ULL)) * 0x4cf5ad432745937fULL;
		h = (h << 31) | (h >> 33);
	}
	v = 0;
	memcpy(&v, s, len);
	return hash_u64(h ^ v);
}

/* ---- arena ------------------------------------------------------------------------------- */

struct arena_chunk {
	struct arena_chunk	*next;
	/* data follows, 8-aligned (the header is one pointer) */
};

#define ARENA_CHUNK	(64 * 1024)

void *arena_alloc(struct arena *a, size_t size)
{
	struct arena_chunk *c;
	size_t want;
	void *p;

	size = (size + 7) & ~(size_t)7;
	if (size > a->left) {
		/* Big requests get a chunk of their own, sized exactly, so no space is wasted. */
		want = size > ARENA_CHUNK / 4 ? size : ARENA_CHUNK;
		c = malloc(sizeof(*c) + want);
		if (!c)
			return NULL;
		c->next = a->chunks;
		a->chunks = c;
		if (want == size)
			return c + 1;
		a->cur = (char *)(c + 1);
		a->left = want;
	}
	p = a->cur;
	a->cur += size;
	a->left -= size;
	return p;
}

/* Copies @len bytes of @s and a NUL; NULL on ENOMEM. */
static char *arena_strdup(struct arena *a, const char *s, size_t len)
{
	char *d = arena_alloc(a, len + 1);

	if (!d)
		return NULL;
	memcpy(d, s, len);
	d[len] = '\0';
	return d;
}

void arena_release(struct arena *a)
{
	struct arena_chunk *c, *next;

	for (c = a->chunks; c; c = next) {
		next = c->next;
		free(c);
	}
	memset(a, 0, sizeof(*a));
}

/* ---- growable arrays ---------------------------------------------------------------------- */

int array_reserve(void **p, size_t *alloc, size_t need, size_t size)
{
	size_t n = *alloc ? *alloc : 16;
	void *q;

	if (need <= *alloc)
		return 0;
	while (n < need)
		n *= 2;
	if (n > SIZE_MAX / size)
		return -ENOMEM;
	q = realloc(*p, n * size);
	if (!q)
		return -ENOMEM;
	*p = q;
	*alloc = n;
	return 0;
}

/* ---- id hash table ------------------------------------------------------------------------ */

static void idtab_place(struct idtab_slot *slots, size_t mask, struct idtab_slot s)
{
	size_t i;

	for (i = s.hash & mask; slots[i].id != IDTAB_NONE; i = (i + 1) & mask)
		;
	slots[i] = s;
}

static int idtab_grow(struct idtab *t)
{
	size_t cap = t->mask ? (t->mask + 1) * 2 : 64;
	struct idtab_slot *slots;
	size_t i;

	if (cap > SIZE_MAX / sizeof(*slots))
		return -ENOMEM;
	slots = malloc(cap * sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	memset(slots, 0xff, cap * sizeof(*slots));	/* id = IDTAB_NONE everywhere */
	if (t->mask) {
		for (i = 0; i <= t->mask; i++) {
			if (t->slots[i].id != IDTAB_NONE)
				idtab_place(slots, cap - 1, t->slots[i]);
		}
	}
	free(t->slots);
	t->slots = slots;
	t->mask = cap - 1;
	return 0;
}

/* Add @id (known to be absent) under @hash; grows the table. 0 or -ENOMEM. */
static int idtab_insert(struct idtab *t, uint64_t hash, uint32_t id)
{
	int err;

	/* Keep the load factor below 1/2: probes stay short with linear probing. */
	if (!t->mask || (t->nr + 1) * 2 > t->mask + 1) {
		err = idtab_grow(t);
		if (err)
			return err;
	}
	idtab_place(t->slots, t->mask, (struct idtab_slot){ .id = id, .hash = (uint32_t)hash });
	t->nr++;
	return 0;
}

uint32_t idtab_append(struct idtab *t, uint64_t hash, void **arr, size_t *nr, size_t *alloc,
		      const void *rec, size_t size)
{
	if (*nr >= IDTAB_NONE || array_reserve(arr, alloc, *nr + 1, size) ||
	    idtab_insert(t, hash, *nr))
		return IDTAB_NONE;
	memcpy((char *)*arr + *nr * size, rec, size);
	return (*nr)++;
}

void idtab_release(struct idtab *t)
{
	free(t->slots);
	memset(t, 0, sizeof(*t));
}

/* ---- string table -------------------------------------------------------------------------- */

static bool str_eq(uint32_t id, const void *key, const void *ctx)
{
	const struct strtab *sp = ctx;

	return strcmp(sp->strs[id], key) == 0;
}

static bool ptr_eq(uint32_t id, const void *key, const void *ctx)
{
	const struct strtab *sp = ctx;

	return sp->strs[id] == key;
}

/* True when @s is a pointer this pool handed out. */
static bool strtab_owns(const struct strtab *sp, const char *s)
{
	return idtab_find(&sp->by_ptr, hash_ptr(s), ptr_eq, s, sp) != IDTAB_NONE;
}

const char *strtab_intern(struct strtab *sp, const char *s)
{
	size_t len;
	uint64_t h;
	uint32_t id;
	char *copy;

	if (strtab_owns(sp, s))
		return s;
	len = strlen(s);
	h = hash_bytes(s, len);
	id = idtab_find(&sp->by_text, h, str_eq, s, sp);
	if (id != IDTAB_NONE)
		return sp->strs[id];

	copy = arena_strdup(&sp->mem, s, len);
	if (!copy || idtab_append(&sp->by_text, h, (void **)&sp->strs, &sp->nr, &sp->alloc, &copy,
				 sizeof(copy)) == IDTAB_NONE)
		goto nomem;
	/* Without the pointer fast path the text lookup still finds it: only speed is lost. */
	(void)idtab_insert(&sp->by_ptr, hash_ptr(copy), sp->nr - 1);
	return copy;
nomem:
	errno = ENOMEM;
	return NULL;
}

void strtab_release(struct strtab *sp)
{
	arena_release(&sp->mem);
	free(sp->strs);
	idtab_release(&sp->by_text);
	idtab_release(&sp->by_ptr);
	memset(sp, 0, sizeof(*sp));
}

/* ---- string building ---------------------------------------------------------------------- */

int sb_grow(struct strbuf *b, size_t need)
{
	return array_reserve((void **)&b->s, &b->alloc, need, 1);
}

int sb_puts(struct strbuf *b, const char *s)
{
	return sb_putn(b, s, strlen(s));
}

int sb_put_clean(struct strbuf *b, const char *s, size_t n, bool semicolon)
{
	size_t start = b->len;

	if (sb_putn(b, s, n))
		return -ENOMEM;
	for (char *p = b->s + start; p < b->s + b->len; p++) {
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
		else if (semicolon && *p == ';')
			*p = ':';
	}
	return 0;
}

/* ---- string -> sum maps ------------------------------------------------------------------ */

struct sum_key {
	const char	*s;
	size_t		len;
};

/* By @len, not by a NUL: a builder's buffer may hold more than the key (folded.c cuts back). */
static bool sum_key_eq(uint32_t id, const void *key, const void *ctx)
{
	const struct str_sums *s = ctx;
	const struct sum_key *k = key;

	return !strncmp(s->v[id].key, k->s, k->len) && !s->v[id].key[k->len];
}

int str_sums_add(struct str_sums *s, const char *key, size_t len, uint64_t value)
{
	uint64_t h = hash_bytes(key, len);
	uint32_t id = idtab_find(&s->tab, h, sum_key_eq, &(struct sum_key){ key, len }, s);
	char *copy;

	if (id != IDTAB_NONE) {
		s->v[id].value += value;
		return 0;
	}
	copy = arena_strdup(&s->mem, key, len);
	if (!copy || idtab_append(&s->tab, h, (void **)&s->v, &s->nr, &s->alloc,
				  &(struct str_sum){ .key = copy, .value = value },
				  sizeof(struct str_sum)) == IDTAB_NONE)
		return -ENOMEM;
	return 0;
}

void str_sums_release(struct str_sums *s)
{
	arena_release(&s->mem);
	free(s->v);
	idtab_release(&s->tab);
	memset(s, 0, sizeof(*s));
}

/* ---- shared by the writers ---------------------------------------------------------------- */

const char *dso_basename(const char *dso)
{
	const char *slash = strrchr(dso, '/');

	return slash ? slash + 1 : dso;
}

const char *dso_short_name(const char *dso, char buf[DSO_SHORT_MAX])
{
	int tid;

	if (sscanf(dso, "/tmp/perf-%d.map", &tid) == 1) {
		snprintf(buf, DSO_SHORT_MAX, "[JIT] tid %d", tid);
		return buf;
	}
	if (dso[0] == '/' && kmod_short_name(dso, buf, DSO_SHORT_MAX))
		return buf;
	return dso_basename(dso);
}

uint64_t percent_hundredths(uint64_t part, uint64_t total)
{
	double x;
	uint64_t m, q, r, half;
	int e, s;

	if (!total)
		return 0;
	/*
	 * perf's expression and format (hist.c, callchain.c): "%.2f" of part * 100.0 / total,
	 * which rounds the double's exact value to nearest, ties to even. Done here in integers
	 * (x = m * 2^e, m < 2^53, so m * 100 < 2^60): snprintf cost 1,500 instructions a key.
	 */
	x = part * 100.0 / total;
	m = (uint64_t)ldexp(frexp(x, &e), 53);
	e -= 53;
	m *= 100;
	if (e >= 0)
		return m << e;
	s = -e;
	if (s > 62)
		return 0;	/* x * 100 < 2^60 / 2^63 */
	q = m >> s;
	r = m & ((1ULL << s) - 1);
	half = 1ULL << (s - 1);
	return q + (r > half || (r == half && (q & 1)));
}
