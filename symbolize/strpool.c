// SPDX-License-Identifier: GPL-2.0
/*
 * strpool.c - interned strings. Every name handed out by the session comes from here, so equal
 * names are equal pointers (callers intern by pointer) and one free releases them all.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "symbolize/symbolize-int.h"

#define CHUNK_SIZE	(64 * 1024)

struct sym_strpool_chunk {
	struct sym_strpool_chunk	*next;
	size_t			used, size;
	char			data[];
};

static uint64_t hash_str(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ULL;	/* FNV-1a */

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
	return h;
}

static char *pool_alloc(struct sym_strpool *p, size_t n)
{
	struct sym_strpool_chunk *c = p->chunks;

	if (!c || c->size - c->used < n) {
		size_t size = n > CHUNK_SIZE ? n : CHUNK_SIZE;

		c = malloc(sizeof(*c) + size);
		if (!c)
			return NULL;
		c->size = size;
		c->used = 0;
		c->next = p->chunks;
		p->chunks = c;
	}
	c->used += n;
	return c->data + c->used - n;
}

static size_t hash_elem(const void *elem)
{
	return (size_t)hash_str(elem, strlen(elem));
}

static bool same_str(const void *elem, const void *key)
{
	return !strcmp(elem, key);
}

const char *sym_strpool_intern(struct sym_strpool *p, const char *s)
{
	size_t len = strlen(s), i;
	char *copy;

	if (ptr_table_reserve(&p->index, hash_elem)) {
		errno = ENOMEM;
		return NULL;
	}
	i = ptr_table_slot(&p->index, (size_t)hash_str(s, len), same_str, s);
	if (p->index.slots[i])
		return p->index.slots[i];
	copy = pool_alloc(p, len + 1);
	if (!copy) {
		errno = ENOMEM;
		return NULL;
	}
	memcpy(copy, s, len + 1);
	p->index.slots[i] = copy;
	p->index.nr++;
	return copy;
}

const char *sym_strpool_copy(struct sym_strpool *p, const char *s)
{
	size_t len = strlen(s) + 1;
	char *copy = pool_alloc(p, len);

	if (!copy) {
		errno = ENOMEM;
		return NULL;
	}
	return memcpy(copy, s, len);
}

void sym_strpool_release(struct sym_strpool *p)
{
	while (p->chunks) {
		struct sym_strpool_chunk *next = p->chunks->next;

		free(p->chunks);
		p->chunks = next;
	}
	ptr_table_release(&p->index);
}
