// SPDX-License-Identifier: GPL-2.0
/*
 * compare-html.c - `kprof compare --html`: the regression report as one self-contained page
 * that works offline. LKP's table of the rows `compare` lists (every cell formatted as the text
 * table formats it, p-values and significance marks as --stats gives them, columns sortable),
 * the per-run values of each listed metric as inline SVG plots (plot_write_svg), the
 * perf-profile rows whose share moved most, and the differential flame graph of the two sets
 * embedded as a data: URL in an iframe, so its own script (hover, search, zoom) runs as in the
 * .svg file. No external resource: no network, no font, no library.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/output.h"

/* Text into HTML (element content or a quoted attribute). */
static void put_html(FILE *fp, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", fp); break;
		case '>': fputs("&gt;", fp); break;
		case '&': fputs("&amp;", fp); break;
		case '"': fputs("&quot;", fp); break;
		default: fputc(*s, fp);
		}
	}
}

/* A formatted LKP field, trimmed of the padding that aligns the text table. */
static void put_field(FILE *fp, const char *buf)
{
	size_t n;

	while (*buf == ' ')
		buf++;
	for (n = strlen(buf); n && buf[n - 1] == ' '; n--)
		;
	fwrite(buf, 1, n, fp);	/* digits, signs, '%' and '±': nothing to escape */
}

