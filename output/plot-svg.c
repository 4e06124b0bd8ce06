// SPDX-License-Identifier: GPL-2.0
/*
 * plot-svg.c - the bisect plot as a standalone SVG picture: the same data and conventions as
 * the ASCII plot (each series on its own x = 1..n, base joined by a line and drawn as '*'-like
 * stars, new as 'O' circles), with y tics and a legend naming both sets.
 */
#include <errno.h>
#include <math.h>

#include "output/output.h"
#include "output/plot-int.h"

#define SVG_W		640
#define SVG_H		400
#define SVG_LEFT	90
#define SVG_RIGHT	20
#define SVG_TOP		40
#define SVG_BOTTOM	60

static void xml_text(FILE *fp, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<':
			fputs("&lt;", fp);
			break;
		case '>':
			fputs("&gt;", fp);
			break;
		case '&':
			fputs("&amp;", fp);
			break;
		case '"':
			fputs("&quot;", fp);
			break;
		default:
			putc(*s, fp);
		}
	}
}

struct svg_axes {
	double	lo, hi;
};

static double sx(size_t i, size_t n)
{
	double w = SVG_W - SVG_LEFT - SVG_RIGHT;

	return n < 2 ? SVG_LEFT + w / 2 : SVG_LEFT + w * i / (n - 1);
}

static double sy(const struct svg_axes *a, double v)
{
	double h = SVG_H - SVG_TOP - SVG_BOTTOM;

	return SVG_TOP + h - h * (v - a->lo) / (a->hi - a->lo);
}

static void star(FILE *fp, double x, double y)
{
	fprintf(fp, "<path d=\"M%.1f %.1fv10M%.1f %.1fh10M%.1f %.1fl7 7M%.1f %.1fl7 -7\" "
		"stroke=\"#1f5fbf\" stroke-width=\"1.5\"/>\n", x, y - 5, x - 5, y, x - 3.5, y - 3.5,
		x - 3.5, y + 3.5);
}

int plot_write_svg(FILE *fp, const char *title, const double *good, size_t ngood,
		   const char *good_label, const double *bad, size_t nbad, const char *bad_label)
{
	struct svg_axes a;
	double pad;

	if (plot_data_range(good, ngood, bad, nbad, &a.lo, &a.hi))
		return -EINVAL;
	pad = (a.hi - a.lo) * 0.05;
	a.lo -= pad;
	a.hi += pad;
	fprintf(fp, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" font-family=\"monospace\" font-size=\"12\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n", SVG_W, SVG_H, SVG_W,
		SVG_H);
	fprintf(fp, "<text x=\"%d\" y=\"24\" text-anchor=\"middle\" font-size=\"14\">", SVG_W / 2);
	xml_text(fp, title);
	fprintf(fp, "</text>\n<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
		"stroke=\"black\"/>\n", SVG_LEFT, SVG_TOP, SVG_W - SVG_LEFT - SVG_RIGHT,
		SVG_H - SVG_TOP - SVG_BOTTOM);
	for (int i = 0; i <= 5; i++) {
		double v = a.lo + (a.hi - a.lo) * i / 5;

		fprintf(fp, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.6g</text>\n",
			SVG_LEFT - 6, sy(&a, v) + 4, v);
	}
	if (ngood > 1) {
		fputs("<polyline fill=\"none\" stroke=\"#1f5fbf\" stroke-dasharray=\"2 3\" "
		      "points=\"", fp);
		for (size_t i = 0; i < ngood; i++)
			fprintf(fp, "%s%.1f,%.1f", i ? " " : "", sx(i, ngood), sy(&a, good[i]));
		fputs("\"/>\n", fp);
	}
	for (size_t i = 0; i < nbad; i++)
		fprintf(fp, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"none\" "
			"stroke=\"#c0392b\" stroke-width=\"1.5\"/>\n", sx(i, nbad), sy(&a, bad[i]));
	for (size_t i = 0; i < ngood; i++)
		star(fp, sx(i, ngood), sy(&a, good[i]));
	star(fp, SVG_LEFT + 10, SVG_H - 30);
	fprintf(fp, "<text x=\"%d\" y=\"%d\">bisect-good sample (", SVG_LEFT + 22, SVG_H - 26);
	xml_text(fp, good_label);
	fprintf(fp, ")</text>\n<circle cx=\"%d\" cy=\"%d\" r=\"5\" fill=\"none\" "
		"stroke=\"#c0392b\" stroke-width=\"1.5\"/>\n", SVG_LEFT + 10, SVG_H - 12);
	fprintf(fp, "<text x=\"%d\" y=\"%d\">bisect-bad sample (", SVG_LEFT + 22, SVG_H - 8);
	xml_text(fp, bad_label);
	fputs(")</text>\n</svg>\n", fp);
	return ferror(fp) ? -EIO : 0;
}
