// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the flame graph builder: folded parsing, tree building, culling, colours,
 * inclusive versus self deltas, XML escaping and the structure of the SVG.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/flamegraph-int.h"
#include "tests/tap.h"

static struct flame_tree *tree_of(const char *folded, bool reverse)
{
	struct flame_tree *t = flame_tree_new(reverse);
	struct flame_folded_sink sink = { t, FLAME_AFTER };

	if (t && folded_read_buf(folded, strlen(folded), flame_tree_add_folded, &sink, NULL)) {
		flame_tree_free(t);
		return NULL;
	}
	return t;
}

/* The SVG of @t as a string (caller frees). */
static char *svg_of(const struct flame_tree *t, const struct flame_svg_opts *o,
		    struct flame_svg_stats *st, int *ret)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	*ret = flame_svg_write(fp, t, o, st);
	fclose(fp);
	return buf;
}

static size_t count_str(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* The frame <g> whose title starts with "@name (": a pointer into @svg, or NULL. */
static const char *frame_of(const char *svg, const char *name)
{
	char needle[256];

	snprintf(needle, sizeof(needle), "<title>%s (", name);
	return strstr(svg, needle);
}

static double attr_of(const char *frame, const char *attr)
{
	char needle[64];
	const char *p;

	snprintf(needle, sizeof(needle), " %s=\"", attr);
	p = frame ? strstr(frame, needle) : NULL;
	return p ? strtod(p + strlen(needle), NULL) : NAN;
}

static bool fill_is(const char *frame, const unsigned char rgb[3])
{
	char want[64];
	const char *p = frame ? strstr(frame, "fill=\"") : NULL;

	snprintf(want, sizeof(want), "fill=\"rgb(%u,%u,%u)\"", rgb[0], rgb[1], rgb[2]);
	return p && !strncmp(p, want, strlen(want));
}

struct collected {
	char	lines[8][128];
	double	count[8], before[8];
	unsigned int flags[8];
	size_t	nr;
};

static int collect(const struct folded_frame *f, size_t nr, double count, double before,
		   void *arg)
{
	struct collected *c = arg;
	char *out = c->lines[c->nr];

	out[0] = '\0';
	for (size_t i = 0; i < nr; i++) {
		strcat(out, i ? "|" : "");
		strcat(out, f[i].name);
	}
	c->flags[c->nr] = nr ? f[nr - 1].flags : 0;
	c->count[c->nr] = count;
	c->before[c->nr++] = before;
	return 0;
}

#define ZEROS_50 "00000000000000000000000000000000000000000000000000"

static void test_folded_read(void)
{
	const char *text = "a;b;c 42\r\n"
			   "no count here\n"
			   "\n"
			   "x;y_[k] 1.5\n"
			   "d;e 3 5\n"
			   "f;;g 7\n"
			   "17\n"
			   " 2\n"
			   "sp;x  4\n"
			   "inf 1" ZEROS_50 ZEROS_50 ZEROS_50 ZEROS_50 ZEROS_50
			   ZEROS_50 ZEROS_50 "\n";
	struct folded_read_stats st;
	struct collected c = { .nr = 0 };

	is_int(folded_read_buf(text, strlen(text), collect, &c, &st), 0, "folded text parses");
	is_u64(st.lines, 9, "non-empty lines counted");
	is_u64(st.invalid, 3, "lines without a (finite) count, or only one, are invalid");
	is_u64(st.first_invalid, 2, "the first invalid line is reported");
	is_u64(st.two_counts, 1, "a difffolded line is recognised");
	is_int(c.nr, 6, "six stacks");
	is_str(c.lines[0], "a|b|c", "frames split at ';', CRLF accepted");
	is_double(c.count[0], 42, 0, "integer count");
	ok(c.before[0] < 0, "a single count has no before");
	is_str(c.lines[1], "x|y", "the _[k] suffix is removed");
	ok(c.flags[1] & FOLDED_FRAME_KERNEL, "and marks a kernel frame");
	is_double(c.count[1], 1.5, 1e-12, "fractional count");
	is_str(c.lines[2], "d|e", "two-count line: stack");
	ok(c.before[2] == 3 && c.count[2] == 5, "two-count line: before 3, after 5");
	is_str(c.lines[3], "f||g", "an empty frame is kept");
	is_str(c.lines[4], "", "an empty stack is a sample of the root");
	is_str(c.lines[5], "sp|x ", "one blank before the count goes, like flamegraph.pl's regex");
}

static void test_tree(void)
{
	struct flame_tree *t = tree_of("a;b;c 3\na;b;d 2\na;e 5\nz 1\na;b;c 1\n", false);
	struct flame_tree *r = tree_of("a;b;c 3\nx;b;c 2\n", true);

	ok(t && r, "trees built");
	if (!t || !r)
		return;
	is_int(flame_tree_nr_nodes(t), 7, "all,a,b,c,d,e,z: stacks merged from the root");
	is_double(flame_tree_total(t, FLAME_AFTER), 12, 0, "total of all stacks");
	is_double(t->nodes[0].total[FLAME_AFTER], 12, 0, "root is inclusive");
	for (size_t i = 1; i < t->nr; i++) {
		const struct flame_node *n = &t->nodes[i];

		if (!strcmp(n->name, "b"))
			ok(n->total[0] == 6 && n->self[0] == 0, "b: inclusive 6, self 0");
		if (!strcmp(n->name, "c"))
			ok(n->total[0] == 4 && n->self[0] == 4, "c: duplicate stacks merged (4)");
	}
	/* reversed: c;b;a and c;b;x share c and b */
	is_int(flame_tree_nr_nodes(r), 5, "--reverse merges at the leaf: all,c,b,a,x");
	ok(!strcmp(r->nodes[r->nodes[0].first_child].name, "c"), "the leaf is the root frame");
	flame_tree_free(r);
	r = tree_of("a;k 1\nb;x 1\na;k_[k] 2\n", false);
	is_int(flame_tree_nr_nodes(r), 5, "annotated and plain kernel frames are one frame");
	for (size_t i = 1; i < r->nr; i++)
		if (!strcmp(r->nodes[i].name, "k"))
			ok(r->nodes[i].flags == FLAME_FRAME_KERNEL && r->nodes[i].total[0] == 3,
			   "it is a kernel frame holding both counts");
	is_int(flame_tree_add(t, FLAME_AFTER, NULL, NULL, 0, -1), -EINVAL, "negative count");
	is_int(flame_tree_add(t, FLAME_AFTER, NULL, NULL, 0, NAN), -EINVAL, "NaN count");
	flame_tree_free(t);
	flame_tree_free(r);
}

static void test_structure(void)
{
	struct flame_tree *t = tree_of("a;b 30\na;c 10\nd 60\n", false);
	struct flame_svg_opts o = { .width = 1020, .minwidth = 0.1 };
	struct flame_svg_stats st;
	double wb, wc, wd, wall, xb, xc;
	const char *b, *c;
	char *svg;
	int ret;

	svg = svg_of(t, &o, &st, &ret);
	is_int(ret, 0, "SVG written");
	is_int(count_str(svg, "<g fg:x="), 5, "one <g> per frame: all, a, b, c, d");
	is_int(st.frames_drawn, 5, "stats: 5 drawn");
	is_int(st.depth, 3, "stats: 3 rows");
	wall = attr_of(frame_of(svg, "all"), "width");
	is_double(wall, 1000, 0.05, "root spans width minus padding");
	b = frame_of(svg, "b");
	c = frame_of(svg, "c");
	wb = attr_of(b, "width");
	wc = attr_of(c, "width");
	wd = attr_of(frame_of(svg, "d"), "width");
	is_double(wb, 300, 0.05, "b: 30%% of the width");
	is_double(wc, 100, 0.05, "c: 10%%");
	is_double(wd, 600, 0.05, "d: 60%%");
	xb = attr_of(b, "x");
	xc = attr_of(c, "x");
	ok(xb < xc && fabs(xc - (xb + wb)) < 0.1, "siblings sorted by name, side by side");
	ok(attr_of(b, "y") < attr_of(frame_of(svg, "a"), "y"), "flame: children above parents");
	ok(strstr(svg, "<title>b (30 samples, 30.00%)</title>") != NULL, "tooltip: count, share");
	ok(strstr(svg, "<![CDATA[") && strstr(svg, "function init(evt)"), "script embedded");
	free(svg);

	o.inverted = true;
	o.countname = "bytes";
	svg = svg_of(t, &o, &st, &ret);
	ok(attr_of(frame_of(svg, "b"), "y") > attr_of(frame_of(svg, "a"), "y"),
	   "icicle: children below parents");
	ok(strstr(svg, ">Icicle Graph<") && strstr(svg, "30 bytes"), "icicle title, countname");
	free(svg);
	flame_tree_free(t);
}

static void test_culling(void)
{
	struct flame_tree *t = flame_tree_new(false);
	struct flame_svg_opts o = { .width = 1200, .minwidth = 0.1 };
	struct flame_svg_stats st;
	char name[32], *svg;
	const char *names[2] = { "hot", name };
	int ret;

	/* 20000 distinct leaves of weight 1 beside one of weight 1e6 */
	for (int i = 0; i < 20000; i++) {
		snprintf(name, sizeof(name), "leaf%d", i);
		flame_tree_add(t, FLAME_AFTER, names, NULL, 2, 1);
	}
	names[1] = "big";
	flame_tree_add(t, FLAME_AFTER, names, NULL, 2, 1e6);
	svg = svg_of(t, &o, &st, &ret);
	is_int(st.frames_drawn, 3, "tiny frames culled: all, hot, big drawn");
	is_int(st.frames_culled, 20000, "20000 culled");
	ok(strlen(svg) < 20000, "the SVG stays small (%zu bytes)", strlen(svg));
	free(svg);
	o.minwidth = 0;
	svg = svg_of(t, &o, &st, &ret);
	is_int(st.frames_drawn, 20003, "--minwidth 0 draws every frame");
	free(svg);
	o.minwidth = 50;
	o.minwidth_percent = true;
	svg = svg_of(t, &o, &st, &ret);
	is_int(st.frames_drawn, 3, "--minwidth 50%%: frames under half the total culled");
	free(svg);
	o.minwidth = 99.99;
	svg = svg_of(t, &o, &st, &ret);
	is_int(st.frames_drawn, 2, "--minwidth 99.99%%: only all and hot");
	free(svg);
	flame_tree_free(t);
}

static void test_colors(void)
{
	unsigned char a[3], b[3], k[3], u[3];
	enum flame_colors s;

	flame_color(FLAME_COLORS_HOT, "do_syscall_64", 0, a);
	flame_color(FLAME_COLORS_HOT, "do_syscall_64", 0, b);
	ok(!memcmp(a, b, 3), "same name, same colour");
	ok(a[0] >= 205 && a[1] <= 230 && a[2] <= 55, "hot palette range");
	flame_color(FLAME_COLORS_HOT, "do_syscall_65", 0, b);
	ok(memcmp(a, b, 3), "a different name, a different colour");
	flame_color(FLAME_COLORS_HOT, "do_syscall_64", FLAME_FRAME_KERNEL, b);
	ok(!memcmp(a, b, 3), "hot ignores the kernel flag");
	flame_color(FLAME_COLORS_KERNEL, "f", FLAME_FRAME_KERNEL, k);
	flame_color(FLAME_COLORS_KERNEL, "f", 0, u);
	ok(k[2] == 0 && k[0] > k[1], "kernel frame: orange");
	ok(u[1] > u[0] && u[1] > u[2], "user frame: green");
	flame_color(FLAME_COLORS_MEM, "f", 0, a);
	ok(a[0] == 0 && a[1] >= 190, "mem palette");
	flame_color(FLAME_COLORS_IO, "f", 0, a);
	ok(a[0] == a[1] && a[2] >= 190, "io palette");
	flame_color(FLAME_COLORS_HOT, "--", 0, a);
	ok(a[0] == 160 && a[1] == 160 && a[2] == 160, "separators grey");
	flame_diff_color(1, 1, a);
	ok(a[0] == 255 && a[1] == 0 && a[2] == 0, "largest growth: red");
	flame_diff_color(-0.5, 1, a);
	ok(a[2] == 255 && a[0] == 105 && a[1] == 105, "half shrink: light blue");
	flame_diff_color(0, 1, a);
	ok(a[0] == 255 && a[1] == 255 && a[2] == 255, "no change: white");
	ok(!flame_colors_parse("kernel", &s) && s == FLAME_COLORS_KERNEL, "parse kernel");
	is_int(flame_colors_parse("java", &s), -EINVAL, "unknown palette rejected");
}

static struct flame_tree *diff_tree(const char *before, const char *after)
{
	struct flame_tree *t = flame_tree_new(false);
	struct flame_folded_sink sb = { t, FLAME_BEFORE }, sa = { t, FLAME_AFTER };

	folded_read_buf(before, strlen(before), flame_tree_add_folded, &sb, NULL);
	folded_read_buf(after, strlen(after), flame_tree_add_folded, &sa, NULL);
	return t;
}

static void test_diff(void)
{
	/* p has no self time; its child q grew from 10% to 30%. gone existed only before. */
	struct flame_tree *t = diff_tree("p;q 10\nr 80\np;gone 10\n", "p;q 30\nr 70\n");
	struct flame_svg_opts o = { .width = 1200, .minwidth = 0.1, .diff = true };
	unsigned char white[3], red[3], blue[3];
	const char *p;
	char *svg;
	int ret;

	flame_diff_color(0, 1, white);
	flame_diff_color(1, 1, red);
	svg = svg_of(t, &o, NULL, &ret);
	p = frame_of(svg, "p");
	/* inclusive: p 20% -> 30% = +10; q 10 -> 30 = +20 (max); r 80 -> 70 = -10 */
	flame_diff_color(0.10, 0.20, red);
	ok(fill_is(p, red), "inclusive: p, whose child grew, is red by its own growth");
	flame_diff_color(-0.10, 0.20, blue);
	ok(fill_is(frame_of(svg, "r"), blue), "inclusive: r shrank, blue");
	ok(strstr(svg, "<title>p (before: 20 samples, 20.00%; after: 30 samples, 30.00%; "
		   "delta: +10.00%, self delta: +0.00%)\nonly in before: gone (10 samples, "
		   "10.00%)</title>") != NULL,
	   "tooltip: before, after, deltas, and the frames only in before");
	ok(!frame_of(svg, "gone"), "a frame only in before has no width");
	free(svg);

	o.self_delta = true;
	svg = svg_of(t, &o, NULL, &ret);
	ok(fill_is(frame_of(svg, "p"), white), "self delta: p has no self change, white");
	flame_diff_color(0.20, 0.20, red);
	ok(fill_is(frame_of(svg, "q"), red), "self delta: q is the largest growth");
	free(svg);
	flame_tree_free(t);

	/* normalisation: before has twice the samples of after, same shape: no change at all */
	t = diff_tree("a;b 20\nc 20\n", "a;b 10\nc 10\n");
	o.self_delta = false;
	svg = svg_of(t, &o, NULL, &ret);
	ok(fill_is(frame_of(svg, "a"), white) && fill_is(frame_of(svg, "c"), white),
	   "normalised: same shape, no colour");
	free(svg);
	o.no_normalize = true;
	svg = svg_of(t, &o, NULL, &ret);
	ok(!fill_is(frame_of(svg, "a"), white), "--no-normalize: raw counts shrank, coloured");
	ok(strstr(svg, "<title>a (before: 20 samples, 50.00%; after: 10 samples, 50.00%; "
		   "delta: -50.00%, self delta: +0.00%)") != NULL,
	   "--no-normalize: shares of each side, delta of raw counts");
	free(svg);
	flame_tree_free(t);
}

static char *xml_of(const char *s, size_t max)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	flame_xml_put(fp, s, max);
	fclose(fp);
	return buf;
}

