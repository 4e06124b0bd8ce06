// SPDX-License-Identifier: GPL-2.0
/*
 * flamegraph-names.c - what a flame graph of a `kprof run` result says it is: the run's graph
 * is titled with the workload, its parameters, the set's name, the kernel and the run number;
 * the sides of a diff are named after their sets, so BEFORE and AFTER are never a guess.
 */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output/output.h"
#include "profiler/profile/profile.h"

char *flamegraph_format_run_title(const char *workload, const char *params, const char *name,
				  const char *kernel, int run)
{
	char *t, num[32] = "";

	if (run >= 0)
		snprintf(num, sizeof(num), " \xe2\x80\x94 run %d", run);
	if (asprintf(&t, "%s %s \xe2\x80\x94 %s (kernel %s)%s", workload, params ? params : "",
		     name ? name : "?", kernel ? kernel : "?", num) < 0)
		return NULL;
	return t;
}

/* The run directory of @path (itself, or the directory of a file in it) and its number. */
static char *run_dir_of(const char *path, int *run)
{
	struct stat st;
	char *dir, *slash, *base;

	if (stat(path, &st))
		return NULL;
	dir = realpath(path, NULL);
	if (dir && !S_ISDIR(st.st_mode) && (slash = strrchr(dir, '/')))
		*slash = 0;
	if (!dir)
		return NULL;
	base = strrchr(dir, '/');
	base = base ? base + 1 : dir;
	*run = base[0] && strspn(base, "0123456789") == strlen(base) ? atoi(base) : -1;
	return dir;
}

static bool read_meta(const char *path, struct json_object *o, int *run)
{
	char *dir = run_dir_of(path, run), *meta = NULL, err[256];
	bool ok = false;

	if (dir && asprintf(&meta, "%s/meta.json", dir) >= 0)
		ok = !access(meta, R_OK) && !json_read_file(meta, o, err, sizeof(err));
	free(meta);
	free(dir);
	return ok;
}

static const char *str(const struct json_object *o, const char *key)
{
	const struct json_member *m = json_get(o, key);

	return m && m->type == JSON_STRING && m->str[0] ? m->str : NULL;
}

char *flamegraph_run_title(const char *path)
{
	struct json_object o;
	char *t = NULL;
	int run;

	if (!read_meta(path, &o, &run))
		return NULL;
	if (str(&o, "workload"))
		t = flamegraph_format_run_title(str(&o, "workload"), str(&o, "path_params"),
						str(&o, "name") ? str(&o, "name") : str(&o, "kernel"),
						str(&o, "kernel"), run);
	json_object_release(&o);
	return t;
}

char *flamegraph_side_name(const char *path)
{
	struct json_object o;
	const char *name;
	char *t = NULL;
	int run;

	if (!read_meta(path, &o, &run))
		return NULL;
	name = str(&o, "name") ? str(&o, "name") : str(&o, "kernel");
	if (name && run >= 0 && asprintf(&t, "%s run %d", name, run) < 0)
		t = NULL;
	else if (name && run < 0)
		t = strdup(name);
	json_object_release(&o);
	return t;
}
