// SPDX-License-Identifier: GPL-2.0
/*
 * run-set-guard.c - a result set shared safely (see run.h): one `kprof run` at a time per set
 * (an flock, so a killed holder releases it), and at the start of a run the set made whole
 * again after a kprof that died without cleaning up: its temporary run directories removed,
 * finished runs that never reached matrix.json added to it.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "output/output.h"
#include "profiler/run/run-int.h"

int run_lock_set(const char *base, char *err, size_t errlen)
{
	char path[4096], pid[32] = "";
	ssize_t n;
	int fd, ret;

	if ((size_t)snprintf(path, sizeof(path), "%s/.lock", base) >= sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(-ret));
		return ret;
	}
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		ret = -errno;
		n = pread(fd, pid, sizeof(pid) - 1, 0);
		pid[n > 0 ? n : 0] = '\0';
		pid[strcspn(pid, "\n")] = '\0';
		if (ret == -EWOULDBLOCK)
			snprintf(err, errlen, "%s: another kprof run (pid %s) is adding runs to this "
				 "result set; wait for it, or give another -o", base,
				 pid[0] ? pid : "?");
		else
			snprintf(err, errlen, "%s: %s", path, strerror(-ret));
		close(fd);
		return ret == -EWOULDBLOCK ? -EBUSY : ret;
	}
	/* for the message above; the lock itself is what counts */
	n = snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
	if (!ftruncate(fd, 0) && pwrite(fd, pid, (size_t)n, 0) != n) {
		/* a full disk: the lock holds all the same */
	}
	return fd;
}

int run_remove_stale(const char *base, int *removed)
{
	DIR *d = opendir(base);
	struct dirent *de;
	char path[4096];
	size_t l;
	int ret = 0;

	*removed = 0;
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		l = strlen(de->d_name);
		if (strncmp(de->d_name, ".run-", 5) || l < 9 || strcmp(de->d_name + l - 4, ".tmp"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", base, de->d_name);
		if (run_remove_tree(path))
			ret = ret ?: -errno;
		else
			(*removed)++;
	}
	closedir(d);
	return ret;
}

/* The run number of a stats_source ".../<N>/stats.json", or -1. */
static long source_run(const char *src)
{
	const char *end = strrchr(src, '/'), *p;
	char *stop;
	long n;

	if (!end || strcmp(end, "/stats.json"))
		return -1;
	for (p = end; p > src && p[-1] != '/'; p--)
		;
	n = strtol(p, &stop, 10);
	return stop == end && p != end ? n : -1;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return x < y ? -1 : x > y;
}

int run_reconcile_matrix(const char *base, int *added, char *err, size_t errlen)
{
	char path[4096];
	long *runs = NULL, n;
	size_t nr = 0, alloc = 0;
	struct matrix m = { 0 };
	struct dirent *de;
	DIR *d;
	int ret = 0;

	*added = 0;
	d = opendir(base);
	if (!d)
		return -errno;
	while ((de = readdir(d)) && !ret) {
		char *stop;

		n = strtol(de->d_name, &stop, 10);
		if (*stop || stop == de->d_name || n < 0)
			continue;
		snprintf(path, sizeof(path), "%s/%ld/stats.json", base, n);
		if (access(path, F_OK))
			continue;	/* not a finished run */
		if (nr == alloc) {
			long *nb = realloc(runs, (alloc = alloc * 2 + 16) * sizeof(*runs));

			if (!nb) {
				ret = -ENOMEM;
				break;
			}
			runs = nb;
		}
		runs[nr++] = n;
	}
	closedir(d);
	if (!ret && nr) {
		qsort(runs, nr, sizeof(*runs), cmp_long);
		snprintf(path, sizeof(path), "%s/matrix.json", base);
		if (!access(path, F_OK))
			ret = matrix_read_json(path, &m, err, errlen);
	}
	for (size_t i = 0; !ret && i < nr; i++) {
		bool in = false;

		for (size_t j = 0; j < m.nr_runs && !in; j++)
			in = source_run(m.sources[j]) == runs[i];
		if (in)
			continue;
		snprintf(path, sizeof(path), "%s/%ld/stats.json", base, runs[i]);
		ret = run_update_matrix(base, path, err, errlen);
		if (!ret)
			(*added)++;
	}
	matrix_release(&m);
	free(runs);
	return ret;
}
