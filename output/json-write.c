// SPDX-License-Identifier: GPL-2.0
/*
 * json-write.c - the writing half of kprof's JSON: string literals and numbers in their shortest
 * round-trip form, so that a value written and read back is the same double.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/output.h"

void json_format_number(char *buf, size_t len, double v)
{
	if (!isfinite(v)) {
		snprintf(buf, len, "null");
		return;
	}
	/* Like Ruby's Float#to_s: plain decimals between 1e-4 and 1e16, else an exponent. */
	if (v == 0 || (fabs(v) >= 1e-4 && fabs(v) < 1e16)) {
		for (int prec = 0; prec <= 20; prec++) {
			snprintf(buf, len, "%.*f", prec, v);
			if (strtod(buf, NULL) == v)
				return;
		}
	}
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return;
	}
}

int json_write_number(FILE *fp, double v)
{
	char buf[64];

	json_format_number(buf, sizeof(buf), v);
	return fputs(buf, fp) < 0 ? -EIO : 0;
}

int json_write_string(FILE *fp, const char *s)
{
	putc('"', fp);
	for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
		switch (*c) {
		case '"':
			fputs("\\\"", fp);
			break;
		case '\\':
			fputs("\\\\", fp);
			break;
		case '\n':
			fputs("\\n", fp);
			break;
		case '\t':
			fputs("\\t", fp);
			break;
		default:
			if (*c < 0x20)
				fprintf(fp, "\\u%04x", *c);
			else
				putc(*c, fp);
		}
	}
	return putc('"', fp) == EOF ? -EIO : 0;
}
