// SPDX-License-Identifier: GPL-2.0
/*
 * file.c - reading a whole file or descriptor into memory (see lib.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "profiler/lib/lib.h"

int read_whole_fd(int fd, size_t max, char **out, size_t *len)
{
	size_t size = 1 << 16, used = 0;
	char *buf = malloc(size), *bigger;
	ssize_t n;

	if (!buf)
		return -ENOMEM;
	for (;;) {
		if (size - used < 2) {
			bigger = size > SIZE_MAX / 2 ? NULL : realloc(buf, size * 2);
			if (!bigger) {
				free(buf);
				return -ENOMEM;
			}
			buf = bigger;
			size *= 2;
		}
		n = read(fd, buf + used, size - used - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int ret = -errno;

			free(buf);
			return ret;
		}
		if (n == 0)
			break;
		used += (size_t)n;
		if (max && used > max) {
			free(buf);
			return -EFBIG;
		}
	}
	buf[used] = '\0';
	*out = buf;
	*len = used;
	return 0;
}

int read_whole_file(const char *path, size_t max, char **out, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret;

	if (fd < 0)
		return -errno;
	ret = read_whole_fd(fd, max, out, len);
	close(fd);
	return ret;
}
