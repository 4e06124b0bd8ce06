// SPDX-License-Identifier: GPL-2.0
/*
 * monitor-sched.c - two of LKP's monitors that read kernel debug text (../shared/spec/
 * lkp-metrics.md §4.4):
 *
 *   sched_debug    /sys/kernel/debug/sched/debug (or /proc/sched_debug): per CPU, the
 *                  `  .field : value` lines of the cpu#N, cfs_rq[N]:/ (root group only; the
 *                  autogroups are skipped), rt_rq[N]: and dl_rq[N]: sections, reduced per
 *                  snapshot to sched_debug.<section>.<field>.{max,min,avg,stddev} across CPUs
 *                  (population stddev); LKP drops the per-CPU keys from its matrix.
 *   latency_stats  /proc/latency_stats (CONFIG_LATENCYTOP): "count total_us max_us frames..."
 *                  per back trace, keys latency_stats.{hits,sum,max,avg}.<first 5 frames>.
 *
 * Both parsers take the text and append keys; the monitor decides when to read.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profiler/run/run-int.h"

struct field_acc {
	char	*name;		/* "<section>.<field>" */
	double	sum, sumsq, min, max;
	size_t	n;
};

struct acc_set {
	struct field_acc	*v;
	size_t			nr, alloc;
};

static int acc_add(struct acc_set *s, const char *name, double v)
{
	struct field_acc *a = NULL;

	for (size_t i = s->nr; i-- > 0;)	/* fields repeat per CPU in the same order */
		if (!strcmp(s->v[i].name, name)) {
			a = &s->v[i];
			break;
		}
	if (!a) {
		if (s->nr == s->alloc) {
			size_t alloc = s->alloc ? 2 * s->alloc : 64;
			struct field_acc *nv = realloc(s->v, alloc * sizeof(*nv));

			if (!nv)
				return -ENOMEM;
			s->v = nv;
			s->alloc = alloc;
		}
		a = &s->v[s->nr];
		*a = (struct field_acc){ .name = strdup(name), .min = v, .max = v };
		if (!a->name)
			return -ENOMEM;
		s->nr++;
	}
	a->sum += v;
	a->sumsq += v * v;
	a->min = fmin(a->min, v);
	a->max = fmax(a->max, v);
	a->n++;
	return 0;
}

/* The section a header line opens, or NULL for one whose fields LKP does not keep. */
static const char *section_of(const char *line)
{
	int cpu, n = 0;

	if (sscanf(line, "cpu#%d,%n", &cpu, &n) == 1 && n)
		return "cpu";
	if (sscanf(line, "cfs_rq[%d]:/%n", &cpu, &n) == 1 && n &&
	    (line[n] == '\n' || line[n] == '\0'))
		return "cfs_rq:/";
	if (sscanf(line, "rt_rq[%d]:%n", &cpu, &n) == 1 && n)
		return "rt_rq:";
	if (sscanf(line, "dl_rq[%d]:%n", &cpu, &n) == 1 && n)
		return "dl_rq:";
	return NULL;
}

int sched_debug_parse(const char *text, struct kv_list *out)
{
	static const char *const stats[] = { "max", "min", "avg", "stddev" };
	struct acc_set set = { 0 };
	const char *section = NULL, *p = text;
	char line[512], name[256], key[320];
	int ret = 0;

	while (!ret && *p) {
		size_t len = strcspn(p, "\n");
		double v;
		char *end;

		snprintf(line, sizeof(line), "%.*s", (int)(len < sizeof(line) ? len : 511), p);
		p += len + (p[len] == '\n');
		if (line[0] && line[0] != ' ' && line[0] != '\t') {
			section = section_of(line);
			continue;
		}
		if (!section || sscanf(line, " .%255[^ :] :", name) != 1)
			continue;
		end = strchr(line, ':');
		/* "  .clock : 123.4" (a few names contain ':' themselves: not numbers, skipped) */
		v = strtod(end + 1, &end);
		if (end == strchr(line, ':') + 1 || (*end && *end != ' ' && *end != '\t'))
			continue;
		snprintf(key, sizeof(key), "%s.%s", section, name);
		ret = acc_add(&set, key, v);
	}
	for (size_t i = 0; !ret && i < set.nr; i++) {
		const struct field_acc *a = &set.v[i];
		double mean = a->sum / (double)a->n;
		double var = fmax(0, a->sumsq / (double)a->n - mean * mean);
		const double vals[] = { a->max, a->min, mean, sqrt(var) };

		for (size_t s = 0; !ret && s < 4; s++) {
			snprintf(key, sizeof(key), "sched_debug.%s.%s", a->name, stats[s]);
			ret = kv_list_set(out, key, vals[s]);
		}
	}
	for (size_t i = 0; i < set.nr; i++)
		free(set.v[i].name);
	free(set.v);
	return ret;
}

/* latency_stats.<what>.<chain> += @v (or max= with @max) */
static int merge(struct kv_list *out, const char *what, const char *chain, double v,
		 bool max)
{
	char key[800];
	const double *old;

	snprintf(key, sizeof(key), "latency_stats.%s.%s", what, chain);
	old = kv_list_get(out, key);
	if (old)
		v = max ? fmax(*old, v) : *old + v;
	return kv_list_set(out, key, v);
}

int latency_stats_parse(const char *text, struct kv_list *out)
{
	const char *p = text;
	char line[1024], chain[700], key[800];
	int ret = 0;

	while (!ret && *p) {
		size_t len = strcspn(p, "\n"), clen = 0;
		unsigned long long hits, sum, max;
		int n = 0, frames = 0;
		char *tok, *save = NULL;

		snprintf(line, sizeof(line), "%.*s", (int)(len < sizeof(line) ? len : 1023), p);
		p += len + (p[len] == '\n');
		if (sscanf(line, "%llu %llu %llu %n", &hits, &sum, &max, &n) != 3 || !n || !hits)
			continue;	/* the "Latency Top version" header, or nothing new */
		chain[0] = '\0';
		for (tok = strtok_r(line + n, " \t", &save); tok && frames < 5;
		     tok = strtok_r(NULL, " \t", &save), frames++)
			clen += (size_t)snprintf(chain + clen, sizeof(chain) - clen, "%s%s",
						 frames ? "." : "", tok);
		if (!frames)
			continue;
		ret = merge(out, "hits", chain, (double)hits, false);
		if (!ret)
			ret = merge(out, "sum", chain, (double)sum, false);
		if (!ret)
			ret = merge(out, "max", chain, (double)max, true);
	}
	/* avg = sum / hits of each (merged) chain */
	for (size_t i = 0, n = out->nr; !ret && i < n; i++) {
		const char *k = out->items[i].key;
		const double *sum;

		if (strncmp(k, "latency_stats.hits.", 19))
			continue;
		snprintf(key, sizeof(key), "latency_stats.sum.%s", k + 19);
		sum = kv_list_get(out, key);
		snprintf(key, sizeof(key), "latency_stats.avg.%s", k + 19);
		if (sum)
			ret = kv_list_set(out, key, *sum / out->items[i].value);
	}
	return ret;
}
