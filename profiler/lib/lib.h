/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lib.h - the helpers every module may use: messages and progress, error buffers, atomic
 * output files, whole-file reads, growable arrays and zeroed tables. Depends on libc only.
 *
 * Not thread-safe where noted (the log and progress state are process-wide, used by the main
 * thread only); the memory and file helpers are reentrant. Pointers are not NULL-safe unless
 * noted.
 *
 * ---- Messages and progress (log.c) ----
 *
 * Only profiler/ prints. Errors and warnings go to stderr as one line, lower case, naming the
 * subject first ("kprof: perf.data: truncated record at offset 4096"). Progress is drawn on stderr
 * only when stderr is a terminal, so piped and CI output stays quiet.
 */
#ifndef KPROF_LIB_H
#define KPROF_LIB_H

#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>

enum log_level { LOG_ERR, LOG_WARN, LOG_INFO, LOG_DEBUG };

/* Messages up to and including this level are printed; -v raises it, -q lowers it. */
extern enum log_level log_verbosity;

void log_msg(enum log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * Format a one-line error into @err (when @err is non-NULL and @errlen non-zero) and return
 * @ret, so that library-style code in profiler/ can say why it failed without printing:
 * "return err_set(err, errlen, -EINVAL, "%s: truncated record", path);".
 */
int err_set(char *err, size_t errlen, int ret, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#define pr_err(...)	log_msg(LOG_ERR, __VA_ARGS__)
#define pr_warn(...)	log_msg(LOG_WARN, __VA_ARGS__)
#define pr_info(...)	log_msg(LOG_INFO, __VA_ARGS__)
#define pr_debug(...)	log_msg(LOG_DEBUG, __VA_ARGS__)

/*
 * Progress line on a TTY: progress_update() redraws "\r<text>" at most ~10 times a second;
 * progress_done() erases it. Both are no-ops when stderr is not a terminal.
 */
void progress_update(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void progress_done(void);


/*
 * Output files that appear whole or not at all.
 *
 * Every file kprof writes for the user goes through write_file_atomic() (perf.data through
 * atomic_tmp_create(), as perf-write.c renames it itself), so an error, a full disk or Ctrl-C
 * never leaves a half-written file in place of a good one, and a symlink planted where the
 * temporary goes is never followed: root running kprof in a shared directory overwrites nothing.
 */

#include <stdio.h>

typedef int (*write_file_fn)(FILE *fp, void *arg);

/*
 * Have @fn write the contents of @path into a temporary file next to it (same directory, so the
 * rename is atomic; mode 0644 less the umask, like any file the user creates). Only when @fn,
 * the flush and the close all succeed is it renamed over @path; otherwise it is removed.
 * @fn returns 0 or a negative errno. Returns 0 or a negative errno.
 */
int write_file_atomic(const char *path, write_file_fn fn, void *arg);

/*
 * The temporary file itself, for writers that rename it themselves (perf-write.c): a new file
 * "<path>.tmp.XXXXXX" created with O_EXCL (so never through a symlink, never an existing file),
 * mode 0644 less the umask. Returns the fd (O_CLOEXEC) and *@tmp (malloc'd), or -errno.
 * An existing @path that is not a regular file (/dev/null, a FIFO, a terminal) is opened
 * itself, read-write when it can be, and *@tmp is NULL: nothing to rename or remove.
 * write_file_atomic() does the same.
 */
int atomic_tmp_create(const char *path, char **tmp);

/* ---- whole files (file.c) ------------------------------------------------------------------ */

/*
 * All of @fd (to end of file), or of the file at @path, in a malloc'd NUL-terminated buffer
 * (*@out, *@len bytes without the NUL; /proc files included). @max: -EFBIG beyond that many
 * bytes (0: no limit). 0 or -errno; nothing to free on error.
 */
int read_whole_fd(int fd, size_t max, char **out, size_t *len);
int read_whole_file(const char *path, size_t max, char **out, size_t *len);
/* read_whole_fd() of text: -EMSGSIZE as soon as a line is longer than @max_line bytes. */
int read_whole_text_fd(int fd, size_t max_line, char **out, size_t *len);

/*
 * Open @path for reading when it is a regular file (or /proc's and sysfs's, which are), else
 * -EINVAL. For paths a recording names (a mapped file, a JIT map, a kernel module), which
 * anyone can make a FIFO or a device: a FIFO's open() waits for a writer forever and a
 * device's read never ends. Opened without waiting (O_NONBLOCK, which changes nothing for a
 * regular file), then checked on the descriptor itself, so nothing can swap the file between
 * the check and the open. A descriptor (O_CLOEXEC) or -errno.
 */
int open_regular(const char *path);
/* read_whole_file() of a regular file only (open_regular()). */
int read_whole_regular_file(const char *path, size_t max, char **out, size_t *len);

/* ---- memory (mem.c) ------------------------------------------------------------------------- */

/*
 * A zeroed array for a hash table, its pages written now: calloc's fresh pages would map the
 * shared zero page at the first probe and copy it at the first insert, a second fault per page
 * (and a TLB shootdown of every CPU once the process has threads). NULL on ENOMEM/overflow.
 */
void *zalloc_table(size_t n, size_t size);
/*
 * Grow an array to hold @need elements of @elem bytes (doubling, at least 64). The (possibly
 * moved) array, or NULL with the old one intact on ENOMEM/overflow. A NULL @p gets room even
 * when @need is 0.
 */
void *grow_array(void *p, size_t *alloc, size_t need, size_t elem);

/*
 * Set up this process's malloc heap for reading a whole profile (heap.c): one arena, big blocks
 * from the heap and kept there once freed, and @reserve bytes of it advised onto transparent
 * huge pages, so that memory faults in 2 MiB at a time instead of 4 KiB. Call it before any
 * thread starts. The heap's memory then starts on a 2 MiB boundary (the head before it is left
 * unused), and a detached thread, which lives as long as the process, faults it in a few MiB
 * ahead of malloc's top (outside malloc's lock). The bytes advised from there; 0 when malloc
 * is not glibc's brk heap (ASan, valgrind); -errno when madvise() refused (the malloc options
 * are set all the same).
 */
long heap_on_huge_pages(size_t reserve);

/* ---- threads (thread.c) ------------------------------------------------------------------ */

/*
 * Name the calling thread (15 bytes kept), so that `top -H`, `perf report --sort comm` and
 * `perf sched timehist` tell kprof's threads apart: "kprof-name" names user frames,
 * "kprof-add" kernel frames and the call graphs, "kprof-kallsyms", "kprof-elf", "kprof-heap"
 * load and fault in ahead. NULL: nothing.
 */
void thread_name(const char *name);

/*
 * pthread_create() of @fn(@arg) (default attributes, joinable), the thread started on another
 * CPU than the calling thread's and then allowed the caller's CPUs again: for work split in two
 * when nothing else runs. Measured on a 2-vCPU VM: a new thread was woken on its creator's CPU,
 * and the two took turns there in 4 ms slices while the other CPU idled. Where the caller may
 * run on one CPU only, the thread starts wherever the scheduler puts it. 0 or -errno (nothing
 * started).
 */
int thread_create_elsewhere(pthread_t *t, void *(*fn)(void *arg), void *arg);
/* In such a thread: the CPUs it was allowed when it started (true); elsewhere false. */
bool thread_started_on(cpu_set_t *cpus);

/* ---- kernel module names (lib/kmod-name.c) ------------------------------------------------ */

/*
 * perf's short name of a kernel module file (kmod_path__parse_name): "[ext4]" for
 * "/lib/modules/R/kernel/fs/ext4/ext4.ko.xz" (the .ko, .ko.gz, .ko.xz or .ko.zst suffix cut,
 * '-' made '_', cut to @size - 1 bytes), or a copy of @path when it is "[…]" already (the
 * caller tells "[kernel.kallsyms]" and "[vdso]" apart). False, and @buf unchanged, for any other
 * name. @size at least 3.
 */
bool kmod_short_name(const char *path, char *buf, size_t size);

/* ---- key -> number lists (metrics, keys; lib/kv.c) --------------------------------------- */

struct kv {
	char	*key;		/* owned by the list */
	double	value;
};

struct kv_list {
	struct kv	*items;
	size_t		nr, alloc;
};

/* Append (a key may then appear twice: the fast path for lists built once). 0 / -errno. */
int kv_list_add(struct kv_list *l, const char *key, double value);
/* Overwrite @key's value, or append it. 0 / -ENOMEM. */
int kv_list_set(struct kv_list *l, const char *key, double value);
/* The value of @key (the first), or NULL. The pointer lives until the list changes. */
const double *kv_list_get(const struct kv_list *l, const char *key);
void kv_list_sort(struct kv_list *l);			/* bytewise by key */
void kv_list_release(struct kv_list *l);		/* frees items; the list is reusable */

#endif
