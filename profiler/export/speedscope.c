// SPDX-License-Identifier: GPL-2.0
/*
 * speedscope.c - a call graph as speedscope's file format: one shared frame table, one
 * "sampled" profile per comm (or per thread), each sample a root-first list of frame indices
 * with its weight. A distinct stack is one weighted sample, so the file grows with the distinct
 * stacks, not with the samples (speedscope sums equal stacks anyway).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "profiler/export/export-int.h"
#include "profiler/export/export.h"

struct ss_stack {
	size_t		at;		/* first frame index in ss_builder.ids, root first */
	uint32_t	nr;
	uint32_t	profile;
	uint64_t	weight;
};

struct ss_profile {
	const struct cg_task	*task;	/* the first task seen of it (its name) */
	uint64_t		weight;
	size_t			nr_stacks;
};

struct ss_builder {
	const struct export_opts	*o;
	struct wmap			frame_keys, profile_keys;
	struct cg_frame			*frames;	/* [frame_keys.nr] */
	size_t				alloc_frames;
	struct ss_profile		*profiles;	/* [profile_keys.nr] */
	size_t				alloc_profiles;
	struct ss_stack			*stacks;
	size_t				nr_stacks, alloc_stacks;
	uint32_t			*ids;
	size_t				nr_ids, alloc_ids;
};

static int frame_index(struct ss_builder *b, const struct cg_frame *f, uint32_t *idx)
{
	struct wkey k = { { (uintptr_t)f->sym, (uintptr_t)f->dso, f->sym ? f->sym_start : f->addr,
			    f->flags & CG_FRAME_KERNEL } };
	bool added;
	int ret = wmap_get(&b->frame_keys, &k, idx, &added);

	if (ret || !added)
		return ret;
	if (xgrow(&b->frames, &b->alloc_frames, *idx + 1, sizeof(*b->frames)))
		return -ENOMEM;
	b->frames[*idx] = *f;	/* its strings are the graph's, alive while it is */
	return 0;
}

static int profile_index(struct ss_builder *b, const struct cg_task *t, uint32_t *idx)
{
	struct wkey k = { { (uintptr_t)t->comm, 0, 0, 0 } };
	bool added;
	int ret;

	if (b->o->per_thread) {
		k.w[1] = (uint64_t)(int64_t)t->pid;
		k.w[2] = (uint64_t)(int64_t)t->tid;
	}
	ret = wmap_get(&b->profile_keys, &k, idx, &added);
	if (ret || !added)
		return ret;
	if (xgrow(&b->profiles, &b->alloc_profiles, *idx + 1, sizeof(*b->profiles)))
		return -ENOMEM;
	b->profiles[*idx] = (struct ss_profile){ .task = t };
	return 0;
}

static int add_stack(const struct cg_stack *st, void *arg)
{
	struct ss_builder *b = arg;
	uint64_t w = b->o->weight_samples ? st->samples : st->period;
	struct ss_stack *s;
	uint32_t prof;
	int ret;

	if (!st->nr || !w)
		return 0;
	if (xgrow(&b->stacks, &b->alloc_stacks, b->nr_stacks + 1, sizeof(*b->stacks)) ||
	    xgrow(&b->ids, &b->alloc_ids, b->nr_ids + st->nr, sizeof(*b->ids)))
		return -ENOMEM;
	/* the graph keeps the leaf first; speedscope wants the root first */
	for (size_t i = 0; i < st->nr; i++) {
		ret = frame_index(b, &st->frames[st->nr - 1 - i], &b->ids[b->nr_ids + i]);
		if (ret)
			return ret;
	}
	ret = profile_index(b, st->task, &prof);
	if (ret)
		return ret;
	s = &b->stacks[b->nr_stacks++];
	*s = (struct ss_stack){ .at = b->nr_ids, .nr = (uint32_t)st->nr, .profile = prof,
				.weight = w };
	b->nr_ids += st->nr;
	b->profiles[prof].weight += w;
	b->profiles[prof].nr_stacks++;
	/*
	 * The task pointer is the graph's (stable); the first task of a profile names it. With
	 * threads merged by comm the pid/tid are not named.
	 */
	return 0;
}

/* Heaviest profile first; ties by first appearance, so the output is deterministic. */
static int cmp_profiles(const void *a, const void *b, void *ctx)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	const struct ss_builder *sb = ctx;
	const struct ss_profile *px = &sb->profiles[x], *py = &sb->profiles[y];

	if (px->weight != py->weight)
		return px->weight > py->weight ? -1 : 1;
	return x < y ? -1 : x > y;
}

