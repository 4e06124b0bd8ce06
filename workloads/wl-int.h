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
/* Root's own directory (state.c): state files of live runs, and the hugetlb lock. */
#define WL_STATE_DIR	"/run/kprof"
#define WL_HUGETLB_LOCK	WL_STATE_DIR "/hugetlb.lock"	/* serialises hugetlb cases */
/* The truncate cases' mount point and image: these prefixes + mkstemp's XXXXXX. */
#define WL_TRUNCATE_MNT_PREFIX		"/tmp/kprof-truncate-"
#define WL_TRUNCATE_IMAGE_PREFIX	"/dev/shm/kprof-truncate-"

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
	/* Sized from this machine's memory unless unit_size is given (then as PER_TASK / ALL): */
	WL_SZ_PTE_PER_TASK,	/* anon-r-seq: min(PTE_LIMIT / N, AS_LIMIT) */
	WL_SZ_PTE_MT,		/* anon-r-seq-mt: min(PTE_LIMIT, AS_LIMIT) / N */
	WL_SZ_ROTATE_PER_TASK,	/* ROTATE_BYTES / N (own or one shared region) */
	WL_SZ_ROTATE_ALL,	/* ROTATE_BYTES, one region shared by all threads */
};

/* hw_vars: AS_LIMIT = 1 << 46, PTE_LIMIT = MemAvailable << 8, ROTATE = min(1 << 42, PTE_LIMIT) */
#define WL_AS_LIMIT	(1ULL << 46)
#define WL_ROTATE_MAX	(1ULL << 42)

/* True when the case sizes itself from MemAvailable (unit_size only overrides it). */
bool wl_sized_from_memory(const struct workload *w);

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
	uint64_t	step;		/* -j: bytes from one access to the next; < 8 = 8 */
	uint64_t	delay_ns;	/* -e: ns spent re-accessing each newly reached page */
};

/* usemem's command line (without the program name) from @o, and back. 0 / -errno. */
int usemem_format_args(const struct usemem_opts *o, char *buf, size_t len);
int usemem_parse_args(int argc, char **argv, struct usemem_opts *o, char *err, size_t errlen);

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
	/* LKP's harness sysctls, set by the first overlapping run and restored by the last */
	bool		sysctl_held;
	/* state.c: the state file (flock'ed) while something above needs undoing, or -1 */
	int		state_fd;
	char		state_path[64];
};

#define WL_NR_SYSCTL	3
/*
 * Set overcommit_memory=1, max_map_count=2^30, threads-max=2^20 (programs/vm-scalability/run).
 * Not root: 0 with a note in @err, nothing changed.
 */
int wl_sysctl_apply(struct wl_env *env, char *err, size_t errlen);
int wl_sysctl_restore(struct wl_env *env, char *err, size_t errlen);
/* The state file @dead held the sysctls and its kprof died: restore them unless others hold. */
int wl_sysctl_recover(const char *dead, char *err, size_t errlen);
/* How many live kprofs hold the sysctls (their state files say so and are locked), other than
 * this process and the state file named @skip (NULL: none). */
int wl_sysctl_holders(const char *skip);

int wl_hugetlb_reserve(struct wl_env *env, long nr_pages, char *err, size_t errlen);
int wl_hugetlb_restore(struct wl_env *env, char *err, size_t errlen);
int wl_loopfs_setup(struct wl_env *env, uint64_t bytes, enum wl_fs fs, char *err,
		    size_t errlen);
int wl_loopfs_teardown(struct wl_env *env, char *err, size_t errlen);
/* flock WL_HUGETLB_LOCK (waiting unless @nonblock: then -EWOULDBLOCK when held); unlock. */
int wl_hugetlb_lock(struct wl_env *env, bool nonblock, char *err, size_t errlen);
void wl_hugetlb_unlock(struct wl_env *env);

/* ---- state file (state.c) -------------------------------------------------------------- */

/* WL_STATE_DIR, created when missing; -EPERM unless a directory of root's alone. */
int wl_state_dir(char *err, size_t errlen);
/* Rewrite the state file from @env (created on first need, removed when nothing is left). */
int wl_state_sync(struct wl_env *env, char *err, size_t errlen);

/* ---- families --------------------------------------------------------------------------- */

int vmscal_run(const struct workload *w, const struct wl_params *p, const struct wl_env *env,
	       FILE *log, char *err, size_t errlen);
int vmscal_prepare(const struct workload *w, const struct wl_params *p, struct wl_env *env,
		   char *err, size_t errlen);
int aim9_run(const struct workload *w, const struct wl_params *p, FILE *log, char *err,
	     size_t errlen);
int aim9_brk_test(long arg);
/* brk_test's and page_test's sbrk(-4096 * 16) as LKP's binary (@lkp_compat) or the source means */
intptr_t aim9_brk_shrink(bool lkp_compat);
int aim9_page_test(long arg);
int aim9_fork_test(long arg);
int aim9_exec_test(long arg);

/* ---- the workload programs (exec.c) ------------------------------------------------------ */

/* Where the helper programs are (usemem, true): the program's own directory; NULL in-process. */
const char *wl_runner_bindir(void);
int wl_runner_set_bindir(const char *dir);	/* NULL: in-process */
/* Tell the controller about a phase ('p' pause the profile, 'r' resume) and wait for its
 * answer; nothing without a controller. 0 / -errno. */
int wl_phase(char what);

const char *wl_thp_name(enum wl_thp thp);
const char *wl_fs_name(enum wl_fs fs);

/* ---- helpers (util.c) ------------------------------------------------------------------ */

/*
 * In a child just forked: SIGKILL when the parent dies, however it dies (kill -9 of kprof
 * leaves no worker running on). The race with a parent that died already is closed too.
 */
void wl_die_with_parent(void);
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
