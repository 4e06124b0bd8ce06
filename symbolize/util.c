// SPDX-License-Identifier: GPL-2.0
/*
 * util.c - small helpers: reading a whole text (kallsyms, perf JIT maps), hash table memory.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbolize/symbolize-int.h"

void *zalloc_table(size_t n, size_t size)
{
	void *p = size && n > SIZE_MAX / size ? NULL : malloc(n * size);

	/* not memset: the compiler would turn malloc + memset(0) back into calloc */
	if (p)
		explicit_bzero(p, n * size);
	return p;
}

int read_whole_file(const char *path, char **out, size_t *len)
{
	size_t size = 1 << 20, used = 0;
	char *buf = malloc(size);
	int fd = open(path, O_RDONLY | O_CLOEXEC), err = 0;

	if (fd < 0 || !buf) {
		err = fd < 0 ? -errno : -ENOMEM;
		goto fail;
	}
	for (;;) {
		ssize_t n;

		if (size - used < 2) {
			char *bigger = realloc(buf, size * 2);

			if (!bigger) {
				err = -ENOMEM;
				goto fail;
			}
			buf = bigger;
			size *= 2;
		}
		n = read(fd, buf + used, size - used - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = -errno;
			goto fail;
		}
		if (n == 0)
			break;
		used += (size_t)n;
	}
	close(fd);
	buf[used] = '\0';
	*out = buf;
	*len = used;
	return 0;
fail:
	if (fd >= 0)
		close(fd);
	free(buf);
	return err;
}

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
