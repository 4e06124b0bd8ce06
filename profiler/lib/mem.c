// SPDX-License-Identifier: GPL-2.0
/*
 * mem.c - growable arrays and zeroed hash-table memory (see lib.h).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "profiler/lib/lib.h"

void *zalloc_table(size_t n, size_t size)
{
	void *p = size && n > SIZE_MAX / size ? NULL : malloc(n * size);

	/* not memset: the compiler would turn malloc + memset(0) back into calloc */
	if (p)
		explicit_bzero(p, n * size);
	return p;
}

void *grow_array(void *p, size_t *alloc, size_t need, size_t elem)
{
	size_t n = *alloc ? *alloc : 64;
	void *q;

	/* An array never grown is NULL even when nothing is needed: give it room anyway. */
	if (need <= *alloc && p)
		return p;
	while (n < need) {
		if (n > SIZE_MAX / 2)
			return NULL;
		n *= 2;
	}
	if (elem && n > SIZE_MAX / elem)
		return NULL;
	q = realloc(p, n * elem);
	if (q)
		*alloc = n;
	return q;
}
