// SPDX-License-Identifier: GPL-2.0
/*
 * The bisect plot: gnuplot dumb-terminal geometry (80x20, title line, box, "++" tics with %g
 * labels, tic steps from gnuplot's quantize_normal_tics), one '*' per good run and one 'O' per
 * bad run, and the SVG being well-formed enough to hold every point.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/output.h"
#include "tests/tap.h"

static char *render(const char *title, const double *g, size_t ng, const double *b, size_t nb)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	int ret = plot_write_ascii(fp, title, g, ng, b, nb, 80, 20);

	fclose(fp);
	if (ret) {
		free(buf);
		return NULL;
	}
	return buf;
}

static int count(const char *s, char c)
{
	int n = 0;

	for (; *s; s++)
		n += *s == c;
	return n;
}

static int nr_lines(const char *s)
{
	return count(s, '\n');
}

int main(void)
{
	const double good[] = { 225000, 224000, 225000, 223000, 225000, 224500 };
	const double bad[] = { 195000, 196000, 195500, 195000 };
	char *p, *line, *sv = NULL;
	size_t len = 0;
	FILE *fp;
	int widest = 0;

	p = render("will-it-scale.per process/ops", good, 6, bad, 4);
	ok(p != NULL, "plot drawn");
	is_int(nr_lines(p), 22, "20 lines of plot plus the two legend lines");
	is_int(count(p, '*'), 6 + 1, "one '*' per good run (+1 in the legend)");
	is_int(count(p, 'O'), 4 + 1, "one 'O' per bad run (+1 in the legend)");
	ok(strstr(p, "will-it-scale.per_process_ops\n") != NULL,
	   "title: characters outside [a-zA-Z0-9_.:+=-] become '_'");
	ok(strstr(p, "  225000 ") && strstr(p, "  195000 ") && strstr(p, "  210000 ++\n") == NULL &&
	   strstr(p, "  210000 ++ ") != NULL,
	   "y tics every 5000 (quantize_normal_tics of a 30000 range), '++' at the border");
	ok(strstr(p, "220000 ++") != NULL, "an inner tic");
	ok(strstr(p, "\t[*] bisect-good sample\n\t[O] bisect-bad sample\n") != NULL, "legend");
	for (line = p; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		int w = strcspn(line, "\n");

		widest = w > widest ? w : widest;
	}
	ok(widest <= 80, "no line wider than 80 (widest %d)", widest);
	free(p);

	p = render("flat", (const double[]){ 7, 7, 7 }, 3, (const double[]){ 7, 7 }, 2);
	ok(p && strstr(p, "7.06 ++") && strstr(p, "6.94 ++"),
	   "an empty range [7:7] is widened by 1%% as gnuplot does");
	free(p);
	p = render("one", (const double[]){ 1 }, 1, NULL, 0);
	ok(p != NULL && count(p, '*') == 2, "a single good run, no bad runs");
	free(p);
	ok(render("bad", (const double[]){ 0.0 / 0.0 }, 1, NULL, 0) == NULL, "NaN is refused");
	ok(render("none", NULL, 0, NULL, 0) == NULL, "no values is refused");

	fp = open_memstream(&sv, &len);
	is_int(plot_write_svg(fp, "a<b", good, 6, "v6.1 & co", bad, 4, "new"), 0, "svg written");
	fclose(fp);
	ok(strstr(sv, "a&lt;b") && strstr(sv, "v6.1 &amp; co"), "svg text is escaped");
	is_int(count(sv, 'M') >= 6 * 4, 1, "a star per good run");
	ok(strstr(sv, "</svg>\n") != NULL, "svg closed");
	ok(strstr(sv, "<text id=\"ytitle\"") && strstr(sv, ">a&lt;b</text>\n<text id=\"xtitle\"") &&
	   strstr(sv, ">run (each set"), "axis titles: the key up the y axis, runs along x");
	{
		/* every tic label is a multiple of one round step: 1, 2 or 5 times 10^k */
		const char *q = sv;
		double prev = NAN, step = NAN, v;
		int n = 0;
		bool round = true;

		while ((q = strstr(q, "class=\"yticlabel\""))) {
			q = strchr(q, '>') + 1;
			v = strtod(q, NULL);
			if (n == 1)
				step = v - prev;
			else if (n > 1)
				round &= fabs(v - prev - step) < step * 1e-9;
			prev = v;
			n++;
		}
		if (n > 1) {
			double m = step / pow(10, floor(log10(step)));

			round &= fabs(m - 1) < 1e-9 || fabs(m - 2) < 1e-9 || fabs(m - 5) < 1e-9;
			round &= fabs(fmod(prev, step)) < step * 1e-6 ||
				 fabs(fmod(prev, step) - step) < step * 1e-6;
		}
		ok(n >= 3 && round, "%d y tics, a round step of %g, at multiples of it", n, step);
	}
	free(sv);
	return done_testing();
}
