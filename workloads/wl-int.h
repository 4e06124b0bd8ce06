/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wl-int.h - internals shared by the workload families and the registry.
 */
#ifndef KPROF_WL_INT_H
#define KPROF_WL_INT_H

#include <stdarg.h>
#include <sys/time.h>

#include "profiler/lib/lib.h"
#include "workloads/workloads.h"

#define WL_MIB		(1ULL << 20)
#define WL_HPAGE_SIZE	(2ULL << 20)		/* MAP_HUGE_2MB, as usemem -U */
#define WL_HUGETLB_LOCK	"/dev/shm/kprof-hugetlb.lock"	/* serialises hugetlb cases */

enum wl_kind {
	WL_USEMEM,	/* a vm-scalability case-* script that runs usemem */
	WL_TRUNCATE,	/* case-truncate / case-truncate-seq */
	WL_AIM9,	/* one AIM Suite IX test */
};

/* How a case script turns unit_size U and nr_task N into usemem's size argument. */
enum wl_sizing {
	WL_SZ_PER_TASK,		/* U / N */
	WL_SZ_PER_TASK_COW,	/* U / (N + 1): parent and children each hold a copy */
	WL_SZ_SHARED_ALL,	/* U, one region shared by all threads */
	WL_SZ_SHARED_PER_TASK,	/* U / N, one region shared by all threads */
};

enum wl_usemem_flags {
	WL_UM_THREADS	= 1 << 0,	/* -t N: N threads in one process, else -n */
	WL_UM_PREALLOC	= 1 << 1,	/* --prealloc */
	WL_UM_PREFAULT	= 1 << 2,	/* --prefault */
	WL_UM_RANDOM	= 1 << 3,	/* --random */
	WL_UM_READONLY	= 1 << 4,	/* --readonly */
	WL_UM_HUGETLB	= 1 << 5,	/* -O -U: anonymous MAP_HUGETLB */
};

typedef int (*aim9_fn)(long arg);

struct workload {
	const char	*name;
	const char	*family;
	enum wl_kind	kind;
	const char	*summary;	/* one line: what it does, what it stresses */
	/* vm-scalability */
	unsigned int	um_flags;	/* enum wl_usemem_flags */
	enum wl_sizing	sizing;
	bool		lkp_size;	/* the LKP job gives a size (the case repeats) */
	bool		truncate_seq;	/* truncate-seq: timed read, one sequential rm */
	/* aim9 */
	aim9_fn		aim9_test;
	long		aim9_arg;	/* register_test()'s argument */
	long		aim9_factor;	/* operations per call */
	const char	*aim9_units;
};

/* ---- usemem engine (usemem.c) ---------------------------------------------------------- */

struct usemem_opts {
	uint64_t	bytes;		/* the size argument (per worker or shared) */
	unsigned int	nr_task;	/* -n (processes); 0 = 1 */
	unsigned int	nr_thread;	/* -t (threads per process); 0 = none */
	unsigned int	flags;		/* enum wl_usemem_flags */
	unsigned int	runtime;	/* --runtime seconds */
	unsigned int	repeat;		/* --repeat passes; 0 = 1 */
	enum wl_thp	thp;
	bool		seed_set;	/* seed + worker index instead of time(0) ^ tid */
	uint64_t	seed;
};

/* Run usemem with @o in this process; worker lines go to @log. 0 / -errno (a worker failed). */
int usemem_run(const struct usemem_opts *o, FILE *log, char *err, size_t errlen);

/* ---- system state (sysstate.c) --------------------------------------------------------- */

struct wl_env {
	/* hugetlb: nr_overcommit_hugepages saved before the case changed it */
	char		hp_path[128];
	long		hp_old;
	bool		hp_saved;
	int		hp_lock;	/* flock'ed WL_HUGETLB_LOCK while reserved, or -1 */
	/* truncate: loop-mounted filesystem image in tmpfs */
	char		image[256];
	char		mnt[256];
	bool		mounted;
};

int wl_hugetlb_reserve(struct wl_env *env, long nr_pages, char *err, size_t errlen);
int wl_hugetlb_restore(struct wl_env *env, char *err, size_t errlen);
int wl_loopfs_setup(struct wl_env *env, uint64_t bytes, char *err, size_t errlen);
int wl_loopfs_teardown(struct wl_env *env, char *err, size_t errlen);

/* ---- families --------------------------------------------------------------------------- */

int vmscal_run(const struct workload *w, const struct wl_params *p, const struct wl_env *env,
	       FILE *log, char *err, size_t errlen);
int vmscal_prepare(const struct workload *w, const struct wl_params *p, struct wl_env *env,
		   char *err, size_t errlen);
int aim9_run(const struct workload *w, const struct wl_params *p, FILE *log, char *err,
	     size_t errlen);
int aim9_brk_test(long arg);
int aim9_page_test(long arg);
int aim9_fork_test(long arg);
int aim9_exec_test(long arg);

/* ---- helpers (util.c) ------------------------------------------------------------------ */

/* Write the whole buffer to @fd (one write() unless it is short). 0 / -errno. */
int wl_write_all(int fd, const char *buf, size_t len);
/* printf() the line with a single write() to the log's descriptor (lines never interleave). */
int wl_log_line(FILE *log, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* LKP's log_test echo: "<YYYY-mm-dd HH:MM:SS>  <text>". */
int wl_log_test(FILE *log, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
uint64_t wl_now_us(void);		/* gettimeofday() in microseconds */
long wl_online_cpus(void);
uint64_t wl_meminfo_kb(const char *field);	/* 0 when absent */
/* Read/write a small integer sysfs/procfs file. 0 / -errno. */
int wl_read_long(const char *path, long *v);
int wl_write_long(const char *path, long v);
/* fork + execvp @argv with stdout/stderr to /dev/null, wait. Exit status, or -errno. */
int wl_spawn_wait(char *const argv[]);

#endif
