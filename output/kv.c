// SPDX-License-Identifier: GPL-2.0
/*
 * kv.c - writing key/value lists (lib.h): LKP's "key: value" text and flat JSON objects
 * (stats.json).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/output-int.h"

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
	return kv_list_write_json_member(fp, l, NULL, NULL, NULL);
}

int kv_list_write_json_member(FILE *fp, const struct kv_list *l, const char *member,
			      int (*write_value)(FILE *fp, void *arg), void *arg)
{
	char num[64];
	size_t i;
	int err;

	/* JSON has no NaN or infinity: refuse before writing anything. */
	for (i = 0; i < l->nr; i++) {
		if (!isfinite(l->items[i].value))
			return -EDOM;
	}
	if (!l->nr && !member) {
		fputs("{}\n", fp);
		return write_status(fp);
	}
	fputs("{\n", fp);
	for (i = 0; i < l->nr; i++) {
		fputs("  ", fp);
		json_write_string(fp, l->items[i].key);	/* json-write.c */
		json_format_number(num, sizeof(num), l->items[i].value);
		fprintf(fp, ": %s%s\n", num, i + 1 < l->nr || member ? "," : "");
	}
	if (member) {
		fputs("  ", fp);
		json_write_string(fp, member);
		fputs(": ", fp);
		err = write_value(fp, arg);
		if (err)
			return err;
		fputs("\n", fp);
	}
	fputs("}\n", fp);
	return write_status(fp);
}
