// SPDX-License-Identifier: GPL-2.0
/*
 * tracepoint.c - tracepoints from tracefs: the mount point, ids (events/SYS/NAME/id) for
 * PERF_TYPE_TRACEPOINT, glob expansion, and the format text libtraceevent parses.
 */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profiler/lib/lib.h"
#include "profiler/record/event-int.h"

static bool has_events(const char *dir)
{
	char path[256];
	struct stat st;

	snprintf(path, sizeof(path), "%s/events", dir);
	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

const char *tracefs_dir(void)
{
	static const char *const dirs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };

	for (size_t i = 0; i < 2; i++)
		if (has_events(dirs[i]))
			return dirs[i];
	/* Like perf's tracefs__mount(): root may mount it where the kernel expects it. */
	if (!mount("nodev", dirs[0], "tracefs", 0, NULL) && has_events(dirs[0]))
		return dirs[0];
	return NULL;
}

static char *read_small_file(const char *path, size_t *len)
{
	size_t n;
	char *buf;
	int ret = read_whole_file(path, 0, &buf, &n);

	if (ret) {
		errno = -ret;
		return NULL;
	}
	if (len)
		*len = n;
	return buf;
}

char *tracepoint_format(const char *sys, const char *name, size_t *len)
{
	const char *dir = tracefs_dir();
	char path[512];

	if (!dir) {
		errno = ENOENT;
		return NULL;
	}
	snprintf(path, sizeof(path), "%s/events/%s/%s/format", dir, sys, name);
	return read_small_file(path, len);
}

static int tracepoint_id(const char *dir, const char *sys, const char *name, uint64_t *id)
{
	char path[512], *text, *end;

	snprintf(path, sizeof(path), "%s/events/%s/%s/id", dir, sys, name);
	text = read_small_file(path, NULL);
	if (!text)
		return -errno;
	*id = strtoull(text, &end, 10);
	free(text);
	return end == text ? -EINVAL : 0;
}

static int add_tracepoint(const char *dir, const char *sys, const char *name,
			  struct event_list *l)
{
	struct event_spec e = { .tracepoint = true };
	uint64_t id = 0;
	int ret = tracepoint_id(dir, sys, name, &id);

	if (ret)
		return ret;
	e.attr.config = id;
	e.attr.size = sizeof(e.attr);
	e.attr.type = PERF_TYPE_TRACEPOINT;
	e.tp_system = strdup(sys);
	e.tp_event = strdup(name);
	if (asprintf(&e.name, "%s:%s", sys, name) < 0)
		e.name = NULL;
	if (!e.tp_system || !e.tp_event || !e.name || event_list_push(l, &e)) {
		free(e.tp_system);
		free(e.tp_event);
		free(e.name);
		return -ENOMEM;
	}
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted names of the subdirectories of @path matching @glob; caller frees. */
static int list_dirs(const char *path, const char *glob, char ***out, size_t *nr)
{
	DIR *d = opendir(path);
	struct dirent *de;
	char **v = NULL;
	size_t n = 0;

	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (de->d_type != DT_DIR || de->d_name[0] == '.' || fnmatch(glob, de->d_name, 0))
			continue;
		char **nv = realloc(v, (n + 1) * sizeof(*v));

		if (!nv || !(nv[n] = strdup(de->d_name))) {
			v = nv ? nv : v;
			while (n)
				free(v[--n]);
			free(v);
			closedir(d);
			return -ENOMEM;
		}
		v = nv;
		n++;
	}
	closedir(d);
	if (n)
		qsort(v, n, sizeof(*v), cmp_str);
	*out = v;
	*nr = n;
	return 0;
}

static void free_names(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

int tracepoint_parse(const char *sys_glob, const char *name_glob, struct event_list *l,
		     char *err, size_t errlen)
{
	const char *dir = tracefs_dir();
	char path[512], **systems = NULL, **names;
	size_t nr_sys = 0, nr_names, found = 0;
	int ret;

	if (!dir) {
		snprintf(err, errlen, "tracepoint %s:%s: tracefs is not mounted (and cannot be)",
			 sys_glob, name_glob);
		return -ENOENT;
	}
	snprintf(path, sizeof(path), "%s/events", dir);
	ret = list_dirs(path, sys_glob, &systems, &nr_sys);
	for (size_t s = 0; s < nr_sys && !ret; s++) {
		snprintf(path, sizeof(path), "%s/events/%s", dir, systems[s]);
		names = NULL;
		nr_names = 0;
		ret = list_dirs(path, name_glob, &names, &nr_names);
		for (size_t i = 0; i < nr_names && !ret; i++, found++)
			ret = add_tracepoint(dir, systems[s], names[i], l);
		free_names(names, nr_names);
	}
	free_names(systems, nr_sys);
	if (ret) {
		snprintf(err, errlen, "tracepoint %s:%s: %s", sys_glob, name_glob, strerror(-ret));
		return ret;
	}
	if (!found) {
		snprintf(err, errlen, "no tracepoint matches '%s:%s' in %s/events", sys_glob,
			 name_glob, dir);
		return -ENOENT;
	}
	return 0;
}
