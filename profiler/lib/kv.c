// SPDX-License-Identifier: GPL-2.0
/*
 * kv.c - the key -> number list every module passes metrics in: a workload's parsed log, the
 * monitors, perf-profile and perf-stat keys, stats.json. The writers (LKP's text, JSON) are
 * output/'s.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "profiler/lib/lib.h"

int kv_list_add(struct kv_list *l, const char *key, double value)
{
	struct kv *items;
	char *copy;

	if (!l || !key)
		return -EINVAL;
	items = grow_array(l->items, &l->alloc, l->nr + 1, sizeof(*l->items));
	if (!items)
		return -ENOMEM;
	l->items = items;
	copy = strdup(key);
	if (!copy)
		return -ENOMEM;
	l->items[l->nr++] = (struct kv){ .key = copy, .value = value };
	return 0;
}

int kv_list_set(struct kv_list *l, const char *key, double value)
{
	double *v = (double *)kv_list_get(l, key);

	if (!v)
		return kv_list_add(l, key, value);
	*v = value;
	return 0;
}

const double *kv_list_get(const struct kv_list *l, const char *key)
{
	for (size_t i = 0; l && i < l->nr; i++)
		if (!strcmp(l->items[i].key, key))
			return &l->items[i].value;
	return NULL;
}

static int kv_cmp(const void *a, const void *b)
{
	const struct kv *x = a, *y = b;

	return strcmp(x->key, y->key);	/* strcmp compares as unsigned char: byte order */
}

void kv_list_sort(struct kv_list *l)
{
	if (l->nr > 1)
		qsort(l->items, l->nr, sizeof(*l->items), kv_cmp);
}

void kv_list_release(struct kv_list *l)
{
	for (size_t i = 0; i < l->nr; i++)
		free(l->items[i].key);
	free(l->items);
	memset(l, 0, sizeof(*l));
}