static void profile_name(const struct ss_builder *b, const struct ss_profile *p, char *buf,
			 size_t len)
{
	const char *comm = p->task->comm ? p->task->comm : "[unknown]";

	if (b->o->per_thread && p->task->pid >= 0 && p->task->tid >= 0)
		snprintf(buf, len, "%s %d/%d", comm, p->task->pid, p->task->tid);
	else if (b->o->per_thread && p->task->tid >= 0)
		snprintf(buf, len, "%s %d", comm, p->task->tid);
	else
		snprintf(buf, len, "%s", comm);
}

static int write_frames(FILE *fp, const struct ss_builder *b)
{
	char buf[512];

	fputs("\"shared\":{\"frames\":[", fp);
	for (size_t i = 0; i < b->frame_keys.nr; i++) {
		const struct cg_frame *f = &b->frames[i];

		fputs(i ? ",\n{\"name\":" : "\n{\"name\":", fp);
		json_write_string(fp, export_frame_name(f, buf, sizeof(buf)));
		fputs(",\"file\":", fp);
		json_write_string(fp, f->dso);
		fputc('}', fp);
	}
	fputs("]},\n", fp);
	return 0;
}

static void write_profile(FILE *fp, const struct ss_builder *b, uint32_t prof, const char *unit,
			  const size_t *order, size_t from)
{
	const struct ss_profile *p = &b->profiles[prof];
	char name[512];

	profile_name(b, p, name, sizeof(name));
	fputs("{\"type\":\"sampled\",\"name\":", fp);
	json_write_string(fp, name);
	fprintf(fp, ",\"unit\":\"%s\",\"startValue\":0,\"endValue\":%" PRIu64 ",\n\"samples\":[",
		unit, p->weight);
	for (size_t i = 0; i < p->nr_stacks; i++) {
		const struct ss_stack *s = &b->stacks[order[from + i]];

		fputs(i ? ",\n[" : "\n[", fp);
		for (uint32_t j = 0; j < s->nr; j++)
			fprintf(fp, j ? ",%" PRIu32 : "%" PRIu32, b->ids[s->at + j]);
		fputc(']', fp);
	}
	fputs("],\n\"weights\":[", fp);
	for (size_t i = 0; i < p->nr_stacks; i++)
		fprintf(fp, i ? ",%" PRIu64 : "%" PRIu64, b->stacks[order[from + i]].weight);
	fputs("]}", fp);
}

static int write_all(FILE *fp, struct ss_builder *b, const struct export_event *ev)
{
	size_t nr_prof = b->profile_keys.nr;
	uint32_t *rank = malloc((nr_prof + 1) * sizeof(*rank));
	size_t *first = calloc(nr_prof + 1, sizeof(*first));
	size_t *fill = calloc(nr_prof + 1, sizeof(*fill));
	size_t *order = malloc((b->nr_stacks + 1) * sizeof(*order));
	const char *unit = b->o->weight_samples ? "none" : export_event_unit(ev->name);
	int ret = 0;

	if (!rank || !first || !fill || !order) {
		ret = -ENOMEM;
		goto out;
	}
	if (strcmp(unit, "nanoseconds"))
		unit = "none";
	/* stacks grouped by profile, in graph order within one (a counting sort) */
	for (size_t i = 0; i < nr_prof; i++) {
		rank[i] = (uint32_t)i;
		first[i + 1] = first[i] + b->profiles[i].nr_stacks;
	}
	for (size_t i = 0; i < b->nr_stacks; i++) {
		uint32_t p = b->stacks[i].profile;

		order[first[p] + fill[p]++] = i;
	}
	qsort_r(rank, nr_prof, sizeof(*rank), cmp_profiles, b);

	fputs("{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\n", fp);
	fputs("\"exporter\":\"kprof@" KPROF_VERSION "\",\"name\":", fp);
	json_write_string(fp, ev->name);
	fputs(",\"activeProfileIndex\":0,\n", fp);
	write_frames(fp, b);
	fputs("\"profiles\":[\n", fp);
	for (size_t i = 0; i < nr_prof; i++) {
		if (i)
			fputs(",\n", fp);
		write_profile(fp, b, rank[i], unit, order, first[rank[i]]);
	}
	fputs("]}\n", fp);
	if (ferror(fp))
		ret = -EIO;
out:
	free(rank);
	free(first);
	free(fill);
	free(order);
	return ret;
}

int export_speedscope(FILE *fp, const struct export_event *ev, const struct export_opts *o)
{
	static const struct export_opts defaults;
	struct ss_builder b = { .o = o ? o : &defaults };
	int ret;

	if (!callgraph_total_samples(ev->cg))
		return -ENODATA;
	ret = callgraph_for_each(ev->cg, add_stack, &b);
	if (!ret)
		ret = write_all(fp, &b, ev);
	wmap_release(&b.frame_keys);
	wmap_release(&b.profile_keys);
	free(b.frames);
	free(b.profiles);
	free(b.stacks);
	free(b.ids);
	return ret;
}
