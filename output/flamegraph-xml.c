// SPDX-License-Identifier: GPL-2.0
/*
 * flamegraph-xml.c - names as XML 1.0 text. Frame names come from symbol tables, comm strings and
 * user files, so they may hold anything: markup characters are escaped, and what XML 1.0 cannot
 * carry at all (control bytes, invalid or overlong UTF-8, surrogates, U+FFFE/U+FFFF) becomes
 * U+FFFD, so every SVG we write parses.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "output/flamegraph-int.h"

#define REPLACEMENT "\xef\xbf\xbd"	/* U+FFFD */

/* Length of the valid UTF-8 sequence XML allows at @s, or 0 when it is not one. */
static size_t xml_char_len(const unsigned char *s)
{
	uint32_t cp;
	size_t n, i;

	if (s[0] < 0x80)
		return s[0] >= 0x20 && s[0] != 0x7f ? 1 : 0;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)	/* also stops at the terminating NUL */
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;	/* overlong or beyond Unicode */
	if ((cp >= 0xd800 && cp <= 0xdfff) || cp == 0xfffe || cp == 0xffff)
		return 0;
	return n;
}

size_t flame_utf8_chars(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n = 0, len;

	while (*s) {
		len = xml_char_len(s);
		s += len ? len : 1;
		n++;
	}
	return n;
}

void flame_xml_put(FILE *fp, const char *str, size_t max_chars)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t total = max_chars == SIZE_MAX ? 0 : flame_utf8_chars(str);
	size_t keep = total > max_chars ? (max_chars >= 2 ? max_chars - 2 : 0) : SIZE_MAX;
	size_t n = 0, len;

	for (; *s && n < keep; s += len ? len : 1, n++) {
		len = xml_char_len(s);
		if (!len) {
			fputs(*s == '\t' ? " " : REPLACEMENT, fp);
			continue;
		}
		switch (*s) {
		case '&': fputs("&amp;", fp); break;
		case '<': fputs("&lt;", fp); break;
		case '>': fputs("&gt;", fp); break;
		case '"': fputs("&quot;", fp); break;
		case '\'': fputs("&apos;", fp); break;
		default: fwrite(s, 1, len, fp); break;
		}
	}
	if (keep != SIZE_MAX && max_chars >= 2)
		fputs("..", fp);
}
