// SPDX-License-Identifier: GPL-2.0
/*
 * run-results.c - the on-disk result set of `kprof run` (see run-local.h): directories, atomic
 * file writes, stats.json, and the kernel-level matrix.json rebuilt from the runs' stats.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profiler/run-local.h"

int run_mkdirs(const char *path)
{
	char buf[4096];
	size_t len = strlen(path);

	if (len >= sizeof(buf))
		return -ENAMETOOLONG;
	memcpy(buf, path, len + 1);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(buf, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

static bool is_run_number(const char *name, long *n)
{
	char *end;

	if (!isdigit((unsigned char)name[0]))
		return false;
	*n = strtol(name, &end, 10);
	return !*end;
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
	return remove(path) ? -errno : 0;
}

int run_remove_tree(const char *path)
{
	return nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

int run_write_atomic(const char *path, int (*fn)(FILE *fp, void *arg), void *arg)
{
	char tmp[4096];
	FILE *fp;
	int ret;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= sizeof(tmp))
		return -ENAMETOOLONG;
	fp = fopen(tmp, "we");
	if (!fp)
		return -errno;
	ret = fn(fp, arg);
	if (fflush(fp) && !ret)
		ret = -errno;
	if (ferror(fp) && !ret)
		ret = -EIO;
	if (fclose(fp) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret)
		unlink(tmp);
	return ret;
}

void json_put_string(FILE *fp, const char *s)
{
	fputc('"', fp);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(fp, "\\%c", c);
		else if (c < 0x20)
			fprintf(fp, "\\u%04x", c);
		else
			fputc(c, fp);
	}
	fputc('"', fp);
}

void json_put_number(FILE *fp, double v)
{
	char buf[40];

	if (!isfinite(v)) {
		fputs("null", fp);
		return;
	}
	if (v == trunc(v) && fabs(v) < 1e15) {
		fprintf(fp, "%.0f", v);
		return;
	}
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	fputs(buf, fp);
}

static int write_stats(FILE *fp, void *arg)
{
	const struct wl_metrics *m = arg;

	fputs("{\n", fp);
	for (size_t i = 0; i < m->nr; i++) {
		fputs("  ", fp);
		json_put_string(fp, m->v[i].key);
		fputs(": ", fp);
		json_put_number(fp, m->v[i].value);
		fputs(i + 1 < m->nr ? ",\n" : "\n", fp);
	}
	fputs("}\n", fp);
	return 0;
}

int run_write_stats(const char *path, const struct wl_metrics *m)
{
	return run_write_atomic(path, write_stats, (void *)m);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "re");
	char *buf = NULL;
	size_t cap = 0, n = 0, r;

	if (!fp)
		return NULL;
	do {
		if (n + 4096 + 1 > cap) {
			char *b = realloc(buf, cap = (n + 4096 + 1) * 2);

			if (!b) {
				free(buf);
				fclose(fp);
				errno = ENOMEM;
				return NULL;
			}
			buf = b;
		}
		r = fread(buf + n, 1, 4096, fp);
		n += r;
	} while (r);
	fclose(fp);
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* Parse a JSON string at *p (at the opening quote) into @out. */
static const char *json_string(const char *p, char *out, size_t outlen)
{
	size_t n = 0;

	if (*p++ != '"')
		return NULL;
	for (; *p && *p != '"'; p++) {
		char c = *p;

		if (c == '\\') {
			c = *++p;
			if (c == 'u') {
				c = (char)strtol((char[]){ p[1], p[2], p[3], p[4], 0 }, NULL, 16);
				if (!p[1] || !p[2] || !p[3] || !p[4])
					return NULL;
				p += 4;
			} else if (c == 'n') {
				c = '\n';
			} else if (c == 't') {
				c = '\t';
			} else if (!c) {
				return NULL;
			}
		}
		if (n + 1 < outlen)
			out[n++] = c;
	}
	out[n] = '\0';
	return *p == '"' ? p + 1 : NULL;
}

