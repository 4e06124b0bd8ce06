// SPDX-License-Identifier: GPL-2.0
/*
 * matrix-load.c - find and load one kernel's result set from what the user names on the command
 * line: a matrix.json file, a kernel directory holding matrix.json, a directory of run
 * directories each holding stats.json (RESULTS/<workload>/<params>/<kernel>/<run#>/stats.json),
 * or a single run directory holding stats.json. Also finds the set's label: the kernel release
 * from meta.json when there is one, else the directory name.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "output/output.h"

/* meta.json fields that may name the kernel, in order of preference. */
static const char *const release_fields[] = { "kernel_release", "release", "osrelease",
					      "kernel" };

static bool is_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

static char *join(const char *dir, const char *name)
{
	char *p;

	if (asprintf(&p, "%s/%s", dir, name) < 0)
		return NULL;
	return p;
}

/* Run directories: all-digit names in numeric order first, then others bytewise. */
static int run_cmp(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	bool dx = x[strspn(x, "0123456789")] == 0, dy = y[strspn(y, "0123456789")] == 0;

	if (dx != dy)
		return dx ? -1 : 1;
	if (dx && strlen(x) != strlen(y))
		return strlen(x) < strlen(y) ? -1 : 1;
	return strcmp(x, y);
}

static int list_runs(const char *dir, char ***out, size_t *nr, char *err, size_t errlen)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t alloc = 0;
	char **runs = NULL;

	*nr = 0;
	if (!d) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return -errno;
	}
	while ((de = readdir(d))) {
		char *stats;

		if (de->d_name[0] == '.')
			continue;
		stats = join(dir, de->d_name);
		if (stats) {
			char *s = join(stats, "stats.json");

			free(stats);
			stats = s;
		}
		if (!stats)
			goto nomem;
		if (!is_file(stats)) {
			free(stats);
			continue;
		}
		if (*nr == alloc) {
			char **n = realloc(runs, (alloc = alloc ? alloc * 2 : 8) * sizeof(*n));

			if (!n) {
				free(stats);
				goto nomem;
			}
			runs = n;
		}
		free(stats);
		runs[*nr] = strdup(de->d_name);
		if (!runs[*nr])
			goto nomem;
		(*nr)++;
	}
	closedir(d);
	if (*nr)
		qsort(runs, *nr, sizeof(*runs), run_cmp);
	*out = runs;
	return 0;
nomem:
	closedir(d);
	for (size_t i = 0; i < *nr; i++)
		free(runs[i]);
	free(runs);
	snprintf(err, errlen, "out of memory");
	return -ENOMEM;
}

/* Prefix a reader's message with the file it is about. */
static int file_error(int ret, const char *file, char *err, size_t errlen)
{
	char reason[256];

	snprintf(reason, sizeof(reason), "%s", err);
	snprintf(err, errlen, "%s: %s", file, reason);
	return ret;
}

static int load_runs(const char *dir, struct matrix *m, char *err, size_t errlen)
{
	char **runs = NULL, *stats;
	size_t nr = 0;
	int ret = list_runs(dir, &runs, &nr, err, errlen);

	for (size_t i = 0; !ret && i < nr; i++) {
		char *run = join(dir, runs[i]);

		stats = run ? join(run, "stats.json") : NULL;
		free(run);
		if (!stats) {
			ret = -ENOMEM;
			snprintf(err, errlen, "out of memory");
			break;
		}
		ret = matrix_add_stats_json(m, stats, err, errlen);
		if (ret)
			file_error(ret, stats, err, errlen);
		free(stats);
	}
	for (size_t i = 0; i < nr; i++)
		free(runs[i]);
	free(runs);
	if (!ret && !m->nr_runs) {
		snprintf(err, errlen, "%s: no runs (no matrix.json and no */stats.json)", dir);
		ret = -ENODATA;
	}
	return ret;
}

char *matrix_set_meta_string(const char *dir, const struct matrix *m,
			     const char *const *fields, size_t nr_fields)
{
	char *paths[2] = { join(dir, "meta.json"), NULL }, *found = NULL;
	char err[256];

	if (m->nr_runs && m->sources && m->sources[0]) {
		char *run = strdup(m->sources[0]), *slash = run ? strrchr(run, '/') : NULL;

		if (slash) {
			*slash = 0;
			paths[1] = join(run, "meta.json");
		}
		free(run);
	}
	for (size_t i = 0; i < 2 && !found; i++) {
		struct json_object o;

		if (!paths[i] || !is_file(paths[i]))
			continue;
		if (json_read_file(paths[i], &o, err, sizeof(err)))
			continue;	/* a broken meta.json only costs the label */
		for (size_t f = 0; f < nr_fields; f++) {
			const struct json_member *jm = json_get(&o, fields[f]);

			if (jm && jm->type == JSON_STRING && jm->str[0]) {
				found = strdup(jm->str);
				break;
			}
		}
		json_object_release(&o);
	}
	free(paths[0]);
	free(paths[1]);
	return found;
}

static char *dir_name_label(const char *dir)
{
	char *copy = realpath(dir, NULL), *end, *base, *label;

	if (!copy)
		copy = strdup(dir);
	if (!copy)
		return NULL;
	for (end = copy + strlen(copy); end > copy + 1 && end[-1] == '/'; )
		*--end = 0;
	base = strrchr(copy, '/');
	label = strdup(base && base[1] ? base + 1 : copy);
	free(copy);
	return label;
}

int matrix_load_set(const char *path, struct matrix *m, char **label, char **set_dir,
		    char *err, size_t errlen)
{
	struct stat st;
	char *dir = NULL, *matrix_json = NULL;
	bool use_runs = false;
	int ret;

	memset(m, 0, sizeof(*m));
	*label = NULL;
	if (stat(path, &st) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -errno;
	}
	if (S_ISDIR(st.st_mode)) {
		dir = strdup(path);
		matrix_json = join(path, "matrix.json");
		if (matrix_json && !is_file(matrix_json)) {
			free(matrix_json);
			matrix_json = (char *)"";	/* none: the runs' stats.json */
		}
	} else {
		char *slash;

		matrix_json = strdup(path);
		dir = strdup(path);
		slash = dir ? strrchr(dir, '/') : NULL;
		if (slash)
			*slash = 0;
		else if (dir)
			strcpy(dir, ".");
	}
	if (matrix_json && !*matrix_json) {
		matrix_json = NULL;
		use_runs = true;
	}
	if (!dir || (!matrix_json && !use_runs)) {
		ret = -ENOMEM;
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	if (matrix_json) {
		ret = matrix_read_json(matrix_json, m, err, errlen);
		if (ret)
			file_error(ret, matrix_json, err, errlen);
		else if (!m->nr_runs) {
			snprintf(err, errlen, "%s: no runs in the matrix", matrix_json);
			ret = -ENODATA;
		}
	} else {
		char *stats = join(path, "stats.json");

		if (stats && is_file(stats)) {
			ret = matrix_add_stats_json(m, stats, err, errlen);
			if (ret)
				file_error(ret, stats, err, errlen);
		} else {
			ret = load_runs(path, m, err, errlen);
		}
		free(stats);
	}
	if (ret)
		goto out;
	*label = matrix_set_meta_string(dir, m, release_fields,
					sizeof(release_fields) / sizeof(*release_fields));
	if (!*label)
		*label = dir_name_label(dir);
	if (!*label) {
		ret = -ENOMEM;
		snprintf(err, errlen, "out of memory");
	}
out:
	if (ret)
		matrix_release(m);
	free(matrix_json);
	if (!ret && set_dir)
		*set_dir = dir;
	else
		free(dir);
	return ret;
}