static void test_xml(void)
{
	static const struct { const char *in, *out; size_t max; } cases[] = {
		{ "<a&b>\"c'", "&lt;a&amp;b&gt;&quot;c&apos;", SIZE_MAX },
		{ "a\x01" "b\x7f" "c\td", "a\xef\xbf\xbd" "b\xef\xbf\xbd" "c d", SIZE_MAX },
		{ "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x94\xa5", "caf\xc3\xa9 \xe2\x82\xac "
		  "\xf0\x9f\x94\xa5", SIZE_MAX },
		{ "\xff\xc3", "\xef\xbf\xbd\xef\xbf\xbd", SIZE_MAX },
		{ "\xc0\xaf", "\xef\xbf\xbd\xef\xbf\xbd", SIZE_MAX },		/* overlong '/' */
		/* a surrogate, then U+FFFE */
		{ "\xed\xa0\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd", SIZE_MAX },
		{ "\xef\xbf\xbe", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd", SIZE_MAX },
		{ "abcdefgh", "abc..", 5 },
		{ "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", "\xc3\xa9..", 3 },	/* by chars */
		{ "abcd", "abcd", 4 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = xml_of(cases[i].in, cases[i].max);

		is_str(got, cases[i].out, "xml case %zu", i);
		free(got);
	}
	is_int(flame_utf8_chars("\xc3\xa9x\xff"), 3, "characters, invalid bytes count one");
	ok(!strstr(flame_js, "]]>"), "the script never closes the CDATA section");
}

static void test_empty(void)
{
	struct flame_tree *t = flame_tree_new(false);
	struct flame_svg_opts o = { 0 };
	char *svg;
	int ret;

	svg = svg_of(t, &o, NULL, &ret);
	is_int(ret, -ENODATA, "an empty tree is -ENODATA");
	ok(strstr(svg, "No valid input") != NULL, "and the SVG says so");
	free(svg);
	flame_tree_free(t);
}

int main(void)
{
	test_folded_read();
	test_tree();
	test_structure();
	test_culling();
	test_colors();
	test_diff();
	test_xml();
	test_empty();
	return done_testing();
}
