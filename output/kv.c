// SPDX-License-Identifier: GPL-2.0
/*
 * kv.c - key/value lists: LKP's "key: value" text and flat JSON objects (stats.json).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/output-local.h"

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

/*
 * The shortest "%.*g" text that reads back as exactly @v (at most 17 digits always suffice for
 * a double), so 45.94 is written "45.94", not "45.939999999999998".
 */
void json_number(char *buf, size_t len, double v)
{
	int prec;

	for (prec = 1; prec < 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return;
	}
	snprintf(buf, len, "%.17g", v);
}

void json_string(FILE *fp, const char *s)
{
	const unsigned char *p;

	fputc('"', fp);
	for (p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"':	fputs("\\\"", fp); break;
		case '\\':	fputs("\\\\", fp); break;
		case '\b':	fputs("\\b", fp); break;
		case '\f':	fputs("\\f", fp); break;
		case '\n':	fputs("\\n", fp); break;
		case '\r':	fputs("\\r", fp); break;
		case '\t':	fputs("\\t", fp); break;
		default:
			if (*p < 0x20)
				fprintf(fp, "\\u%04x", *p);
			else
				fputc(*p, fp);	/* UTF-8 passes through unchanged */
		}
	}
	fputc('"', fp);
}

int kv_list_write_json(FILE *fp, const struct kv_list *l)
{
	char num[40];
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
		json_string(fp, l->items[i].key);
		json_number(num, sizeof(num), l->items[i].value);
		fprintf(fp, ": %s%s\n", num, i + 1 < l->nr ? "," : "");
	}
	fputs("}\n", fp);
	return write_status(fp);
}
