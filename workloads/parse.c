// SPDX-License-Identifier: GPL-2.0
/*
 * parse.c - LKP's parsers for the workload logs, over plain text, so the same code reads a real
 * vm-scalability or aim9 log: programs/vm-scalability/parse (Ruby) and programs/aim9/parse
 * (awk), as described in ../shared/spec/lkp-metrics.md §4.1-4.2. The values are what LKP's
 * dump-stat reads back from the printed text, so the printf rounding (%d truncates, %g, %.2f)
 * is reproduced.
 */
#include <errno.h>
#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "workloads/wl-int.h"

/* A growable array of doubles. */
struct dvec {
	double	*v;
	size_t	nr, alloc;
};

static int dvec_push(struct dvec *d, double x)
{
	if (d->nr == d->alloc) {
		size_t alloc = d->alloc ? d->alloc * 2 : 32;
		double *v = realloc(d->v, alloc * sizeof(*v));

		if (!v)
			return -ENOMEM;
		d->v = v;
		d->alloc = alloc;
	}
	d->v[d->nr++] = x;
	return 0;
}

static double dvec_sum(const struct dvec *d)
{
	double s = 0;

	for (size_t i = 0; i < d->nr; i++)
		s += d->v[i];
	return s;
}

static double dvec_mean(const struct dvec *d)
{
	return d->nr ? dvec_sum(d) / (double)d->nr : NAN;
}

