// SPDX-License-Identifier: GPL-2.0
/*
 * util.c - small helpers: hex digits.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbolize/symbolize-int.h"

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;	/* ASCII lower case */
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

size_t parse_hex(const char **p, uint64_t *v)
{
	size_t digits = 0;
	int d;

	*v = 0;
	while ((d = hexval(**p)) >= 0) {
		*v = *v << 4 | (uint64_t)d;
		(*p)++;
		digits++;
	}
	return digits;
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
