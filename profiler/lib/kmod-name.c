// SPDX-License-Identifier: GPL-2.0
/*
 * kmod-name.c - perf's short names of kernel module files: the symbolizer keys modules by them
 * (kallsyms says "[ext4]"), and report tables show them as perf report's dso column does,
 * while perf script (and so folded stacks) show the file's path.
 */
#include <string.h>

#include "profiler/lib/lib.h"

static const char *const kmod_suffixes[] = { ".ko.zst", ".ko.xz", ".ko.gz", ".ko" };

bool kmod_short_name(const char *path, char *buf, size_t size)
{
	const char *base = strrchr(path, '/');
	size_t len = strlen(path), cut = 0;

	if (path[0] == '[' && len > 2 && path[len - 1] == ']') {
		len = len < size ? len : size - 1;
		memcpy(buf, path, len);
		buf[len] = '\0';
		return true;
	}
	base = base ? base + 1 : path;
	len = strlen(base);
	for (size_t i = 0; i < sizeof(kmod_suffixes) / sizeof(*kmod_suffixes) && !cut; i++) {
		size_t n = strlen(kmod_suffixes[i]);

		if (len > n && !strcmp(base + len - n, kmod_suffixes[i]))
			cut = n;
	}
	if (!cut)
		return false;
	len -= cut;
	if (len > size - 3)
		len = size - 3;
	buf[0] = '[';
	for (size_t i = 0; i < len; i++)
		buf[i + 1] = base[i] == '-' ? '_' : base[i];
	buf[len + 1] = ']';
	buf[len + 2] = '\0';
	return true;
}
