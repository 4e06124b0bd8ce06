// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
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

int atomic_tmp_create(const char *path, char **tmp)
{
	int fd, ret;

	if (asprintf(tmp, "%s.tmp.XXXXXX", path) < 0) {
		*tmp = NULL;
		return -ENOMEM;
	}
	/*
	 * mkostemp() opens with O_CREAT|O_EXCL under a random name: an existing file, or a
	 * symlink someone planted (even under the name it picks), is never opened or followed.
	 */
	fd = mkostemp(*tmp, O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		free(*tmp);
		*tmp = NULL;
		return ret;
	}
	/* mkstemp() creates 0600; results are meant to be read like any other file */
	if (fchmod(fd, 0644 & ~process_umask())) {
		ret = -errno;
		close(fd);
		unlink(*tmp);
		free(*tmp);
		*tmp = NULL;
		return ret;
	}
	return fd;
}

int write_file_atomic(const char *path, write_file_fn fn, void *arg)
{
	char *tmp;
	FILE *fp;
	int fd, ret;

	fd = atomic_tmp_create(path, &tmp);
	if (fd < 0)
		return fd;
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