/* lib/statistics.rb: population standard deviation */
static double dvec_pstddev(const struct dvec *d)
{
	double mean = dvec_mean(d), s = 0;

	for (size_t i = 0; i < d->nr; i++)
		s += (d->v[i] - mean) * (d->v[i] - mean);
	return d->nr ? sqrt(s / (double)d->nr) : NAN;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Values as LKP's dump-stat reads them back from the parser's printf. */
static double printed(const char *fmt, double v)
{
	char buf[64];

	if (!strcmp(fmt, "%d"))
		return trunc(v);
	snprintf(buf, sizeof(buf), fmt, v);
	return strtod(buf, NULL);
}

static int put(struct kv_list *m, const char *key, const char *fmt, double v)
{
	if (!isfinite(v))	/* Ruby prints NaN/Infinity, which dump-stat drops */
		return 0;
	return kv_list_set(m, key, printed(fmt, v));
}

/* One series (normal or "_fault"): per-iteration throughput and median, and the open iteration. */
struct series {
	struct dvec	throughput, median, kbps;
};

/* Close an iteration: the sum and the upper median of the per-worker KB/s. */
static int close_sample(struct series *s, bool clear)
{
	double *sorted;
	int ret;

	if (!s->kbps.nr)
		return 0;
	sorted = malloc(s->kbps.nr * sizeof(*sorted));
	if (!sorted)
		return -ENOMEM;
	memcpy(sorted, s->kbps.v, s->kbps.nr * sizeof(*sorted));
	qsort(sorted, s->kbps.nr, sizeof(*sorted), cmp_double);
	ret = dvec_push(&s->throughput, dvec_sum(&s->kbps));
	if (!ret)
		ret = dvec_push(&s->median, sorted[s->kbps.nr / 2]);
	free(sorted);
	if (clear)
		s->kbps.nr = 0;
	return ret;
}

static int emit_series(const struct series *s, const char *sfx, struct kv_list *m)
{
	char k[64];
	double stddev;
	int ret;

	if (!s->throughput.nr)
		return 0;
	snprintf(k, sizeof(k), "throughput%s", sfx);
	ret = put(m, k, "%d", dvec_mean(&s->throughput));
	if (ret || !s->kbps.nr)		/* no per-worker values in the last iteration */
		return ret;
	if (s->throughput.nr > 1)
		stddev = 100 * dvec_pstddev(&s->throughput) / dvec_mean(&s->throughput);
	else	/* sic: n times the relative stddev of the last iteration's workers */
		stddev = 100 * dvec_pstddev(&s->kbps) * (double)s->kbps.nr / dvec_mean(&s->kbps);
	snprintf(k, sizeof(k), "stddev%s%%", sfx);
	ret = put(m, k, "%g", stddev);
	snprintf(k, sizeof(k), "median%s", sfx);
	if (!ret)
		ret = put(m, k, "%d", dvec_mean(&s->median));
	snprintf(k, sizeof(k), "median%s_stddev%%", sfx);
	if (!ret)
		ret = put(m, k, "%g", s->median.nr > 1 ?
			  100 * dvec_pstddev(&s->median) / dvec_mean(&s->median) : 0);
	return ret;
}

enum vms_line { L_USEMEM, L_DD, L_TRUNCATED, L_FAULTED, L_MIGRATED, L_REMAPPED, L_FREE, L_CASE,
		NR_LINES };

static const char *const vms_patterns[NR_LINES] = {
	[L_USEMEM]	= "^\\.*([0-9]+) bytes / ([0-9]+) usecs = ([0-9]+) KB.s",
	[L_DD]		= "^([0-9]+) bytes \\(.*\\) copied, ([0-9.e+-]+) s",
	[L_TRUNCATED]	= "([0-9]+) bytes truncated in ([0-9.]+)-([0-9.]+) seconds",
	[L_FAULTED]	= "([0-9]+) bytes faulted in ([0-9.]+)-([0-9.]+) seconds",
	[L_MIGRATED]	= "[0-9]+ \\* [0-9]+ bytes migrated, [0-9]+ usecs, ([0-9]+) MB/s",
	[L_REMAPPED]	= "([0-9]+) bytes remapped, ([0-9]+) usecs, ([0-9]+) MB/s",
	[L_FREE]	= "([0-9]+) usecs to free memory",
	[L_CASE]	= "\\./case-[a-z-]+",
};

static double num(const char *line, const regmatch_t *g)
{
	return strtod(line + g->rm_so, NULL);
}

struct vms_state {
	struct series	s, fault;
	struct dvec	free_secs;
	double		bytes;
	double		migrate_mbps;
	bool		migrated;
};

static int vms_line(struct vms_state *st, regex_t *re, const char *line)
{
	regmatch_t g[4];
	int t;

	for (t = 0; t < NR_LINES; t++)
		if (!regexec(&re[t], line, 4, g, 0))
			break;
	switch (t) {
	case L_USEMEM:
		st->bytes += num(line, &g[1]);
		return dvec_push(&st->s.kbps, num(line, &g[3]));
	case L_DD:
		st->bytes += num(line, &g[1]);
		return dvec_push(&st->s.kbps, floor(num(line, &g[1]) / 1024) / num(line, &g[2]));
	case L_TRUNCATED:
		st->bytes += num(line, &g[1]);
		return dvec_push(&st->s.kbps, floor(num(line, &g[1]) / 1024) /
				 (num(line, &g[2]) - num(line, &g[3])));
	case L_FAULTED:
		return dvec_push(&st->fault.kbps, floor(num(line, &g[1]) / 1024) /
				 (num(line, &g[2]) - num(line, &g[3])));
	case L_MIGRATED:	/* sic: the MB/s is added to the bytes */
		st->migrated = true;
		st->migrate_mbps = num(line, &g[1]);
		st->bytes += st->migrate_mbps;
		return 0;
	case L_REMAPPED:	/* integer division, as Ruby does on Integers */
		st->bytes += num(line, &g[1]);
		return dvec_push(&st->s.kbps, floor(num(line, &g[1]) /
						    floor(num(line, &g[2]) / 1024)));
	case L_FREE:
		return dvec_push(&st->free_secs, num(line, &g[1]) / 1e6);
	case L_CASE: {
		int ret = close_sample(&st->s, true);

		return ret ? ret : close_sample(&st->fault, true);
	}
	}
	return 0;
}

/* Call @fn for each line of @text (without its newline), as a NUL-terminated string. */
static int for_each_line(const char *text, size_t len, int (*fn)(const char *line, void *arg),
			 void *arg)
{
	char *line = NULL;
	size_t cap = 0;
	int ret = 0;

	for (size_t pos = 0; pos < len && !ret;) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;

		if (n + 1 > cap) {
			char *l = realloc(line, n + 1);

			if (!l) {
				ret = -ENOMEM;
				break;
			}
			line = l;
			cap = n + 1;
		}
		memcpy(line, text + pos, n);
		line[n] = '\0';
		ret = fn(line, arg);
		pos += n + 1;
	}
	free(line);
	return ret;
}

