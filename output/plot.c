// SPDX-License-Identifier: GPL-2.0
/*
 * plot.c - LKP's bisect plot of per-run values (lib/plot.rb), drawn the way gnuplot's dumb
 * terminal draws `plot '-' with points pt 15 lt 0, '-' with linespoints pt -22 lt 0` at
 * `size 80,20` with `noxtics` and `ytics nomirror`, but without gnuplot:
 *
 *  - the title (characters outside [a-zA-Z0-9_.:+=-] become '_') centred on the first line;
 *  - a box of '-' and '|' with '+' corners; y tics as '+' on the left border plus a '+' just
 *    inside (gnuplot 4's "++"), labelled with "%g" values right-aligned in the margin;
 *  - y autoscaled and extended to whole tic steps (gnuplot's quantize_normal_tics, guide 20);
 *    an empty range [v:v] becomes [0.99v:1.01v] ([-1:1] for 0), as gnuplot adjusts it;
 *  - each series on its own x = 1..n, stretched over the full width (the series are not
 *    aligned by time, as in LKP);
 *  - the good (base) series joined by lt 0 lines ('.' mostly horizontal, ':' mostly vertical),
 *    then the bad series' 'O' points, then the good series' '*' points (plot order: later
 *    wins); points win over lines.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/output.h"
#include "output/plot-int.h"

#define PLOT_MIN_W	30
#define PLOT_MIN_H	8

struct canvas {
	char	*cells;
	int	w, h;
};

static void put(struct canvas *c, int x, int y, char ch)
{
	if (x >= 0 && x < c->w && y >= 0 && y < c->h)
		c->cells[y * c->w + x] = ch;
}

static char get(const struct canvas *c, int x, int y)
{
	return c->cells[y * c->w + x];
}

/* gnuplot's quantize_normal_tics(range, 20). */
static double tic_step(double range)
{
	double power = pow(10, floor(log10(range))), xnorm = range / power, posns = 20 / xnorm;
	double tics;

	if (posns > 40)
		tics = 0.05;
	else if (posns > 20)
		tics = 0.1;
	else if (posns > 10)
		tics = 0.2;
	else if (posns > 4)
		tics = 0.5;
	else if (posns > 2)
		tics = 1;
	else if (posns > 0.5)
		tics = 2;
	else
		tics = ceil(xnorm);
	return tics * power;
}

int plot_data_range(const double *a, size_t na, const double *b, size_t nb, double *lo,
		    double *hi)
{
	const double *v[2] = { a, b };
	size_t n[2] = { na, nb };

	*lo = INFINITY;
	*hi = -INFINITY;
	for (int s = 0; s < 2; s++) {
		for (size_t i = 0; i < n[s]; i++) {
			if (!isfinite(v[s][i]))
				return -EINVAL;
			*lo = fmin(*lo, v[s][i]);
			*hi = fmax(*hi, v[s][i]);
		}
	}
	if (!na && !nb)
		return -EINVAL;
	if (*lo == *hi) {
		double d = *lo ? fabs(*lo) * 0.01 : 1;

		*lo -= d;
		*hi += d;
	}
	return 0;
}

struct frame {
	int	left, right, top, bottom;	/* border columns and rows */
	double	lo, hi;
};

static int row_of(const struct frame *f, double v)
{
	return f->bottom - (int)lround((v - f->lo) / (f->hi - f->lo) * (f->bottom - f->top));
}

static int col_of(const struct frame *f, size_t i, size_t n)
{
	if (n < 2)
		return (f->left + f->right) / 2;
	return f->left + (int)lround((double)i / (n - 1) * (f->right - f->left));
}

/* A lt 0 segment: '.' along mostly horizontal runs, ':' along mostly vertical ones. */
static void line(struct canvas *c, int x0, int y0, int x1, int y1)
{
	int dx = abs(x1 - x0), dy = abs(y1 - y0), steps = dx > dy ? dx : dy;
	char ch = dx >= dy ? '.' : ':';

	for (int s = 1; s < steps; s++) {
		int x = x0 + (int)lround((double)(x1 - x0) * s / steps);
		int y = y0 + (int)lround((double)(y1 - y0) * s / steps);

		if (get(c, x, y) == ' ')
			put(c, x, y, ch);
	}
}

