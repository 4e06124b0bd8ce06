// SPDX-License-Identifier: GPL-2.0
/* pipeline-hash.c - hash-index rebuilding shared by the pipeline's tables. */
#include <errno.h>
#include <stdlib.h>

#include "profiler/pipeline-local.h"

int index_grow(uint32_t **index, size_t *alloc, size_t nr,
	       uint64_t (*hash_of)(const void *tab, size_t i), const void *tab)
{
	size_t n = *alloc ? *alloc * 2 : 1024;
	uint32_t *ix = calloc(n, sizeof(*ix));

	if (!ix)
		return -ENOMEM;
	for (size_t i = 0; i < nr; i++) {
		size_t j;

		for (j = hash_of(tab, i) & (n - 1); ix[j]; j = (j + 1) & (n - 1))
			;
		ix[j] = (uint32_t)i + 1;
	}
	free(*index);
	*index = ix;
	*alloc = n;
	return 0;
}
