// SPDX-License-Identifier: GPL-2.0
/*
 * file.c - reading a whole file or descriptor into memory (see lib.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profiler/lib/lib.h"

/* read_whole_fd(), and with @max_line: -EMSGSIZE as soon as a line is longer than that. */
static int read_whole(int fd, size_t max, size_t max_line, char **out, size_t *len)
{
	size_t size = 1 << 16, used = 0, line_start = 0;
	char *buf = malloc(size), *bigger, *nl;
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
		if (max_line) {
			for (nl = buf + used; (nl = memchr(nl, '\n', (size_t)(buf + used + n - nl))) &&
			     (size_t)(nl - buf) - line_start <= max_line; nl++)
				line_start = (size_t)(nl + 1 - buf);
			if (nl || used + (size_t)n - line_start > max_line) {
				free(buf);
				return -EMSGSIZE;
			}
		}
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

int read_whole_fd(int fd, size_t max, char **out, size_t *len)
{
	return read_whole(fd, max, 0, out, len);
}

int read_whole_text_fd(int fd, size_t max_line, char **out, size_t *len)
{
	return read_whole(fd, 0, max_line, out, len);
}

int open_regular(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	struct stat st;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	return fd;
}

int read_whole_regular_file(const char *path, size_t max, char **out, size_t *len)
{
	int fd = open_regular(path), ret;

	if (fd < 0)
		return fd;
	ret = read_whole_fd(fd, max, out, len);
	close(fd);
	return ret;
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