/* Tics from lo to hi; counted, not accumulated, so a step below the values' ulp cannot loop. */
static int nr_tics(const struct frame *f, double step)
{
	double n = floor((f->hi - f->lo) / step + 0.5) + 1;

	return n > 100 ? 100 : n < 1 ? 1 : (int)n;
}

static void draw_box(struct canvas *c, const struct frame *f, double step, int label_w)
{
	char label[32];

	for (int x = f->left; x <= f->right; x++) {
		put(c, x, f->top, '-');
		put(c, x, f->bottom, '-');
	}
	for (int y = f->top; y <= f->bottom; y++) {
		put(c, f->left, y, '|');
		put(c, f->right, y, '|');
	}
	put(c, f->left, f->top, '+');
	put(c, f->right, f->top, '+');
	put(c, f->left, f->bottom, '+');
	put(c, f->right, f->bottom, '+');
	for (int i = 0, nr = nr_tics(f, step); i < nr; i++) {
		double t = f->lo + i * step;
		int y = row_of(f, t), n;

		n = snprintf(label, sizeof(label), "%g", fabs(t) < step / 1e6 ? 0 : t);
		for (int k = 0; k < n && k < label_w; k++)
			put(c, label_w - n + k, y, label[k]);
		put(c, f->left, y, '+');
		put(c, f->left + 1, y, '+');
	}
}

static void title_line(struct canvas *c, const char *title)
{
	int n = strlen(title), x0 = (c->w - n) / 2;

	for (int i = 0; i < n; i++) {
		char ch = title[i];

		if (!strchr("_.:+=-", ch) && !isalnum((unsigned char)ch))
			ch = '_';
		put(c, x0 < 0 ? i : x0 + i, 0, ch);
	}
}

static int label_width(const struct frame *f, double step)
{
	char label[32];
	int w = 0;

	for (int i = 0, nr = nr_tics(f, step); i < nr; i++) {
		double t = f->lo + i * step;
		int n = snprintf(label, sizeof(label), "%g", fabs(t) < step / 1e6 ? 0 : t);

		if (n > w)
			w = n;
	}
	return w + 2;
}

int plot_write_ascii(FILE *fp, const char *title, const double *good, size_t ngood,
		     const double *bad, size_t nbad, int width, int height)
{
	struct canvas c = { .w = width, .h = height };
	struct frame f;
	double step;
	int label_w;

	if (width < PLOT_MIN_W || height < PLOT_MIN_H || width > 1000 || height > 1000 ||
	    plot_data_range(good, ngood, bad, nbad, &f.lo, &f.hi))
		return -EINVAL;
	/* autoscale extends the range to whole tic steps */
	step = tic_step(f.hi - f.lo);
	f.lo = floor(f.lo / step) * step;
	f.hi = ceil(f.hi / step) * step;
	c.cells = malloc((size_t)width * height);
	if (!c.cells)
		return -ENOMEM;
	memset(c.cells, ' ', (size_t)width * height);
	label_w = label_width(&f, step);
	f = (struct frame){ label_w + 1, width - 2, 2, height - 2, f.lo, f.hi };
	title_line(&c, title);
	draw_box(&c, &f, step, label_w);
	for (size_t i = 1; i < ngood; i++)
		line(&c, col_of(&f, i - 1, ngood), row_of(&f, good[i - 1]), col_of(&f, i, ngood),
		     row_of(&f, good[i]));
	for (size_t i = 0; i < nbad; i++)
		put(&c, col_of(&f, i, nbad), row_of(&f, bad[i]), 'O');
	for (size_t i = 0; i < ngood; i++)
		put(&c, col_of(&f, i, ngood), row_of(&f, good[i]), '*');
	for (int y = 0; y < height; y++) {
		int end = width;

		while (end > 0 && get(&c, end - 1, y) == ' ')
			end--;
		fwrite(c.cells + y * width, 1, end, fp);
		putc('\n', fp);
	}
	fputs("\t[*] bisect-good sample\n\t[O] bisect-bad sample\n", fp);
	free(c.cells);
	return ferror(fp) ? -EIO : 0;
}
