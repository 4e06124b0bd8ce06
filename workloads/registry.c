// SPDX-License-Identifier: GPL-2.0
/*
 * registry.c - the table of built-in workloads and the family-independent entry points:
 * lookup, defaults, prepare / run / cleanup, log parsing.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
	USEMEM("anon-cow-rand-mt", T | PA | PF | R, WL_SZ_SHARED_ALL, true,
	       "N threads, random writes to ONE prefaulted region in one mm: no COW at all"),
	USEMEM("anon-cow-seq", PA | PF, WL_SZ_PER_TASK_COW, true,
	       "N processes, sequential writes to an inherited prefaulted region: COW faults"),
	USEMEM("anon-cow-seq-hugetlb", PA | PF | H, WL_SZ_PER_TASK_COW, true,
	       "as anon-cow-seq on 2 MiB hugetlb pages: hugetlb_wp copy path"),
	USEMEM("anon-cow-seq-mt", T | PA | PF, WL_SZ_SHARED_ALL, true,
	       "N threads, sequential writes to ONE prefaulted region in one mm: no COW at all"),
	USEMEM("anon-r-rand", RO | R, WL_SZ_ROTATE_PER_TASK, false,
	       "N processes, random reads of their own read-only mapping: zero-page faults"),
	USEMEM("anon-r-rand-mt", T | RO | R, WL_SZ_ROTATE_PER_TASK, false,
	       "N threads, random reads of their own read-only mappings in one mm"),
	USEMEM("anon-r-seq", RO, WL_SZ_PTE_PER_TASK, false,
	       "N processes read their own read-only mapping: zero-page read faults"),
	USEMEM("anon-r-seq-mt", T | RO, WL_SZ_PTE_MT, false,
	       "N threads read their own read-only mappings: zero-page faults, shared mm"),
	USEMEM("anon-rx-rand-mt", T | PA | RO | R, WL_SZ_ROTATE_PER_TASK, false,
	       "N threads, random reads of ONE read-only region mapped before them"),
	USEMEM("anon-rx-seq-mt", T | PA | RO, WL_SZ_ROTATE_ALL, false,
	       "N threads, sequential reads of ONE read-only region mapped before them"),
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
#define DEFAULT_TRUNC_UNIT	(2048 * WL_MIB)
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

bool wl_sized_from_memory(const struct workload *w)
{
	return w->sizing == WL_SZ_PTE_PER_TASK || w->sizing == WL_SZ_PTE_MT ||
	       w->sizing == WL_SZ_ROTATE_PER_TASK || w->sizing == WL_SZ_ROTATE_ALL;
}

bool workload_needs_root(const struct workload *w)
{
	return w->kind == WL_TRUNCATE || (w->um_flags & WL_UM_HUGETLB);
}

int workload_resolve(const struct workload *w, struct wl_params *p, char *err, size_t errlen)
{
	if (w->kind == WL_AIM9) {
		const bool brk = w->aim9_test == aim9_brk_test || w->aim9_test == aim9_page_test;

		if (!(p->set & WL_P_RUNTIME))
			p->runtime = DEFAULT_TESTTIME;
		if (p->set & ~(WL_P_RUNTIME | (brk ? WL_P_LKP_COMPAT : 0)))
			return err_set(err, errlen, -EINVAL, "%s: takes only testtime (runtime)%s",
				       w->name, brk ? " and lkp_compat" : "");
		return 0;
	}
	if ((p->set & WL_P_LKP_COMPAT))
		return err_set(err, errlen, -EINVAL, "%s: lkp_compat= is for brk_test and "
			       "page_test", w->name);
	if ((p->set & WL_P_FS) && w->kind != WL_TRUNCATE)
		return err_set(err, errlen, -EINVAL, "%s: fs= is for the truncate cases", w->name);
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
	char note[256] = "";
	int ret;

	*out = NULL;
	if (err && errlen)
		err[0] = '\0';
	if (w->kind == WL_AIM9)
		return 0;
	env = calloc(1, sizeof(*env));
	if (!env)
		return -ENOMEM;
	env->hp_lock = -1;
	env->state_fd = -1;
	ret = wl_sysctl_apply(env, note, sizeof(note));	/* not root: only a note */
	if (ret) {
		free(env);
		return err_set(err, errlen, ret, "%s", note);
	}
	ret = vmscal_prepare(w, p, env, err, errlen);
	if (ret) {
		wl_sysctl_restore(env, NULL, 0);
		if (env->state_fd >= 0)
			close(env->state_fd);	/* left for workload_recover() */
		free(env);
		return ret;
	}
	if (note[0])
		err_set(err, errlen, 0, "%s", note);
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
	if (!ret)
		ret = ret2;
	ret2 = wl_sysctl_restore(env, ret ? NULL : err, errlen);
	if (env->state_fd >= 0)
		close(env->state_fd);	/* something is left: for workload_recover() */
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
