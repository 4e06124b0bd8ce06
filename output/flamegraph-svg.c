// SPDX-License-Identifier: GPL-2.0
/*
 * flamegraph-svg.c - draw a frame tree as a self-contained interactive SVG, in flamegraph.pl's
 * layout: one row per stack depth, children sorted by name, widths proportional to counts.
 *
 * Frames narrower than --minwidth are culled with their subtrees, so the size of the SVG is
 * bounded by the width of the image, not by the size of the profile. Each frame <g> carries its
 * position and width in count units (fg:x, fg:w) for the JavaScript's zoom and search.
 *
 * Differential graphs: widths come from the AFTER side; BEFORE is scaled to AFTER's total unless
 * no_normalize. The colour is the change of the frame's inclusive share (or of its self share
 * with self_delta, which is flamegraph.pl's behaviour); frames that exist only in BEFORE have no
 * width and are listed in their parent's tooltip.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/flamegraph-int.h"

#define XPAD		10
#define FONT_SIZE	12
#define FONT_WIDTH	0.59
#define BEFORE_ONLY_LISTED 5	/* names of vanished children shown in a parent's tooltip */

struct layout {
	const struct flame_tree	*t;
	const struct flame_svg_opts *o;
	uint32_t	*order;		/* child indexes grouped by parent, sorted by name */
	uint32_t	*first;		/* per node: its children in order[], or NOT_SORTED */
	uint32_t	*nr_children;
	size_t		nr_ordered;
	double		total;		/* AFTER's total */
	double		total_before;
	double		before_scale;	/* BEFORE counts are multiplied by this */
	double		min_count;	/* narrower frames are culled */
	double		px_per_count;
	unsigned int	width, fh, ypad1, ypad2, height;
	unsigned int	max_depth;
	double		max_delta;
	const char	*countname;
};

static int cmp_nodes(const void *a, const void *b, void *arg)
{
	const struct flame_node *nodes = arg;
	const struct flame_node *x = &nodes[*(const uint32_t *)a];
	const struct flame_node *y = &nodes[*(const uint32_t *)b];
	return strcmp(x->name, y->name);	/* siblings have distinct names */
}

#define NOT_SORTED UINT32_MAX

/*
 * The children of @node sorted by name, as flamegraph.pl orders them. Sorted on first use only:
 * culling leaves most nodes of a large profile unvisited, so sorting all of them would waste
 * most of the time.
 */
static const uint32_t *children_of(struct layout *l, uint32_t node, uint32_t *nr)
{
	const struct flame_node *nodes = l->t->nodes;

	if (l->first[node] == NOT_SORTED) {
		uint32_t n = 0;

		l->first[node] = l->nr_ordered;
		uint32_t c;

		for (c = nodes[node].first_child; c != FLAME_NONE; c = nodes[c].next_sibling)
			l->order[l->nr_ordered + n++] = c;
		qsort_r(l->order + l->nr_ordered, n, sizeof(*l->order), cmp_nodes, l->t->nodes);
		l->nr_children[node] = n;
		l->nr_ordered += n;
	}
	*nr = l->nr_children[node];
	return l->order + l->first[node];
}

static int alloc_order(struct layout *l)
{
	size_t n = l->t->nr;

	l->order = malloc(n * sizeof(*l->order));
	l->first = malloc(n * sizeof(*l->first));
	l->nr_children = malloc(n * sizeof(*l->nr_children));
	if (!l->order || !l->first || !l->nr_children)
		return -ENOMEM;
	memset(l->first, 0xff, n * sizeof(*l->first));	/* NOT_SORTED */
	return 0;
}

static double delta_of(const struct layout *l, const struct flame_node *n)
{
	if (l->o->self_delta)
		return (n->self[FLAME_AFTER] - n->self[FLAME_BEFORE] * l->before_scale) / l->total;
	return (n->total[FLAME_AFTER] - n->total[FLAME_BEFORE] * l->before_scale) / l->total;
}

static bool drawn(const struct layout *l, const struct flame_node *n)
{
	return n->total[FLAME_AFTER] > 0 && n->total[FLAME_AFTER] >= l->min_count;
}

/* Visit drawn frames depth first, children in name order; @fn gets the node, x and depth. */
typedef void (*visit_fn)(struct layout *l, FILE *fp, uint32_t node, double x, unsigned int depth);

struct visit {
	uint32_t	node;
	unsigned int	depth;
	double		x;
};

