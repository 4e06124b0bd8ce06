// SPDX-License-Identifier: GPL-2.0
/*
 * monitor.c - LKP's default monitors for one run, sampled once a second by `kprof run`:
 * proc-vmstat, vmstat.system.{in,cs}, mpstat.cpu.all.*%, meminfo, numa-vmstat and numa-meminfo
 * (every node), sched_debug (every 60 s as LKP, so once for a short run; where readable) and
 * latency_stats (at the end, where the kernel has it), each reduced to one number per run the
 * way lib/matrix.rb does: event counters last - first, the rest the mean over the samples
 * (../shared/spec/lkp-metrics.md §4.4).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "profiler/lib/lib.h"
#include "profiler/run/run-int.h"

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

/* etc/event-counter-patterns for numa-vmstat: counters (last - first), the rest gauges */
static const char *const numa_counter_prefixes[] = { "numa_", "pg", "nr_dirtied", "nr_written" };

#define SCHED_DEBUG_INTERVAL	60.0	/* LKP's sched_debug monitor interval, seconds */
#define LATENCY_STATS		"/proc/latency_stats"

struct monitor {
	struct series_set	vmstat, meminfo, rates;	/* rates: per interval */
	struct series_set	numa_vmstat, numa_meminfo, sched;
	struct stat_snap	prev;
	double			sched_t;	/* time of the last sched_debug snapshot, or 0 */
	bool			latency_cleared;
};

static const char *const sched_debug_paths[] = { "/sys/kernel/debug/sched/debug",
						 "/proc/sched_debug" };

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
	if (dt <= 0)
		return 0;
	/*
	 * The CPU shares need a tick (10 ms) between the samples; interrupts and context switches
	 * are exact counts, a rate over any interval (a run of a few ms has no tick in it).
	 */
	for (int i = 0; !ret && total > 0 && i < NR_ST; i++)
		ret = series_add(&m->rates, names[i], (size_t)i, 100.0 * d[i] / total);
	if (!ret)
		ret = series_add(&m->rates, "vmstat.system.in", NR_ST,
				 (double)(b->intr - a->intr) / dt);
	if (!ret)
		ret = series_add(&m->rates, "vmstat.system.cs", NR_ST + 1,
				 (double)(b->ctxt - a->ctxt) / dt);
	return ret;
}

/* "nr_free_pages 123" lines of node<N>/vmstat, "Node N Field: 123 kB" of node<N>/meminfo. */
static int sample_node(struct monitor *m, const char *node)
{
	char path[300], line[256], name[128], key[400];
	unsigned long long v;
	size_t idx = 0;
	int ret = 0, id;
	FILE *fp;

	snprintf(path, sizeof(path), "/sys/devices/system/node/%s/vmstat", node);
	fp = fopen(path, "re");
	while (fp && !ret && fgets(line, sizeof(line), fp))
		if (sscanf(line, "%127s %llu", name, &v) == 2) {
			snprintf(key, sizeof(key), "%s.%s", node, name);
			ret = series_add(&m->numa_vmstat, key, idx++, (double)v);
		}
	if (fp)
		fclose(fp);
	snprintf(path, sizeof(path), "/sys/devices/system/node/%s/meminfo", node);
	fp = fopen(path, "re");
	idx = 0;
	while (fp && !ret && fgets(line, sizeof(line), fp))
		if (sscanf(line, "Node %d %127[^:]: %llu", &id, name, &v) == 3) {
			snprintf(key, sizeof(key), "node%d.%s", id, name);
			ret = series_add(&m->numa_meminfo, key, idx++, (double)v);
		}
	if (fp)
		fclose(fp);
	return ret;
}

static int sample_nodes(struct monitor *m)
{
	DIR *d = opendir("/sys/devices/system/node");
	struct dirent *de;
	int ret = 0;

	if (!d)
		return 0;	/* no NUMA sysfs: no numa-* keys, as LKP on such a kernel */
	while (!ret && (de = readdir(d)))
		if (!strncmp(de->d_name, "node", 4) && de->d_name[4] >= '0' &&
		    de->d_name[4] <= '9')
			ret = sample_node(m, de->d_name);
	closedir(d);
	return ret;
}

/* One sched_debug snapshot: its across-CPU statistics join the per-run means. */
static int sample_sched_debug(struct monitor *m, double now)
{
	static bool said;
	struct kv_list snap = { 0 };
	char *text = NULL;
	size_t len;
	int ret = -ENOENT;

	m->sched_t = now;
	for (size_t i = 0; ret && i < sizeof(sched_debug_paths) / sizeof(char *); i++)
		ret = read_whole_file(sched_debug_paths[i], 64 << 20, &text, &len);
	if (ret) {
		if (!said)
			pr_info("sched_debug: %s not readable (%s; debugfs not mounted?): no "
				"sched_debug keys", sched_debug_paths[0], strerror(-ret));
		said = true;
		return 0;
	}
	ret = sched_debug_parse(text, &snap);
	for (size_t i = 0; !ret && i < snap.nr; i++)
		ret = series_add(&m->sched, snap.items[i].key, i, snap.items[i].value);
	kv_list_release(&snap);
	free(text);
	return ret;
}

