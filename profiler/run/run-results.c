// SPDX-License-Identifier: GPL-2.0
/*
 * run-results.c - the on-disk result set of `kprof run` (see run.h): directories, atomic
 * file writes, stats.json, and the kernel-level matrix.json rebuilt from the runs' stats.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output/output.h"
#include "profiler/lib/lib.h"
#include "profiler/run/run-int.h"

int run_mkdirs(const char *path)
{
	char *buf = strdup(path);
	int ret = 0;

	if (!buf)
		return -ENOMEM;
	for (char *p = buf + 1; *p && !ret; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			ret = -errno;
		*p = '/';
	}
	if (!ret && mkdir(buf, 0755) && errno != EEXIST)
		ret = -errno;
	free(buf);
	return ret;
}

static bool is_run_number(const char *name, long *n)
{
	char *end;

	if (!isdigit((unsigned char)name[0]))
		return false;
	errno = 0;
	*n = strtol(name, &end, 10);
	return !*end && !errno && *n < INT_MAX;	/* not ours beyond: the next would not fit */
}

int run_next_number(const char *base)
{
	DIR *d = opendir(base);
	struct dirent *de;
	long n, next = 0;

	if (!d)
		return 0;
	while ((de = readdir(d)))
		if (is_run_number(de->d_name, &n) && n + 1 > next)
			next = n + 1;
	closedir(d);
	return (int)next;
}

static int rm_entry(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	(void)sb, (void)type, (void)ftw;	/* an nftw() callback */
	return remove(path) ? -errno : 0;
}

int run_remove_tree(const char *path)
{
	return nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static int write_stats(FILE *fp, void *arg)
{
	const struct kv_list *m = arg;
	struct kv_list l = { 0 };
	int ret = 0;

	for (size_t i = 0; !ret && i < m->nr; i++)
		ret = kv_list_add(&l, m->items[i].key, m->items[i].value);
	if (!ret)
		ret = kv_list_write_json(fp, &l);
	kv_list_release(&l);
	return ret;
}

int run_write_stats(const char *path, const struct kv_list *m)
{
	return write_file_atomic(path, write_stats, (void *)m);
}

static int write_matrix(FILE *fp, void *arg)
{
	return matrix_write_json(fp, arg);
}

int run_update_matrix(const char *base, const char *stats_json, char *err, size_t errlen)
{
	struct matrix m = { 0 };
	char *path;
	int ret = 0;

	if (asprintf(&path, "%s/matrix.json", base) < 0)
		return -ENOMEM;
	if (!access(path, F_OK))
		ret = matrix_read_json(path, &m, err, errlen);
	if (!ret)
		ret = matrix_add_stats_json(&m, stats_json, err, errlen);
	if (!ret) {
		ret = write_file_atomic(path, write_matrix, &m);
		if (ret)
			snprintf(err, errlen, "%s: %s", path, strerror(-ret));
	}
	matrix_release(&m);
	free(path);
	return ret;
}
