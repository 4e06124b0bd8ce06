// SPDX-License-Identifier: GPL-2.0
/*
 * monitor.c - LKP's default monitors for one run, sampled once a second by `kprof run`:
 * proc-vmstat, vmstat.system.{in,cs}, mpstat.cpu.all.*% and meminfo, each reduced to one
 * number per run the way lib/matrix.rb does: event counters last - first, the rest the mean
 * over the samples (../shared/spec/lkp-metrics.md §4.4).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "profiler/run/run.h"

/* etc/event-counter-prefixes, the proc-vmstat part: these are counters (last - first). */
static const char *const vmstat_counter_prefixes[] = {
	"allocstall", "compact_", "htlb_buddy_alloc_", "kswapd_", "nr_dirtied", "nr_promoted",
	"nr_promote_fail", "nr_promote_isolate_fail", "nr_promote_ratelimit",
	"nr_vmscan_immediate_reclaim", "nr_written", "numa_", "pageoutrun", "pg", "pswp",
	"slabs_scanned", "thp_", "unevictable_pgs_", "zone_reclaim_failed",
};

struct series {
	char	*name;
	double	first, last, sum, max;
	size_t	n;
};

struct series_set {
	struct series	*s;
	size_t		nr, alloc;
};

/* /proc/stat fields mpstat uses, in file order after "cpu". */
enum { ST_USER, ST_NICE, ST_SYSTEM, ST_IDLE, ST_IOWAIT, ST_IRQ, ST_SOFTIRQ, ST_STEAL, ST_GUEST,
       ST_GUEST_NICE, NR_ST };

struct stat_snap {
	unsigned long long	cpu[NR_ST];
	unsigned long long	intr, ctxt;
	double			t;
	bool			valid;
};

struct monitor {
	struct series_set	vmstat, meminfo, rates;	/* rates: per interval */
	struct stat_snap	prev;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static struct series *series_find(struct series_set *set, const char *name, size_t hint)
{
	struct series *s;