int run_read_stats(const char *path, struct wl_metrics *m)
{
	char key[512];
	size_t len;
	char *buf = slurp(path, &len), *end;
	const char *p;
	int ret = 0;

	if (!buf)
		return -errno;
	p = buf;
	while (isspace((unsigned char)*p))
		p++;
	if (*p++ != '{') {
		free(buf);
		return -EINVAL;
	}
	for (;;) {
		while (isspace((unsigned char)*p) || *p == ',')
			p++;
		if (*p == '}')
			break;
		p = json_string(p, key, sizeof(key));
		while (p && isspace((unsigned char)*p))
			p++;
		if (!p || *p++ != ':') {
			ret = -EINVAL;
			break;
		}
		while (isspace((unsigned char)*p))
			p++;
		{
			double v = strtod(p, &end);

			if (end == p) {		/* not a number: skip the value */
				ret = -EINVAL;
				break;
			}
			p = end;
			ret = wl_metrics_set(m, key, v);
			if (ret)
				break;
		}
	}
	free(buf);
	return ret;
}

struct matrix_build {
	struct wl_metrics	*runs;		/* one stats set per column */
	char			**sources;
	size_t			nr;
	struct wl_metrics	keys;		/* union of keys, value unused */
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int write_matrix(FILE *fp, void *arg)
{
	const struct matrix_build *mb = arg;
	const char **keys = malloc((mb->keys.nr + 1) * sizeof(*keys));
	bool first = true;

	if (!keys)
		return -ENOMEM;
	for (size_t i = 0; i < mb->keys.nr; i++)
		keys[i] = mb->keys.v[i].key;
	qsort(keys, mb->keys.nr, sizeof(*keys), cmp_str);
	fputs("{\n", fp);
	for (size_t i = 0; i < mb->keys.nr; i++) {
		bool nonzero = false;

		for (size_t r = 0; r < mb->nr; r++) {
			const double *v = wl_metrics_get(&mb->runs[r], keys[i]);

			if (v && *v != 0)
				nonzero = true;
		}
		if (!nonzero)
			continue;
		fputs(first ? "  " : ",\n  ", fp);
		first = false;
		json_put_string(fp, keys[i]);
		fputs(": [", fp);
		for (size_t r = 0; r < mb->nr; r++) {
			const double *v = wl_metrics_get(&mb->runs[r], keys[i]);

			if (r)
				fputs(", ", fp);
			json_put_number(fp, v ? *v : 0);
		}
		fputc(']', fp);
	}
	fputs(first ? "  \"stats_source\": [" : ",\n  \"stats_source\": [", fp);
	for (size_t r = 0; r < mb->nr; r++) {
		if (r)
			fputs(", ", fp);
		json_put_string(fp, mb->sources[r]);
	}
	fputs("]\n}\n", fp);
	free(keys);
	return 0;
}

int run_update_matrix(const char *base)
{
	struct matrix_build mb = { 0 };
	char path[4096], matrix[4096];
	int nr_runs = run_next_number(base), ret = 0;

	mb.runs = calloc((size_t)nr_runs + 1, sizeof(*mb.runs));
	mb.sources = calloc((size_t)nr_runs + 1, sizeof(*mb.sources));
	if (!mb.runs || !mb.sources) {
		ret = -ENOMEM;
		goto out;
	}
	for (int r = 0; r < nr_runs && !ret; r++) {
		snprintf(path, sizeof(path), "%s/%d/stats.json", base, r);
		if (access(path, R_OK))
			continue;	/* a run number that was removed: no column */
		ret = run_read_stats(path, &mb.runs[mb.nr]);
		if (ret)
			break;
		mb.sources[mb.nr] = strdup(path);
		if (!mb.sources[mb.nr]) {
			ret = -ENOMEM;
			break;
		}
		for (size_t i = 0; !ret && i < mb.runs[mb.nr].nr; i++)
			ret = wl_metrics_set(&mb.keys, mb.runs[mb.nr].v[i].key, 0);
		mb.nr++;
	}
	snprintf(matrix, sizeof(matrix), "%s/matrix.json", base);
	if (!ret)
		ret = run_write_atomic(matrix, write_matrix, &mb);
out:
	for (int r = 0; mb.runs && r <= nr_runs; r++)
		wl_metrics_release(&mb.runs[r]);
	for (int r = 0; mb.sources && r <= nr_runs; r++)
		free(mb.sources[r]);
	free(mb.runs);
	free(mb.sources);
	wl_metrics_release(&mb.keys);
	return ret;
}
