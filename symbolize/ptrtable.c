// SPDX-License-Identifier: GPL-2.0
/*
 * ptrtable.c - an open-addressing hash set of pointers (linear probing, at most half full), the
 * index behind the string pool, the process table and the file table.
 */
#include <errno.h>
#include <stdlib.h>

#include "symbolize/symbolize-int.h"

int ptr_table_reserve(struct ptr_table *t, size_t (*hash)(const void *elem))
{
	size_t size = t->slots ? (t->mask + 1) * 2 : 64;
	void **slots;

	if ((t->nr + 1) * 2 <= (t->slots ? t->mask + 1 : 0))
		return 0;
	slots = zalloc_table(size, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; t->slots && i <= t->mask; i++) {
		size_t j;

		if (!t->slots[i])
			continue;
		for (j = hash(t->slots[i]) & (size - 1); slots[j]; j = (j + 1) & (size - 1))
			;
		slots[j] = t->slots[i];
	}
	free(t->slots);
	t->slots = slots;
	t->mask = size - 1;
	return 0;
}

size_t ptr_table_slot(const struct ptr_table *t, size_t hash,
		      bool (*match)(const void *elem, const void *key), const void *key)
{
	size_t i;

	for (i = hash & t->mask; t->slots[i]; i = (i + 1) & t->mask)
		if (match(t->slots[i], key))
			break;
	return i;
}

void ptr_table_release(struct ptr_table *t)
{
	free(t->slots);
	t->slots = NULL;
	t->mask = t->nr = 0;
}
