// SPDX-License-Identifier: GPL-2.0
/*
 * input.c - what kind of profile an input is (see profile.h): the one sniffing rule that
 * collapse, report and flamegraph share. A kprof run directory stands for its perf.data, else
 * its profile.folded; a file is perf.data when it starts with the magic, `perf script` text
 * when its first lines look like it, folded stacks otherwise.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profiler/lib/lib.h"
#include "profiler/perfdata/perfdata.h"
#include "profiler/profile/profile.h"
#include "profiler/script/script.h"

enum profile_input profile_input_kind(const void *head, size_t len)
{
	if (pd_magic_ok(head, len))
		return PROFILE_INPUT_PERF_DATA;
	if (script_looks_like(head, len))
		return PROFILE_INPUT_SCRIPT;
	return PROFILE_INPUT_FOLDED;
}

/* A run directory's profile: perf.data first (it has every event), else profile.folded. */
static int run_dir_file(const char *dir, char **file, char *err, size_t errlen)
{
	static const char *const candidates[] = { "perf.data", "profile.folded" };
	struct stat sb;

	for (size_t i = 0; i < sizeof(candidates) / sizeof(candidates[0]); i++) {
		if (asprintf(file, "%s/%s", dir, candidates[i]) < 0)
			return err_set(err, errlen, -ENOMEM, "%s: out of memory", dir);
		if (!stat(*file, &sb) && S_ISREG(sb.st_mode))
			return 0;
		free(*file);
	}
	*file = NULL;
	return err_set(err, errlen, -ENOENT,
		       "%s: not a kprof run directory (no perf.data or profile.folded)", dir);
}

int profile_input_sniff(const char *path, enum profile_input *kind, char **file, char *err,
			size_t errlen)
{
	char head[PROFILE_SNIFF_BYTES];
	struct stat sb;
	ssize_t n;
	int fd, ret;

	*file = NULL;
	if (stat(path, &sb))
		return err_set(err, errlen, -errno, "%s: %s", path, strerror(errno));
	if (S_ISDIR(sb.st_mode)) {
		ret = run_dir_file(path, file, err, errlen);
		if (ret)
			return ret;
		path = *file;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = err_set(err, errlen, -errno, "%s: %s", path, strerror(errno));
		goto fail;
	}
	do
		n = read(fd, head, sizeof(head));
	while (n < 0 && errno == EINTR);
	ret = n < 0 ? -errno : 0;
	close(fd);
	if (ret) {
		err_set(err, errlen, ret, "%s: %s", path, strerror(-ret));
		goto fail;
	}
	*kind = profile_input_kind(head, (size_t)n);
	return 0;
fail:
	free(*file);
	*file = NULL;
	return ret;
}