static void put_base64(FILE *fp, const unsigned char *p, size_t len)
{
	static const char tab[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

	for (size_t i = 0; i < len; i += 3) {
		unsigned v = (unsigned)p[i] << 16;
		size_t n = len - i;

		if (n > 1)
			v |= (unsigned)p[i + 1] << 8;
		if (n > 2)
			v |= p[i + 2];
		fputc(tab[v >> 18 & 63], fp);
		fputc(tab[v >> 12 & 63], fp);
		fputc(n > 1 ? tab[v >> 6 & 63] : '=', fp);
		fputc(n > 2 ? tab[v & 63] : '=', fp);
	}
}

static const char style[] =
	"body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}"
	"h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em;border-bottom:1px solid #ccc}"
	"table{border-collapse:collapse;font:12px/1.3 monospace}"
	"th,td{padding:2px 8px;text-align:right;border-bottom:1px solid #eee;white-space:nowrap}"
	"th{cursor:pointer;background:#f4f4f4;position:sticky;top:0;user-select:none}"
	"th[aria-sort=ascending]::after{content:' \\25b2'}"
	"th[aria-sort=descending]::after{content:' \\25bc'}"
	"td.key,th.key{text-align:left}td.up{color:#b00}td.down{color:#05a}"
	"tr.noise td{color:#999}td.mark{text-align:center;font-weight:bold}"
	".plots{display:flex;flex-wrap:wrap;gap:8px}.plots figure{margin:0}"
	".plots figcaption{font:12px monospace;max-width:480px;overflow-wrap:anywhere}"
	"iframe{width:100%;border:1px solid #ccc}.note{color:#666}";

/* Sorting by a header click: numbers by data-v, text by content; a second click reverses. */
static const char script[] =
	"'use strict';\n"
	"document.querySelectorAll('table.sortable').forEach(function (t) {\n"
	"  t.querySelectorAll('th').forEach(function (th, col) {\n"
	"    th.addEventListener('click', function () {\n"
	"      var desc = th.getAttribute('aria-sort') !== 'descending';\n"
	"      t.querySelectorAll('th').forEach(function (h) { h.removeAttribute('aria-sort'); });\n"
	"      th.setAttribute('aria-sort', desc ? 'descending' : 'ascending');\n"
	"      var body = t.tBodies[0], rows = Array.prototype.slice.call(body.rows);\n"
	"      var num = th.dataset.type === 'num';\n"
	"      function val(r) {\n"
	"        var c = r.cells[col];\n"
	"        if (!num) return c.textContent;\n"
	"        var v = parseFloat(c.dataset.v);\n"
	"        return isNaN(v) ? -Infinity : v;\n"
	"      }\n"
	"      rows.sort(function (a, b) {\n"
	"        var x = val(a), y = val(b), r = x < y ? -1 : x > y ? 1 : 0;\n"
	"        return desc ? -r : r;\n"
	"      });\n"
	"      rows.forEach(function (r) { body.appendChild(r); });\n"
	"    });\n"
	"  });\n"
	"});\n";

static void put_num_attr(FILE *fp, double v)
{
	char buf[64];

	json_format_number(buf, sizeof(buf), v);
	fprintf(fp, " data-v=\"%s\"", isfinite(v) ? buf : "");
}

static void put_th(FILE *fp, const char *text, bool num, const char *cls)
{
	fprintf(fp, "<th%s%s%s%s>", num ? " data-type=\"num\"" : "", cls ? " class=\"" : "",
		cls ? cls : "", cls ? "\"" : "");
	put_html(fp, text);
	fputs("</th>", fp);
}

static void write_lkp_head(FILE *fp, const struct compare_result *r)
{
	char buf[256];

	fputs("<thead><tr>", fp);
	for (size_t c = 0; c < r->nr_cols; c++) {
		if (c) {
			snprintf(buf, sizeof(buf), "%%change %s", r->cols[c].label);
			put_th(fp, buf, true, NULL);
			snprintf(buf, sizeof(buf), "p %s", r->cols[c].label);
			put_th(fp, buf, true, NULL);
		}
		put_th(fp, r->cols[c].label, true, NULL);
		snprintf(buf, sizeof(buf), "%%stddev %s", r->cols[c].label);
		put_th(fp, buf, true, NULL);
	}
	put_th(fp, "mark", false, NULL);
	put_th(fp, "metric", false, "key");
	fputs("</tr></thead>\n", fp);
}

/* One row: the text table's fields, with the raw numbers in data-v for sorting. */
static void write_lkp_row(FILE *fp, const struct compare_result *r, const struct compare_row *row,
			  const struct compare_opts *o)
{
	char mark = ' ', buf[64];

	for (size_t c = 1; c < r->nr_cols; c++) {
		if (isnan(row->cells[c].p) && mark == ' ')
			mark = '?';
		else if (!isnan(row->cells[c].p) && row->cells[c].p >= o->alpha)
			mark = '~';
	}
	fprintf(fp, "<tr class=\"%s\">", mark == '~' ? "noise" : "sig");
	for (size_t c = 0; c < r->nr_cols; c++) {
		const struct compare_cell *cell = &row->cells[c];

		if (c) {
			fprintf(fp, "<td class=\"%s\"", cell->change > 0 ? "up" :
				cell->change < 0 ? "down" : "");
			put_num_attr(fp, cell->change);
			lkp_fmt_change(buf, sizeof(buf), cell->change, row->absolute);
			fputc('>', fp);
			put_field(fp, buf);
			fputs("</td><td", fp);
			put_num_attr(fp, cell->p);
			fputc('>', fp);
			if (isnan(cell->p))
				fputs("n/a", fp);
			else
				fprintf(fp, "%.3g", cell->p);
			fputs("</td>", fp);
		}
		fputs("<td", fp);
		put_num_attr(fp, cell->mean);
		fputc('>', fp);
		lkp_fmt_mean(buf, sizeof(buf), cell->mean);
		put_field(fp, buf);
		fputs("</td><td", fp);
		put_num_attr(fp, cell->stddev < 0 ? NAN : fabs(cell->rel_stddev));
		fputc('>', fp);
		lkp_fmt_stddev(buf, sizeof(buf), cell->mean, cell->stddev);
		/* LKP leaves small deviations blank; the page shows them, greyed */
		if (buf[strspn(buf, " ")] || cell->stddev < 0)
			put_field(fp, buf);
		else
			fprintf(fp, "<small>\xc2\xb1%.1f%%</small>", fabs(cell->rel_stddev));
		fputs("</td>", fp);
	}
	fprintf(fp, "<td class=\"mark\">%c</td><td class=\"key\">", mark);
	put_html(fp, row->key);
	fputs("</td></tr>\n", fp);
}

/* The present values of set @c for @row into @v (nr_runs room); their count. */
static size_t run_values(const struct compare_result *r, const struct compare_row *row, size_t c,
			 double *v)
{
	const struct matrix_row *mr = row->cells[c].row;
	size_t n = 0;

	for (size_t i = 0; mr && i < r->cols[c].m->nr_runs; i++)
		if (mr->present[i])
			v[n++] = mr->v[i];
	return n;
}

/* plot_write_svg()'s document without its XML declaration, inline. */
static int write_plot(FILE *fp, const struct compare_result *r, const struct compare_row *row,
		      size_t c)
{
	size_t na = r->cols[0].m->nr_runs, nb = r->cols[c].m->nr_runs, len = 0;
	double *a = calloc(na + 1, sizeof(*a)), *b = calloc(nb + 1, sizeof(*b));
	char *svg = NULL, *start;
	FILE *mem;
	int ret = -ENOMEM;

	if (!a || !b || !(mem = open_memstream(&svg, &len)))
		goto out;
	na = run_values(r, row, 0, a);
	nb = run_values(r, row, c, b);
	ret = plot_write_svg(mem, row->key, a, na, r->cols[0].label, b, nb, r->cols[c].label);
	if (fclose(mem) && !ret)
		ret = -EIO;
	if (ret || !svg)
		goto out;
	start = strstr(svg, "<svg");
	fputs("<figure>", fp);
	fputs(start ? start : svg, fp);
	fputs("<figcaption>", fp);
	put_html(fp, row->key);
	fputs("</figcaption></figure>\n", fp);
out:
	free(svg);
	free(a);
	free(b);
	return ret;
}

struct pp_rank {
	const struct compare_row	*row;
	double				score;
};

static int pp_rank_cmp(const void *x, const void *y)
{
	const struct pp_rank *a = x, *b = y;

	if (a->score != b->score)
		return a->score > b->score ? -1 : 1;
	return strcmp(a->row->key, b->row->key);
}

/* perf-profile rows by the largest |change| in points against the base, as --perf-profile. */
static int write_perf_profile(FILE *fp, const struct compare_result *r, size_t top)
{
	struct pp_rank *v = calloc(r->nr_rows + 1, sizeof(*v));
	size_t n = 0;

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < r->nr_rows; i++) {
		double m = 0;

		if (strncmp(r->rows[i].key, "perf-profile.", 13))
			continue;
		for (size_t c = 1; c < r->nr_cols; c++)
			m = fmax(m, fabs(r->rows[i].cells[c].change));
		v[n++] = (struct pp_rank){ &r->rows[i], m };
	}
	qsort(v, n, sizeof(*v), pp_rank_cmp);
	if (n > top)
		n = top;
	if (!n) {
		fputs("<p class=\"note\">No perf-profile metrics in these sets.</p>\n", fp);
		free(v);
		return 0;
	}
	fprintf(fp, "<p>The %zu perf-profile shares (%% of all resolved samples) that moved most, "
		"in percentage points against the base.</p>\n", n);
	fputs("<table id=\"perf-profile\" class=\"sortable\"><thead><tr>", fp);
	put_th(fp, r->cols[0].label, true, NULL);
	for (size_t c = 1; c < r->nr_cols; c++) {
		put_th(fp, r->cols[c].label, true, NULL);
		put_th(fp, "change", true, NULL);
	}
	put_th(fp, "perf-profile key", false, "key");
	fputs("</tr></thead><tbody>\n", fp);
	for (size_t i = 0; i < n; i++) {
		const struct compare_row *row = v[i].row;

		fputs("<tr>", fp);
		for (size_t c = 0; c < r->nr_cols; c++) {
			fputs("<td", fp);
			put_num_attr(fp, row->cells[c].mean);
			fprintf(fp, ">%.2f</td>", row->cells[c].mean);
			if (c) {
				fprintf(fp, "<td class=\"%s\"", row->cells[c].change > 0 ? "up" :
					row->cells[c].change < 0 ? "down" : "");
				put_num_attr(fp, row->cells[c].change);
				fprintf(fp, ">%+.2f</td>", row->cells[c].change);
			}
		}
		fputs("<td class=\"key\">", fp);
		put_html(fp, row->key);
		fputs("</td></tr>\n", fp);
	}
	fputs("</tbody></table>\n", fp);
	free(v);
	return 0;
}