struct vms_ctx {
	struct vms_state	st;
	regex_t			re[NR_LINES];
};

static int vms_line_cb(const char *line, void *arg)
{
	struct vms_ctx *c = arg;

	return vms_line(&c->st, c->re, line);
}

static void series_release(struct series *s)
{
	free(s->throughput.v);
	free(s->median.v);
	free(s->kbps.v);
}

int vmscal_parse(const char *text, size_t len, struct kv_list *m)
{
	struct vms_ctx *c = calloc(1, sizeof(*c));
	int ret = 0, t;

	if (!c)
		return -ENOMEM;
	for (t = 0; t < NR_LINES; t++)
		if (regcomp(&c->re[t], vms_patterns[t], REG_EXTENDED)) {
			ret = -EINVAL;
			break;
		}
	if (!ret)
		ret = for_each_line(text, len, vms_line_cb, c);
	/* EOF closes the last iteration, keeping its per-worker values for stddev% */
	if (!ret)
		ret = close_sample(&c->st.s, false);
	if (!ret)
		ret = close_sample(&c->st.fault, false);
	if (!ret && c->st.migrated)
		ret = put(m, "migrate_mbps", "%d", c->st.migrate_mbps);
	if (!ret)
		ret = emit_series(&c->st.s, "", m);
	if (!ret && c->st.free_secs.nr && c->st.s.kbps.nr)
		ret = put(m, "free_time", "%g", dvec_mean(&c->st.free_secs));
	if (!ret && c->st.s.throughput.nr && c->st.s.kbps.nr)
		ret = put(m, "workload", "%.2f", c->st.bytes / 1024);
	if (!ret)
		ret = emit_series(&c->st.fault, "_fault", m);
	while (t-- > 0)
		regfree(&c->re[t]);
	series_release(&c->st.s);
	series_release(&c->st.fault);
	free(c->st.free_secs.v);
	free(c);
	return ret;
}

/* programs/aim9/parse: rows "<no> <test> <elapsed> <count> <rate> <ops/sec> <units>". */
struct aim9_ctx {
	regex_t			row;
	struct kv_list	*m;
};

static int aim9_line_cb(const char *line, void *arg)
{
	struct aim9_ctx *c = arg;
	char copy[512], key[300], *save = NULL, *f[7];
	int n = 0;

	snprintf(copy, sizeof(copy), "%s", line);
	for (char *tok = strtok_r(copy, " \t", &save); tok && n < 7;
	     tok = strtok_r(NULL, " \t", &save))
		f[n++] = tok;
	if (strstr(line, "Skipping") && n >= 2) {
		snprintf(key, sizeof(key), "%s.skip", f[1]);
		return kv_list_set(c->m, key, 1);
	}
	if (regexec(&c->row, line, 0, NULL, 0) || n < 6)
		return 0;
	{
		char *end;
		double v = strtod(f[5], &end);

		if (end == f[5] || *end)	/* dump-stat drops non-numeric values */
			return 0;
		snprintf(key, sizeof(key), "%s.ops_per_sec", f[1]);
		return kv_list_set(c->m, key, v);
	}
}

int aim9_parse(const char *text, size_t len, struct kv_list *m)
{
	struct aim9_ctx c = { .m = m };
	int ret;

	if (regcomp(&c.row, "^[ ]+[0-9]+.*[ ]+[0-9|.]+.*", REG_EXTENDED | REG_NOSUB))
		return -EINVAL;
	ret = for_each_line(text, len, aim9_line_cb, &c);
	regfree(&c.row);
	return ret;
}

/* Here, not in registry.c: the workload programs link the registry but never parse (no libm). */
int workload_parse_log(const struct workload *w, const char *text, size_t len,
		       struct kv_list *m)
{
	struct kv_list raw = { 0 };
	char key[256];
	int ret;

	ret = w->kind == WL_AIM9 ? aim9_parse(text, len, &raw) : vmscal_parse(text, len, &raw);
	for (size_t i = 0; !ret && i < raw.nr; i++) {
		snprintf(key, sizeof(key), "%s.%s", w->family, raw.items[i].key);
		ret = kv_list_set(m, key, raw.items[i].value);
	}
	kv_list_release(&raw);
	return ret;
}
