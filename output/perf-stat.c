// SPDX-License-Identifier: GPL-2.0
/*
 * perf-stat.c - LKP's perf-stat keys from a series of interval counts, exactly as
 * programs/perf-stat/parse and lib/matrix.rb derive them (see docs/stat.md):
 *
 *   perf-stat.i.<ev>        mean over accepted intervals of count / interval length
 *   perf-stat.i.<derived>   mean over accepted intervals of the per-interval ratio, divided by
 *                           the number of accepted intervals even where it was skipped
 *   perf-stat.ps.<ev>       sum of accepted counts / run time (run time ends at the last
 *                           interval printed, even when that interval is dropped)
 *   perf-stat.overall.<derived>  ratios of the sums
 *   perf-stat.total.instructions
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/output.h"

/* Value of event @name in @vals, or NAN when absent. */
static double value_of(const struct perf_stat_series *s, const double *vals, const char *name)
{
	for (size_t e = 0; e < s->nr_events; e++)
		if (!strcmp(s->events[e], name))
			return vals[e];
	return NAN;
}

static bool usable(double v)
{
	return !isnan(v) && v != 0;
}

struct derived_sink {
	const char	*prefix;	/* "i." or "overall." */
	perf_stat_emit_fn emit;
	void		*arg;
	int		ret;
};

static void put(struct derived_sink *d, const char *name, double v)
{
	char key[256];

	if (d->ret)
		return;
	snprintf(key, sizeof(key), "perf-stat.%s%s", d->prefix, name);
	d->ret = d->emit(d->arg, key, v);
}

/* <stem>-misses -> <stem>-miss-rate%: the first usable of <stem>s, -references, -instructions. */
static void miss_rate(const struct perf_stat_series *s, const double *vals, const char *ev,
		      struct derived_sink *d)
{
	size_t len = strlen(ev), stem_len = len - strlen("-misses");
	double misses = value_of(s, vals, ev), other;
	char name[200], stem[160];

	if (len <= strlen("-misses") || strcmp(ev + stem_len, "-misses") || stem_len >= 150 ||
	    isnan(misses))
		return;
	memcpy(stem, ev, stem_len);
	stem[stem_len] = '\0';
	snprintf(name, sizeof(name), "%s-miss-rate%%", stem);
	snprintf(stem + stem_len, sizeof(stem) - stem_len, "s");
	other = value_of(s, vals, stem);
	if (usable(other)) {
		if (other + misses != 0)
			put(d, name, misses * 100 / (other + misses));
		return;
	}
	stem[stem_len] = '\0';
	snprintf(stem + stem_len, sizeof(stem) - stem_len, "-references");
	other = value_of(s, vals, stem);
	if (usable(other)) {
		put(d, name, misses * 100 / other);
		return;
	}
	stem[stem_len] = '\0';
	snprintf(stem + stem_len, sizeof(stem) - stem_len, "-instructions");
	other = value_of(s, vals, stem);
	if (usable(other))
		put(d, name, misses * 100 / other);
}

int perf_stat_derive(const struct perf_stat_series *s, const double *vals, const char *prefix,
		     perf_stat_emit_fn emit, void *arg)
{
	struct derived_sink d = { .prefix = prefix, .emit = emit, .arg = arg };
	double cycles = value_of(s, vals, "cpu-cycles");
	double instr = value_of(s, vals, "instructions");
	double cmiss = value_of(s, vals, "cache-misses");
	double itlb = value_of(s, vals, "iTLB-load-misses");

	for (size_t e = 0; e < s->nr_events; e++)
		miss_rate(s, vals, s->events[e], &d);
	if (usable(itlb) && !isnan(instr))
		put(&d, "instructions-per-iTLB-miss", instr / itlb);
	if (usable(cmiss) && !isnan(cycles))
		put(&d, "cycles-between-cache-misses", cycles / cmiss);
	if (usable(cmiss) && usable(instr))
		put(&d, "MPKI", cmiss / instr * 1000);
	if (!isnan(cycles) && usable(instr)) {
		if (cycles != 0)
			put(&d, "ipc", instr / cycles);
		put(&d, "cpi", cycles / instr);
	}
	return d.ret;
}

/* Collects the per-interval derived values to average them the way lib/matrix.rb does. */
struct mean_acc {
	char		**keys;
	double		*sums;
	size_t		nr;
	int		ret;
};

static int acc_add(void *arg, const char *key, double v)
{
	struct mean_acc *a = arg;

	for (size_t i = 0; i < a->nr; i++)
		if (!strcmp(a->keys[i], key)) {
			a->sums[i] += v;
			return 0;
		}
	char **keys = realloc(a->keys, (a->nr + 1) * sizeof(*keys));

	if (!keys)
		return -ENOMEM;
	a->keys = keys;
	double *sums = realloc(a->sums, (a->nr + 1) * sizeof(*sums));

	if (!sums)
		return -ENOMEM;
	a->sums = sums;
	a->keys[a->nr] = strdup(key);
	if (!a->keys[a->nr])
		return -ENOMEM;
	a->sums[a->nr++] = v;
	return 0;
}

static void acc_release(struct mean_acc *a)
{
	for (size_t i = 0; i < a->nr; i++)
		free(a->keys[i]);
	free(a->keys);
	free(a->sums);
}

int perf_stat_keys(const struct perf_stat_series *s, perf_stat_emit_fn emit, void *arg)
{
	size_t n = s->nr_intervals, accepted = s->drop_last && n > 1 ? n - 1 : n;
	double *vals = calloc(s->nr_events ? s->nr_events : 1, sizeof(*vals));
	double *sums = calloc(s->nr_events ? s->nr_events : 1, sizeof(*sums));
	struct mean_acc acc = { 0 };
	double run_time = n ? s->t_end[n - 1] : 0;
	char key[256];
	int ret = vals && sums ? 0 : -ENOMEM;

	for (size_t e = 0; e < s->nr_events; e++)
		sums[e] = NAN;
	for (size_t i = 0; i < accepted && !ret; i++) {
		double len = s->t_end[i] - (i ? s->t_end[i - 1] : 0);
		const double *c = s->counts + i * s->nr_events;

		for (size_t e = 0; e < s->nr_events && !ret; e++) {
			if (isnan(c[e]))
				continue;
			sums[e] = isnan(sums[e]) ? c[e] : sums[e] + c[e];
			snprintf(key, sizeof(key), "perf-stat.i.%s", s->events[e]);
			if (len > 0)
				ret = acc_add(&acc, key, c[e] / len);
		}
		if (!ret)
			ret = perf_stat_derive(s, c, "i.", acc_add, &acc);
	}
	/* Every i. key is averaged over all accepted intervals (matrix.rb's N_cols). */
	for (size_t k = 0; k < acc.nr && !ret; k++)
		ret = emit(arg, acc.keys[k], acc.sums[k] / (double)accepted);
	for (size_t e = 0; e < s->nr_events && !ret && run_time > 0; e++) {
		if (isnan(sums[e]))
			continue;
		snprintf(key, sizeof(key), "perf-stat.ps.%s", s->events[e]);
		ret = emit(arg, key, sums[e] / run_time);
	}
	if (!ret && accepted) {
		double instr = value_of(s, sums, "instructions");

		if (!isnan(instr))
			ret = emit(arg, "perf-stat.total.instructions", instr);
	}
	if (!ret && accepted)
		ret = perf_stat_derive(s, sums, "overall.", emit, arg);
	acc_release(&acc);
	free(vals);
	free(sums);
	return ret;
}