/* The flame graph's own height, so that the frame shows it whole. */
static unsigned svg_height(const char *svg, size_t len)
{
	const char *tag = memmem(svg, len < 4096 ? len : 4096, "<svg", 4);
	const char *h = tag ? strstr(tag, " height=\"") : NULL;
	unsigned v = h ? (unsigned)strtoul(h + 9, NULL, 10) : 0;

	return v ? v + 20 : 600;
}

static void write_flamegraph(FILE *fp, const struct compare_html_opts *h)
{
	if (!h->diff_svg) {
		fputs("<p class=\"note\">", fp);
		put_html(fp, h->diff_note ? h->diff_note : "No profiles in these sets.");
		fputs("</p>\n", fp);
		return;
	}
	fputs("<p>Widths: the new set's profile; colours: the change of each frame's share "
		"(red grew, blue shrank). Hover, click to zoom, search as in the .svg.</p>\n", fp);
	fprintf(fp, "<iframe id=\"diff-flamegraph\" title=\"differential flame graph\" "
		"height=\"%u\" src=\"data:image/svg+xml;base64,", svg_height(h->diff_svg,
									h->diff_svg_len));
	put_base64(fp, (const unsigned char *)h->diff_svg, h->diff_svg_len);
	fputs("\"></iframe>\n", fp);
}

