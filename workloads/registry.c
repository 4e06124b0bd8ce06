// SPDX-License-Identifier: GPL-2.0
/*
 * registry.c - the table of built-in workloads and the family-independent entry points:
 * lookup, defaults, prepare / run / cleanup, log parsing.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "workloads/wl-int.h"

#define VMS	"vm-scalability"
#define T	WL_UM_THREADS
#define PA	WL_UM_PREALLOC
#define PF	WL_UM_PREFAULT
#define R	WL_UM_RANDOM
#define RO	WL_UM_READONLY
#define H	WL_UM_HUGETLB

#define USEMEM(n, f, sz, lkp, what) \
	{ .name = n, .family = VMS, .kind = WL_USEMEM, .um_flags = f, .sizing = sz, \
	  .lkp_size = lkp, .summary = what }
#define AIM9(n, fn, arg, factor, units, what) \
	{ .name = n, .family = "aim9", .kind = WL_AIM9, .aim9_test = fn, .aim9_arg = arg, \
	  .aim9_factor = factor, .aim9_units = units, .summary = what }

static const struct workload workloads[] = {
	USEMEM("anon-cow-rand", PA | PF | R, WL_SZ_PER_TASK_COW, true,
	       "N processes, random writes to an inherited prefaulted region: COW faults"),
	USEMEM("anon-cow-rand-hugetlb", PA | PF | R | H, WL_SZ_PER_TASK_COW, true,
	       "as anon-cow-rand on 2 MiB hugetlb pages: hugetlb_wp copy path"),
	USEMEM("anon-cow-seq", PA | PF, WL_SZ_PER_TASK_COW, true,
	       "N processes, sequential writes to an inherited prefaulted region: COW faults"),
	USEMEM("anon-cow-seq-hugetlb", PA | PF | H, WL_SZ_PER_TASK_COW, true,
	       "as anon-cow-seq on 2 MiB hugetlb pages: hugetlb_wp copy path"),
	USEMEM("anon-r-seq", RO, WL_SZ_PER_TASK, false,
	       "N processes read their own read-only mapping: zero-page read faults"),
	USEMEM("anon-r-seq-mt", T | RO, WL_SZ_PER_TASK, false,
	       "N threads read their own read-only mappings: zero-page faults, shared mm"),
	USEMEM("anon-w-rand", R, WL_SZ_PER_TASK, true,
	       "N processes, random writes to their own mapping: anonymous faults"),
	USEMEM("anon-w-rand-hugetlb", R | H, WL_SZ_PER_TASK, true,
	       "N processes, random writes to hugetlb mappings: hugetlb faults"),
	USEMEM("anon-w-rand-mt", T | R, WL_SZ_PER_TASK, true,
	       "N threads, random writes to their own mappings in one mm"),
	USEMEM("anon-w-seq", 0, WL_SZ_PER_TASK, true,
	       "N processes, sequential writes to their own mapping: anonymous fault path"),
	USEMEM("anon-w-seq-hugetlb", H, WL_SZ_PER_TASK, true,
	       "N processes, sequential writes to hugetlb mappings: hugetlb fault path"),
	USEMEM("anon-w-seq-mt", T, WL_SZ_PER_TASK, true,
	       "N threads, sequential writes to their own mappings in one mm"),
	USEMEM("anon-wx-rand-mt", T | PA | R, WL_SZ_SHARED_PER_TASK, true,
	       "N threads, random writes to ONE preallocated region of U/N"),
	USEMEM("anon-wx-seq-mt", T | PA, WL_SZ_SHARED_ALL, true,
	       "N threads, sequential writes to ONE preallocated region of U"),
	AIM9("brk_test", aim9_brk_test, 1000, 17000, "System Memory Allocations",
	     "AIM9: grow/shrink the heap with brk (VMA expand/munmap, no faults)"),
	AIM9("exec_test", aim9_exec_test, 5, 5, "Program Loads",
	     "AIM9: fork + exec of a tiny program"),
	AIM9("fork_test", aim9_fork_test, 100, 100, "Task Creations",
	     "AIM9: fork + exit + wait"),
	AIM9("page_test", aim9_page_test, 100, 1700, "System Allocations & Pages",
	     "AIM9: brk_test that touches each new page (anonymous faults, unmap)"),
	{ .name = "truncate", .family = VMS, .kind = WL_TRUNCATE, .lkp_size = true,
	  .summary = "read N sparse files into page cache, unlink them concurrently: "
		     "truncate_inode_pages_range" },
	{ .name = "truncate-seq", .family = VMS, .kind = WL_TRUNCATE, .lkp_size = true,
	  .truncate_seq = true,
	  .summary = "timed read of N sparse files, then one sequential rm of them all" },
};

#define NR_WORKLOADS	(sizeof(workloads) / sizeof(workloads[0]))

/* Defaults sized for a small machine: a default run takes seconds (docs/workloads.md). */
#define DEFAULT_UNIT		(256 * WL_MIB)
#define DEFAULT_TRUNC_UNIT	(512 * WL_MIB)
#define DEFAULT_REPEAT		3
#define DEFAULT_RUNTIME		10
#define DEFAULT_TESTTIME	5

