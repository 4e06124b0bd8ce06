// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profiler/lib/lib.h"

static mode_t process_umask(void)
{
	mode_t m = umask(022);

	umask(m);
	return m;
}

int write_file_atomic(const char *path, write_file_fn fn, void *arg)
{
	char *tmp;
	FILE *fp;
	int fd, ret;

	if (asprintf(&tmp, "%s.tmp.XXXXXX", path) < 0)
		return -ENOMEM;
	fd = mkstemp(tmp);
	if (fd < 0) {
		ret = -errno;
		free(tmp);
		return ret;
	}
	fp = fdopen(fd, "w");
	if (!fp) {
		ret = -errno;
		close(fd);
		goto out;
	}
	/* mkstemp() creates 0600; results are meant to be read like any other file */
	ret = fchmod(fd, 0644 & ~process_umask()) ? -errno : 0;
	if (!ret)
		ret = fn(fp, arg);
	if (fflush(fp) && !ret)
		ret = -errno;
	if (ferror(fp) && !ret)
		ret = -EIO;
	if (fclose(fp) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, path))
		ret = -errno;
out:
	if (ret)
		unlink(tmp);
	free(tmp);
	return ret;
}