/* latency_stats counts since it was last cleared: clear it when the run starts. */
static void latency_stats_clear(struct monitor *m)
{
	static bool said;
	FILE *fp;

	m->latency_cleared = true;
	fp = fopen(LATENCY_STATS, "we");
	if (fp) {
		fputs("0\n", fp);	/* any write clears the table */
		fclose(fp);
	} else if (!said) {
		pr_info("latency_stats: %s: %s (the kernel needs CONFIG_LATENCYTOP and "
			"kernel.latencytop=1): no latency_stats keys", LATENCY_STATS,
			strerror(errno));
		said = true;
	}
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

	if (!m->latency_cleared)
		latency_stats_clear(m);
	ret = sample_kv_file("/proc/vmstat", &m->vmstat, NULL);
	if (!ret)
		ret = sample_nodes(m);
	if (!ret && (!m->sched_t || now_s() - m->sched_t >= SCHED_DEBUG_INTERVAL))
		ret = sample_sched_debug(m, now_s());
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

static bool has_prefix(const char *name, const char *const *prefixes, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

static bool vmstat_is_counter(const char *name)
{
	return has_prefix(name, vmstat_counter_prefixes,
			  sizeof(vmstat_counter_prefixes) / sizeof(char *));
}

/* numa-vmstat.node<N>.<field>: the counter patterns apply to the field */
static bool numa_vmstat_is_counter(const char *name)
{
	const char *dot = strchr(name, '.');

	return has_prefix(dot ? dot + 1 : name, numa_counter_prefixes,
			  sizeof(numa_counter_prefixes) / sizeof(char *));
}

/* prefix.<name> = mean of each series (or last - first where @is_counter says so) */
static int set_metrics(const struct series_set *set, const char *prefix,
		       bool (*is_counter)(const char *), struct kv_list *out)
{
	char key[300];
	int ret = 0;

	for (size_t i = 0; !ret && i < set->nr; i++) {
		const struct series *s = &set->s[i];

		snprintf(key, sizeof(key), "%s.%s", prefix, s->name);
		ret = kv_list_set(out, key, is_counter && is_counter(s->name) ?
					       s->last - s->first : s->sum / (double)s->n);
	}
	return ret;
}

static double mean(const struct series *s)
{
	return s->n ? s->sum / (double)s->n : 0;
}

int monitor_metrics(const struct monitor *m, struct kv_list *out)
{
	char key[200];
	int ret = 0;

	for (size_t i = 0; !ret && i < m->vmstat.nr; i++) {
		const struct series *s = &m->vmstat.s[i];

		snprintf(key, sizeof(key), "proc-vmstat.%s", s->name);
		ret = kv_list_set(out, key, vmstat_is_counter(s->name) ? s->last - s->first
									   : mean(s));
	}
	for (size_t i = 0; !ret && i < m->meminfo.nr; i++) {
		const struct series *s = &m->meminfo.s[i];

		snprintf(key, sizeof(key), "meminfo.%s", s->name);
		ret = kv_list_set(out, key, mean(s));
		if (!ret && !strcmp(s->name, "Memused"))
			ret = kv_list_set(out, "meminfo.max_used_kB", s->max);
	}
	for (size_t i = 0; !ret && i < m->rates.nr; i++)
		ret = kv_list_set(out, m->rates.s[i].name, mean(&m->rates.s[i]));
	if (!ret)
		ret = set_metrics(&m->numa_vmstat, "numa-vmstat", numa_vmstat_is_counter, out);
	if (!ret)
		ret = set_metrics(&m->numa_meminfo, "numa-meminfo", NULL, out);
	for (size_t i = 0; !ret && i < m->sched.nr; i++)	/* keys are complete */
		ret = kv_list_set(out, m->sched.s[i].name, mean(&m->sched.s[i]));
	if (!ret && !access(LATENCY_STATS, R_OK)) {
		char *text = NULL;
		size_t len;

		if (!read_whole_file(LATENCY_STATS, 16 << 20, &text, &len))
			ret = latency_stats_parse(text, out);
		free(text);
	}
	return ret;
}

void monitor_free(struct monitor *m)
{
	if (!m)
		return;
	series_release(&m->vmstat);
	series_release(&m->meminfo);
	series_release(&m->rates);
	series_release(&m->numa_vmstat);
	series_release(&m->numa_meminfo);
	series_release(&m->sched);
	free(m);
}
