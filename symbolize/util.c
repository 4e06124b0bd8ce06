// SPDX-License-Identifier: GPL-2.0
/*
 * util.c - small helpers: hex digits.
 */
#include <errno.h>
#include <fcntl.h>
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
