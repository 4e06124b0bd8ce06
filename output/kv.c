// SPDX-License-Identifier: GPL-2.0
/*
 * kv.c - key/value lists: LKP's "key: value" text and flat JSON objects (stats.json).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/output-int.h"

int kv_list_add(struct kv_list *l, const char *key, double value)
{
	char *copy;

	if (!l || !key)
		return -EINVAL;
	if (array_reserve((void **)&l->items, &l->alloc, l->nr + 1, sizeof(*l->items)))
		return -ENOMEM;
	copy = strdup(key);
	if (!copy)
		return -ENOMEM;
	l->items[l->nr++] = (struct kv){ .key = copy, .value = value };
	return 0;
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
	size_t i;

	for (i = 0; i < l->nr; i++)
		free(l->items[i].key);
	free(l->items);
	memset(l, 0, sizeof(*l));
}

static int write_status(FILE *fp)
{
	if (ferror(fp))
		return errno ? -errno : -EIO;
	return 0;
}

int kv_list_write_text(FILE *fp, const struct kv_list *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		fprintf(fp, "%s: %.2f\n", l->items[i].key, l->items[i].value);
	return write_status(fp);
}

int kv_list_write_json(FILE *fp, const struct kv_list *l)
{
	char num[64];
	size_t i;

	/* JSON has no NaN or infinity: refuse before writing anything. */
	for (i = 0; i < l->nr; i++) {
		if (!isfinite(l->items[i].value))
			return -EDOM;
	}
	if (!l->nr) {
		fputs("{}\n", fp);
		return write_status(fp);
	}
	fputs("{\n", fp);
	for (i = 0; i < l->nr; i++) {
		fputs("  ", fp);
		json_write_string(fp, l->items[i].key);	/* json-write.c */
		json_format_number(num, sizeof(num), l->items[i].value);
		fprintf(fp, ": %s%s\n", num, i + 1 < l->nr ? "," : "");
	}
	fputs("}\n", fp);
	return write_status(fp);
}
