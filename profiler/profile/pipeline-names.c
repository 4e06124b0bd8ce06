// SPDX-License-Identifier: GPL-2.0
/*
 * pipeline-names.c - named frames (struct nframe, see pipeline-int.h): allocated in chunks that
 * never move, and user frames interned by what they name.
 *
 * A make -B recording has hundreds of short-lived processes running the same few programs:
 * every one of them misses the per-(pid, address) frame cache once per frame. Interning the
 * symbolize result lets such a miss find the call graph id the frame got in an earlier process,
 * instead of hashing the frame into the call graph again.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "profiler/lib/lib.h"
#include "profiler/profile/pipeline-int.h"

#define NFRAME_CHUNK	4096

struct nframe_chunk {
	struct nframe_chunk	*next;
	size_t			nr;
	struct nframe		f[NFRAME_CHUNK];
};

struct nframe *nframe_new(struct nframe_chunk **chunks)
{
	struct nframe *f;

	if (!*chunks || (*chunks)->nr == NFRAME_CHUNK) {
		struct nframe_chunk *c = malloc(sizeof(*c));

		if (!c)
			return NULL;
		c->next = *chunks;
		c->nr = 0;
		*chunks = c;
	}
	f = &(*chunks)->f[(*chunks)->nr++];
	memset(f, 0, sizeof(*f));
	return f;
}

void nframe_chunks_free(struct nframe_chunk **chunks)
{
	while (*chunks) {
		struct nframe_chunk *c = *chunks;

		*chunks = c->next;
		free(c);
	}
}

static uint64_t name_hash(const char *sym, const char *dso, uint64_t id)
{
	uint64_t h = ((uint64_t)(uintptr_t)sym * 0x9e3779b97f4a7c15ULL) ^
		     ((uint64_t)(uintptr_t)dso * 0xc2b2ae3d27d4eb4fULL) ^ id;

	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ULL;
	return h ^ (h >> 32);
}

static int grow(struct nframe_table *t)
{
	size_t alloc = t->alloc ? t->alloc * 2 : 4096;
	struct nframe **tab = zalloc_table(alloc, sizeof(*tab));

	if (!tab)
		return -ENOMEM;
	for (size_t i = 0; i < t->alloc; i++) {
		struct nframe *f = t->tab[i];
		size_t j;

		if (!f)
			continue;
		for (j = name_hash(f->sym, f->dso, f->sym_id) & (alloc - 1); tab[j];
		     j = (j + 1) & (alloc - 1))
			;
		tab[j] = f;
	}
	free(t->tab);
	t->tab = tab;
	t->alloc = alloc;
	return 0;
}

struct nframe *nframe_intern(struct nframe_table *t, const char *sym, const char *dso,
			     uint64_t id, uint64_t addr)
{
	struct nframe *f;
	size_t i;

	/* at most half full: most lookups are of frames seen before, and end at their slot */
	if ((t->nr + 1) * 2 > t->alloc && grow(t))
		return NULL;
	for (i = name_hash(sym, dso, id) & (t->alloc - 1); (f = t->tab[i]);
	     i = (i + 1) & (t->alloc - 1))
		if (f->sym == sym && f->dso == dso && f->sym_id == id && f->addr == addr)
			return f;
	f = nframe_new(&t->chunks);
	if (!f)
		return NULL;
	*f = (struct nframe){ .addr = addr, .sym = sym, .dso = dso, .sym_id = id };
	t->tab[i] = f;
	t->nr++;
	return f;
}

void nframe_table_release(struct nframe_table *t)
{
	free(t->tab);
	nframe_chunks_free(&t->chunks);
	memset(t, 0, sizeof(*t));
}