const struct workload *workload_find(const char *name)
{
	for (size_t i = 0; i < NR_WORKLOADS; i++)
		if (!strcmp(workloads[i].name, name))
			return &workloads[i];
	return NULL;
}

const struct workload *workload_next(const struct workload *prev)
{
	if (!prev)
		return &workloads[0];
	if (prev + 1 >= workloads + NR_WORKLOADS)
		return NULL;
	return prev + 1;
}

const char *workload_name(const struct workload *w)
{
	return w->name;
}

const char *workload_family(const struct workload *w)
{
	return w->family;
}

const char *workload_summary(const struct workload *w)
{
	return w->summary;
}

const char *workload_main_metric(const struct workload *w, char *buf, size_t len)
{
	if (w->kind == WL_AIM9)
		snprintf(buf, len, "aim9.%s.ops_per_sec", w->name);
	else
		snprintf(buf, len, "%s.throughput", w->family);
	return buf;
}

bool workload_needs_root(const struct workload *w)
{
	return w->kind == WL_TRUNCATE || (w->um_flags & WL_UM_HUGETLB);
}

int workload_resolve(const struct workload *w, struct wl_params *p, char *err, size_t errlen)
{
	if (w->kind == WL_AIM9) {
		if (!(p->set & WL_P_RUNTIME))
			p->runtime = DEFAULT_TESTTIME;
		if (p->set & ~(WL_P_RUNTIME))
			return err_set(err, errlen, -EINVAL,
				       "%s: aim9 tests take only testtime (runtime)", w->name);
		return 0;
	}
	if (!(p->set & WL_P_NR_TASK))
		p->nr_task = wl_online_cpus();
	if (!(p->set & WL_P_UNIT_SIZE))
		p->unit_size = w->kind == WL_TRUNCATE ? DEFAULT_TRUNC_UNIT : DEFAULT_UNIT;
	if (!(p->set & WL_P_SIZE))
		p->size = w->lkp_size ? DEFAULT_REPEAT * p->unit_size : 0;
	if (!(p->set & WL_P_RUNTIME))
		p->runtime = DEFAULT_RUNTIME;
	if (p->nr_task < 1 || p->nr_task > 4096)
		return err_set(err, errlen, -EINVAL, "nr_task=%ld: must be 1..4096", p->nr_task);
	if (p->unit_size / (uint64_t)(p->nr_task + 1) < 4096)
		return err_set(err, errlen, -EINVAL, "unit_size=%llu: too small for %ld tasks "
			       "(at least a page each)", (unsigned long long)p->unit_size,
			       p->nr_task);
	if ((p->set & WL_P_THP) && (w->kind == WL_TRUNCATE || (w->um_flags & WL_UM_HUGETLB)))
		return err_set(err, errlen, -EINVAL, "%s: thp= does not apply", w->name);
	return 0;
}

int workload_prepare(const struct workload *w, const struct wl_params *p, struct wl_env **out,
		     char *err, size_t errlen)
{
	struct wl_env *env;
	int ret;

	*out = NULL;
	if (!workload_needs_root(w))
		return 0;
	env = calloc(1, sizeof(*env));
	if (!env)
		return -ENOMEM;
	env->hp_lock = -1;
	ret = vmscal_prepare(w, p, env, err, errlen);
	if (ret) {
		free(env);
		return ret;
	}
	*out = env;
	return 0;
}

int workload_cleanup(struct wl_env *env, char *err, size_t errlen)
{
	int ret, ret2;

	if (!env)
		return 0;
	ret = wl_loopfs_teardown(env, err, errlen);
	ret2 = wl_hugetlb_restore(env, ret ? NULL : err, errlen);
	free(env);
	return ret ? ret : ret2;
}

int workload_run(const struct workload *w, const struct wl_params *p, const struct wl_env *env,
		 FILE *log, char *err, size_t errlen)
{
	if (w->kind == WL_AIM9)
		return aim9_run(w, p, log, err, errlen);
	return vmscal_run(w, p, env, log, err, errlen);
}

int workload_parse_log(const struct workload *w, const char *text, size_t len,
		       struct wl_metrics *m)
{
	struct wl_metrics raw = { 0 };
	char key[256];
	int ret;

	ret = w->kind == WL_AIM9 ? aim9_parse(text, len, &raw) : vmscal_parse(text, len, &raw);
	for (size_t i = 0; !ret && i < raw.nr; i++) {
		snprintf(key, sizeof(key), "%s.%s", w->family, raw.v[i].key);
		ret = wl_metrics_set(m, key, raw.v[i].value);
	}
	wl_metrics_release(&raw);
	return ret;
}