int compare_write_html(FILE *fp, const struct compare_result *r, const struct compare_opts *o,
		       const struct compare_html_opts *h)
{
	size_t listed = r->nr_listed, plots = 0;
	int ret = 0;

	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>", fp);
	fputs("kprof compare: ", fp);
	for (size_t c = 0; c < r->nr_cols; c++) {
		fputs(c ? " vs " : "", fp);
		put_html(fp, r->cols[c].label);
	}
	fprintf(fp, "</title>\n<style>%s</style></head><body>\n<h1>", style);
	for (size_t c = 0; c < r->nr_cols; c++) {
		fputs(c ? " vs " : "", fp);
		put_html(fp, r->cols[c].label);
	}
	fputs("</h1>\n<ul id=\"sets\">\n", fp);
	for (size_t c = 0; c < r->nr_cols; c++) {
		fputs("<li>", fp);
		put_html(fp, r->cols[c].label);
		fprintf(fp, ": %zu run%s, ", r->cols[c].m->nr_runs,
			r->cols[c].m->nr_runs == 1 ? "" : "s");
		put_html(fp, r->cols[c].path ? r->cols[c].path : "");
		fputs(c ? "</li>\n" : " (base)</li>\n", fp);
	}
	fputs("</ul>\n", fp);
	if (o->axis_keys && o->axis_values) {
		fputs("<p>", fp);
		put_html(fp, o->axis_keys);
		fputs(": ", fp);
		put_html(fp, o->axis_values);
		fputs("</p>\n", fp);
	}

	fprintf(fp, "<h2>Changed metrics (LKP's rules)</h2>\n<p>%zu row%s, as <code>kprof "
		"compare</code> lists them. p: Welch's t-test against the base; mark "
		"<b>~</b>: p &ge; %g (the change may be noise), <b>?</b>: no p-value (fewer than 2 "
		"runs). Click a column to sort.</p>\n", listed, listed == 1 ? "" : "s", o->alpha);
	fputs("<table id=\"lkp\" class=\"sortable\">", fp);
	write_lkp_head(fp, r);
	fputs("<tbody>\n", fp);
	for (size_t i = 0; i < listed; i++)
		write_lkp_row(fp, r, &r->rows[i], o);
	fputs("</tbody></table>\n", fp);

	fputs("<h2>Per-run values</h2>\n<div class=\"plots\">\n", fp);
	for (size_t i = 0; !ret && i < listed && plots < h->max_plots; i++)
		for (size_t c = 1; !ret && c < r->nr_cols; c++, plots++)
			ret = write_plot(fp, r, &r->rows[i], c);
	fputs("</div>\n", fp);
	if (listed && plots < listed * (r->nr_cols - 1))
		fprintf(fp, "<p class=\"note\">Plots of the first %zu rows only.</p>\n", plots);

	fputs("<h2>Call-graph share changes</h2>\n", fp);
	if (!ret)
		ret = write_perf_profile(fp, r, h->top);
	fputs("<h2>Differential flame graph</h2>\n", fp);
	write_flamegraph(fp, h);
	fprintf(fp, "<script>\n%s</script>\n</body></html>\n", script);
	if (!ret && ferror(fp))
		ret = -EIO;
	return ret;
}
