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

/*
 * An existing target that is not a regular file (/dev/null, /dev/stdout, a FIFO, a terminal) is
 * written in place, as any program writes it: a rename would put a regular file where the
 * device or the pipe was (as root, in /dev), and a chmod would change the device's mode.
 */
static int open_special(const char *path, char **tmp)
{
	struct stat st;
	int fd;

	*tmp = NULL;
	if (stat(path, &st) || S_ISREG(st.st_mode))
		return -ENOENT;
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0 && (errno == EACCES || errno == EINVAL || errno == ENXIO))
		fd = open(path, O_WRONLY | O_CLOEXEC);	/* a pipe's writing end, say */
	return fd < 0 ? -errno : fd;
}

int atomic_tmp_create(const char *path, char **tmp)
{
	int fd, ret;

	fd = open_special(path, tmp);
	if (fd != -ENOENT)
		return fd;
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
	ret = fn(fp, arg);
	/*
	 * A writer that saw ferror() says -EIO; flushing again tells why (a full disk: ENOSPC),
	 * which is what the user needs to read.
	 */
	if (fflush(fp) && (!ret || ret == -EIO) && errno)
		ret = -errno;
	if (ferror(fp) && !ret)
		ret = -EIO;
	if (fclose(fp) && !ret)
		ret = -errno;
	if (!ret && tmp && rename(tmp, path))
		ret = -errno;
out:
	if (ret && tmp)
		unlink(tmp);
	free(tmp);
	return ret;
}
