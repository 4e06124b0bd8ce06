// SPDX-License-Identifier: GPL-2.0
/*
 * flamegraph-load.c - read whatever profile the user points `kprof flamegraph` at into a flame
 * tree. The kind is recognised by content, not by name: perf.data by its magic, `perf script`
 * text by script_looks_like(), a directory as a `kprof run` result (its perf.data, else its
 * profile.folded), anything else as folded text.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "profiler/lib/lib.h"
#include "profiler/perfdata/perfdata.h"
#include "profiler/profile/profile.h"
#include "profiler/script/script.h"

static void note_folded(struct flamegraph_input_opts *o, const struct folded_read_stats *st)
{
	o->had_two_counts |= st->two_counts > 0;
	if (st->invalid && !o->invalid_lines)
		o->first_invalid = st->first_invalid;
	o->invalid_lines += st->invalid;
}

static int folded_failed(int ret, const char *path, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: %s", path, ret == -ENOMEM ? "out of memory" : strerror(-ret));
	return ret;
}

/*
 * `perf script` text, read as `stackcollapse-perf.pl --kernel` reads it: the kernel annotation
 * of its names becomes the kernel flag in the tree. @buf: the text already in memory (stdin).
 */
static int load_script(const char *path, const char *buf, size_t len, struct flame_tree *tree,
		       enum flame_side side, struct flamegraph_input_opts *o, char *err,
		       size_t errlen)
{
	struct script_opts so = { .flags = SCRIPT_KERNEL, .event_filter = o->event };
	struct callgraph *cg = callgraph_new();
	struct script_stats st = { 0 };
	int ret;

	if (!cg)
		return folded_failed(-ENOMEM, path, err, errlen);
	if (buf) {
		ret = script_read_buf(buf, len, &so, cg, &st);
		if (ret)
			folded_failed(ret, path, err, errlen);
	} else {
		ret = script_read_file(path, &so, cg, &st, err, errlen);
	}
	if (!ret) {
		ret = flame_tree_add_callgraph(tree, side, cg, o->samples);
		if (ret)
			folded_failed(ret, path, err, errlen);
	}
	o->invalid_lines += st.malformed;
	callgraph_free(cg);
	return ret;
}

static int load_stdin(struct flame_tree *tree, enum flame_side side,
		      struct flamegraph_input_opts *o, char *err, size_t errlen)
{
	struct flame_folded_sink sink = { tree, side };
	struct folded_read_stats st;
	enum profile_input kind;
	size_t len;
	char *buf;
	int ret;

	/* standard input cannot be read twice: all of it, then sniff */
	ret = read_whole_fd(STDIN_FILENO, 0, &buf, &len);
	if (ret)
		return folded_failed(ret, "standard input", err, errlen);
	kind = profile_input_kind(buf, len);
	if (kind == PROFILE_INPUT_PERF_DATA) {
		snprintf(err, errlen, "standard input: give perf.data as a file (-i PATH)");
		free(buf);
		return -EINVAL;
	}
	if (kind == PROFILE_INPUT_SCRIPT) {
		ret = load_script("standard input", buf, len, tree, side, o, err, errlen);
		free(buf);
		return ret;
	}
	ret = folded_read_buf(buf, len, flame_tree_add_folded, &sink, &st);
	free(buf);
	if (ret)
		return folded_failed(ret, "standard input", err, errlen);
	note_folded(o, &st);
	return 0;
}

static const struct profile_event *pick_event(const struct profile *p, const char *name)
{
	for (size_t i = 0; i < p->nr_events; i++) {
		if (!name || !strcmp(p->events[i].name, name))
			return &p->events[i];
	}
	return NULL;
}

static int load_perf_data(const char *path, struct flame_tree *tree, enum flame_side side,
			  struct flamegraph_input_opts *o, char *err, size_t errlen)
{
	struct profile_load_opts po = { .vmlinux = o->vmlinux, .kallsyms = o->kallsyms };
	const struct profile_event *ev;
	struct profile *p;
	char why[512] = "";
	int ret;

	ret = profile_load(path, &po, &p, why, sizeof(why));
	if (ret) {	/* profile_load names no file: the caller does */
		snprintf(err, errlen, "%s: %s", path, why[0] ? why : strerror(-ret));
		return ret;
	}
	ev = pick_event(p, o->event);
	if (!ev) {
		size_t n = snprintf(err, errlen, o->event ? "%s: no samples of event '%s' (has:" :
				    "%s: no samples%s (events:", path, o->event ? o->event : "");

		for (size_t i = 0; i < p->nr_events && n < errlen; i++)
			n += snprintf(err + n, errlen - n, " %s", p->events[i].name);
		if (n < errlen)
			snprintf(err + n, errlen - n, ")");
		profile_free(p);
		return -ENOENT;
	}
	snprintf(o->event_used, sizeof(o->event_used), "%s", ev->name);
	ret = flame_tree_add_callgraph(tree, side, ev->cg, o->samples);
	if (ret)
		snprintf(err, errlen, "%s: %s", path, strerror(-ret));
	profile_free(p);
	return ret;
}

static int load_folded(const char *path, struct flame_tree *tree, enum flame_side side,
		       struct flamegraph_input_opts *o, char *err, size_t errlen)
{
	struct flame_folded_sink sink = { tree, side };
	struct folded_read_stats st;
	FILE *fp = fopen(path, "r");
	int ret;

	if (!fp)
		return folded_failed(-errno, path, err, errlen);
	ret = folded_read_file(fp, flame_tree_add_folded, &sink, &st);
	fclose(fp);
	if (ret)
		return folded_failed(ret, path, err, errlen);
	note_folded(o, &st);
	return 0;
}

int flamegraph_load(const char *path, struct flame_tree *tree, enum flame_side side,
		    struct flamegraph_input_opts *o, char *err, size_t errlen)
{
	enum profile_input kind;
	char *file;
	int ret;

	if (!strcmp(path, "-"))
		return load_stdin(tree, side, o, err, errlen);
	ret = profile_input_sniff(path, &kind, &file, err, errlen);
	if (ret)
		return ret;
	if (file)	/* a run directory: its perf.data or profile.folded */
		path = file;
	if (kind == PROFILE_INPUT_PERF_DATA)
		ret = load_perf_data(path, tree, side, o, err, errlen);
	else if (kind == PROFILE_INPUT_SCRIPT)
		ret = load_script(path, NULL, 0, tree, side, o, err, errlen);
	else
		ret = load_folded(path, tree, side, o, err, errlen);
	free(file);
	return ret;
}