	if (hint < set->nr && !strcmp(set->s[hint].name, name))
		return &set->s[hint];
	for (size_t i = 0; i < set->nr; i++)
		if (!strcmp(set->s[i].name, name))
			return &set->s[i];
	if (set->nr == set->alloc) {
		size_t alloc = set->alloc ? set->alloc * 2 : 64;

		s = realloc(set->s, alloc * sizeof(*s));
		if (!s)
			return NULL;
		set->s = s;
		set->alloc = alloc;
	}
	s = &set->s[set->nr];
	*s = (struct series){ .name = strdup(name) };
	if (!s->name)
		return NULL;
	set->nr++;
	return s;
}

static int series_add(struct series_set *set, const char *name, size_t hint, double v)
{
	struct series *s = series_find(set, name, hint);

	if (!s)
		return -ENOMEM;
	if (!s->n)
		s->first = s->max = v;
	s->last = v;
	s->sum += v;
	if (v > s->max)
		s->max = v;
	s->n++;
	return 0;
}

static void series_release(struct series_set *set)
{
	for (size_t i = 0; i < set->nr; i++)
		free(set->s[i].name);
	free(set->s);
}

/* "name value" (vmstat) or "Name:   value kB" (meminfo) lines. */
static int sample_kv_file(const char *path, struct series_set *set, double *memused)
{
	char line[256], name[128];
	unsigned long long v;
	double total = -1, free_kb = -1;
	size_t idx = 0;
	int ret = 0;
	FILE *fp = fopen(path, "re");

	if (!fp)
		return -errno;
	while (!ret && fgets(line, sizeof(line), fp)) {
		if (sscanf(line, "%127[^: ]%*[: ]%llu", name, &v) != 2)
			continue;
		ret = series_add(set, name, idx++, (double)v);
		if (!strcmp(name, "MemTotal"))
			total = (double)v;
		else if (!strcmp(name, "MemFree"))
			free_kb = (double)v;
	}
	fclose(fp);
	if (!ret && memused && total >= 0 && free_kb >= 0)
		*memused = total - free_kb;
	return ret;
}

static int read_stat(struct stat_snap *s)
{
	char line[1024];
	FILE *fp = fopen("/proc/stat", "re");

	if (!fp)
		return -errno;
	memset(s, 0, sizeof(*s));
	while (fgets(line, sizeof(line), fp)) {
		unsigned long long *c = s->cpu;

		if (!strncmp(line, "cpu ", 4))
			sscanf(line + 4, "%llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
			       &c[0], &c[1], &c[2], &c[3], &c[4], &c[5], &c[6], &c[7], &c[8],
			       &c[9]);
		else if (!strncmp(line, "intr ", 5))
			s->intr = strtoull(line + 5, NULL, 10);
		else if (!strncmp(line, "ctxt ", 5))
			s->ctxt = strtoull(line + 5, NULL, 10);
	}
	fclose(fp);
	s->t = now_s();
	s->valid = true;
	return 0;
}

/* One mpstat/vmstat interval from two /proc/stat snapshots. */
static int add_interval(struct monitor *m, const struct stat_snap *a, const struct stat_snap *b)
{
	static const char *const names[] = {
		"mpstat.cpu.all.usr%", "mpstat.cpu.all.nice%", "mpstat.cpu.all.sys%",
		"mpstat.cpu.all.idle%", "mpstat.cpu.all.iowait%", "mpstat.cpu.all.irq%",
		"mpstat.cpu.all.soft%", "mpstat.cpu.all.steal%", "mpstat.cpu.all.guest%",
		"mpstat.cpu.all.gnice%",
	};
	double d[NR_ST], total = 0, dt = b->t - a->t;
	int ret = 0;

	for (int i = 0; i < NR_ST; i++)
		d[i] = b->cpu[i] >= a->cpu[i] ? (double)(b->cpu[i] - a->cpu[i]) : 0;
	/* guest time is already inside user and nice; mpstat reports it apart */
	d[ST_USER] -= d[ST_GUEST] <= d[ST_USER] ? d[ST_GUEST] : d[ST_USER];
	d[ST_NICE] -= d[ST_GUEST_NICE] <= d[ST_NICE] ? d[ST_GUEST_NICE] : d[ST_NICE];
	for (int i = 0; i < NR_ST; i++)
		total += d[i];
	if (total <= 0 || dt <= 0)
		return 0;
	for (int i = 0; !ret && i < NR_ST; i++)
		ret = series_add(&m->rates, names[i], (size_t)i, 100.0 * d[i] / total);
	if (!ret)
		ret = series_add(&m->rates, "vmstat.system.in", NR_ST,
				 (double)(b->intr - a->intr) / dt);
	if (!ret)
		ret = series_add(&m->rates, "vmstat.system.cs", NR_ST + 1,
				 (double)(b->ctxt - a->ctxt) / dt);
	return ret;
}

struct monitor *monitor_new(void)
{
	return calloc(1, sizeof(struct monitor));
}

int monitor_sample(struct monitor *m)
{
	struct stat_snap cur;
	double memused = -1;
	int ret;

	ret = sample_kv_file("/proc/vmstat", &m->vmstat, NULL);
	if (!ret)
		ret = sample_kv_file("/proc/meminfo", &m->meminfo, &memused);
	if (!ret && memused >= 0)
		ret = series_add(&m->meminfo, "Memused", SIZE_MAX, memused);
	if (!ret)
		ret = read_stat(&cur);
	if (ret)
		return ret;
	if (m->prev.valid)
		ret = add_interval(m, &m->prev, &cur);
	m->prev = cur;
	return ret;
}

static bool vmstat_is_counter(const char *name)
{
	for (size_t i = 0; i < sizeof(vmstat_counter_prefixes) / sizeof(char *); i++)
		if (!strncmp(name, vmstat_counter_prefixes[i],
			     strlen(vmstat_counter_prefixes[i])))
			return true;
	return false;
}

static double mean(const struct series *s)
{
	return s->n ? s->sum / (double)s->n : 0;
}

int monitor_metrics(const struct monitor *m, struct wl_metrics *out)
{
	char key[200];
	int ret = 0;

	for (size_t i = 0; !ret && i < m->vmstat.nr; i++) {
		const struct series *s = &m->vmstat.s[i];

		snprintf(key, sizeof(key), "proc-vmstat.%s", s->name);
		ret = wl_metrics_set(out, key, vmstat_is_counter(s->name) ? s->last - s->first
									   : mean(s));
	}
	for (size_t i = 0; !ret && i < m->meminfo.nr; i++) {
		const struct series *s = &m->meminfo.s[i];

		snprintf(key, sizeof(key), "meminfo.%s", s->name);
		ret = wl_metrics_set(out, key, mean(s));
		if (!ret && !strcmp(s->name, "Memused"))
			ret = wl_metrics_set(out, "meminfo.max_used_kB", s->max);
	}
	for (size_t i = 0; !ret && i < m->rates.nr; i++)
		ret = wl_metrics_set(out, m->rates.s[i].name, mean(&m->rates.s[i]));
	return ret;
}

void monitor_free(struct monitor *m)
{
	if (!m)
		return;
	series_release(&m->vmstat);
	series_release(&m->meminfo);
	series_release(&m->rates);
	free(m);
}