static int visit_drawn(struct layout *l, FILE *fp, visit_fn fn, size_t *nr_drawn)
{
	const struct flame_node *nodes = l->t->nodes;
	struct visit *stack;
	size_t sp = 0;

	/* each node is pushed at most once, so nr entries suffice */
	stack = malloc(l->t->nr * sizeof(*stack));
	if (!stack)
		return -ENOMEM;
	*nr_drawn = 0;
	if (drawn(l, &nodes[0]))
		stack[sp++] = (struct visit){ .node = 0, .depth = 0, .x = 0 };
	while (sp) {
		struct visit v = stack[--sp];
		size_t base = sp;
		double x = v.x;

		fn(l, fp, v.node, v.x, v.depth);
		(*nr_drawn)++;
		uint32_t nr;
		const uint32_t *children = children_of(l, v.node, &nr);

		for (uint32_t i = 0; i < nr; i++) {
			uint32_t c = children[i];

			if (drawn(l, &nodes[c]))
				stack[sp++] = (struct visit){ c, v.depth + 1, x };
			x += nodes[c].total[FLAME_AFTER];
		}
		/* reversed, so that the first child by name is popped (drawn) first */
		for (size_t lo = base, hi = sp; lo + 1 < hi; lo++, hi--) {
			struct visit tmp = stack[lo];

			stack[lo] = stack[hi - 1];
			stack[hi - 1] = tmp;
		}
	}
	free(stack);
	return 0;
}

static void measure(struct layout *l, FILE *fp, uint32_t node, double x, unsigned int depth)
{
	(void)fp;	/* a visit_drawn() callback: measuring draws nothing */
	(void)x;
	if (depth > l->max_depth)
		l->max_depth = depth;
	if (l->o->diff) {
		double d = fabs(delta_of(l, &l->t->nodes[node]));

		if (d > l->max_delta)
			l->max_delta = d;
	}
}

/* Counts: integers with thousands separators as flamegraph.pl prints them, else 2 decimals. */
static void put_count(FILE *fp, double v)
{
	char buf[64], out[96];
	size_t len, o = 0;

	if (v != floor(v) || v >= 1e18) {
		fprintf(fp, "%.2f", v);
		return;
	}
	len = snprintf(buf, sizeof(buf), "%.0f", v);
	for (size_t i = 0; i < len; i++) {
		if (i && (len - i) % 3 == 0)
			out[o++] = ',';
		out[o++] = buf[i];
	}
	fwrite(out, 1, o, fp);
}

/* "N samples, P%" with P the share of @total */
static void put_share(const struct layout *l, FILE *fp, double v, double total)
{
	put_count(fp, v);
	fputc(' ', fp);
	flame_xml_put(fp, l->countname, SIZE_MAX);
	fprintf(fp, ", %.2f%%", total > 0 ? 100 * v / total : 0);
}

static void put_before_only(struct layout *l, FILE *fp, uint32_t node)
{
	const struct flame_node *nodes = l->t->nodes;
	size_t listed = 0, more = 0;

	uint32_t nr;
	const uint32_t *children = children_of(l, node, &nr);

	for (uint32_t i = 0; i < nr; i++) {
		const struct flame_node *c = &nodes[children[i]];

		if (c->total[FLAME_AFTER] > 0 || c->total[FLAME_BEFORE] <= 0)
			continue;
		if (listed == BEFORE_ONLY_LISTED) {
			more++;
			continue;
		}
		fputs(listed ? "; " : "\nonly in before: ", fp);
		flame_xml_put(fp, c->name, SIZE_MAX);
		fputs(" (", fp);
		put_share(l, fp, c->total[FLAME_BEFORE], l->total_before);
		fputc(')', fp);
		listed++;
	}
	if (more)
		fprintf(fp, " and %zu more", more);
}

/*
 * Plain: "name (N samples, P%)". Differential: each side's count and share of its own total,
 * then the inclusive and self deltas in percent of AFTER's total (BEFORE scaled unless
 * no_normalize, so they are share changes when normalised, count changes otherwise).
 */
static void put_title(struct layout *l, FILE *fp, const struct flame_node *n, uint32_t node)
{
	double after = n->total[FLAME_AFTER];

	flame_xml_put(fp, n->name, SIZE_MAX);
	fputs(" (", fp);
	if (!l->o->diff) {
		put_share(l, fp, after, l->total);
		fputc(')', fp);
		return;
	}
	fputs("before: ", fp);
	put_share(l, fp, n->total[FLAME_BEFORE], l->total_before);
	fputs("; after: ", fp);
	put_share(l, fp, after, l->total);
	fprintf(fp, "; delta: %+.2f%%, self delta: %+.2f%%)",
		100 * (after - n->total[FLAME_BEFORE] * l->before_scale) / l->total,
		100 * (n->self[FLAME_AFTER] - n->self[FLAME_BEFORE] * l->before_scale) / l->total);
	put_before_only(l, fp, node);
}

