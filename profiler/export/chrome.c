// SPDX-License-Identifier: GPL-2.0
/*
 * chrome.c - a call graph as Chrome's .cpuprofile (the DevTools protocol's Profiler.Profile):
 * a tree of nodes (callFrame, hitCount, children) under "(root)", then samples (leaf node ids)
 * with timeDeltas in microseconds. Chrome's format is a timeline, but a sample's duration is
 * only the gap to the next one: kprof writes one sample per distinct stack, spaced by that
 * stack's weight, so the file grows with the distinct stacks and every total is kept (the views
 * that sum, call tree and bottom-up, are exact; the timeline is grouped by stack, not by time).
 * The comm is the first frame under the root, as in folded output.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "profiler/export/export-int.h"
#include "profiler/export/export.h"

struct cp_node {
	uint32_t	first_child, next_sibling;	/* node index + 1; 0: none */
	const char	*name, *url;	/* the graph's strings; name NULL: unresolved frame */
	uint64_t	hits;
};

struct cp_builder {
	const struct export_opts	*o;
	bool				ns;		/* weights are nanoseconds */
	struct wmap			node_keys;	/* (parent, name, dso, start|flags) */
	struct cp_node			*nodes;		/* [0] is "(root)" */
	size_t				alloc_nodes;
	uint32_t			*samples;	/* leaf node index per distinct stack */
	uint64_t			*weights;
	size_t				nr_samples, alloc_samples, alloc_weights;
	char				name[512];	/* an unresolved frame's name */
};

static int child(struct cp_builder *b, uint32_t parent, const char *name, const char *url,
		 uint64_t w2, uint32_t *out)
{
	struct wkey k = { { parent, (uintptr_t)name, (uintptr_t)url, w2 } };
	uint32_t idx;
	bool added;
	int ret = wmap_get(&b->node_keys, &k, &idx, &added);

	if (ret)
		return ret;
	*out = idx + 1;			/* node 0 is the root, not in the map */
	if (!added)
		return 0;
	if (xgrow(&b->nodes, &b->alloc_nodes, idx + 2, sizeof(*b->nodes)))
		return -ENOMEM;
	b->nodes[idx + 1] = (struct cp_node){ .name = name, .url = url,
					      .next_sibling = b->nodes[parent].first_child };
	b->nodes[parent].first_child = idx + 2;
	return 0;
}

static int add_stack(const struct cg_stack *st, void *arg)
{
	struct cp_builder *b = arg;
	uint64_t w = b->ns && !b->o->weight_samples ? st->period : st->samples * 1000000;
	uint32_t node;
	int ret;

	if (!st->nr || !w)
		return 0;
	ret = child(b, 0, st->task->comm ? st->task->comm : "[unknown]", "", 0, &node);
	for (size_t i = st->nr; !ret && i-- > 0;) {
		const struct cg_frame *f = &st->frames[i];
		uint64_t id = (f->sym ? f->sym_start : f->addr) << 1 | (f->flags & CG_FRAME_KERNEL);

		/* an unresolved frame (no symbol) is named from its module when written */
		ret = child(b, node, f->sym, f->dso, id, &node);
	}
	if (ret)
		return ret;
	if (xgrow(&b->samples, &b->alloc_samples, b->nr_samples + 1, sizeof(*b->samples)) ||
	    xgrow(&b->weights, &b->alloc_weights, b->nr_samples + 1, sizeof(*b->weights)))
		return -ENOMEM;
	b->nodes[node].hits += st->samples;
	b->samples[b->nr_samples] = node;
	b->weights[b->nr_samples++] = w;
	return 0;
}

static void write_node(FILE *fp, struct cp_builder *b, uint32_t i)
{
	const struct cp_node *n = &b->nodes[i];
	struct cg_frame f = { .dso = n->url && n->url[0] ? n->url : "[unknown]" };
	const char *name = n->name;

	if (!i)
		name = "(root)";
	else if (!name)
		name = export_frame_name(&f, b->name, sizeof(b->name));
	fprintf(fp, "%s\n{\"id\":%" PRIu32 ",\"callFrame\":{\"functionName\":", i ? "," : "",
		i + 1);
	json_write_string(fp, name);
	fputs(",\"scriptId\":\"0\",\"url\":", fp);
	json_write_string(fp, i ? n->url : "");
	fprintf(fp, ",\"lineNumber\":-1,\"columnNumber\":-1},\"hitCount\":%" PRIu64, n->hits);
	if (n->first_child) {
		fputs(",\"children\":[", fp);
		for (uint32_t c = n->first_child; c; c = b->nodes[c - 1].next_sibling)
			fprintf(fp, c == n->first_child ? "%" PRIu32 : ",%" PRIu32, c);
		fputc(']', fp);
	}
	fputc('}', fp);
}

/*
 * Times in microseconds, from the weights summed exactly (nanoseconds, or one millisecond per
 * sample) and rounded once each, so the total is the rounded total.
 */
static void write_timeline(FILE *fp, const struct cp_builder *b)
{
	uint64_t ns = 0, prev = 0, t;

	fputs("],\n\"samples\":[", fp);
	for (size_t i = 0; i < b->nr_samples; i++)
		fprintf(fp, i ? ",%" PRIu32 : "%" PRIu32, b->samples[i] + 1);
	/* a last sample at the root: the one before it lasts until then */
	fprintf(fp, "%s1],\n\"timeDeltas\":[0", b->nr_samples ? "," : "");
	for (size_t i = 0; i < b->nr_samples; i++) {
		ns += b->weights[i];
		t = (ns + 500) / 1000;
		fprintf(fp, ",%" PRIu64, t - prev);
		prev = t;
	}
	fprintf(fp, "],\n\"startTime\":0,\"endTime\":%" PRIu64 "}\n", prev);
}

int export_chrome(FILE *fp, const struct export_event *ev, const struct export_opts *o)
{
	static const struct export_opts defaults;
	struct cp_builder b = { .o = o ? o : &defaults };
	size_t nr_nodes;
	int ret;

	if (!callgraph_total_samples(ev->cg))
		return -ENODATA;
	b.ns = !strcmp(export_event_unit(ev->name), "nanoseconds");
	ret = xgrow(&b.nodes, &b.alloc_nodes, 1, sizeof(*b.nodes));
	if (!ret) {
		b.nodes[0] = (struct cp_node){ 0 };
		ret = callgraph_for_each(ev->cg, add_stack, &b);
	}
	if (!ret) {
		nr_nodes = b.node_keys.nr + 1;
		fputs("{\"nodes\":[", fp);
		for (uint32_t i = 0; i < nr_nodes; i++)
			write_node(fp, &b, i);
		write_timeline(fp, &b);
		if (ferror(fp))
			ret = -EIO;
	}
	wmap_release(&b.node_keys);
	free(b.nodes);
	free(b.samples);
	free(b.weights);
	return ret;
}
