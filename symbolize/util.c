// SPDX-License-Identifier: GPL-2.0
/*
 * util.c - small helpers: hex digits, build-ids.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbolize/symbolize-int.h"

/*
 * A digit's value + 1 by byte, 0 for a non-digit: one table load per digit rather than range
 * tests (kallsyms has 120K+ sixteen-digit addresses, parsed while the file is read).
 */
static const uint8_t hex_digit1[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5,
	['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
	['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
	['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

bool ptr_within(const void *p, const void *base, size_t len)
{
	return base && (uintptr_t)p >= (uintptr_t)base && (uintptr_t)p - (uintptr_t)base < len;
}

size_t parse_hex(const char **p, uint64_t *v)
{
	const unsigned char *start = (const unsigned char *)*p, *s = start;
	uint64_t x = 0;
	unsigned int d;

	while ((d = hex_digit1[*s])) {
		x = x << 4 | (d - 1);
		s++;
	}
	*v = x;
	*p = (const char *)s;
	return (size_t)(s - start);
}

bool build_id_equal(const uint8_t *got, size_t got_len, const uint8_t *want, size_t want_len)
{
	if (!got_len || got_len > want_len || memcmp(got, want, got_len))
		return false;
	for (size_t i = got_len; i < want_len; i++)
		if (want[i])
			return false;
	return true;
}

bool build_id_cache_file(const uint8_t *id, size_t len, const char *fmt, char *path,
			 size_t size)
{
	const char *dir = getenv("PERF_BUILDID_DIR"), *home = getenv("HOME");
	char hex[2 * 20 + 1], base[4096];
	int n;

	if (!len || len > 20)
		return false;
	for (size_t i = 0; i < len; i++)
		snprintf(hex + 2 * i, 3, "%02x", id[i]);
	if (dir && *dir)
		n = snprintf(base, sizeof(base), "%s", dir);
	else if (home && *home)
		n = snprintf(base, sizeof(base), "%s/.debug", home);
	else
		return false;
	if (n <= 0 || (size_t)n >= sizeof(base))
		return false;
	/* fmt takes the cache directory, the id's first two hex digits, the rest, the whole id */
	n = snprintf(path, size, fmt, base, hex, hex + 2, hex);
	return n > 0 && (size_t)n < size;
}

size_t notes_build_id(const char *path, uint8_t id[20])
{
	char *buf;
	size_t len, at = 0, n = 0;

	if (read_whole_file(path, 1 << 20, &buf, &len))
		return 0;
	while (at + 12 <= len) {
		uint32_t namesz, descsz, type;
		size_t name_at = at + 12, desc_at;

		memcpy(&namesz, buf + at, 4);
		memcpy(&descsz, buf + at + 4, 4);
		memcpy(&type, buf + at + 8, 4);
		desc_at = name_at + ((namesz + 3) & ~3u);
		if (desc_at > len || descsz > len - desc_at)
			break;
		if (type == 3 /* NT_GNU_BUILD_ID */ && namesz == 4 &&
		    !memcmp(buf + name_at, "GNU", 4) && descsz && descsz <= 20) {
			memcpy(id, buf + desc_at, descsz);
			n = descsz;
			break;
		}
		at = desc_at + ((descsz + 3) & ~3u);
	}
	free(buf);
	return n;
}
