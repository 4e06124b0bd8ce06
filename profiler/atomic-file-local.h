/* SPDX-License-Identifier: GPL-2.0 */
/*
 * atomic-file-local.h - output files that appear whole or not at all.
 *
 * Every file kprof writes for the user goes through write_file_atomic() (perf.data through
 * atomic_tmp_create(), as perf-write.c renames it itself), so an error, a full disk or Ctrl-C
 * never leaves a half-written file in place of a good one, and a symlink planted where the
 * temporary goes is never followed: root running kprof in a shared directory overwrites nothing.
 */
#ifndef KPROF_ATOMIC_FILE_LOCAL_H
#define KPROF_ATOMIC_FILE_LOCAL_H

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
 */
int atomic_tmp_create(const char *path, char **tmp);

#endif