static void draw_frame(struct layout *l, FILE *fp, uint32_t node, double x, unsigned int depth)
{
	const struct flame_node *n = &l->t->nodes[node];
	double w = n->total[FLAME_AFTER] * l->px_per_count;
	double px = XPAD + x * l->px_per_count;
	double y = l->o->inverted ? l->ypad1 + depth * l->fh
				  : l->height - l->ypad2 - (depth + 1.0) * l->fh;
	size_t chars = (size_t)(w / (FONT_SIZE * FONT_WIDTH));
	unsigned char rgb[3];

	if (l->o->diff)
		flame_diff_color(delta_of(l, n), l->max_delta, rgb);
	else
		flame_color(l->o->colors, n->name, n->flags, rgb);
	fprintf(fp, "<g fg:x=\"%.12g\" fg:w=\"%.12g\"><title>", x, n->total[FLAME_AFTER]);
	put_title(l, fp, n, node);
	fprintf(fp, "</title><rect x=\"%.1f\" y=\"%.0f\" width=\"%.1f\" height=\"%u\" "
		"fill=\"rgb(%u,%u,%u)\" rx=\"2\" ry=\"2\"/>", px, y, w, l->fh - 1,
		rgb[0], rgb[1], rgb[2]);
	/* like flamegraph.pl: no label below three characters */
	if (chars >= 3) {
		fprintf(fp, "<text x=\"%.1f\" y=\"%.1f\">", px + 3,
			y + l->fh / 2.0 + FONT_SIZE / 3.0);
		flame_xml_put(fp, n->name, chars);
		fputs("</text>", fp);
	}
	fputs("</g>\n", fp);
}

static const char *default_title(const struct flame_svg_opts *o)
{
	if (o->title)
		return o->title;
	if (o->diff)
		return "Differential Flame Graph";
	return o->inverted ? "Icicle Graph" : "Flame Graph";
}

static void put_header(const struct layout *l, FILE *fp, const char *subtitle)
{
	unsigned int w = l->width, h = l->height;

	fprintf(fp, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
		"<svg version=\"1.1\" width=\"%u\" height=\"%u\" onload=\"init(evt)\" "
		"viewBox=\"0 0 %u %u\" xmlns=\"http://www.w3.org/2000/svg\" "
		"xmlns:xlink=\"http://www.w3.org/1999/xlink\" "
		"xmlns:fg=\"urn:kprof:flamegraph\">\n"
		"<!-- Flame graph drawn by kprof; see docs/flamegraph.md -->\n"
		"<defs><linearGradient id=\"background\" y1=\"0\" y2=\"1\" x1=\"0\" x2=\"0\">"
		"<stop stop-color=\"#eeeeee\" offset=\"5%%\"/>"
		"<stop stop-color=\"#eeeeb0\" offset=\"95%%\"/></linearGradient></defs>\n"
		"<style type=\"text/css\">\n"
		"text { font-family: Verdana, sans-serif; font-size: %upx; fill: rgb(0,0,0); }\n"
		"#title { text-anchor: middle; font-size: 17px; }\n"
		"#subtitle { text-anchor: middle; fill: rgb(110,110,110); }\n"
		"#search, #ignorecase { opacity: 0.1; cursor: pointer; }\n"
		"#search:hover, #search.show, #ignorecase:hover, #ignorecase.show { opacity: 1; }\n"
		"#unzoom { cursor: pointer; }\n"
		"#frames > *:hover { stroke: black; stroke-width: 0.5; cursor: pointer; }\n"
		".hide { display: none; }\n"
		".parent { opacity: 0.5; }\n"
		"</style>\n<script type=\"text/ecmascript\"><![CDATA[\n%s]]></script>\n"
		"<rect x=\"0\" y=\"0\" width=\"100%%\" height=\"100%%\" "
		"fill=\"url(#background)\"/>\n"
		"<text id=\"title\" x=\"%u\" y=\"24\">", w, h, w, h, FONT_SIZE, flame_js, w / 2);
	flame_xml_put(fp, default_title(l->o), SIZE_MAX);
	fputs("</text>\n", fp);
	if (subtitle) {
		fprintf(fp, "<text id=\"subtitle\" x=\"%u\" y=\"48\">", w / 2);
		flame_xml_put(fp, subtitle, SIZE_MAX);
		fputs("</text>\n", fp);
	}
	fprintf(fp, "<text id=\"details\" x=\"%u\" y=\"%u\"> </text>\n"
		"<text id=\"unzoom\" class=\"hide\" x=\"%u\" y=\"24\">Reset Zoom</text>\n"
		"<text id=\"search\" x=\"%u\" y=\"24\">Search</text>\n"
		"<text id=\"ignorecase\" x=\"%u\" y=\"24\">ic</text>\n"
		"<text id=\"matched\" x=\"%u\" y=\"%u\"> </text>\n",
		XPAD, h - 17, XPAD, w - XPAD - 100, w - XPAD - 16, w - XPAD - 100, h - 17);
}

static int layout_init(struct layout *l, const struct flame_tree *t,
		       const struct flame_svg_opts *o)
{
	double before = flame_tree_total(t, FLAME_BEFORE);

	memset(l, 0, sizeof(*l));
	l->t = t;
	l->o = o;
	l->width = o->width ? o->width : 1200;
	l->fh = o->frame_height ? o->frame_height : 16;
	if (l->width < 4 * XPAD || l->fh < 2)
		return -EINVAL;
	l->countname = o->countname ? o->countname : "samples";
	l->total = flame_tree_total(t, FLAME_AFTER);
	l->total_before = before;
	l->before_scale = !o->no_normalize && before > 0 ? l->total / before : 1;
	l->px_per_count = l->total > 0 ? (l->width - 2.0 * XPAD) / l->total : 0;
	if (o->minwidth_percent)
		l->min_count = l->total * o->minwidth / 100;
	else
		l->min_count = l->px_per_count > 0 ? o->minwidth / l->px_per_count : 0;
	l->ypad1 = FONT_SIZE * 3 + (o->subtitle || o->diff ? FONT_SIZE * 2 : 0);
	l->ypad2 = FONT_SIZE * 2 + 10;
	return alloc_order(l);
}

static void layout_release(struct layout *l)
{
	free(l->order);
	free(l->first);
	free(l->nr_children);
}

static const char *diff_subtitle(const struct flame_svg_opts *o)
{
	if (o->subtitle)
		return o->subtitle;
	return o->self_delta ? "widths: after; red grew, blue shrank (self share)"
			     : "widths: after; red grew, blue shrank (inclusive share)";
}

int flame_svg_write(FILE *fp, const struct flame_tree *t, const struct flame_svg_opts *o,
		    struct flame_svg_stats *st)
{
	struct flame_svg_stats dummy;
	struct layout l;
	size_t nr_drawn;
	int err;

	if (!st)
		st = &dummy;
	memset(st, 0, sizeof(*st));
	err = layout_init(&l, t, o);
	if (err)
		goto out;
	if (!(l.total > 0)) {
		l.height = 3 * FONT_SIZE + l.ypad1 + l.ypad2;
		put_header(&l, fp, o->diff ? diff_subtitle(o) : o->subtitle);
		fprintf(fp, "<text x=\"%u\" y=\"%u\">ERROR: No valid input</text>\n"
			"<g id=\"frames\"></g>\n</svg>\n", XPAD, l.ypad1 + FONT_SIZE * 2);
		err = -ENODATA;
		goto out;
	}
	err = visit_drawn(&l, fp, measure, &nr_drawn);
	if (err)
		goto out;
	l.height = (l.max_depth + 1) * l.fh + l.ypad1 + l.ypad2;
	put_header(&l, fp, o->diff ? diff_subtitle(o) : o->subtitle);
	fprintf(fp, "<g id=\"frames\" fg:total=\"%.12g\" fg:xpad=\"%u\" fg:width=\"%u\" "
		"fg:fh=\"%u\" fg:ypad1=\"%u\" fg:ypad2=\"%u\" fg:height=\"%u\" fg:inverted=\"%d\" "
		"fg:fontsize=\"%u\" fg:fontwidth=\"%g\" fg:nametype=\"", l.total, XPAD, l.width,
		l.fh, l.ypad1, l.ypad2, l.height, o->inverted, FONT_SIZE, FONT_WIDTH);
	flame_xml_put(fp, o->nametype ? o->nametype : "Function:", SIZE_MAX);
	fputs("\">\n", fp);
	err = visit_drawn(&l, fp, draw_frame, &nr_drawn);
	if (err)
		goto out;
	fputs("</g>\n</svg>\n", fp);
	st->frames_drawn = nr_drawn;
	st->frames_culled = t->nr - nr_drawn;
	st->depth = l.max_depth + 1;
	if (ferror(fp))
		err = -EIO;
out:
	layout_release(&l);
	return err;
}
